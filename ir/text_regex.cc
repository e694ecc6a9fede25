#include "ir/text_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <map>
#include <utility>
#include <memory>

namespace polydat::ir {

namespace {

// Rust's defaults: UTF-8 text, Unicode \d \w \s \b, `$` only at the very end.
constexpr uint32_t kOptions = PCRE2_UTF | PCRE2_UCP | PCRE2_DOLLAR_ENDONLY;

struct CodeDeleter {
  void operator()(pcre2_code* c) const { pcre2_code_free(c); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* d) const { pcre2_match_data_free(d); }
};
using Code = std::unique_ptr<pcre2_code, CodeDeleter>;

struct Compiled {
  Code code;
  std::string error;
};

bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Rust's POSIX classes are ASCII-only (PCRE2's follow Unicode under UCP).
std::optional<std::string_view> ascii_class(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> classes[] = {
      {"alnum", "0-9A-Za-z"}, {"alpha", "A-Za-z"}, {"ascii", "\\x00-\\x7F"}, {"blank", "\\t "},
      {"cntrl", "\\x00-\\x1F\\x7F"}, {"digit", "0-9"}, {"graph", "!-~"}, {"lower", "a-z"}, {"print", " -~"},
      {"punct", "!-/:-@\\[-`{-~"}, {"space", "\\t\\n\\x0B\\f\\r "}, {"upper", "A-Z"}, {"word", "0-9A-Za-z_"},
      {"xdigit", "0-9A-Fa-f"}};
  for (const auto& [n, ranges] : classes)
    if (n == name) return ranges;
  return std::nullopt;
}

// The PCRE2 pattern with Rust's meaning, or why Rust's syntax has no such
// pattern here: Rust's \u and \U escapes become \x{..}, its ASCII POSIX
// classes become ranges; what only PCRE2 has (look-around, back-references,
// atomic groups, \K, ...) and Rust's class set operations are refused.
std::optional<std::string> translate(std::string_view p, std::string& out) {
  constexpr std::string_view kRustLetters = "aftnrvdDsSwWbBApPxuUz";
  bool in_class = false, verbose = false, after_quantifier = false;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    const bool quantified = after_quantifier;  // the last item was a repetition
    after_quantifier = false;
    if (c == '\\') {
      if (i + 1 == p.size()) return "a pattern cannot end with a backslash";
      const char n = p[++i];
      const bool letter = (n >= 'a' && n <= 'z') || (n >= 'A' && n <= 'Z');
      if ((n >= '0' && n <= '9') || (letter && kRustLetters.find(n) == std::string_view::npos) || n == '<' || n == '>')
        return std::string("the escape \\") + n + " is not in Rust's regex syntax";
      if (n == 'u' || n == 'U') {  // \uXXXX, \UXXXXXXXX or \u{X...}
        size_t b = i + 1, e = b;
        if (b < p.size() && p[b] == '{') {
          e = p.find('}', b);
          if (e == std::string_view::npos) return std::string("an unclosed \\") + n + "{";
          out += "\\x{" + std::string(p.substr(b + 1, e - b - 1)) + "}";
          i = e;
          continue;
        }
        const size_t len = n == 'u' ? 4 : 8;
        while (e < p.size() && e - b < len && hex_digit(p[e])) ++e;
        if (e - b != len) return std::string("\\") + n + " needs " + std::to_string(len) + " hex digits";
        out += "\\x{" + std::string(p.substr(b, len)) + "}";
        i = e - 1;
        continue;
      }
      if (n == 'b' && i + 1 < p.size() && p[i + 1] == '{') return "the word boundary \\b{...} is not supported here";
      out += c;
      out += n;
      if ((n == 'p' || n == 'P' || n == 'x') && i + 1 < p.size() && p[i + 1] == '{') {  // \p{Greek}, \x{e9}
        const size_t e = p.find('}', i);
        if (e == std::string_view::npos) return std::string("an unclosed \\") + n + "{";
        out += p.substr(i + 1, e - i);
        i = e;
      }
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      if (c == '[') {
        if (i + 1 < p.size() && p[i + 1] == ':') {
          const size_t e = p.find(":]", i + 2);
          if (e == std::string_view::npos) return "an unclosed POSIX class";
          const std::string_view name = p.substr(i + 2, e - i - 2);
          const auto ranges = ascii_class(name);
          if (!ranges) return "the POSIX class [:" + std::string(name) + ":] is not supported here";
          out += *ranges;
          i = e + 1;
          continue;
        }
        return "nested character classes are not supported here";
      }
      if (verbose && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'))
        return "white space in a class under (?x) is not supported here";
      if ((c == '&' || c == '-' || c == '~') && i + 1 < p.size() && p[i + 1] == c)
        return std::string("the class operation ") + c + c + " is not supported here";
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];  // a leading ] is literal
      continue;
    }
    if (c == '{') {  // Rust takes a brace only as a counted repetition
      const size_t e = p.find('}', i);
      const std::string_view inner = e == std::string_view::npos ? std::string_view() : p.substr(i + 1, e - i - 1);
      const size_t comma = inner.find(',');
      const auto digits = [](std::string_view d) { return d.find_first_not_of("0123456789") == std::string_view::npos; };
      if (inner.empty() || inner[0] < '0' || inner[0] > '9' || !digits(inner.substr(0, comma)) ||
          (comma != std::string_view::npos && !digits(inner.substr(comma + 1))))
        return "a { must start a counted repetition such as {2}, {2,} or {2,5}";
      if (quantified) return "a repetition of a repetition is not supported here";
      out += p.substr(i, e - i + 1);
      i = e;
      after_quantifier = true;
      continue;
    }
    if (c == '*' || c == '+' || c == '?') {  // PCRE2 reads a second one as possessive (+) or an error
      if (quantified && c != '?') return "a repetition of a repetition is not supported here";
      after_quantifier = !quantified;  // a ? after a repetition makes it lazy and ends it
      out += c;
      continue;
    }
    if (c == '(' && i + 1 < p.size() && p[i + 1] == '?') {
      const std::string_view rest = p.substr(i + 2);
      const bool named = rest.starts_with("P<") || (rest.starts_with("<") && rest.size() > 1 && rest[1] != '=' && rest[1] != '!');
      const size_t flag_end = rest.find_first_not_of("imsxU-");
      const bool flags = flag_end != std::string_view::npos && (rest[flag_end] == ':' || rest[flag_end] == ')');
      if (!named && !flags) return "the group (?" + std::string(rest.substr(0, 2)) + " is not supported here";
      if (flags && rest.substr(0, std::min(flag_end, rest.find('-'))).find('x') != std::string_view::npos) verbose = true;
    }
    out += c;
  }
  return std::nullopt;
}

