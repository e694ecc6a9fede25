// A plain-text listing of a CategoryIr: each function's constants, then its
// morphisms in execution (topological) order.
#pragma once

#include <string>

#include "ir/graph.h"

namespace polydat::ir {

std::string to_text(const CategoryIr& ir);

}  // namespace polydat::ir
