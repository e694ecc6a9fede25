#include "text/closest_name.h"

#include <algorithm>
#include <vector>

namespace polydat::text {

namespace {
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;  // suggest only near misses
  for (const std::string& c : candidates) {
    if (name.size() > 64 || c.size() > 64) continue;
    const size_t d = edit_distance(name, c);
    if (d < best_d || (d == best_d && !best.empty() && c < best)) {
      if (d < best_d) best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace polydat::text
