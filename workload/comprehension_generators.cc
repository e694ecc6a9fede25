// The named list functions of clause expressions, as nb-rs computes them:
// generators (fib, pow2, geometric, subdivide, log_steps, ...) and
// all(cursor) and partitions(spec) here, set operations and sequencers in comprehension_setops.cc.
// Scalar arguments are GK constant expressions; list arguments are clause
// expressions themselves.
#include <cmath>

#include "ir/partition.h"
#include "workload/comprehension_detail.h"
#include "workload/values.h"

namespace polydat::workload::comprehension::detail {

namespace {


// ---------------------------------------------------------------------------
// Generators

// The arguments as numbers, by `kinds`: 'n' any number, 'c' a whole number of 0 or more.
Result<std::vector<Number>> scalars(const Call& c, std::string_view kinds) {
  std::vector<Number> out;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == 'c') {
      auto n = c.count(i);
      if (!n) return n.error();
      out.push_back(Number{false, *n, 0});
    } else {
      auto n = c.number(i);
      if (!n) return n.error();
      out.push_back(*n);
    }
  }
  return out;
}
uint64_t count_of(const Number& n) { return static_cast<uint64_t>(n.i); }

// A generator of scalar arguments: fetches them by `Kinds`, then runs F.
template <const char* Kinds, Result<Values> (*F)(const std::vector<Number>&)>
Result<Values> generator(const Call& c) {
  auto a = scalars(c, Kinds);
  if (!a) return a.error();
  return F(*a);
}
constexpr char kCount[] = "c", kTwoNumbersCount[] = "nnc", kThreeNumbers[] = "nnn";

Result<Values> fib(const std::vector<Number>& a) {
  const uint64_t n = count_of(a[0]);
  if (auto st = check_size(n, "fib"); !st) return st.error();
  Values out;
  for (uint64_t x = 1, y = 1, k = 0; k < n; ++k) {
    out.push_back(u64_value(x));
    const uint64_t next = x > UINT64_MAX - y ? UINT64_MAX : x + y;  // nb-rs saturates
    x = y;
    y = next;
  }
  return out;
}

Result<Values> fib_until(const std::vector<Number>& a) {
  Values out;
  for (uint64_t x = 1, y = 1; x <= count_of(a[0]);) {
    out.push_back(u64_value(x));
    if (x > UINT64_MAX - y) break;
    const uint64_t next = x + y;
    x = y;
    y = next;
  }
  return out;
}

Result<Values> pow2(const std::vector<Number>& a) {
  Values out;
  for (uint64_t i = 0; i < std::min<uint64_t>(count_of(a[0]), 64); ++i) out.push_back(u64_value(uint64_t{1} << i));
  return out;
}

Result<Values> pow2_until(const std::vector<Number>& a) {
  Values out;
  for (uint64_t v = 1; v <= count_of(a[0]); v *= 2) {
    out.push_back(u64_value(v));
    if (v > UINT64_MAX / 2) break;
  }
  return out;
}

Result<Values> binomial(const std::vector<Number>& a) {
  const uint64_t n = count_of(a[0]);
  Values out{u64_value(1)};
  unsigned __int128 v = 1;
  for (uint64_t k = 1; k <= n; ++k) {  // stops at the first coefficient past 64 bits, as nb-rs
    v = v * (n - k + 1) / k;
    if (v > UINT64_MAX) break;
    out.push_back(u64_value(static_cast<uint64_t>(v)));
  }
  return out;
}

Result<Values> geometric(const std::vector<Number>& a) {
  const uint64_t n = count_of(a[2]);
  if (auto st = check_size(n, "geometric"); !st) return st.error();
  Values out;
  double v = a[0].as_double();
  for (uint64_t k = 0; k < n; ++k, v *= a[1].as_double()) out.push_back(ir::Value::f64(v));
  return out;
}

Result<Values> geometric_until(const std::vector<Number>& a) {
  const double start = a[0].as_double(), f = a[1].as_double(), max = a[2].as_double();
  Values out;
  if (f <= 1.0 || start <= 0.0 || max <= 0.0) return out;  // nb-rs: only a growing walk
  for (double v = start; v <= max; v *= f) {
    out.push_back(ir::Value::f64(v));
    if (auto st = check_size(out.size(), "geometric_until"); !st) return st.error();
  }
  return out;
}

template <bool Inclusive>
Result<Values> subdivide(const std::vector<Number>& a) {
  const uint64_t n = count_of(a[2]);
  if (auto st = check_size(n, "subdivide"); !st) return st.error();
  Values out;
  if (n == 0) return out;
  const double denom = static_cast<double>(Inclusive ? std::max<uint64_t>(n - 1, 1) : n);
  const double s = a[0].as_double(), step = (a[1].as_double() - s) / denom;
  for (uint64_t i = 0; i < n; ++i) out.push_back(ir::Value::f64(s + step * static_cast<double>(i)));
  return out;
}

