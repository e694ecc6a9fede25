// Deterministic Mermaid dump of a CategoryIr, and the lint its output must pass.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace polydat::ir {

// `flowchart LR`, one subgraph per function in declaration order; node ids
// f{i}o{j} are per-dump ordinals; one arrow style (-->), every label quoted.
std::string to_mermaid(const CategoryIr& ir);

// The rules every dump obeys; each problem is one line of text (empty: clean).
std::vector<std::string> lint_mermaid(std::string_view text);

}  // namespace polydat::ir
