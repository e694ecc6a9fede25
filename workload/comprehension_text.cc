// Text-level pieces of the comprehension grammar: scanning, literal typing
// (nb-rs's rules), SI suffixes, and SpecError rendering.
#include <cmath>
#include <cstdlib>

#include "workload/comprehension_detail.h"

namespace polydat::workload::comprehension {

std::string SpecError::to_string() const {
  std::string where = "byte " + std::to_string(at.offset);
  if (at.part == Part::Entry) where += " of entry " + std::to_string(at.entry);
  if (at.part == Part::Where) where += " of `where`";
  if (at.part == Part::Order) where += " of `order`";
  return where + ": " + message + " [" + kind + "]";
}

namespace detail {

SpecError located(const Failure& f, Place at) { return SpecError{shifted(at, f.offset.value_or(0)), f.message, f.kind}; }

Place shifted(Place at, size_t by) {
  at.offset += by;
  return at;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  return std::all_of(s.begin(), s.end(), is_ident_char);
}

Piece trimmed(std::string_view s, size_t offset) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return Piece{s.substr(b, e - b), offset + b};
}

std::vector<Piece> split_commas(std::string_view text) {
  std::vector<Piece> out;
  size_t begin = 0;
  scan(text, [&](size_t i, size_t depth) {
    if (depth == 0 && text[i] == ',') {
      out.push_back(trimmed(text.substr(begin, i - begin), begin));
      begin = i + 1;
    }
    return true;
  });
  out.push_back(trimmed(text.substr(begin), begin));
  return out;
}

std::vector<Piece> split_commas_plain(std::string_view text) {
  std::vector<Piece> out;
  size_t begin = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ',') {
      out.push_back(trimmed(text.substr(begin, i - begin), begin));
      begin = i + 1;
    }
  return out;
}

bool wrapped(std::string_view text, char open, char close) {
  if (text.size() < 2 || text.front() != open || text.back() != close) return false;
  size_t closes_at = std::string_view::npos;
  const size_t unclosed = scan(text, [&](size_t i, size_t depth) {
    if (i > 0 && depth == 0 && (text[i] == ')' || text[i] == ']' || text[i] == '}')) {
      closes_at = i;
      return false;
    }
    return true;
  });
  return unclosed == std::string_view::npos && closes_at == text.size() - 1 && text[closes_at] == close;
}

std::optional<std::pair<std::string_view, Piece>> call_of(std::string_view text) {
  size_t n = 0;
  while (n < text.size() && is_ident_char(text[n])) ++n;
  if (!is_identifier(text.substr(0, n))) return std::nullopt;
  size_t open = n;
  while (open < text.size() && is_space(text[open])) ++open;
  if (!wrapped(text.substr(open), '(', ')')) return std::nullopt;
  return std::pair{text.substr(0, n), Piece{text.substr(open + 1, text.size() - open - 2), open + 1}};
}

size_t find_keyword(std::string_view text, std::string_view word) {
  size_t found = std::string_view::npos;
  scan(text, [&](size_t i, size_t depth) {
    const size_t after = i + word.size();
    if (depth == 0 && i > 0 && is_space(text[i - 1]) && (after == text.size() || (after < text.size() && is_space(text[after]))) &&
        text.compare(i, word.size(), word) == 0) {
      found = i;
      return false;
    }
    return true;
  });
  return found;
}

// ---------------------------------------------------------------------------
// Literals

