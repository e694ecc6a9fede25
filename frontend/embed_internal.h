// Internal to frontend/: what the embedding API's files (embed*.cc) share: where the user's text sits
// in the compiled file, and compiler diagnostics and interpreter errors as EmbeddingErrors.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/embed.h"
#include "frontend/program.h"
#include "ir/interp.h"

namespace polydat::embed::internal {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Where the user's text sits in the compiled file: `prefix` bytes of wrapper
// come first, and the first `skipped` bytes of the user's text (leading
// blanks) were left out. Positions in other files (modules) are not the user's.
struct TextFrame {
  uint32_t file = 0;
  size_t prefix = 0;
  size_t skipped = 0;
  size_t size = 0;

  std::optional<size_t> position(uint32_t in_file, size_t start) const {
    if (in_file != file) return std::nullopt;
    if (start < prefix) return 0;
    return std::min(start - prefix + skipped, size);
  }
};

const frontend::Diagnostic* first_error(const frontend::Diagnostics& ds);

// The inputs (not the externs) of the program's root kernel.
std::vector<std::string> dynamic_input_names(const frontend::Program& p);

EmbeddingError from_diagnostic(const frontend::Program& p, const frontend::Diagnostic& d, std::string source,
                               const TextFrame& frame);
EmbeddingError from_interp(const ir::InterpError& err, std::string source, const TextFrame& frame);

}  // namespace polydat::embed::internal
