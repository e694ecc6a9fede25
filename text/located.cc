#include "text/located.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace polydat::text {

namespace {
constexpr size_t kShownColumns = 160;  // a longer source line is cut around the caret
}  // namespace

std::string escape_controls(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02x", u);
    out += hex;
  }
  return out;
}

std::string render_located(std::string_view path, Place at, std::optional<std::string_view> source_line,
                           std::string_view word, std::string_view message, std::string_view kind) {
  const size_t col = at.col ? at.col : 1;
  std::string out = escape_controls(path);
  if (at.line) out += ":" + std::to_string(at.line) + ":" + std::to_string(col);
  out += ": " + std::string(word) + ": " + escape_controls(message);
  if (!kind.empty()) out += " [" + std::string(kind) + "]";
  out += "\n";
  if (!source_line || !at.line) return out;
  const std::string_view text = *source_line;
  size_t first = 0;
  if (text.size() > kShownColumns && col > kShownColumns / 2)
    first = std::min(col - 1 - kShownColumns / 2, text.size() - kShownColumns);
  const std::string_view raw = text.substr(first, kShownColumns);
  // starts[i]: where raw byte i begins in what is shown (a control byte takes four columns as \xNN).
  std::string shown;
  std::vector<size_t> starts;
  for (char c : raw) {
    starts.push_back(shown.size());
    shown += c == '\t' ? std::string(" ") : escape_controls(std::string_view(&c, 1));
  }
  starts.push_back(shown.size());
  const size_t raw_caret = std::min(col - 1 - first, raw.size());
  const size_t raw_width =
      std::max<size_t>(1, std::min(at.width, raw.size() > raw_caret ? raw.size() - raw_caret : size_t{1}));
  const size_t caret_at = starts[raw_caret];
  const size_t width = std::max<size_t>(1, starts[std::min(raw_caret + raw_width, raw.size())] - caret_at);
  out += "  " + shown + "\n";
  out += "  " + std::string(caret_at, ' ') + "^" + std::string(width - 1, '~') + "\n";
  return out;
}

}  // namespace polydat::text
