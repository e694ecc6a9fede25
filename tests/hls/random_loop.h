// Random single-loop DFGs for the narrowing suites: random_dfg makes
// loop-free graphs only, and the loop state is where the fixpoints are.
#pragma once

#include <cstdint>

#include "hls/dfg.h"

namespace polydat::hls::testing {

// A loop whose guard counts an 8-bit-bounded counter up to an input (so every
// run ends within 255 iterations), with a few more state registers of random
// widths whose next values are random operations over the state, the inputs
// and constants; outputs read states directly and values computed from
// them. Deterministic in the seed.
Dfg random_loop_dfg(uint64_t seed);

}  // namespace polydat::hls::testing
