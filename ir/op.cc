#include "ir/op.h"

#include <array>

namespace polydat::ir {

namespace {
using enum OpKind;
constexpr HardwareForm kUnit = HardwareForm::Unit, kWiring = HardwareForm::Wiring, kInlined = HardwareForm::Inlined,
                       kNone = HardwareForm::None;

constexpr std::array<OpInfo, kNumOpKinds> kOps = {{
    {Pair, "Pair", kWiring},
    {Proj, "Proj", kWiring},
    {Add, "Add", kUnit},
    {Sub, "Sub", kUnit},
    {Mul, "Mul", kUnit},
    {Div, "Div", kUnit},
    {Mod, "Mod", kUnit},
    {Neg, "Neg", kUnit},
    {Eq, "Eq", kUnit},
    {Neq, "Neq", kUnit},
    {Lt, "Lt", kUnit},
    {Gt, "Gt", kUnit},
    {Le, "Le", kUnit},
    {Ge, "Ge", kUnit},
    {And, "And", kUnit},
    {Or, "Or", kUnit},
    {Xor, "Xor", kUnit},
    {Not, "Not", kUnit},
    {Shl, "Shl", kUnit},
    {Shr, "Shr", kUnit},
    {Rotl, "Rotl", kUnit},
    {Rotr, "Rotr", kUnit},
    {Pow, "Pow", kUnit},
    {Cast, "Cast", kUnit},
    {Popcount, "Popcount", kUnit},
    {Clz, "Clz", kUnit},
    {Ctz, "Ctz", kUnit},
    {ToStr, "ToStr", kNone},
    {Concat, "Concat", kNone},
    {FormatDec, "FormatDec", kNone},
    {Hex, "Hex", kNone},
    {FormatRadix, "FormatRadix", kNone},
    {FormatFixed, "FormatFixed", kNone},
    {Sqrt, "Sqrt", kNone},
    {Exp, "Exp", kNone},
    {Ln, "Ln", kNone},
    {Sin, "Sin", kNone},
    {Cos, "Cos", kNone},
    {Tan, "Tan", kNone},
    {Asin, "Asin", kNone},
    {Acos, "Acos", kNone},
    {Atan, "Atan", kNone},
    {Atan2, "Atan2", kNone},
    {Floor, "Floor", kNone},
    {Ceil, "Ceil", kNone},
    {Round, "Round", kNone},
    {Trunc, "Trunc", kNone},
    {Abs, "Abs", kNone},
    {Phi, "Phi", kUnit},
    {Call, "Call", kInlined},
    {LibFn, "LibFn", kNone},
    {Rom, "Rom", kNone},
    {LoopEnter, "LoopEnter", kWiring},
    {LoopBack, "LoopBack", kWiring},
    {LoopExit, "LoopExit", kWiring},
    {Output, "Output", kWiring},
}};

// Row i describes OpKind i: a row out of place would give one operation another's name and form.
constexpr bool in_enum_order() {
  for (size_t i = 0; i < kOps.size(); ++i)
    if (static_cast<size_t>(kOps[i].kind) != i) return false;
  return true;
}
static_assert(in_enum_order(), "ir/op.cc: the rows of kOps must follow OpKind's order");
}  // namespace

std::string_view hardware_form_name(HardwareForm f) {
  switch (f) {
    case HardwareForm::Unit: return "a datapath unit";
    case HardwareForm::Wiring: return "wiring";
    case HardwareForm::Inlined: return "inlined before HLS";
    case HardwareForm::None: return "no hardware form";
  }
  return "?";
}

const OpInfo& op_info(OpKind k) { return kOps.at(static_cast<size_t>(k)); }

std::string_view op_name(OpKind k) {
  const auto i = static_cast<size_t>(k);
  return i < kOps.size() ? kOps[i].name : "?";
}

std::optional<OpKind> op_from_name(std::string_view name) {
  for (const OpInfo& o : kOps)
    if (o.name == name) return o.kind;
  return std::nullopt;
}

}  // namespace polydat::ir
