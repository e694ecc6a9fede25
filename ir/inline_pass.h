// Inlining: every Call replaced by a copy of its callee's body.
#pragma once

#include <vector>

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

// The functions reachable from `root` through calls, every callee before its
// callers (reverse topological order of the call graph), `root` last.
// Iterative; the call graph of a sealed graph is acyclic.
std::vector<FuncId> callees_first(const CategoryIr& ir, FuncId root);

// Every Call replaced by a copy of the callee's body: the callee's parameter
// becomes the copied argument, its result the copied Return value (packed
// with pack/pack_struct when the callee writes its Return slot by slot).
// Callees are flattened first, so inlining a call copies an already
// call-free body; no host recursion. The result keeps only the entry function.
Result<CategoryIr> inline_calls(const CategoryIr& ir);

}  // namespace polydat::ir
