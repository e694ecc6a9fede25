// The input multiplexers of a unit shared across a pipeline's slots (II above 1), counted in
// LUT4s per operand bit: what binding minimises and what the cell model adds to the unit.
#pragma once

#include <vector>

#include "hls/design.h"

namespace polydat::hls {

// `ops` share one unit, each in its own slot. Per operand position and bit: the distinct
// variable sources (a value and the register or wire carrying it at the op's step) and, as one
// more input, the constants (a function of the slot counter); n inputs take n - 1 LUTs, one
// more when the constants differ between slots beside a variable. Constants alone that differ
// take one LUT; equal ones none. Zero outside a pipeline or with fewer than two ops.
double slot_mux_luts(const Design& d, const std::vector<ValueId>& ops);

}  // namespace polydat::hls