namespace {

struct Suffix {
  uint64_t multiplier;
  size_t length;
  bool divides;  // m, u, n: 10^-3, 10^-6, 10^-9
};

// nb-rs's suffix table; a two-letter binary suffix is tried before its one-letter prefix.
std::optional<Suffix> suffix_at(std::string_view s, size_t i) {
  auto ends_at = [&](size_t j) { return j >= s.size() || !is_ident_char(s[j]); };
  if (i + 1 < s.size() && s[i + 1] == 'i' && ends_at(i + 2)) {
    const std::string_view binary = "KMGTP";
    if (const size_t k = binary.find(s[i]); k != std::string_view::npos)
      return Suffix{uint64_t{1} << (10 * (k + 1)), 2, false};
  }
  if (i >= s.size() || !ends_at(i + 1)) return std::nullopt;
  switch (s[i]) {
    case 'K': return Suffix{1'000, 1, false};
    case 'M': return Suffix{1'000'000, 1, false};
    case 'G': return Suffix{1'000'000'000, 1, false};
    case 'T': return Suffix{1'000'000'000'000, 1, false};
    case 'P': return Suffix{1'000'000'000'000'000, 1, false};
    case 'm': return Suffix{1'000, 1, true};
    case 'u': return Suffix{1'000'000, 1, true};
    case 'n': return Suffix{1'000'000'000, 1, true};
    default: return std::nullopt;
  }
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The end of a decimal literal starting at i (digits, then .digits, then an
// exponent), and whether it is a float.
size_t number_end(std::string_view s, size_t i, bool& is_float) {
  is_float = false;
  while (i < s.size() && (is_digit(s[i]) || s[i] == '_')) ++i;
  if (i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1])) {
    is_float = true;
    for (++i; i < s.size() && is_digit(s[i]);) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && is_digit(s[j])) {
      is_float = true;
      for (i = j; i < s.size() && is_digit(s[i]);) ++i;
    }
  }
  return i;
}

// The value of digits `num` (underscores dropped) scaled by `sx`, as nb-rs's lexer computes it.
Result<ir::Value> scaled(std::string_view num, bool is_float, Suffix sx) {
  std::string digits;
  for (char c : num)
    if (c != '_') digits += c;
  if (is_float) {
    double v = std::strtod(digits.c_str(), nullptr);
    v = sx.divides ? v / static_cast<double>(sx.multiplier) : v * static_cast<double>(sx.multiplier);
    if (!std::isfinite(v)) return eval_failure("`" + std::string(num) + "` with its suffix is out of range");
    if (v == std::floor(v) && v >= 0) {
      const uint64_t u = v < 18446744073709551616.0 ? static_cast<uint64_t>(v) : UINT64_MAX;
      return ir::Value::integer(ir::TyKind::U64, u);
    }
    return ir::Value::f64(v);
  }
  const auto n = parse_u64(digits);
  if (!n) return eval_failure("`" + std::string(num) + "` does not fit in 64 bits");
  if (sx.divides) return ir::Value::f64(static_cast<double>(*n) / static_cast<double>(sx.multiplier));
  if (*n != 0 && sx.multiplier > UINT64_MAX / *n)
    return eval_failure("`" + std::string(num) + "` with its suffix does not fit in 64 bits");
  return ir::Value::integer(ir::TyKind::U64, *n * sx.multiplier);
}

// Rust's f64 syntax: [+-] then inf, infinity, nan (any case), or digits with
// an optional '.' (a digit on at least one side) and an optional exponent.
bool rust_float_syntax(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  std::string lower;
  for (char c : s) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  if (lower == "inf" || lower == "infinity" || lower == "nan") return true;
  size_t i = 0, int_digits = 0, frac_digits = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) ++int_digits;
  if (i < s.size() && s[i] == '.')
    for (++i; i < s.size() && is_digit(s[i]); ++i) ++frac_digits;
  if (int_digits + frac_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    if (++i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t exp_start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == exp_start) return false;
  }
  return i == s.size();
}

// A quoted item's text: nb-rs's escapes \n \t \\ and the quote itself; others kept as written.
std::optional<std::string> unquoted(std::string_view s) {
  if (s.size() < 2 || (s[0] != '"' && s[0] != '\'') || s.back() != s[0]) return std::nullopt;
  const char q = s[0];
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == q) return std::nullopt;  // two strings, not one
    if (s[i] != '\\' || i + 2 >= s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    if (e == 'n') out += '\n';
    else if (e == 't') out += '\t';
    else if (e == '\\' || e == q) out += e;
    else (out += '\\') += e;
  }
  return out;
}

// Characters that make a text an expression rather than a list of literals (nb-rs's list).
bool has_operator(std::string_view s) { return s.find_first_of("()[]{}'\"+*/%=<>!&|~^?") != std::string_view::npos; }

}  // namespace

std::optional<uint64_t> parse_u64(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

Result<std::optional<ir::Value>> si_literal(std::string_view s) {
  if (s.empty() || !is_digit(s[0])) return std::optional<ir::Value>{};
  bool is_float = false;
  const size_t end = number_end(s, 0, is_float);
  const auto sx = suffix_at(s, end);
  if (!sx || end + sx->length != s.size()) return std::optional<ir::Value>{};
  auto v = scaled(s.substr(0, end), is_float, *sx);
  if (!v) return v.error();
  return std::optional<ir::Value>{*v};
}

Result<ir::Value> typed_item(std::string_view item, bool quotes) {
  if (quotes)
    if (auto text = unquoted(item)) return ir::Value::str(std::move(*text));
  auto si = si_literal(item);
  if (!si) return si.error();
  if (*si) return **si;
  if (auto u = parse_u64(item)) return ir::Value::integer(ir::TyKind::U64, *u);
  if (rust_float_syntax(item)) return ir::Value::f64(std::strtod(std::string(item).c_str(), nullptr));
  if (item == "true" || item == "false") return ir::Value::boolean(item == "true");
  return ir::Value::str(std::string(item));
}

Result<std::optional<std::vector<ir::Value>>> literal_list(std::string_view text) {
  using Out = std::optional<std::vector<ir::Value>>;
  std::vector<ir::Value> out;
  for (const Piece& p : split_commas(text)) {
    if (p.text.empty()) return Failure{"bad-spec", "an empty item in a list", p.offset};
    if (!unquoted(p.text) && has_operator(p.text)) return Out{};
    auto v = typed_item(p.text, true);
    if (!v) return Failure{v.error().kind, v.error().message, p.offset};
    out.push_back(std::move(*v));
    if (auto st = check_size(out.size(), "a list"); !st) return st.error();
  }
  return Out{std::move(out)};
}

Result<void> check_size(size_t n, std::string_view what) {
  if (n <= kMaxTuples) return {};
  return too_large(std::string(what) + " of more than " + std::to_string(kMaxTuples) + " values");
}

Result<std::string> gk_source(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < s.size() && s[j] != c) j += s[j] == '\\' ? 2 : 1;
      if (j >= s.size()) return Failure{"bad-spec", "a quote that is never closed", i};
      if (c == '"') {
        out.append(s, i, j + 1 - i);  // already GK's own string syntax
      } else {
        out += '"';  // nb-rs's single-quoted string as a GK string with no interpolation
        const std::string text = unquoted(s.substr(i, j + 1 - i)).value_or("");
        for (char ch : text) {
          if (ch == '"' || ch == '\\') (out += '\\') += ch;
          else if (ch == '\n') out += "\\n";
          else if (ch == '\t') out += "\\t";
          else if (ch == '{' || ch == '}') (out += ch) += ch;
          else out += ch;
        }
        out += '"';
      }
      i = j + 1;
    } else if (is_ident_start(c)) {
      const size_t j = i;
      while (i < s.size() && is_ident_char(s[i])) ++i;
      out.append(s, j, i - j);
    } else if (is_digit(c) && !(c == '0' && i + 1 < s.size() && std::string_view("xXbBoO").find(s[i + 1]) != std::string_view::npos)) {
      bool is_float = false;
      const size_t end = number_end(s, i, is_float);
      if (const auto sx = suffix_at(s, end)) {
        auto v = scaled(s.substr(i, end - i), is_float, *sx);
        if (!v) return Failure{v.error().kind, v.error().message, i};
        out += v->ty().is_float() ? ir::render_float(v->as_f64()) : std::to_string(v->as_u64());
        i = end + sx->length;
      } else {
        out.append(s, i, end - i);
        i = end;
      }
    } else if (is_digit(c)) {
      const size_t j = i;  // 0x.., 0b.., 0o..: GK's own, no suffixes
      while (i < s.size() && is_ident_char(s[i])) ++i;
      out.append(s, j, i - j);
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

}  // namespace detail
}  // namespace polydat::workload::comprehension
