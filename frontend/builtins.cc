#include "frontend/builtins.h"

namespace polydat::frontend {

namespace {
const std::vector<BuiltinInfo>& table() {
  static const std::vector<BuiltinInfo> t = {
      {Builtin::Mod, "mod", {"x", "n"}},
      {Builtin::Div, "div", {"x", "n"}},
      {Builtin::Add, "add", {"a", "b"}},
      {Builtin::Sub, "sub", {"a", "b"}},
      {Builtin::Mul, "mul", {"a", "b"}},
      {Builtin::Min, "min", {"a", "b"}},
      {Builtin::Max, "max", {"a", "b"}},
      {Builtin::Clamp, "clamp", {"x", "lo", "hi"}},
      {Builtin::Rotl, "rotl", {"x", "k"}},
      {Builtin::Rotr, "rotr", {"x", "k"}},
      {Builtin::Popcount, "popcount", {"x"}},
      {Builtin::Clz, "clz", {"x"}},
      {Builtin::Ctz, "ctz", {"x"}},
      {Builtin::ToF64, "to_f64", {"x"}},
      {Builtin::ToU64, "to_u64", {"x"}},
      {Builtin::FormatU64, "format_u64", {"x", "width"}},
      {Builtin::Hex, "hex", {"x"}},
      {Builtin::MixedRadix, "mixed_radix", {"x", "r0"}, true},
  };
  return t;
}
}  // namespace

std::optional<BuiltinInfo> find_builtin(std::string_view name) {
  for (const BuiltinInfo& b : table())
    if (b.name == name) return b;
  return std::nullopt;
}

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  for (const BuiltinInfo& b : table()) out.emplace_back(b.name);
  return out;
}

}  // namespace polydat::frontend
