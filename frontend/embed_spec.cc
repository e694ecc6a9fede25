// Name lookups, `{name}` interpolation, and evaluate_spec's reading of a
// clause source as a list of values.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "frontend/embed.h"
#include "frontend/embed_internal.h"

namespace polydat::embed {

using ir::TyKind;
using ir::Value;

namespace {
using internal::is_space;

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

// The bound, non-unit value of `name`, or UnresolvedPlaceholder.
Result<Value> resolve(std::string_view name, const Lookup& lookup, std::string_view source, size_t at) {
  auto v = lookup.lookup(name);
  if (v && !v->ty().is_unit()) return *v;
  EmbeddingError e = EmbeddingError::unresolved_placeholder(std::string(source), std::string(name));
  if (v) e.message = "'" + std::string(name) + "' holds a unit (none) value";
  e.position = at;
  return e;
}
}  // namespace

// ---------------------------------------------------------------------------
// Lookups and interpolation

MapLookup& MapLookup::set(std::string name, Value v) {
  values_.insert_or_assign(std::move(name), std::move(v));
  return *this;
}

std::optional<Value> MapLookup::lookup(std::string_view name) const {
  if (auto it = values_.find(name); it != values_.end()) return it->second;
  return std::nullopt;
}

std::optional<Value> Layered::lookup(std::string_view name) const {
  if (auto v = front_.lookup(name)) return v;
  return back_.lookup(name);
}

Result<std::string> interpolate_via_kernel(std::string_view text, const Lookup& lookup) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        out += '}';
        i += 2;
        continue;
      }
      return EmbeddingError::parse(std::string(text), "a '}' closes no placeholder (write '}}' for a brace)", i);
    }
    if (c != '{') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      out += '{';
      i += 2;
      continue;
    }
    const size_t close = text.find_first_of("{}", i + 1);
    if (close == std::string_view::npos || text[close] == '{')
      return EmbeddingError::parse(std::string(text), "this '{' is not closed by a '}'", i);
    const std::string_view name = trim(text.substr(i + 1, close - i - 1));
    if (!is_identifier(name))
      return EmbeddingError::parse(std::string(text),
                                   "placeholder '{" + std::string(text.substr(i + 1, close - i - 1)) + "}' is not a name", i);
    auto v = resolve(name, lookup, text, i);
    if (!v) return v.error();
    out += ir::render(*v);
    i = close + 1;
  }
  return out;
}

Result<Value> eval_kernel_bound(std::string_view text, const Lookup& lookup) {
  auto text2 = interpolate_via_kernel(text, lookup);
  if (!text2) return text2.error();
  return eval_const_expr(*text2);
}

// ---------------------------------------------------------------------------
// evaluate_spec

// Scanned here, not by frontend::lex, which reads 0x_1 as 1, '-' and '#' as token and comment, {x} in strings as code.
namespace {
struct Piece {
  std::string_view text;  // trimmed
  size_t at;              // its offset in the split text
};

bool opens(char c) { return c == '(' || c == '[' || c == '{'; }
bool closes(char c) { return c == ')' || c == ']' || c == '}'; }

// Calls visit(i, c) for each byte outside "strings" (where a backslash escapes
// the next byte), the quotes excluded, until visit returns false.
template <class Visit>
void scan_outside_strings(std::string_view s, Visit visit) {
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (!visit(i, c)) return;
  }
}

// Splits at commas outside (), [], {} and "strings"; each piece trimmed.
std::vector<Piece> split_top_level(std::string_view s) {
  std::vector<Piece> out;
  int depth = 0;
  size_t begin = 0;
  auto cut = [&](size_t end) {
    std::string_view raw = s.substr(begin, end - begin);
    size_t lead = 0;
    while (lead < raw.size() && is_space(raw[lead])) ++lead;
    out.push_back(Piece{trim(raw), begin + lead});
  };
  scan_outside_strings(s, [&](size_t i, char c) {
    if (opens(c)) ++depth;
    else if (closes(c) && depth > 0) --depth;
    else if (c == ',' && depth == 0) {
      cut(i);
      begin = i + 1;
    }
    return true;
  });
  cut(s.size());
  return out;
}

// Where the bracket (or brace) opening s[0] closes, or npos.
size_t matching_close(std::string_view s) {
  int depth = 0;
  size_t close = std::string_view::npos;
  scan_outside_strings(s, [&](size_t i, char c) {
    if (opens(c)) ++depth;
    else if (closes(c) && --depth == 0) {
      close = i;
      return false;
    }
    return true;
  });
  return close;
}

