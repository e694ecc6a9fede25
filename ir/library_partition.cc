// The library functions a cursor's `over "spec"` lowers to: the fields of the
// spec's first partition against [0, extent), and the reason a spec does not
// resolve ("" when it does). The names start with "__": the frontend calls
// them for `over`, kernels do not name them.
#include <string>

#include "ir/library_fn.h"
#include "ir/partition.h"

namespace polydat::ir {

namespace {

using Args = std::span<const Value>;

// The first partition of (spec, extent), remembered for the last pair asked:
// a kernel asks once per field per evaluation with one spec.
const Expected<Partition, std::string>& first_partition(const Value& spec, const Value& extent) {
  thread_local std::string last_spec;
  thread_local uint64_t last_extent = 0;
  thread_local Expected<Partition, std::string> last = std::string("unset");
  thread_local bool known = false;
  if (!known || last_spec != spec.as_str() || last_extent != extent.as_u64()) {
    auto parts = partitions_of(spec.as_str(), extent.as_u64());
    if (!parts) last = parts.error();
    else last = parts->front();
    last_spec = spec.as_str();
    last_extent = extent.as_u64();
    known = true;
  }
  return last;
}

Value u64_field(Args a, uint64_t Partition::*field) {
  const auto& p = first_partition(a[0], a[1]);
  return Value::integer(TyKind::U64, p ? (*p).*field : 0);
}
Value f64_field(Args a, double Partition::*field) {
  const auto& p = first_partition(a[0], a[1]);
  return Value::f64(p ? (*p).*field : 0.0);
}

Value eval_start(Args a) { return u64_field(a, &Partition::start_ord); }
Value eval_end(Args a) { return u64_field(a, &Partition::end_ord); }
Value eval_start_pct(Args a) { return f64_field(a, &Partition::start_pct); }
Value eval_end_pct(Args a) { return f64_field(a, &Partition::end_pct); }
Value eval_problem(Args a) {
  const auto& p = first_partition(a[0], a[1]);
  return Value::str(p ? std::string() : p.error());
}

using enum LibTy;

// The order is the IR id order: append, never reorder.
const LibraryFn kPartitionFns[] = {
    {"__partition_start", {Str, U64}, {"spec", "extent"}, U64, false,
     "the first ordinal of the spec's first partition against [0, extent) (0 when the spec does not resolve)", eval_start},
    {"__partition_end", {Str, U64}, {"spec", "extent"}, U64, false,
     "one past the last ordinal of the spec's first partition (0 when the spec does not resolve)", eval_end},
    {"__partition_start_pct", {Str, U64}, {"spec", "extent"}, F64, false,
     "where the spec's first partition starts, in percent of extent", eval_start_pct},
    {"__partition_end_pct", {Str, U64}, {"spec", "extent"}, F64, false,
     "where the spec's first partition ends, in percent of extent", eval_end_pct},
    {"__partition_problem", {Str, U64}, {"spec", "extent"}, Str, false,
     "why the spec does not resolve against [0, extent), or \"\" when it does", eval_problem},
};

}  // namespace

std::span<const LibraryFn> partition_library_fns() { return kPartitionFns; }

}  // namespace polydat::ir
