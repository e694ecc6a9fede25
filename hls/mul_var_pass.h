// Multiplications of two variables become hardware the scheduler can
// pipeline. The operands split into 16-bit limbs; of the limb products only
// those reaching below the result's width are built (the low product), each
// either as a 16 x 16 multiplication bound to a DSP block (a Mul with param
// 1, at most 32 result bits) or as rows of ANDs, x & replicate(y[k]) shifted
// by k, in LUTs. Everything is summed by one tree of shifted terms with
// aligned carry cuts (hls/shifted_sum.h), so no combinational multiplier
// array is left for Yosys to build. A square is built from its symmetry: each
// cross product once, doubled by a shift. A limb of 4 bits or fewer, or a
// product of fewer than 11 bits, is rows only (a block would be wasted, and
// Yosys would not map it); a 1-bit operand is a single And.
//
// DSP blocks: a pipeline needs one block per product, so the products that
// would cost most in LUTs get the blocks the budget has left (counted over
// the whole graph, DSP multiplications already in it included). An FSM can
// share blocks across its states: every product that suits a block gets one,
// and the scheduler allows at most the budget per state. A pipeline at an
// initiation interval ii shares each block across its ii slots: ii products
// a block, and the blocks left after the products of two variables go to
// multiplications by constants (largest first, only if every limb product of
// one fits: a constant's shift-and-add tree beats a part-binary one), the
// constant's limb on the block's second input.
#pragma once

#include <cstdint>
#include <set>
#include <utility>

#include "hls/carry_cuts.h"
#include "hls/dfg.h"
#include "hls/dfg_builder.h"

namespace polydat::hls {

struct MulVarOptions {
  DesignKind kind = DesignKind::Pipeline;
  uint32_t dsp_limit = 0;  // DSP blocks the design may use (0: every product in LUTs)
  CarryCuts cuts;
  // A pipeline's initiation interval: each block serves ii products, one per slot. Above 1,
  // multiplications by constants take the blocks left too, each whole or not at all.
  uint32_t ii = 1;
};

// Limb product (i, j): limb i of x times limb j of y (i <= j for a square).
using LimbPairs = std::set<std::pair<unsigned, unsigned>>;

// The limb products of x * y at `width` bits worth a DSP block, the ones
// costing most in LUTs first (x == y: a square).
struct DspCandidate {
  unsigned i, j;
  unsigned lut_bits;  // its partial-product bits: what it costs in LUTs, about twice that in cells
};
std::vector<DspCandidate> dsp_candidates(unsigned x_width, unsigned y_width, unsigned width, bool square);

// x * y at `width` bits (the low bits of the product; the operands
// zero-extended), the limb products in `dsp` as DSP multiplications and the
// rest as rows of ANDs, summed by a tree of shifted terms cut at `cuts`.
// Pairs in `dsp` that are no candidates are built in LUTs.
ValueId lower_variable_multiply(DfgBuilder& b, ValueId x, ValueId y, unsigned width, const LimbPairs& dsp,
                                const CarryCuts& cuts = {});

// Every live multiplication of two variables (not one already in a DSP block), lowered.
Dfg mul_var_pass(const Dfg& g, const MulVarOptions& options);

}  // namespace polydat::hls
