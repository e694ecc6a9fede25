// A span of kernel source that every IR object and morphism carries.
#pragma once

#include <cstdint>
#include <tuple>

namespace polydat::ir {

// Half-open byte range [start, end) in file `file`, plus the 1-based line and
// column of `start` so that later stages can name a source line without the text.
// line == 0 means "no position" (synthesized by a test or a pass).
struct SourceLoc {
  uint32_t file = 0;
  uint32_t start = 0;
  uint32_t end = 0;
  uint32_t line = 0;
  uint32_t col = 0;

  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

// The tie-break key of topological order: source position, not construction order.
inline auto position_key(const SourceLoc& l) { return std::tuple(l.file, l.start, l.end); }

}  // namespace polydat::ir
