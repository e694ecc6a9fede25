#include "ir/partition.h"

#include <cmath>
#include <cstdlib>
#include <functional>

#include "ir/semantics.h"

namespace polydat::ir {

namespace {

using Weights = std::vector<double>;
template <class T>
using Result = Expected<T, std::string>;

// Rust's `f as u64`: toward zero, saturating, NaN 0.
uint64_t saturating_u64(double d) {
  if (!(d > 0)) return 0;
  if (d >= 18446744073709551616.0) return UINT64_MAX;
  return static_cast<uint64_t>(d);
}

// The ordinals a share of `extent` covers, rounded half away from zero (Rust's f64::round).
uint64_t share_of(double fraction, uint64_t extent) {
  return saturating_u64(std::round(fraction * static_cast<double>(extent)));
}

double pct_of(uint64_t ordinal, uint64_t base_start, uint64_t extent) {
  if (extent == 0) return 0.0;
  return static_cast<double>(ordinal - base_start) * 100.0 / static_cast<double>(extent);
}

// Rust's char::is_whitespace for the code point a UTF-8 sequence starts with; its length in `len`.
bool unicode_space(std::string_view s, size_t i, size_t& len) {
  const auto b = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  len = 1;
  const unsigned c = b(0);
  if (c == ' ' || (c >= 0x09 && c <= 0x0D)) return true;
  if (c == 0xC2 && (b(1) == 0x85 || b(1) == 0xA0)) return len = 2, true;
  if (c == 0xE1 && b(1) == 0x9A && b(2) == 0x80) return len = 3, true;  // U+1680
  if (c == 0xE2 && b(1) == 0x80) {  // U+2000..200A, 2028, 2029, 202F
    const unsigned t = b(2);
    if ((t >= 0x80 && t <= 0x8A) || t == 0xA8 || t == 0xA9 || t == 0xAF) return len = 3, true;
  }
  if (c == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) return len = 3, true;  // U+205F
  if (c == 0xE3 && b(1) == 0x80 && b(2) == 0x80) return len = 3, true;  // U+3000
  return false;
}

// The spec without whitespace and without the advisory brackets [ ] ( ).
std::string cleaned(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t len = 1;
    if (unicode_space(text, i, len)) {
      i += len;
      continue;
    }
    const char c = text[i++];
    if (c != '[' && c != ']' && c != '(' && c != ')') out += c;
  }
  return out;
}

// Rust's u64 grammar: an optional '+', then decimal digits.
std::optional<uint64_t> parse_u64(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

Result<Bound> parse_bound(std::string_view s) {
  if (s.empty()) return std::string("a bound is empty");
  if (s == "*" || s == "*%") return Bound{Bound::Kind::Star, 0, 0};
  const std::string shown = "`" + std::string(s) + "`";
  if (s.back() == '%') {
    const auto v = parse_rust_f64(s.substr(0, s.size() - 1));
    if (!v) return shown + " is not a percentage: a number must come before the `%`";
    if (!(*v >= 0.0 && *v <= 100.0)) return "the percentage " + shown + " is outside 0%..100%";
    return Bound{Bound::Kind::Pct, *v, 0};
  }
  if (s.find('.') != std::string_view::npos) {
    const auto v = parse_rust_f64(s);
    if (!v) return shown + " is not a decimal number";
    if (!(*v >= 0.0 && *v <= 1.0))
      return "the fraction " + shown + " is outside 0.0..1.0 (write a percentage with `%`, or an ordinal without a '.')";
    return Bound{Bound::Kind::Frac, *v, 0};
  }
  const auto o = parse_u64(s);
  if (!o) return shown + " is not an ordinal (an unsigned integer), a fraction (0.x) or a percentage (N%)";
  return Bound{Bound::Kind::Ord, 0, *o};
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t start = 0;;) {
    const size_t at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// ---- recipes: weights, then percentages of their sum ----

Result<uint64_t> count_arg(std::string_view a, std::string_view recipe) {
  const auto n = parse_u64(a);
  if (!n) return std::string(recipe) + ": `" + std::string(a) + "` is not an unsigned integer";
  if (*n == 0) return std::string(recipe) + " needs a count of at least 1";
  if (*n > kMaxPartitions) return std::string(recipe) + ": more than " + std::to_string(kMaxPartitions) + " partitions";
  return *n;
}

Result<double> number_arg(std::string_view a, std::string_view recipe) {
  const auto v = parse_rust_f64(a);
  if (!v) return std::string(recipe) + ": `" + std::string(a) + "` is not a number";
  return *v;
}

Result<void> arity(const std::vector<std::string_view>& args, size_t n, std::string_view recipe, std::string_view form) {
  if (args.size() == n) return {};
  return std::string(form) + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", not " +
         std::to_string(args.size()) + " (recipe " + std::string(recipe) + ")";
}

// A recipe of one count N, weights w(1..N).
Result<Weights> counted(const std::vector<std::string_view>& args, std::string_view recipe,
                        const std::function<double(uint64_t i, uint64_t n)>& w) {
  if (auto st = arity(args, 1, recipe, std::string(recipe) + ":N"); !st) return st.error();
  auto n = count_arg(args[0], recipe);
  if (!n) return n.error();
  Weights out;
  for (uint64_t i = 1; i <= *n; ++i) out.push_back(w(i, *n));
  return out;
}

Result<Weights> mul_weights(const std::vector<std::string_view>& args) {
  if (args.size() != 1 && args.size() != 2)
    return "mul:R or mul:S,R takes 1 or 2 arguments, not " + std::to_string(args.size());
  double start = 1.0;
  if (args.size() == 2) {
    auto s = number_arg(args[0], "mul");
    if (!s) return s.error();
    start = *s;
  }
  auto r = number_arg(args.back(), "mul");
  if (!r) return r.error();
  const double ratio = *r;
  if (start <= 0.0) return std::string("mul: the start weight must be above 0");
  if (ratio <= 0.0) return std::string("mul: the ratio must be above 0");
  // Shrinking: until a term falls below a thousandth of the first; growing: to a thousand times it.
  Weights out;
  double current = start;
  for (int i = 0; i < 64; ++i) {
    if (!std::isfinite(current) || current <= 0.0) break;
    out.push_back(current);
    if (ratio < 1.0 && current < start * 0.001) break;
    current *= ratio;
    if (ratio >= 1.0 && current >= start * 1000.0) {
      if (std::isfinite(current)) out.push_back(current);
      break;
    }
  }
  if (out.empty()) return std::string("mul: no terms (the start weight is not a finite number above 0)");
  return out;
}

Result<Weights> bin_weights(const std::vector<std::string_view>& args) {
  auto w = counted(args, "bin", [](uint64_t, uint64_t) { return 1.0; });
  if (!w) return w;
  // Row N-1 of Pascal's triangle, each from the one before.
  const uint64_t degree = w->size() - 1;
  for (uint64_t k = 1; k <= degree; ++k)
    (*w)[k] = (*w)[k - 1] * static_cast<double>(degree - k + 1) / static_cast<double>(k);
  return w;
}

Result<Weights> fib_weights(const std::vector<std::string_view>& args) {
  auto w = counted(args, "fib", [](uint64_t, uint64_t) { return 0.0; });
  if (!w) return w;
  uint64_t a = 1, b = 2;  // 1, 2, 3, 5, ...: the Fibonacci numbers without the repeated 1
  for (double& x : *w) {
    x = static_cast<double>(a);
    const uint64_t next = a > UINT64_MAX - b ? UINT64_MAX : a + b;
    a = b;
    b = next;
  }
  return w;
}

// A recipe of two arguments: a number and a count, in `form`'s order.
Result<Weights> two_args(const std::vector<std::string_view>& args, std::string_view recipe, bool count_first,
                         const std::function<double(uint64_t i, double x)>& w, const char* number_rule) {
  if (auto st = arity(args, 2, recipe, count_first ? std::string(recipe) + ":N,R" : std::string(recipe) + ":x,N"); !st)
    return st.error();
  auto x = number_arg(args[count_first ? 1 : 0], recipe);
  if (!x) return x.error();
  auto n = count_arg(args[count_first ? 0 : 1], recipe);
  if (!n) return n.error();
  if (*x <= 0.0) return std::string(recipe) + ": " + number_rule;
  Weights out;
  for (uint64_t i = 1; i <= *n; ++i) out.push_back(w(i, *x));
  return out;
}

Result<Weights> recipe_weights(std::string_view name, std::string_view args_text) {
  std::vector<std::string_view> args = split(args_text, ',');
  if (name == "linear") return counted(args, name, [](uint64_t, uint64_t) { return 1.0; });
  if (name == "ratios") {
    Weights out;
    for (std::string_view a : args) {
      auto v = number_arg(a, name);
      if (!v) return v.error();
      out.push_back(*v);
    }
    return out;
  }
  if (name == "mul") return mul_weights(args);
  if (name == "bin") return bin_weights(args);
  if (name == "fib") return fib_weights(args);
  if (name == "ln") return counted(args, name, [](uint64_t i, uint64_t) { return std::log(1.0 + static_cast<double>(i)); });
  if (name == "geom") {
    auto w = two_args(args, name, true, [](uint64_t, double) { return 0.0; }, "the ratio must be above 0");
    if (!w) return w;
    const double r = *parse_rust_f64(args[1]);
    double current = 1.0;  // 1, r, r*r, ...: multiplied in turn, as nb-rs does
    for (double& x : *w) {
      x = current;
      current *= r;
    }
    return w;
  }
  if (name == "zipf")
    return two_args(args, name, false, [](uint64_t i, double s) { return 1.0 / std::pow(static_cast<double>(i), s); },
                    "the exponent must be above 0");
  if (name == "pareto")
    return two_args(args, name, false, [](uint64_t i, double a) { return std::pow(1.0 / static_cast<double>(i), a); },
                    "alpha must be above 0");
  if (name == "front_heavy")
    return counted(args, name, [](uint64_t i, uint64_t n) { return static_cast<double>(n + 1 - i); });
  if (name == "back_heavy") return counted(args, name, [](uint64_t i, uint64_t) { return static_cast<double>(i); });
  return "no recipe `" + std::string(name) +
         "`; the recipes are linear, ratios, mul, bin, fib, ln, geom, zipf, pareto, front_heavy and back_heavy";
}

Result<std::vector<Bound>> percentages(const Weights& w) {
  double sum = 0.0;
  for (double x : w) {
    if (!std::isfinite(x) || x < 0.0) return std::string("the recipe's weights are not all finite and at least 0");
    sum += x;
  }
  if (!(sum > 0.0)) return std::string("the recipe's weights add up to 0");
  std::vector<Bound> out;
  for (double x : w) out.push_back(Bound{Bound::Kind::Pct, x / sum * 100.0, 0});
  return out;
}

// The absolute ordinal a range end names.
uint64_t range_end(const Bound& b, uint64_t base_start, uint64_t base_end) {
  const uint64_t extent = base_end > base_start ? base_end - base_start : 0;
  switch (b.kind) {
    case Bound::Kind::Pct: return base_start + share_of(b.value / 100.0, extent);
    case Bound::Kind::Frac: return base_start + share_of(b.value, extent);
    case Bound::Kind::Ord: return std::min(base_start > UINT64_MAX - b.ord ? UINT64_MAX : base_start + b.ord, base_end);
    case Bound::Kind::Star: break;
  }
  return base_start;
}

// The ordinals a delta covers (Star is the caller's).
uint64_t delta_size(const Bound& b, uint64_t extent) {
  switch (b.kind) {
    case Bound::Kind::Pct: return share_of(b.value / 100.0, extent);
    case Bound::Kind::Frac: return share_of(b.value, extent);
    case Bound::Kind::Ord: return b.ord;
    case Bound::Kind::Star: break;
  }
  return 0;
}

Partition make(uint64_t idx, uint64_t start, uint64_t end, uint64_t base_start, uint64_t extent) {
  return Partition{idx, start, end, pct_of(start, base_start, extent), pct_of(end, base_start, extent), extent};
}

}  // namespace

std::optional<double> parse_rust_f64(std::string_view s) {
  std::string_view body = s;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) body.remove_prefix(1);
  std::string lower;
  for (char c : body) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  bool ok = lower == "inf" || lower == "infinity" || lower == "nan";
  if (!ok) {
    const auto digit = [&](size_t i) { return i < body.size() && body[i] >= '0' && body[i] <= '9'; };
    size_t i = 0, digits = 0;
    while (digit(i)) ++i, ++digits;
    if (i < body.size() && body[i] == '.')
      for (++i; digit(i); ++i) ++digits;
    if (digits == 0) return std::nullopt;
    if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
      if (++i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
      const size_t exp = i;
      while (digit(i)) ++i;
      if (i == exp) return std::nullopt;
    }
    ok = i == body.size();
  }
  if (!ok) return std::nullopt;
  return std::strtod(std::string(s).c_str(), nullptr);
}

Expected<PartitionSpec, std::string> parse_partition_spec(std::string_view text) {
  if (text.size() > kMaxPartitionSpecBytes)
    return "the spec is " + std::to_string(text.size()) + " bytes, more than " + std::to_string(kMaxPartitionSpecBytes);
  const std::string s = cleaned(text);
  if (s.empty()) return std::string("the spec is empty");
  // recipe:args, when what comes before the first ':' is a recipe's name.
  if (const size_t colon = s.find(':'); colon != std::string::npos && colon > 0 &&
                                        s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_") >= colon) {
    auto w = recipe_weights(std::string_view(s).substr(0, colon), std::string_view(s).substr(colon + 1));
    if (!w) return w.error();
    auto pct = percentages(*w);
    if (!pct) return pct.error();
    return PartitionSpec{false, std::move(*pct)};
  }
  if (const size_t dots = s.find(".."); dots != std::string::npos) {
    auto a = parse_bound(std::string_view(s).substr(0, dots));
    if (!a) return a.error();
    auto b = parse_bound(std::string_view(s).substr(dots + 2));
    if (!b) return b.error();
    if (a->kind == Bound::Kind::Star || b->kind == Bound::Kind::Star)
      return std::string("`*` takes the rest of a comma list of deltas; a `start..end` range cannot hold it");
    return PartitionSpec{true, {*a, *b}};
  }
  PartitionSpec spec;
  size_t stars = 0;
  for (std::string_view entry : split(s, ',')) {
    if (entry.empty()) return std::string("the list of deltas has an empty entry");
    auto b = parse_bound(entry);
    if (!b) return b.error();
    stars += b->kind == Bound::Kind::Star;
    spec.bounds.push_back(*b);
  }
  if (stars > 1) return "the list of deltas has " + std::to_string(stars) + " `*` entries; one may take the rest";
  return spec;
}

Expected<std::vector<Partition>, std::string> resolve_partitions(const PartitionSpec& spec, uint64_t base_start,
                                                                 uint64_t base_end) {
  if (base_end < base_start)
    return "the range ends (" + std::to_string(base_end) + ") before it starts (" + std::to_string(base_start) + ")";
  const uint64_t extent = base_end - base_start;
  if (spec.single_range) {
    const uint64_t start = range_end(spec.bounds.at(0), base_start, base_end);
    const uint64_t end = range_end(spec.bounds.at(1), base_start, base_end);
    if (end < start)
      return "the range resolves to [" + std::to_string(start) + ".." + std::to_string(end) + ") of [" +
             std::to_string(base_start) + ".." + std::to_string(base_end) + "): its end comes before its start";
    return std::vector<Partition>{make(0, start, end, base_start, extent)};
  }
  uint64_t fixed = 0;
  for (const Bound& b : spec.bounds) {
    if (b.kind == Bound::Kind::Star) continue;
    const uint64_t n = delta_size(b, extent);
    if (n > UINT64_MAX - fixed || fixed + n > extent)
      return "the deltas cover more than the extent of " + std::to_string(extent) +
             " ordinals; shorten the list or let a `*` take the rest";
    fixed += n;
  }
  std::vector<Partition> out;
  uint64_t at = base_start;
  for (const Bound& b : spec.bounds) {
    const uint64_t n = b.kind == Bound::Kind::Star ? extent - fixed : delta_size(b, extent);
    out.push_back(make(out.size(), at, at + n, base_start, extent));
    at += n;
  }
  return out;  // a total short of the extent leaves the tail out
}

Expected<std::vector<Partition>, std::string> partitions_of(std::string_view spec, uint64_t extent) {
  auto s = parse_partition_spec(spec);
  if (!s) return s.error();
  return resolve_partitions(*s, 0, extent);
}

Partition reproject(const Partition& p, uint64_t extent) {
  if (p.base_extent == extent || extent == 0) return p;
  return Partition{p.idx, share_of(p.start_pct / 100.0, extent), share_of(p.end_pct / 100.0, extent), p.start_pct,
                   p.end_pct, extent};
}

const Ty& partition_ty() {
  static const Ty t = Ty::structure("Partition", {{"idx", Ty::u64()},
                                                  {"start_ord", Ty::u64()},
                                                  {"end_ord", Ty::u64()},
                                                  {"start_pct", Ty::scalar(TyKind::F64)},
                                                  {"end_pct", Ty::scalar(TyKind::F64)},
                                                  {"base_extent", Ty::u64()}});
  return t;
}

bool is_partition(const Ty& t) { return t == partition_ty(); }

Value partition_value(const Partition& p) {
  const auto u = [](uint64_t x) { return Value::integer(TyKind::U64, x); };
  return Value::structure(partition_ty(), {u(p.idx), u(p.start_ord), u(p.end_ord), Value::f64(p.start_pct),
                                           Value::f64(p.end_pct), u(p.base_extent)});
}

std::optional<Partition> as_partition(const Value& v) {
  if (!is_partition(v.ty()) || v.elems().size() != 6) return std::nullopt;
  const auto& e = v.elems();
  return Partition{e[kIdx].as_u64(),      e[kStartOrd].as_u64(), e[kEndOrd].as_u64(),
                   e[kStartPct].as_f64(), e[kEndPct].as_f64(),   e[kBaseExtent].as_u64()};
}

std::string partition_display(const Partition& p) {
  return "Partition(" + std::to_string(p.idx) + "/? [" + std::to_string(p.start_ord) + ".." +
         std::to_string(p.end_ord) + ") [" + format_fixed(p.start_pct, 2) + "%.." + format_fixed(p.end_pct, 2) + "%))";
}

}  // namespace polydat::ir
