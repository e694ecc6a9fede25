// The execution order of a function's morphisms.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace polydat::ir {

// Kahn's algorithm over the morphisms of f:
// - a morphism is ready when its source object is complete: parameters and
//   constants start complete, a product completes with its last slot, a loop
//   merge with its LoopEnter, anything else with its one definer;
// - LoopBack never gates anything (it closes the cycle);
// - a loop runs as a unit: its LoopEnter also waits for every value that the
//   loop's region reads from outside, and is released only when nothing
//   else is ready, so loop invariants come first;
// - a LoopExit also waits for its loop's back routes, so the whole body
//   precedes the exit;
// - ties go to source position (file, start, end), then insertion order.
// On a sealed graph the result holds every morphism of f exactly once.
std::vector<MorphismId> topo_order(const CategoryIr& ir, FuncId f);

}  // namespace polydat::ir
