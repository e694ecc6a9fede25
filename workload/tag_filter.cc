#include "workload/tag_filter.h"

#include <algorithm>

#include "ir/text_regex.h"

namespace polydat::workload {

namespace {

// The code point starting at s[i] and its length in bytes (a stray byte counts as itself).
std::pair<char32_t, size_t> code_point_at(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
  if (i + n > s.size()) n = 1;
  if (n == 1) return {b, 1};
  char32_t cp = b & (0x7f >> n);
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  return {cp, n};
}

// Unicode's White_Space, which Rust's str::trim (and so nb-rs) strips.
bool white_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

// `s` without white space at either end; `offset` moves past what was cut in front.
std::string_view trimmed(std::string_view s, size_t& offset) {
  while (!s.empty()) {
    const auto [cp, n] = code_point_at(s, 0);
    if (!white_space(cp)) break;
    s.remove_prefix(n);
    offset += n;
  }
  while (!s.empty()) {
    size_t start = s.size() - 1;  // the last code point's first byte
    while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xc0) == 0x80 && s.size() - start < 4) --start;
    const auto [cp, n] = code_point_at(s, start);
    if (start + n != s.size() || !white_space(cp)) break;
    s.remove_suffix(n);
  }
  return s;
}

std::string_view without_quotes(std::string_view s, size_t& offset) {
  while (!s.empty() && s.front() == '"') {
    s.remove_prefix(1);
    ++offset;
  }
  while (!s.empty() && s.back() == '"') s.remove_suffix(1);
  return s;
}

bool looks_like_regex(std::string_view v) { return v.find_first_of("*+?[(|") != std::string_view::npos; }

}  // namespace

ir::Expected<TagFilter, TagFilterError> TagFilter::parse(std::string_view spec) {
  if (spec.size() > kMaxTagFilter)
    return TagFilterError{"a tag filter of " + std::to_string(spec.size()) + " bytes; the most polydat reads is " +
                              std::to_string(kMaxTagFilter),
                          kMaxTagFilter, "tag-filter-too-long"};
  TagFilter f;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t comma = std::min(spec.find(',', start), spec.size());
    size_t at = start;
    const std::string_view part = trimmed(spec.substr(start, comma - start), at);
    start = comma + 1;
    if (part.empty()) continue;
    const size_t colon = part.find(':');
    Condition c;
    size_t key_at = at;
    c.key = std::string(trimmed(part.substr(0, colon == std::string_view::npos ? part.size() : colon), key_at));
    if (c.key.empty())
      return TagFilterError{"a tag condition needs a key before its ':' (key:value)", at, "tag-filter-key"};
    if (c.key[0] == '!')
      return TagFilterError{"tag filters have no negation: '" + c.key + "' would be read as a tag named so", key_at,
                            "tag-filter-key"};
    if (colon != std::string_view::npos) {
      size_t value_at = at + colon + 1;
      std::string_view v = trimmed(part.substr(colon + 1), value_at);
      v = without_quotes(v, value_at);
      c.value = std::string(v);
      if (looks_like_regex(v)) {
        c.regex = "^" + c.value + "$";
        if (auto why = ir::regex_error(c.regex))
          return TagFilterError{"the tag regex '" + c.value + "' is not one nb-rs reads: " + *why, value_at,
                                "tag-filter-regex"};
      }
    }
    f.conditions_.push_back(std::move(c));
  }
  return f;
}

bool TagFilter::matches(const Tags& tags) const {
  for (const Condition& c : conditions_) {
    const std::string* v = find_tag(tags, c.key);
    if (!v) return false;
    if (!c.regex.empty()) {
      if (!ir::regex_is_match(c.regex, *v)) return false;
    } else if (!c.value.empty() && *v != c.value) {
      return false;
    }
  }
  return true;
}

}  // namespace polydat::workload
