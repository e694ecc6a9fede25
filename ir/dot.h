// Deterministic Graphviz DOT dump of a CategoryIr.
#pragma once

#include <string>

#include "ir/graph.h"

namespace polydat::ir {

// `digraph`, one cluster per function in declaration order, the same node and
// edge labels as the Mermaid dump.
std::string to_dot(const CategoryIr& ir);

}  // namespace polydat::ir
