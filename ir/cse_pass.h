// Common subexpression elimination.
#pragma once

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

// A new graph in which objects with the same operation, the same (already
// merged) operands and the same type are one object, and equal constants
// (same type, same bits) are one object. Never merged: volatile objects, loop
// merges, loop routes and exits, parameters, and loop guards (a guard is
// never replaced, so two loops never come to share one).
Result<CategoryIr> eliminate_common_subexpressions(const CategoryIr& ir);

}  // namespace polydat::ir
