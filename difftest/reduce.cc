#include "difftest/reduce.h"

#include <vector>

namespace polydat::difftest {

std::vector<std::string> statements(const std::string& text) {
  std::vector<std::string> out;
  std::string current;
  int open = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    current += c;
    if (in_string) {
      if (c == '\\' && i + 1 < text.size()) current += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    if (c == '(' || c == '{' || c == '[') ++open;
    if ((c == ')' || c == '}' || c == ']') && open > 0) --open;
    if (c == '\n' && open == 0) {
      out.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

namespace {
std::string join(const std::vector<std::string>& parts, size_t skip_from, size_t skip_to) {
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i)
    if (i < skip_from || i >= skip_to) s += parts[i];
  return s;
}
}  // namespace

std::string reduce(const std::string& text, const std::function<bool(const std::string&)>& still_fails,
                   size_t max_tries) {
  std::vector<std::string> parts = statements(text);
  size_t tries = 0;
  // ddmin over contiguous chunks: large chunks first, then smaller, until single statements stay.
  for (size_t chunk = parts.size() / 2; chunk >= 1 && tries < max_tries; chunk /= 2) {
    bool removed = true;
    while (removed && tries < max_tries) {
      removed = false;
      for (size_t from = 0; from < parts.size() && tries < max_tries;) {
        const size_t to = std::min(parts.size(), from + chunk);
        const std::string candidate = join(parts, from, to);
        ++tries;
        if (!candidate.empty() && still_fails(candidate)) {
          parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(from), parts.begin() + static_cast<std::ptrdiff_t>(to));
          removed = true;
        } else {
          from = to;
        }
      }
    }
    if (chunk == 1) break;
  }
  return join(parts, 0, 0);
}

}  // namespace polydat::difftest
