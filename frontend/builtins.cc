#include "frontend/builtins.h"

#include "frontend/cursors.h"

namespace polydat::frontend {

namespace {
const std::vector<BuiltinInfo>& table() {
  static const std::vector<BuiltinInfo> t = {
      {.id = Builtin::Mod, .name = "mod", .params = {"x", "n"}, .signature = "mod(x: T, n: T) -> T",
       .help = "x % n; a divisor known to be 0 is refused (as nb-rs refuses it)"},
      {.id = Builtin::Div, .name = "div", .params = {"x", "n"}, .signature = "div(x: T, n: T) -> T",
       .help = "x / n; a divisor known to be 0 is refused (as nb-rs refuses it)"},
      {.id = Builtin::Add, .name = "add", .params = {"a", "b"}, .signature = "add(a: T, b: T) -> T",
       .help = "wrapping a + b"},
      {.id = Builtin::Sub, .name = "sub", .params = {"a", "b"}, .signature = "sub(a: T, b: T) -> T",
       .help = "wrapping a - b"},
      {.id = Builtin::Mul, .name = "mul", .params = {"a", "b"}, .signature = "mul(a: T, b: T) -> T",
       .help = "wrapping a * b"},
      {.id = Builtin::Min, .name = "min", .params = {"a", "b"}, .variadic = true,
       .signature = "min(a: T, b: T, ...) -> T", .help = "the least of two or more values"},
      {.id = Builtin::Max, .name = "max", .params = {"a", "b"}, .variadic = true,
       .signature = "max(a: T, b: T, ...) -> T", .help = "the greatest of two or more values"},
      {.id = Builtin::Sum, .name = "sum", .params = {}, .variadic = true, .signature = "sum(...: T) -> T",
       .help = "the wrapping sum of any number of values (sum() is 0)"},
      {.id = Builtin::Product, .name = "product", .params = {}, .variadic = true,
       .signature = "product(...: T) -> T", .help = "the wrapping product of any number of values (product() is 1)"},
      {.id = Builtin::Clamp, .name = "clamp", .params = {"x", "lo", "hi"}, .signature = "clamp(x: T, lo: T, hi: T) -> T",
       .help = "min(max(x, lo), hi)"},
      {.id = Builtin::Rotl, .name = "rotl", .params = {"x", "k"}, .signature = "rotl(x: T, k: unsigned) -> T",
       .help = "rotate left by k % the width of x"},
      {.id = Builtin::Rotr, .name = "rotr", .params = {"x", "k"}, .signature = "rotr(x: T, k: unsigned) -> T",
       .help = "rotate right by k % the width of x"},
      {.id = Builtin::Popcount, .name = "popcount", .params = {"x"}, .signature = "popcount(x: T) -> T",
       .help = "the number of one bits"},
      {.id = Builtin::Clz, .name = "clz", .params = {"x"}, .signature = "clz(x: T) -> T",
       .help = "leading zero bits at the width of x (the width for 0)"},
      {.id = Builtin::Ctz, .name = "ctz", .params = {"x"}, .signature = "ctz(x: T) -> T",
       .help = "trailing zero bits at the width of x (the width for 0)"},
      {.id = Builtin::ToF64, .name = "to_f64", .params = {"x"}, .signature = "to_f64(x: scalar) -> f64",
       .help = "x as f64", .hardware = false},
      {.id = Builtin::ToU64, .name = "to_u64", .params = {"x"}, .signature = "to_u64(x: scalar) -> u64",
       .help = "x as u64"},
      {.id = Builtin::FormatU64, .name = "format_u64", .params = {"x", "radix"}, .last_default = 10,
       .signature = "format_u64(x: u64, radix: u64 = 10) -> str",
       .help = "x in radix 2, 8, 10 or 16 (a constant), prefixed 0b, 0o, none, 0x", .hardware = false},
      {.id = Builtin::ZeroPadU64, .name = "zero_pad_u64", .params = {"x", "width"}, .last_default = 10,
       .signature = "zero_pad_u64(x: u64, width: u64 = 10) -> str",
       .help = "x in decimal, zero-padded to at least width digits", .hardware = false},
      {.id = Builtin::Hex, .name = "hex", .params = {"x"}, .signature = "hex(x: u64) -> str",
       .help = "x in lowercase hexadecimal, no prefix", .hardware = false},
      {.id = Builtin::Sqrt, .name = "sqrt", .params = {"x"}, .signature = "sqrt(x: float) -> float",
       .help = "the square root (correctly rounded)", .hardware = false},
      {.id = Builtin::Exp, .name = "exp", .params = {"x"}, .signature = "exp(x: float) -> float",
       .help = "e to the x (the C library's exp)", .hardware = false},
      {.id = Builtin::Ln, .name = "ln", .params = {"x"}, .signature = "ln(x: float) -> float",
       .help = "the natural logarithm (the C library's log)", .hardware = false},
      {.id = Builtin::Sin, .name = "sin", .params = {"x"}, .signature = "sin(x: float) -> float",
       .help = "the sine of x radians (the C library's)", .hardware = false},
      {.id = Builtin::Cos, .name = "cos", .params = {"x"}, .signature = "cos(x: float) -> float",
       .help = "the cosine of x radians (the C library's)", .hardware = false},
      {.id = Builtin::Tan, .name = "tan", .params = {"x"}, .signature = "tan(x: float) -> float",
       .help = "the tangent of x radians (the C library's)", .hardware = false},
      {.id = Builtin::Asin, .name = "asin", .params = {"x"}, .signature = "asin(x: float) -> float",
       .help = "the arcsine, in radians (the C library's)", .hardware = false},
      {.id = Builtin::Acos, .name = "acos", .params = {"x"}, .signature = "acos(x: float) -> float",
       .help = "the arccosine, in radians (the C library's)", .hardware = false},
      {.id = Builtin::Atan, .name = "atan", .params = {"x"}, .signature = "atan(x: float) -> float",
       .help = "the arctangent, in radians (the C library's)", .hardware = false},
      {.id = Builtin::Atan2, .name = "atan2", .params = {"y", "x"}, .signature = "atan2(y: float, x: float) -> float",
       .help = "the angle of (x, y), in radians (the C library's)", .hardware = false},
      {.id = Builtin::Pow, .name = "pow", .params = {"base", "exponent"}, .signature = "pow(base: float, exponent: float) -> float",
       .help = "base to the power exponent (the C library's pow; base ** exponent)", .hardware = false},
      {.id = Builtin::AbsF64, .name = "abs_f64", .params = {"x"}, .signature = "abs_f64(x: float) -> float",
       .help = "the absolute value", .hardware = false},
      {.id = Builtin::Floor, .name = "floor", .params = {"x"}, .signature = "floor(x: float) -> float",
       .help = "the largest integral value not above x", .hardware = false},
      {.id = Builtin::Ceil, .name = "ceil", .params = {"x"}, .signature = "ceil(x: float) -> float",
       .help = "the smallest integral value not below x", .hardware = false},
      {.id = Builtin::Round, .name = "round", .params = {"x"}, .signature = "round(x: float) -> float",
       .help = "x rounded to integral, halves away from zero", .hardware = false},
      {.id = Builtin::Trunc, .name = "trunc", .params = {"x"}, .signature = "trunc(x: float) -> float",
       .help = "x rounded toward zero to integral", .hardware = false},
      {.id = Builtin::WeightedU64, .name = "weighted_u64", .params = {"x", "spec"},
       .signature = "weighted_u64(x: u64, spec: str) -> u64",
       .help = "a value of the spec \"v:w;v:w\" chosen by x with nb-rs's alias table (pass hash(x))"},
      {.id = Builtin::WeightedStrings, .name = "weighted_strings", .params = {"x", "spec"},
       .signature = "weighted_strings(x: u64, spec: str) -> str",
       .help = "a text of the spec \"v:w;v:w\" chosen by x with nb-rs's alias table (pass hash(x))", .hardware = false},
      {.id = Builtin::Histribution, .name = "histribution", .params = {"x", "spec"},
       .signature = "histribution(x: u64, spec: str = \"1\") -> u64",
       .help = "a label of the spec \"label:w label:w\" (or bare weights, labelled by position) chosen by x with nb-rs's alias table",
       .last_default_text = "1"},
      {.id = Builtin::WeightedPick, .name = "weighted_pick", .params = {"x", "w0", "v0"}, .variadic = true,
       .signature = "weighted_pick(x: u64, w0, v0, w1, v1, ...) -> u64",
       .help = "a value v_i with weight w_i (literals) chosen by x with nb-rs's alias table"},
      {.id = Builtin::OneOf, .name = "one_of", .params = {"x", "v0"}, .variadic = true,
       .signature = "one_of(x: u64, v0: str, v1: str, ...) -> str",
       .help = "v_i with i = hash(x) % the count (nb-rs's: it hashes x itself)", .hardware = false, .uses = "hash"},
      {.id = Builtin::OneOfWeighted, .name = "one_of_weighted", .params = {"x", "spec"},
       .signature = "one_of_weighted(x: u64, spec: str) -> str",
       .help = "a value of the spec \"v:w,v:w\" picked by hash(x) / 2^64 on the weights' CDF (nb-rs's)",
       .hardware = false, .uses = "hash"},
      {.id = Builtin::Combinations, .name = "combinations", .params = {"x", "pattern"},
       .signature = "combinations(x: u64, pattern: str = \"a-z\") -> str",
       .help = "x as the digits of the ';'-separated character sets of the pattern, first set lowest (nb-rs's)",
       .hardware = false, .last_default_text = "a-z"},
      {.id = Builtin::FormatF64, .name = "format_f64", .params = {"x", "precision"}, .last_default = 2,
       .signature = "format_f64(x: float, precision: u64 = 2) -> str",
       .help = "x in fixed notation with precision digits, rounded half to even (Rust's {:.p})", .hardware = false},
      {.id = Builtin::StrConcat, .name = "str_concat", .params = {}, .variadic = true,
       .signature = "str_concat(...) -> str", .help = "the text of each value, joined (as an interpolation writes them)",
       .hardware = false},
      {.id = Builtin::Pick, .name = "pick", .params = {}, .variadic = true,
       .signature = "pick(b0: bool, ..., bN-1: bool, v0: T, ..., vN-1: T) -> T",
       .help = "the value paired with the first true selector (none true: vN-1; nb-rs stops the run there)"},
      {.id = Builtin::Identity, .name = "identity", .params = {"input"}, .signature = "identity(input: T) -> T",
       .help = "input itself"},
      {.id = Builtin::InRange, .name = "in_range", .params = {"input", "lo", "hi"},
       .signature = "in_range(input: u64, lo: u64 = 0, hi: u64 = 2^64-1) -> u64",
       .help = "input, asserted in [lo, hi] when the kernel is built (all three constants)"},
      {.id = Builtin::IsOneOf, .name = "is_one_of", .params = {"input", "allowed"}, .variadic = true,
       .signature = "is_one_of(input: u64, allowed: u64, ...) -> u64",
       .help = "input, asserted to be one of the allowed constants when the kernel is built"},
      {.id = Builtin::IsPositive, .name = "is_positive", .params = {"input", "name"},
       .signature = "is_positive(input: u64, name: str = \"\") -> u64",
       .help = "input, asserted above 0 when the kernel is built (name: the value's name in the message)"},
      {.id = Builtin::Matches, .name = "matches", .params = {"input", "pattern"},
       .signature = "matches(input: str, pattern: str) -> str",
       .help = "input, asserted to match the regex when the kernel is built", .hardware = false},
      {.id = Builtin::MixedRadix, .name = "mixed_radix", .params = {"x", "r0"}, .variadic = true,
       .signature = "mixed_radix(x: u64, r0, ..., rk) -> (u64, ...)",
       .help = "k + 1 digits of x in constant radixes (0 takes the rest)"},
  };
  static const std::vector<BuiltinInfo> all = [] {
    std::vector<BuiltinInfo> v = t;
    v.insert(v.end(), partition_builtins().begin(), partition_builtins().end());
    return v;
  }();
  return all;
}
}  // namespace

std::optional<BuiltinInfo> find_builtin(std::string_view name) {
  for (const BuiltinInfo& b : table())
    if (b.name == name) return b;
  return std::nullopt;
}

const std::vector<BuiltinInfo>& builtin_infos() { return table(); }

std::vector<std::string> builtin_names() {
  std::vector<std::string> out;
  for (const BuiltinInfo& b : table()) out.emplace_back(b.name);
  return out;
}

}  // namespace polydat::frontend
