// CSV fields as RFC 4180 writes them, for `polydat eval` and a workload's format=csv.
#pragma once

#include <string>
#include <string_view>

namespace polydat::text {

// Appends `field`, in double quotes (each quote doubled) when it holds a comma, a quote or a line break.
void append_csv_field(std::string& out, std::string_view field);

}  // namespace polydat::text
