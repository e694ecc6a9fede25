// Cursor partitions, as nb-rs defines them (cursor_partition.rs): a spec
// string names sub-ranges of a cursor's ordinals; resolved against an extent
// it gives partitions with absolute ordinals. The spec forms:
//
//   start..end          one partition (`0..53%`, `100..500`, `0.1..800`; brackets ignored)
//   d1,d2,...           consecutive deltas from 0 (`2%,10%,*`; one `*` takes the rest;
//                       a shorter total leaves the tail out, a longer one is refused)
//   recipe:args         weights made into percentage deltas: linear:N, ratios:a,b,..,
//                       mul:R, mul:S,R, bin:N, fib:N, ln:N, geom:N,R, zipf:s,N,
//                       pareto:a,N, front_heavy:N, back_heavy:N
//
// A number is a percentage (`53%`, 0..100), a fraction (has a '.', 0..1) or
// an ordinal (a bare integer). In a kernel a partition is a value of the
// struct type partition_ty(); the workload runner and the engines carry it
// as that struct.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expected.h"
#include "ir/ty.h"
#include "ir/value.h"

namespace polydat::ir {

// A spec resolves to at most this many partitions (a recipe's count included).
inline constexpr uint64_t kMaxPartitions = 1 << 20;
// Specs longer than this are refused.
inline constexpr size_t kMaxPartitionSpecBytes = 1 << 16;

struct Partition {
  uint64_t idx = 0;        // its place in the resolved list
  uint64_t start_ord = 0;  // first ordinal
  uint64_t end_ord = 0;    // one past the last
  double start_pct = 0;    // start_ord as a percentage of the extent it was resolved against
  double end_pct = 0;
  uint64_t base_extent = 0;  // that extent
  uint64_t cardinality() const { return end_ord - start_ord; }
  friend bool operator==(const Partition&, const Partition&) = default;
};

// One number of a spec.
struct Bound {
  enum class Kind : uint8_t { Pct, Frac, Ord, Star } kind = Kind::Ord;
  double value = 0;  // Pct (0..100), Frac (0..1)
  uint64_t ord = 0;  // Ord
};

struct PartitionSpec {
  bool single_range = false;  // `start..end`: bounds holds the two ends
  std::vector<Bound> bounds;  // else the deltas
};

// The text of a spec as nb-rs reads it. Errors say what is wrong with which part.
Expected<PartitionSpec, std::string> parse_partition_spec(std::string_view text);
// The partitions of `spec` over the ordinals [base_start, base_end).
Expected<std::vector<Partition>, std::string> resolve_partitions(const PartitionSpec& spec, uint64_t base_start,
                                                                 uint64_t base_end);
// Both, against [0, extent): what `partitions(spec, extent)` and a cursor's `over "spec"` use.
Expected<std::vector<Partition>, std::string> partitions_of(std::string_view spec, uint64_t extent);

// nb-rs's `over` with a partition resolved against another extent: the same
// percentages re-resolved against `extent` (unchanged when the extents agree or `extent` is 0).
Partition reproject(const Partition& p, uint64_t extent);

// The IR type of a partition: struct Partition {idx, start_ord, end_ord: u64;
// start_pct, end_pct: f64; base_extent: u64}, fields in that order.
const Ty& partition_ty();
bool is_partition(const Ty& t);
enum PartitionField : uint32_t { kIdx = 0, kStartOrd, kEndOrd, kStartPct, kEndPct, kBaseExtent };
Value partition_value(const Partition& p);
std::optional<Partition> as_partition(const Value& v);

// How nb-rs shows a partition: "Partition(2/? [100..500) [10.00%..50.00%))".
std::string partition_display(const Partition& p);

// Rust's f64 grammar ([+-], digits with an optional '.', an exponent; inf,
// infinity, nan in any case), read to the nearest double. nullopt otherwise.
std::optional<double> parse_rust_f64(std::string_view s);

}  // namespace polydat::ir
