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
  Min, Max, Clamp,           // by comparison (min and max of two or more)
  Sum, Product,              // wrapping + and * of any count (folded by the checker)
  Rotl, Rotr,                // at the width of x's type
  Popcount, Clz, Ctz,        // at the width of x's type
  ToF64, ToU64,              // x as f64, x as u64
  FormatU64, ZeroPadU64, Hex, // text (software engines only)
  MixedRadix,                // k + 1 digits of constant radixes
  // The C library's functions and exact roundings, at the float type of x (an
  // integer x converts to f64, as nb-rs's adapters do).
  Sqrt, Exp, Ln, Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Pow, AbsF64, Floor, Ceil, Round, Trunc,
  WeightedU64, WeightedStrings, WeightedPick, Histribution,  // nb-rs's alias-table choices, tables built with the kernel
  OneOf, OneOfWeighted,      // a value picked by hash(x): evenly, or by a CDF built with the kernel
  Combinations,              // nb-rs's mixed-radix text of character sets
  FormatF64, StrConcat,      // nb-rs's fixed-point text of a float; the text of values, joined
  Pick, Identity,            // the value of the first true selector; the value itself (rewritten before checking)
  InRange, IsOneOf, IsPositive, Matches,  // nb-rs's parameter assertions, on values known when the kernel is built
  // nb-rs's partition functions, and what a cursor's `over` is made into (frontend/cursors.h)
  StartOf, EndOf, IdxOf, Cardinality, ModIn, ClampIn, At, Partitions, CursorOver, CursorProblem, PartitionFirst,
};

struct BuiltinInfo {
  Builtin id;
  std::string_view name;
  std::vector<std::string_view> params;  // names, for named arguments
  bool variadic = false;                 // more arguments than params allowed (mixed_radix)
  std::optional<uint64_t> last_default = std::nullopt;  // the last parameter's value when it is left out
  std::string_view signature = {};  // as `polydat functions` prints it
  std::string_view help = {};       // one line
  bool hardware = true;             // false for text
  std::string_view uses = {};       // a module the built-in calls (resolved like a call of it)
  std::string_view last_default_text = {};  // the last parameter's text when it is left out
};

std::optional<BuiltinInfo> find_builtin(std::string_view name);
std::vector<std::string> builtin_names();
const std::vector<BuiltinInfo>& builtin_infos();

}  // namespace polydat::frontend
