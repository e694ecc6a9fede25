// Division and remainder by a variable. A signed one works on magnitudes and
// fixes the signs after (x / 0 stays all ones, MIN / -1 stays MIN). An
// unsigned one becomes a restoring array (one row per quotient bit: shift in a
// dividend bit, compare with the divisor, subtract where it fits), each row as
// narrow as the dividend's significant bits allow, when that is small enough;
// otherwise it stays a Div/Mod marked for an iterative unit (param 1), which
// computes one quotient bit per cycle: a kernel with one becomes a loop-free
// FSM.
#pragma once

#include "hls/dfg.h"
#include "hls/predicate.h"

namespace polydat::hls {

struct DivVarOptions {
  double max_array_luts = 1500;  // an array estimated larger than this becomes an iterative unit
};

// The options for a design of this kind: pipelines take arrays up to a few
// hundred rows' worth, FSMs prefer the small iterative unit.
DivVarOptions div_var_options(DesignKind kind);

Dfg div_var_pass(const Dfg& g, const DivVarOptions& options = {});

}  // namespace polydat::hls
