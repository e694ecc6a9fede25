// Built-in functions: the library calls that are polymorphic over their
// operand types (or variadic), so they cannot be written as one .gk module.
// Everything else in the standard library is a bundled .gk module.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace polydat::frontend {

enum class Builtin : uint8_t {
  Mod, Div, Add, Sub, Mul,   // x % n, x / n, wrapping + - * at the operands' common type
  Min, Max, Clamp,           // by comparison
  Rotl, Rotr,                // at the width of x's type
  Popcount, Clz, Ctz,        // at the width of x's type
  ToF64, ToU64,              // x as f64, x as u64
  FormatU64, Hex,            // text (software engines only)
  MixedRadix,                // k + 1 digits of constant radixes
};

struct BuiltinInfo {
  Builtin id;
  std::string_view name;
  std::vector<std::string_view> params;  // names, for named arguments
  bool variadic = false;                 // more arguments than params allowed (mixed_radix)
};

std::optional<BuiltinInfo> find_builtin(std::string_view name);
std::vector<std::string> builtin_names();

}  // namespace polydat::frontend
