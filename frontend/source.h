// Source files and positions: every diagnostic points into one of these.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/source_loc.h"

namespace polydat::frontend {

// The file index of a message about no place in any file (a caller's option): rendered without a location.
inline constexpr uint32_t kNoFile = UINT32_MAX;

// A half-open byte range [start, end) of one file.
struct Span {
  uint32_t file = 0;
  uint32_t start = 0;
  uint32_t end = 0;
};

struct SourceFile {
  std::string path;   // as given (shown in diagnostics)
  std::string text;
  std::vector<uint32_t> line_starts;  // byte offset of each line's first character

  SourceFile(std::string path, std::string text);
  // 1-based line and column (in bytes) of an offset.
  std::pair<uint32_t, uint32_t> line_col(uint32_t offset) const;
  // The text of a 1-based line, without its newline.
  std::string_view line_text(uint32_t line) const;
};

// Every file a compilation reads, by index; spans name files by index.
class SourceMap {
 public:
  uint32_t add(std::string path, std::string text);
  const SourceFile& file(uint32_t index) const { return *files_.at(index); }
  size_t size() const { return files_.size(); }
  // The IR's location for a span (file index, bytes, line and column).
  ir::SourceLoc loc(Span s) const;

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;  // stable addresses
};

}  // namespace polydat::frontend
