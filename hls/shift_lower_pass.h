// Shifts and rotations by a variable amount become logarithmic shifters: one
// level of 2:1 muxes per amount bit (shift by 2^k where bit k is set), each
// one LUT level per output bit, so the scheduler can put the levels of a wide
// shifter into successive steps. An amount of w or more (w the width) is one
// OrReduce of the amount's high bits choosing 0, or the sign fill, after the
// last level; a rotation reads only the amount's low log2(w) bits. Amount bits
// known to be constant (narrow_pass leaves them as constants) cost no level.
// See docs/hls-shifts.md.
#pragma once

#include "hls/dfg.h"
#include "hls/dfg_builder.h"

namespace polydat::hls {

// x (Shl, Shr: logical, or arithmetic with `sgn`; Rotl, Rotr) by `amount`
// (any width, unsigned) at x's width, as levels of muxes and wiring.
ValueId lower_variable_shift(DfgBuilder& b, Op op, bool sgn, ValueId x, ValueId amount);

// Every live shift and rotation, lowered (one by a constant is wiring already).
Dfg shift_lower_pass(const Dfg& g);

}  // namespace polydat::hls
