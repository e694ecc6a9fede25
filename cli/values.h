// Values on the command line and in eval's output.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/value.h"

namespace polydat::cli {

// Parses text as a value of a scalar type: integers in the language's literal
// forms (42, -7, 1_000, 0xFF, 0b1010, 0o17), floats, true/false, or any text
// for str. nullopt when the text is not such a value or does not fit.
std::optional<ir::Value> parse_value(const std::string& text, const ir::Ty& ty);

// A value as a CSV field: rendered, quoted when it holds a comma, quote or newline (RFC 4180).
std::string csv_field(const ir::Value& v);

// A half-open cycle range from "N" (0..N) or "A..B", each a count as text::parse_count reads it or an integer.
struct CycleRange {
  uint64_t begin = 0;
  uint64_t end = 0;
};
std::optional<CycleRange> parse_cycles(const std::string& text);

}  // namespace polydat::cli
