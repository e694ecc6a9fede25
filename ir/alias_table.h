// nb-rs's alias tables (Vose's method in nb-rs's queue order) and its way of
// sampling one: the weighted choices build them when a kernel is built, the
// library's dynamic_weighted_select when its spec arrives.
#pragma once

#include <cstdint>
#include <vector>

namespace polydat::ir {

struct AliasTable {
  std::vector<double> bias;
  std::vector<uint32_t> alias;
};

// nb-rs's AliasTableU64::from_weights: scaled weights, small and large queues in
// index order, each small slot taking the front large one's excess. Weights
// must be non-empty with a positive sum (nb-rs asserts both).
AliasTable alias_table(const std::vector<double>& weights);

// nb-rs's AliasTableU64::sample: slot x % n, kept when (x >> 32) / (2^32 - 1)
// is below its bias, else its alias.
uint32_t alias_sample(const AliasTable& t, uint64_t x);

}  // namespace polydat::ir
