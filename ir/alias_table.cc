#include "ir/alias_table.h"

#include <cstddef>
#include <deque>

namespace polydat::ir {

AliasTable alias_table(const std::vector<double>& weights) {
  const size_t n = weights.size();
  double sum = 0;
  for (double w : weights) sum += w;  // in order, as Rust's iter().sum()
  const double scale = static_cast<double>(n) / sum;
  std::vector<double> scaled;
  for (double w : weights) scaled.push_back(w * scale);
  std::deque<uint32_t> small, large;
  for (uint32_t i = 0; i < n; ++i) (scaled[i] < 1.0 ? small : large).push_back(i);
  AliasTable t{std::vector<double>(n, 1.0), {}};
  for (uint32_t i = 0; i < n; ++i) t.alias.push_back(i);
  while (!small.empty() && !large.empty()) {
    const uint32_t s = small.front(), l = large.front();
    small.pop_front();
    large.pop_front();
    t.bias[s] = scaled[s];
    t.alias[s] = l;
    scaled[l] -= 1.0 - scaled[s];
    (scaled[l] < 1.0 ? small : large).push_back(l);
  }
  return t;  // the slots left in either queue keep bias 1.0
}

uint32_t alias_sample(const AliasTable& t, uint64_t x) {
  const uint64_t slot = x % t.bias.size();
  const double frac = static_cast<double>(x >> 32) / 4294967295.0;
  return frac < t.bias[slot] ? static_cast<uint32_t>(slot) : t.alias[slot];
}

}  // namespace polydat::ir
