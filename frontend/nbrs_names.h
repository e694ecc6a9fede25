// The function names of nb-rs (nosqlbench/nb-rs), the system the seeds come
// from: `polydat functions` marks the library's nb-rs names, and a call of an
// nb-rs function polydat lacks is reported as such.
#pragma once

#include <string_view>
#include <vector>

namespace polydat::frontend {

bool is_nbrs_function(std::string_view name);
std::vector<std::string_view> nbrs_function_names();  // sorted

}  // namespace polydat::frontend
