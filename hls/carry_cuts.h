// Where carry chains are cut so that each piece fits a clock step: a piece
// whose carry out is registered (or read by the next piece) may span
// `carry_bits`, the topmost piece, whose sum bits enter their own cells'
// flip-flops, `top_bits`. Cuts sit at fixed positions of a value (multiples of
// carry_bits from bit 0), so the pieces of a tree of additions line up and
// each level's low pieces run a step ahead of its high ones.
#pragma once

#include <vector>

#include "hls/op_library.h"

namespace polydat::hls {

struct CarryCuts {
  unsigned carry_bits = 64;
  unsigned top_bits = 64;
  unsigned sub_bits = 64;  // the widest subtraction that fits a step whole (b's inversion costs a LUT level)

  // The cut positions of a chain over bits [0, width), in increasing order.
  std::vector<unsigned> points(unsigned width) const;
};

// The cuts that fit a step at this clock on this target (none for the generic target).
CarryCuts carry_cuts(Target t, double clock_ns);

}  // namespace polydat::hls
