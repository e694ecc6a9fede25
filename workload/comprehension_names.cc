// Names in comprehension text: `{name}` interpolation (nb-rs's nested,
// innermost-first form) and bare names in GK constant expressions.
#include "workload/comprehension_detail.h"
#include "workload/values.h"

namespace polydat::workload::comprehension::detail {

namespace {

constexpr int kMaxRounds = 100;  // interpolation passes (nb-rs warns at 100, gives up at 1,000)

bool escaped_brace(std::string_view s, size_t i) {
  return s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '{' || s[i + 1] == '}');
}

// The end of the placeholder opening at i: its `}`, or npos when another `{`
// comes first (an outer placeholder, resolved once its inner ones are).
struct Leaf {
  size_t close = std::string_view::npos;
  bool nested = false;
};
Leaf leaf_at(std::string_view s, size_t i) {
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (escaped_brace(s, j)) ++j;
    else if (s[j] == '{') return Leaf{std::string_view::npos, true};
    else if (s[j] == '}') return Leaf{j, false};
  }
  return Leaf{};
}

std::optional<ir::Value> bound(const embed::Lookup& names, std::string_view name) {
  auto v = names.lookup(name);
  if (!v || v->ty().kind() == ir::TyKind::Unit) return std::nullopt;
  return v;
}

// One pass over s: every leaf placeholder with a value is replaced.
Result<bool> substitute_leaves(std::string& s, const embed::Lookup& names) {
  std::string out;
  bool replaced = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (escaped_brace(s, i)) {
      out.append(s, i++, 2);
      continue;
    }
    if (s[i] != '{') {
      out += s[i];
      continue;
    }
    const Leaf leaf = leaf_at(s, i);
    if (leaf.nested) {
      out += '{';
      continue;
    }
    if (leaf.close == std::string_view::npos)
      return Failure{"bad-spec", "a `{` that is never closed (write \\{ for a brace)", i};
    const std::string_view name = trimmed(std::string_view(s).substr(i + 1, leaf.close - i - 1)).text;
    if (name.empty()) return Failure{"bad-spec", "an empty `{}` (write \\{\\} for braces)", i};
    if (auto v = bound(names, name)) {
      out += op_text(*v);
      replaced = true;
    } else {
      out.append(s, i, leaf.close + 1 - i);
    }
    i = leaf.close;
  }
  s = std::move(out);
  return replaced;
}

// The first placeholder left, for the error that names it.
std::optional<std::string> first_placeholder(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (escaped_brace(s, i)) ++i;
    else if (s[i] == '{')
      if (const Leaf leaf = leaf_at(s, i); leaf.close != std::string_view::npos)
        return std::string(trimmed(s.substr(i + 1, leaf.close - i - 1)).text);
  }
  return std::nullopt;
}

std::string unescaped(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (escaped_brace(s, i)) ++i;
    out += s[i];
  }
  return out;
}

// Calls f(name, start, end) for each identifier of GK text that is a value:
// not in a string, not a call, not the type after `as`, not true/false.
template <class F>
void for_each_identifier(std::string_view src, F&& f) {
  std::string_view previous;
  for (size_t i = 0; i < src.size();) {
    const char c = src[i];
    if (c == '"') {
      size_t j = i + 1;
      while (j < src.size() && src[j] != '"') j += src[j] == '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (!is_ident_start(c) || (i > 0 && is_ident_char(src[i - 1]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < src.size() && is_ident_char(src[j])) ++j;
    size_t k = j;
    while (k < src.size() && is_space(src[k])) ++k;
    const std::string_view name = src.substr(i, j - i);
    const bool call = k < src.size() && src[k] == '(';
    if (!call && previous != "as" && name != "true" && name != "false" && name != "as") f(name, i, j);
    previous = name;
    i = j;
  }
}

std::string no_value(std::string_view name) {
  return "no value for `" + std::string(name) + "` (not a param, an outer variable or an earlier clause's variable)";
}

// The identifiers of GK text that `names` binds, outside strings, calls and `as TYPE`.
std::vector<std::string> bound_identifiers(std::string_view src, const embed::Lookup& names) {
  std::vector<std::string> out;
  for_each_identifier(src, [&](std::string_view name, size_t, size_t) {
    if (bound(names, name) && std::find(out.begin(), out.end(), name) == out.end()) out.emplace_back(name);
  });
  return out;
}

// GK text with each bare name in `wanted` replaced by its value as a literal.
Result<std::string> bind_names(std::string_view src, const std::vector<std::string>& wanted,
                               const embed::Lookup& names) {
  std::string out;
  size_t copied = 0;
  std::optional<Failure> failed;
  for_each_identifier(src, [&](std::string_view name, size_t at, size_t end) {
    if (failed || std::find(wanted.begin(), wanted.end(), name) == wanted.end()) return;
    const auto v = bound(names, name);
    const auto literal = v ? gk_literal(*v) : std::nullopt;
    if (!v) failed = eval_failure(no_value(name));
    else if (!literal) failed = eval_failure("`" + std::string(name) + "` holds " + op_text(*v) + ", which GK cannot write");
    if (failed) return;
    out.append(src, copied, at - copied);
    out += "(" + *literal + ")";
    copied = end;
  });
  if (failed) return *failed;
  out.append(src, copied);
  return out;
}

}  // namespace

