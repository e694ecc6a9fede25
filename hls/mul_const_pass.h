// Multiplications by constants become what a hardware engineer builds by
// hand: the constant in canonical signed digits (non-adjacent form, so at most
// one digit in two is nonzero), one term x << i per digit, negative digits as
// ~x << i whose +2^i correction rides on an adder's carry in, and a balanced
// tree of additions of shifted terms in which each adder only spans the bits
// above its operands' known-zero low bits. Narrow operands (up to 4 bits) take
// a table instead, a 1-bit operand is wiring.
#pragma once

#include <cstdint>
#include <vector>

#include "hls/carry_cuts.h"
#include "hls/csd.h"
#include "hls/dfg.h"
#include "hls/dfg_builder.h"

namespace polydat::hls {

// x * c at `width` bits (the low bits of the product; x zero-extended), built
// from additions, wiring and tables. Every adder's carry chain is cut at the
// product's cut points (the pieces linked by their carries): cuts at the same
// positions of every partial sum let each level's low pieces run a step ahead
// of its high pieces, so a pipelined tree costs one step per level plus one.
ValueId lower_constant_multiply(DfgBuilder& b, ValueId x, uint64_t c, unsigned width, const CarryCuts& cuts = {});

// Every live multiplication with a constant operand, lowered.
Dfg mul_const_pass(const Dfg& g, const CarryCuts& cuts = {});

}  // namespace polydat::hls
