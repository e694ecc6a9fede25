// The optimisation pipeline.
#pragma once

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

inline constexpr int kMaxOptimizeRounds = 4;

// inline_calls, then rounds of fold_constants, eliminate_common_subexpressions
// and eliminate_dead_code until a round no longer shrinks the graph (objects
// plus morphisms), at most kMaxOptimizeRounds rounds. The result is the last
// round's graph.
Result<CategoryIr> optimize(const CategoryIr& ir);

}  // namespace polydat::ir