Compiled compile(std::string_view rust_pattern) {
  std::string pattern;
  if (auto why = translate(rust_pattern, pattern)) return {nullptr, *why};
  int code = 0;
  PCRE2_SIZE offset = 0;
  Code c(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), kOptions, &code, &offset, nullptr));
  if (c) return {std::move(c), {}};
  PCRE2_UCHAR buf[256];
  pcre2_get_error_message(code, buf, sizeof buf);
  return {nullptr, reinterpret_cast<const char*>(buf) + std::string(" at offset ") + std::to_string(offset)};
}

// Patterns are constants of the kernel: compiled once a thread, kept.
const pcre2_code* cached(std::string_view pattern) {
  thread_local std::map<std::string, Compiled, std::less<>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) it = cache.emplace(std::string(pattern), compile(pattern)).first;
  return it->second.code.get();
}

// The next match at or after `start`: its ovector, or nullptr (no match, or
// the engine gave up: invalid UTF-8 text, the backtracking limit).
const PCRE2_SIZE* find(const pcre2_code* code, pcre2_match_data* md, std::string_view text, size_t start) {
  const int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), start, 0, md, nullptr);
  return rc > 0 ? pcre2_get_ovector_pointer(md) : nullptr;
}

size_t utf8_length(unsigned char lead) {
  return lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
}

bool name_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Group `name` (a number or a group name) of the match, or "" when it is not there.
std::string_view group(const pcre2_code* code, const PCRE2_SIZE* ov, uint32_t pairs, std::string_view text,
                       std::string_view name) {
  int index = -1;
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos) {
    index = name.size() > 9 ? -1 : std::stoi(std::string(name));
  } else {
    index = pcre2_substring_number_from_name(code, reinterpret_cast<PCRE2_SPTR>(std::string(name).c_str()));
  }
  if (index < 0 || static_cast<uint32_t>(index) >= pairs) return {};
  const PCRE2_SIZE b = ov[2 * index], e = ov[2 * index + 1];
  if (b == PCRE2_UNSET || e < b) return {};
  return text.substr(b, e - b);
}

// Rust's Captures::expand.
void expand(std::string& out, std::string_view rep, const pcre2_code* code, const PCRE2_SIZE* ov, uint32_t pairs,
            std::string_view text) {
  for (size_t i = 0; i < rep.size();) {
    if (rep[i] != '$' || i + 1 == rep.size()) {
      out += rep[i++];
      continue;
    }
    if (rep[i + 1] == '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (rep[i + 1] == '{') {
      const size_t close = rep.find('}', i + 2);
      if (close == std::string_view::npos) {  // not a reference: the `$` as it is
        out += rep[i++];
        continue;
      }
      out += group(code, ov, pairs, text, rep.substr(i + 2, close - i - 2));
      i = close + 1;
      continue;
    }
    size_t end = i + 1;
    while (end < rep.size() && name_char(rep[end])) ++end;
    if (end == i + 1) {
      out += rep[i++];
      continue;
    }
    out += group(code, ov, pairs, text, rep.substr(i + 1, end - i - 1));
    i = end;
  }
}

}  // namespace

std::optional<std::string> regex_error(std::string_view pattern) {
  Compiled c = compile(pattern);
  if (c.code) return std::nullopt;
  return c.error;
}

bool regex_is_match(std::string_view pattern, std::string_view text) {
  const pcre2_code* code = cached(pattern);
  if (!code) return false;
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> md(pcre2_match_data_create_from_pattern(code, nullptr));
  return find(code, md.get(), text, 0) != nullptr;
}

std::string regex_replace_all(std::string_view pattern, std::string_view text, std::string_view replacement) {
  const pcre2_code* code = cached(pattern);
  if (!code) return std::string(text);
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> md(pcre2_match_data_create_from_pattern(code, nullptr));
  const uint32_t pairs = pcre2_get_ovector_count(md.get());
  std::string out;
  size_t copied = 0, start = 0;
  std::optional<size_t> last_end;
  while (start <= text.size()) {
    const PCRE2_SIZE* ov = find(code, md.get(), text, start);
    if (!ov) break;
    const size_t b = ov[0], e = ov[1];
    if (b == e && last_end == e) {  // Rust skips an empty match where the last match ended
      if (e >= text.size()) break;
      start = e + utf8_length(static_cast<unsigned char>(text[e]));
      continue;
    }
    out.append(text.substr(copied, b - copied));
    expand(out, replacement, code, ov, pairs, text);
    copied = e;
    last_end = e;
    if (b == e) {
      if (e >= text.size()) break;
      start = e + utf8_length(static_cast<unsigned char>(text[e]));
    } else {
      start = e;
    }
  }
  out.append(text.substr(copied));
  return out;
}

}  // namespace polydat::ir
