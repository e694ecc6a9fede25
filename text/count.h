// A count as people and nb-rs write one: digits with optional '_' separators and
// a decimal suffix, K or k (10^3), M (10^6), B or G (10^9): "20M", "1_000", "10K".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace polydat::text {

// nullopt when `s` is not such a count or the count passes 2^64 - 1.
std::optional<uint64_t> parse_count(std::string_view s);

}  // namespace polydat::text