Result<Values> log_steps(const std::vector<Number>& a) {
  const double s = a[0].as_double(), e = a[1].as_double();
  const uint64_t n = count_of(a[2]);
  if (s <= 0.0 || e <= 0.0)
    return eval_failure("log_steps needs positive bounds, not " + op_text(ir::Value::f64(s)) + " and " +
                        op_text(ir::Value::f64(e)));
  if (auto st = check_size(n, "log_steps"); !st) return st.error();
  if (n <= 1) return n == 0 ? Values{} : Values{ir::Value::f64(s)};
  const double ls = std::log(s), step = (std::log(e) - ls) / static_cast<double>(n - 1);
  Values out;
  for (uint64_t i = 0; i < n; ++i) out.push_back(ir::Value::f64(std::exp(ls + step * static_cast<double>(i))));
  return out;
}

// ---------------------------------------------------------------------------

Result<Values> all(const Call& c) {
  const std::string_view name = c.args[0].text;
  if (!is_identifier(name)) return eval_failure("all() takes a cursor's name, not `" + std::string(name) + "`");
  const auto extent = c.cx.env.cursor_extent ? c.cx.env.cursor_extent(name) : std::nullopt;
  if (!extent)
    return eval_failure("all(" + std::string(name) + "): no cursor `" + std::string(name) +
                        "` with a known extent is declared here or in a scope around it");
  const auto [start, end] = *extent;
  if (end < start)
    return eval_failure("all(" + std::string(name) + "): the cursor ends (" + std::to_string(end) + ") before it starts (" +
                        std::to_string(start) + ")");
  if (auto st = check_size(static_cast<size_t>(std::min<uint64_t>(end - start, kMaxTuples + 1)), "all()"); !st)
    return st.error();
  Values out;
  for (uint64_t v = start; v < end; ++v) out.push_back(u64_value(v));
  return out;
}

// nb-rs's partitions(spec, extent = 100): one value per partition of spec over [0, extent) (ir/partition.h).
Result<Values> partitions(const Call& c) {
  auto spec = eval_scalar(c.args[0].text, c.cx.names);
  if (!spec) return spec.error();
  if (!spec->ty().is_str())
    return eval_failure("partitions() takes its spec as a str (\"linear:4\", \"0..50%\"), not " + op_text(*spec) + " (" +
                        ir::ty_label(spec->ty()) + ")");
  uint64_t extent = 100;
  if (c.args.size() > 1) {
    auto n = c.count(1);
    if (!n) return n.error();
    extent = *n;
  }
  auto parts = ir::partitions_of(spec->as_str(), extent);
  if (!parts)
    return Failure{"bad-partition-spec", "partitions(\"" + spec->as_str() + "\", " + std::to_string(extent) + "): " + parts.error()};
  if (auto st = check_size(parts->size(), "partitions()"); !st) return st.error();
  Values out;
  for (const ir::Partition& p : *parts) out.push_back(ir::partition_value(p));
  return out;
}

Result<Values> zip_outside_clause(const Call& c) {
  return eval_failure(std::string(c.name) + "(...) is the right side of a zipped clause, `(a, b) in " +
                      std::string(c.name) + "(E1, E2)`, not an expression");
}

constexpr ListFn kFunctions[] = {
    {"fib", 1, 1, generator<kCount, fib>},
    {"fib_until", 1, 1, generator<kCount, fib_until>},
    {"pow2", 1, 1, generator<kCount, pow2>},
    {"pow2_until", 1, 1, generator<kCount, pow2_until>},
    {"binomial", 1, 1, generator<kCount, binomial>},
    {"geometric", 3, 3, generator<kTwoNumbersCount, geometric>},
    {"geometric_until", 3, 3, generator<kThreeNumbers, geometric_until>},
    {"subdivide", 3, 3, generator<kTwoNumbersCount, subdivide<false>>},
    {"subdivide_inclusive", 3, 3, generator<kTwoNumbersCount, subdivide<true>>},
    {"linear_steps", 3, 3, generator<kTwoNumbersCount, subdivide<true>>},
    {"log_steps", 3, 3, generator<kTwoNumbersCount, log_steps>},
    {"all", 1, 1, all},
    {"partitions", 1, 2, partitions},
    {"zip_truncate", 0, kMany, zip_outside_clause},
    {"zip_cycle", 0, kMany, zip_outside_clause},
};

}  // namespace

std::optional<Result<Values>> eval_list_call(std::string_view name, std::string_view args, const ExprContext& cx,
                                             size_t depth) {
  const ListFn* fn = nullptr;
  for (const ListFn& f : kFunctions)
    if (f.name == name) fn = &f;
  for (const ListFn& f : set_functions())
    if (f.name == name) fn = &f;
  if (!fn) return std::nullopt;
  const std::vector<Piece> list = trimmed(args).text.empty() ? std::vector<Piece>{} : split_commas(args);
  for (const Piece& p : list)
    if (p.text.empty()) return Result<Values>(eval_failure("an empty argument to " + std::string(name) + "()"));
  if (list.size() < fn->min_args || list.size() > fn->max_args) {
    const std::string want = fn->min_args == fn->max_args ? std::to_string(fn->min_args)
                             : fn->max_args == kMany      ? std::to_string(fn->min_args) + " or more"
                                                          : std::to_string(fn->min_args) + " or " + std::to_string(fn->max_args);
    return Result<Values>(eval_failure(std::string(name) + "() takes " + want + " argument" + (want == "1" ? "" : "s") +
                                       ", not " + std::to_string(list.size())));
  }
  return fn->run(Call{name, list, cx, depth});
}

}  // namespace polydat::workload::comprehension::detail
