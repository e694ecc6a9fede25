// Random values of a kernel's input types, edges favoured: zero, one, all
// ones, the sign boundary, small numbers; floats' specials and any bit
// pattern (NaNs and infinities too). Deterministic in the generator.
#pragma once

#include <random>

#include "ir/value.h"

namespace polydat::difftest {

ir::Value random_scalar(const ir::Ty& ty, std::mt19937_64& rng);

}  // namespace polydat::difftest
