#include "hls/csd.h"

#include <bit>

#include "hls/dfg_eval.h"

namespace polydat::hls {

std::vector<std::pair<unsigned, int>> csd_digits(uint64_t c, unsigned width) {
  std::vector<std::pair<unsigned, int>> digits;
  // An odd remainder takes digit 2 - (c mod 4), which leaves it divisible by 4;
  // computed on 65 bits, as the remainder may grow by one before it shrinks.
  unsigned __int128 r = c & width_mask(width);
  for (unsigned i = 0; r != 0 && i < width; ++i) {
    if (r & 1) {
      const int d = (r & 3) == 1 ? 1 : -1;
      if (d > 0) r -= 1;
      else r += 1;
      digits.emplace_back(i, d);
    }
    r >>= 1;
  }
  return digits;
}

std::vector<std::pair<unsigned, int>> shift_add_digits(uint64_t c, unsigned width) {
  auto digits = csd_digits(c, width);
  c &= width_mask(width);
  if (static_cast<size_t>(std::popcount(c)) > digits.size()) return digits;
  digits.clear();
  for (unsigned i = 0; i < width; ++i)
    if ((c >> i) & 1) digits.emplace_back(i, 1);
  return digits;
}

}  // namespace polydat::hls
