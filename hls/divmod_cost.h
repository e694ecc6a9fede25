// Internal to hls/: the areas divmod_const_pass weighs its plans by. The
// estimate over a whole graph (ArithmeticEstimate, estimate_arithmetic,
// csd_adders) is public and declared in hls/divmod_const_pass.h.
#pragma once

#include <limits>

#include "hls/dfg.h"
#include "hls/op_library.h"

namespace polydat::hls::divmod {

// The pass weighs its choices with the iCE40 model (the target it was written for).
inline constexpr Target kTarget = Target::Ice40;
// The area of a way that does not apply.
inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// op_cost()'s area of `op` at `width` bits on kTarget.
double area_of(Op op, unsigned width, bool constant_rhs = false);
// A Rom of `out_width`-bit entries indexed by `index_width` bits.
double rom_area(unsigned out_width, unsigned index_width);

}  // namespace polydat::hls::divmod
