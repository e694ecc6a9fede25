// The one form of a located message, for kernel sources, workload YAML and
// board files alike: "PATH:LINE:COL: WORD: MESSAGE [KIND]", then the source
// line and a caret under the culprit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace polydat::text {

// Control bytes would act on the terminal: shown as \xNN.
std::string escape_controls(std::string_view text);

// 1-based; line 0 is the file as a whole (no line and column printed), column 0 reads as 1.
struct Place {
  uint32_t line = 0;
  uint32_t col = 0;
  size_t width = 1;  // bytes the caret underlines: ^ then ~
};

// With `source_line`, the line is shown (cut to 160 columns around the caret, a tab as one space,
// control bytes as \xNN) with the caret under it. An empty `kind` prints no brackets.
std::string render_located(std::string_view path, Place at, std::optional<std::string_view> source_line,
                           std::string_view word, std::string_view message, std::string_view kind);

}  // namespace polydat::text
