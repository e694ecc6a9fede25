// A plain-text listing of a CategoryIr: each function's constants, then its
// morphisms in execution (topological) order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace polydat::ir {

// `file_names[i]` names source file i: a location in another file than `home_file` (the kernel's) is
// shown with its file's name (an inlined library module), one in the kernel's as @LINE:COL.
std::string to_text(const CategoryIr& ir, const std::vector<std::string>& file_names = {}, uint32_t home_file = 0);

}  // namespace polydat::ir
