// Sums of shifted terms: the adder trees that multiplications become. Each
// term is a value placed at some bit of the sum; a balanced tree adds them,
// every adder spanning only the bits where its operands can be nonzero
// (above the higher one's known-zero low bits, up to the wider one's top bit
// plus its carry), and every carry chain is cut at the sum's aligned cut
// points, so a pipelined tree costs one step per level plus one. Terms that
// do not overlap are joined by wiring before any adder is built.
#pragma once

#include <vector>

#include "hls/carry_cuts.h"
#include "hls/dfg.h"
#include "hls/dfg_builder.h"

namespace polydat::hls {

struct ShiftedTerm {
  ValueId v;           // read zero-extended
  unsigned shift = 0;  // its bit 0 sits at this bit of the sum
  bool owed = false;   // plus 2^shift (a negated term's +1, paid on an adder's carry in)
};

// The sum of the terms modulo 2^width (0 when there are none). Bits of a term
// at or above `width` are dropped.
ValueId sum_shifted_terms(DfgBuilder& b, const std::vector<ShiftedTerm>& terms, unsigned width,
                          const CarryCuts& cuts = {});

}  // namespace polydat::hls
