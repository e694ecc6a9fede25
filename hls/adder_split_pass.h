// Carry chains longer than a clock period allows are cut into pieces of at
// most CarryCuts bits whose carries link them: an addition becomes a chain of
// narrower additions, each piece's carry out the next piece's carry in; a
// subtraction is a + ~b + 1 cut the same way; an ordered comparison is the
// carry out of such a chain. The scheduler can then put a register between
// pieces (the carry is registered, the high piece runs a step later).
#pragma once

#include "hls/carry_cuts.h"
#include "hls/dfg.h"

namespace polydat::hls {

Dfg adder_split_pass(const Dfg& g, const CarryCuts& cuts);

}  // namespace polydat::hls