// An integer literal of the language (42, 1_000, 0xFF, 0b1010, 0o17) with an optional '-'.
std::optional<Value> literal_integer(std::string_view s) {
  bool negative = false;
  if (!s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' || s[1] == 'B' || s[1] == 'o' || s[1] == 'O')) {
    base = (s[1] | 0x20) == 'x' ? 16 : (s[1] | 0x20) == 'b' ? 2 : 8;
    s.remove_prefix(2);
  }
  if (s.empty() || s[0] == '_') return std::nullopt;
  unsigned __int128 mag = 0;
  for (char c : s) {
    if (c == '_') continue;
    const char l = static_cast<char>(c | 0x20);
    const unsigned d = c >= '0' && c <= '9' ? static_cast<unsigned>(c - '0')
                       : l >= 'a' && l <= 'f' ? static_cast<unsigned>(l - 'a' + 10)
                                              : 99;
    if (d >= base) return std::nullopt;
    mag = mag * base + d;
    if (mag > UINT64_MAX) return std::nullopt;
  }
  if (!negative) return Value::integer(TyKind::U64, static_cast<uint64_t>(mag));
  if (mag > (static_cast<unsigned __int128>(1) << 63)) return std::nullopt;
  return Value::integer(TyKind::I64, static_cast<uint64_t>(-static_cast<__int128>(mag)));
}

// A float literal (3.14, 1e-3, 2.5E10, 1_000.5) with an optional '-'.
std::optional<Value> literal_float(std::string_view s) {
  std::string digits;
  size_t i = 0;
  if (i < s.size() && s[i] == '-') digits += s[i++];
  auto run = [&] {
    const size_t start = i;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || (s[i] == '_' && i > start))) {
      if (s[i] != '_') digits += s[i];
      ++i;
    }
    return i > start;
  };
  if (!run()) return std::nullopt;
  bool fractional = false;
  if (i < s.size() && s[i] == '.') {
    digits += s[i++];
    if (!run()) return std::nullopt;
    fractional = true;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    digits += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) digits += s[i++];
    if (!run()) return std::nullopt;
    fractional = true;
  }
  if (i != s.size() || !fractional) return std::nullopt;
  return Value::f64(std::strtod(digits.c_str(), nullptr));
}

// "..." with \n \t \\ \" unescaped (other escapes kept as written).
std::optional<Value> literal_string(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) {
      const char n = s[++i];
      if (n == 'n') out += '\n';
      else if (n == 't') out += '\t';
      else if (n == '\\' || n == '"') out += n;
      else (out += '\\') += n;
      continue;
    }
    if (s[i] == '"') return std::nullopt;  // two strings, not one
    out += s[i];
  }
  return Value::str(std::move(out));
}

Result<std::vector<Value>> literal_list(std::string_view text) {
  std::vector<Value> out;
  for (const Piece& p : split_top_level(text)) {
    if (p.text.empty()) return EmbeddingError::parse(std::string(text), "an empty item in a list", p.at);
    if (p.text == "true" || p.text == "false") out.push_back(Value::boolean(p.text == "true"));
    else if (auto i = literal_integer(p.text)) out.push_back(*i);
    else if (auto f = literal_float(p.text)) out.push_back(*f);
    else if (auto s = literal_string(p.text)) out.push_back(*s);
    else out.push_back(Value::str(std::string(p.text)));
  }
  return out;
}

bool falls_back(EmbeddingError::Kind k) {
  using K = EmbeddingError::Kind;
  return k == K::Parse || k == K::LifecycleMismatch || k == K::UnknownNode || k == K::TypeMismatch;
}
}  // namespace

Result<std::vector<Value>> evaluate_spec(std::string_view text, const Lookup& lookup) {
  const std::string_view t = trim(text);
  if (t.empty()) return std::vector<Value>{};
  const size_t lead = static_cast<size_t>(t.data() - text.data());

  // [a, b, ...]
  if (t.front() == '[' && matching_close(t) == t.size() - 1) {
    std::vector<Value> out;
    const std::string_view inner = t.substr(1, t.size() - 2);
    if (trim(inner).empty()) return out;
    for (const Piece& p : split_top_level(inner)) {
      if (p.text.empty()) return EmbeddingError::parse(std::string(text), "an empty element in a list", lead + 1 + p.at);
      if (is_identifier(p.text) && lookup.lookup(p.text)) {  // a bare name the lookup binds
        auto r = resolve(p.text, lookup, text, lead + 1 + p.at);
        if (!r) return r.error();
        out.push_back(*r);
        continue;
      }
      auto v = eval_kernel_bound(p.text, lookup);
      if (!v) return v.error();
      out.push_back(*v);
    }
    return out;
  }

  // k: a bare reference the lookup has
  if (is_identifier(t) && lookup.lookup(t)) {
    auto v = resolve(t, lookup, text, lead);
    if (!v) return v.error();
    return std::vector<Value>{*v};
  }

  // {k}: the value itself, keeping its type
  if (t.size() > 2 && t.front() == '{' && t[1] != '{' && t.find('}') == t.size() - 1 && t.find('{', 1) == std::string_view::npos) {
    const std::string_view name = trim(t.substr(1, t.size() - 2));
    if (is_identifier(name)) {
      auto v = resolve(name, lookup, text, lead);
      if (!v) return v.error();
      return std::vector<Value>{*v};
    }
  }

  // an expression, else a literal list
  auto text2 = interpolate_via_kernel(text, lookup);
  if (!text2) return text2.error();
  auto v = eval_const_expr(*text2);
  if (v) return std::vector<Value>{*v};
  if (!falls_back(v.error().kind)) return v.error();
  return literal_list(trim(*text2));
}

}  // namespace polydat::embed
