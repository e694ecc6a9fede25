// "Did you mean ...?": the nearest of the names a place knows to one it does not.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace polydat::text {

// The closest of `candidates` to `name` by edit distance, if close enough to suggest ("" when none is).
std::string closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace polydat::text
