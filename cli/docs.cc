#include "cli/docs.h"

#include <cctype>

namespace polydat::cli {

namespace {

// A heading's level (its leading #s) and its title without a "N. " number; level 0 for no heading.
std::pair<size_t, std::string_view> heading(std::string_view line) {
  size_t level = 0;
  while (level < line.size() && line[level] == '#') ++level;
  if (level == 0 || level >= line.size() || line[level] != ' ') return {0, {}};
  std::string_view title = line.substr(level + 1);
  size_t digits = 0;
  while (digits < title.size() && std::isdigit(static_cast<unsigned char>(title[digits]))) ++digits;
  if (digits > 0 && title.substr(digits, 2) == ". ") title.remove_prefix(digits + 2);
  return {level, title};
}

}  // namespace

std::string doc_section(std::string_view text, std::string_view title) {
  std::string out;
  size_t level = 0;  // the section's, once found
  bool fenced = false;  // a '#' inside a code block is no heading
  for (size_t at = 0; at < text.size();) {
    const size_t end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == std::string_view::npos ? text.size() - at : end - at);
    at = end == std::string_view::npos ? text.size() : end + 1;
    if (line.substr(0, 3) == "```") fenced = !fenced;
    const auto [l, t] = fenced ? std::pair<size_t, std::string_view>{0, {}} : heading(line);
    if (level == 0 && l > 0 && t == title) level = l;
    else if (level > 0 && l > 0 && l <= level) break;
    if (level > 0) out.append(line).append("\n");
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace polydat::cli
