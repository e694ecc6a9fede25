#include "ir/op.h"

#include <array>

namespace polydat::ir {

namespace {
constexpr std::array<std::string_view, kNumOpKinds> kNames = {
    "Pair", "Proj", "Add", "Sub", "Mul", "Div", "Mod", "Neg", "Eq", "Neq", "Lt", "Gt",
    "Le", "Ge", "And", "Or", "Xor", "Not", "Shl", "Shr", "Rotl", "Rotr", "Pow", "Cast",
    "Popcount", "Clz", "Ctz", "ToStr", "Concat", "FormatDec", "Hex", "FormatRadix", "FormatFixed",
    "Sqrt", "Exp", "Ln", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Atan2", "Floor", "Ceil", "Round", "Trunc", "Abs",
    "Phi", "Call", "LibFn", "Rom", "LoopEnter", "LoopBack", "LoopExit", "Output",
};
}  // namespace

std::string_view op_name(OpKind k) {
  const auto i = static_cast<size_t>(k);
  return i < kNames.size() ? kNames[i] : "?";
}

std::optional<OpKind> op_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<OpKind>(i);
  return std::nullopt;
}

}  // namespace polydat::ir
