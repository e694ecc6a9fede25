// Dead code elimination.
#pragma once

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

// A new graph keeping only what each kept function's Return depends on. A
// live loop merge keeps its LoopEnter source, its back routes and all its
// exits (the builder requires an exit). Functions the entry no longer calls
// (directly or not) are dropped.
Result<CategoryIr> eliminate_dead_code(const CategoryIr& ir);

}  // namespace polydat::ir