Result<std::string> interpolate(std::string_view text, const embed::Lookup& names) {
  std::string s(text);
  for (int round = 1;; ++round) {
    auto replaced = substitute_leaves(s, names);
    if (!replaced) {
      Failure f = replaced.error();
      if (round > 1) f.offset.reset();  // an offset into substituted text, not the spec's
      return f;
    }
    if (s.size() > kMaxTextBytes)
      return too_large("interpolation makes more than " + std::to_string(kMaxTextBytes) + " bytes");
    if (!*replaced) break;
    if (round == kMaxRounds)
      return eval_failure("`{...}` placeholders still expanding after " + std::to_string(kMaxRounds) +
                          " passes (do two names refer to each other?)");
  }
  if (auto name = first_placeholder(s)) {
    Failure f = eval_failure(no_value(*name));
    if (const size_t at = text.find("{" + *name + "}"); at != std::string_view::npos) f.offset = at;
    return f;
  }
  return unescaped(s);
}

std::optional<ir::Value> TupleLookup::lookup(std::string_view name) const {
  for (const auto& [n, v] : t_)
    if (n == name) return v;
  return std::nullopt;
}

Result<ir::Value> eval_scalar(std::string_view text, const embed::Lookup& names) {
  auto src = gk_source(text);
  if (!src) return src.error();
  auto v = embed::eval_const_expr(*src);
  using K = embed::EmbeddingError::Kind;
  if (!v && v.error().kind == K::LifecycleMismatch)
    for (const std::string& n : v.error().dynamic_inputs)
      if (!bound(names, n)) return eval_failure(no_value(n));
  // Bare names: GK reads them as inputs (so a constant expression fails), or
  // types them u64 (so a str one fails to type): write their values in.
  if (!v && (v.error().kind == K::LifecycleMismatch || v.error().kind == K::TypeMismatch)) {
    const std::vector<std::string> ids = bound_identifiers(*src, names);
    if (!ids.empty()) {
      auto with_names = bind_names(*src, ids, names);
      if (!with_names) return with_names.error();
      v = embed::eval_const_expr(*with_names);
    }
  }
  if (!v) return eval_failure(v.error().to_string());
  const ir::TyKind k = v->ty().kind();
  if (k == ir::TyKind::Tuple || k == ir::TyKind::Struct || k == ir::TyKind::Unit)
    return eval_failure("`" + std::string(text) + "` gives " + ir::render(*v) + ", not one value");
  return *v;
}

Result<Number> eval_number(std::string_view text, const embed::Lookup& names, std::string_view what) {
  auto v = eval_scalar(text, names);
  if (!v) return v.error();
  Number n;
  if (v->ty().is_float()) {
    n.is_float = true;
    n.f = v->ty().kind() == ir::TyKind::F32 ? v->as_f32() : v->as_f64();
  } else if (v->ty().is_signed_int()) {
    n.i = v->as_i64();
  } else if (v->ty().is_unsigned_int()) {
    n.i = v->as_u64();
  } else {
    return eval_failure(std::string(what) + " `" + std::string(text) + "` is " + op_text(*v) + ", not a number");
  }
  return n;
}

Result<uint64_t> eval_count(std::string_view text, const embed::Lookup& names, std::string_view what) {
  auto n = eval_number(text, names, what);
  if (!n) return n.error();
  if (n->is_float || n->i < 0)
    return eval_failure(std::string(what) + " `" + std::string(text) + "` is not a whole number of 0 or more");
  return static_cast<uint64_t>(n->i);
}

}  // namespace polydat::workload::comprehension::detail
