// Strongly connected components of a function's object graph (Boost.Graph).
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "ir/graph.h"

namespace polydat::ir {

using EdgeFilter = std::function<bool(const Morphism&)>;

// Components of the subgraph induced by `nodes` (objects of one function, sorted by id),
// over the morphisms between them that `keep` admits (all when empty).
// Each component is sorted by id; components are ordered by their first id.
std::vector<std::vector<ObjectId>> strong_components(const CategoryIr& ir, std::span<const ObjectId> nodes,
                                                     const EdgeFilter& keep = {});

// All components of function f over every edge.
std::vector<std::vector<ObjectId>> sccs(const CategoryIr& ir, FuncId f);

}  // namespace polydat::ir
