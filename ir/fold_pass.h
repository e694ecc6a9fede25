// Constant folding.
#pragma once

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

// A new graph in which:
// - an operation (unary, Cast, binary) whose operands are all non-volatile
//   constants is a constant, computed with semantics.h;
// - a Phi with a constant guard is its chosen branch;
// - a Proj of a constant product is a constant; a Proj of a product built by
//   Pairs is that component;
// - a product of constants is a constant product;
// - `(b as T) as bool`, for a bool b and an integer T, is b (also in loops):
//   a comparison's u64 1 or 0 turned back into a bool is the comparison.
// Never folded: volatile objects (nor is one ever read as a constant), Call,
// the loop machinery (merges, routes, exits) and anything that depends on a
// loop merge, so no loop guard ever becomes a constant.
Result<CategoryIr> fold_constants(const CategoryIr& ir);

}  // namespace polydat::ir
