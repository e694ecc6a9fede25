// One clause expression (already interpolated) -> its list of values, by the
// first form that applies: a range, a named list function, a `[...]` group,
// a comma list of literals, or one GK constant expression.
#include <cmath>

#include "workload/comprehension_detail.h"
#include "workload/values.h"

namespace polydat::workload::comprehension::detail {

namespace {

// Where the top-level `..` (or `..=`) operators are.
struct Dots {
  size_t at;
  bool inclusive;
};
std::vector<Dots> range_operators(std::string_view t) {
  std::vector<Dots> out;
  size_t skip_to = 0;
  scan(t, [&](size_t i, size_t depth) {
    if (i < skip_to || depth != 0 || t[i] != '.' || i + 1 >= t.size() || t[i + 1] != '.') return true;
    const bool inclusive = i + 2 < t.size() && t[i + 2] == '=';
    out.push_back(Dots{i, inclusive});
    skip_to = i + (inclusive ? 3 : 2);
    return true;
  });
  return out;
}

// nb-rs's integer range: u64 values, none of them negative.
Result<Values> integer_range(__int128 s, __int128 e, __int128 step, bool inclusive, std::string_view src) {
  for (const __int128 v : {s, e, step})
    if (v > INT64_MAX || v < INT64_MIN) return eval_failure("range `" + std::string(src) + "`: a bound beyond 64-bit signed");
  if (step == 0) return eval_failure("range `" + std::string(src) + "`: the step is 0");
  const __int128 span = step > 0 ? e - s : s - e;  // how far the range runs in its step's direction
  const __int128 stride = step > 0 ? step : -step;
  const __int128 count = span < 0 || (span == 0 && !inclusive) ? 0 : (span - (inclusive ? 0 : 1)) / stride + 1;
  if (count == 0) return Values{};
  if (auto st = check_size(static_cast<size_t>(std::min<__int128>(count, kMaxTuples + 1)), "a range"); !st)
    return st.error();
  const __int128 last = s + (count - 1) * step;
  if (std::min(s, last) < 0)
    return eval_failure("range `" + std::string(src) +
                        "` reaches a negative value; integer ranges are u64 (write a float bound, `-1.0`, for a "
                        "signed walk)");
  Values out;
  out.reserve(static_cast<size_t>(count));
  for (__int128 k = 0; k < count; ++k)
    out.push_back(ir::Value::integer(ir::TyKind::U64, static_cast<uint64_t>(s + k * step)));
  return out;
}

// nb-rs's float range: repeated addition of the step, ends compared within 1e-12.
Result<Values> float_range(double s, double e, double step, bool inclusive, std::string_view src) {
  if (step == 0) return eval_failure("range `" + std::string(src) + "`: the step is 0");
  if ((!std::signbit(e - s) && step < 0) || (std::signbit(e - s) && step > 0)) return Values{};
  auto more = [&](double x) {
    if (step > 0) return inclusive ? x <= e + 1e-12 : x < e - 1e-12;
    return inclusive ? x >= e - 1e-12 : x > e + 1e-12;
  };
  Values out;
  for (double cur = s; more(cur); cur += step) {
    out.push_back(ir::Value::f64(cur));
    if (auto st = check_size(out.size(), "a range"); !st) return st.error();
  }
  return out;
}

// A value eval_const_expr gave, as a list: a str is read as a comma list (nb-rs's rule).
Result<Values> values_of(const ir::Value& v) {
  const ir::TyKind k = v.ty().kind();
  if (k == ir::TyKind::Tuple || k == ir::TyKind::Struct || k == ir::TyKind::Unit)
    return eval_failure("an expression gives " + ir::render(v) + ", not a value to iterate");
  if (k != ir::TyKind::Str) return Values{v};
  Values out;
  for (const Piece& p : split_commas_plain(v.as_str())) {
    if (p.text.empty()) continue;
    auto item = typed_item(p.text, false);
    if (!item) return item.error();
    out.push_back(std::move(*item));
    if (auto st = check_size(out.size(), "a list"); !st) return st.error();
  }
  return out;
}

}  // namespace

Result<Values> eval_range(std::string_view t, const ExprContext& cx) {
  const std::vector<Dots> ops = range_operators(t);
  if (ops.size() > 2)
    return eval_failure("range `" + std::string(t) + "`: more than two `..` (it reads a..b, a..=b, a..b..step or a..=b..step)");
  if (ops.size() == 2 && ops[1].inclusive)
    return eval_failure("range `" + std::string(t) + "`: only the first `..` may be `..=`");
  const bool inclusive = ops[0].inclusive;
  const size_t end_from = ops[0].at + (inclusive ? 3 : 2);
  const std::string_view start = t.substr(0, ops[0].at);
  const std::string_view end = ops.size() == 2 ? t.substr(end_from, ops[1].at - end_from) : t.substr(end_from);
  std::vector<Number> n;
  const std::pair<std::string_view, const char*> parts[] = {
      {start, "the range's start"}, {end, "the range's end"},
      {ops.size() == 2 ? t.substr(ops[1].at + 2) : std::string_view("1"), "the range's step"}};
  for (const auto& [text, what] : parts) {
    const Piece p = trimmed(text);
    if (p.text.empty()) return eval_failure(std::string(what) + " is empty in `" + std::string(t) + "`");
    auto v = eval_number(p.text, cx.names, what);
    if (!v) return v.error();
    n.push_back(*v);
  }
  if (n[0].is_float || n[1].is_float || n[2].is_float)
    return float_range(n[0].as_double(), n[1].as_double(), n[2].as_double(), inclusive, t);
  return integer_range(n[0].i, n[1].i, n[2].i, inclusive, t);
}

Result<Values> eval_expr(std::string_view text, const ExprContext& cx, size_t depth) {
  if (depth > kMaxDepth) return too_large("calls nested more than " + std::to_string(kMaxDepth) + " deep");
  const std::string_view t = trimmed(text).text;
  if (t.empty()) return eval_failure("an empty expression");
  if (!range_operators(t).empty()) return eval_range(t, cx);
  if (const auto call = call_of(t))
    if (auto r = eval_list_call(call->first, call->second.text, cx, depth)) return std::move(*r);
  if (wrapped(t, '[', ']')) {  // polydat's [a, b, c]: the list inside
    if (trimmed(t.substr(1, t.size() - 2)).text.empty()) return Values{};
    return eval_expr(t.substr(1, t.size() - 2), cx, depth + 1);
  }
  auto literal = literal_list(t);
  if (!literal) return literal.error();
  if (split_commas(t).size() > 1) {
    if (*literal) return std::move(**literal);
    return eval_failure("`" + std::string(t) +
                        "` is neither a list of literals (no operators, calls or brackets in its items) nor one "
                        "expression");
  }
  // One item: a GK constant expression, else (a bare word, a number GK does not read) a literal.
  auto src = gk_source(t);
  if (!src) return src.error();
  if (auto v = embed::eval_const_expr(*src)) return values_of(*v);
  if (*literal) return std::move(**literal);
  auto v = eval_scalar(t, cx.names);  // an expression reading names: they are bound here
  if (!v) return v.error();
  return values_of(*v);
}

}  // namespace polydat::workload::comprehension::detail
