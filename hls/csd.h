// Canonical signed digits: a constant as a sum of +-2^i terms, at most one
// nonzero digit in any two neighbours (the non-adjacent form), which is the
// fewest terms any signed-digit form has. Multiplications by constants are
// built and costed from it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace polydat::hls {

// The nonzero digits (position, +1 or -1) of c's non-adjacent form modulo
// 2^width, lowest first (digits at or above the width drop out).
std::vector<std::pair<unsigned, int>> csd_digits(uint64_t c, unsigned width);

// The digits a shift-and-add multiplier sums: the binary ones when there are no
// more of them than signed digits (no term needs inverting), else csd_digits.
std::vector<std::pair<unsigned, int>> shift_add_digits(uint64_t c, unsigned width);

}  // namespace polydat::hls
