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
#include "hls/op_library.h"

namespace polydat::hls {

// x (Shl, Shr: logical, or arithmetic with `sgn`; Rotl, Rotr) by `amount`
// (any width, unsigned) at x's width, as levels of muxes and wiring.
ValueId lower_variable_shift(DfgBuilder& b, Op op, bool sgn, ValueId x, ValueId amount);

// Which operators the lowering passes rewrite.
struct LowerOptions {
  Target target = Target::Ice40;
  double clock_ns = kIce40ClockNs;
};

// Whether operation v of g is worth lowering: on iCE40 always (the LUT levels
// are faster than the single operator at every width and about as large); on
// other targets only when the operator is longer than a step at the clock.
bool lowering_pays(const Dfg& g, ValueId v, const LowerOptions& options);

// Every live shift and rotation worth lowering, lowered (one by a constant is wiring already).
Dfg shift_lower_pass(const Dfg& g, const LowerOptions& options = {});

}  // namespace polydat::hls
