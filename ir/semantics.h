// The meaning of each scalar operation, exactly as LANGUAGE.md states it.
// The interpreter evaluates with these; later passes fold constants with them.
#pragma once

#include <string>

#include "ir/op.h"
#include "ir/value.h"

namespace polydat::ir {

// Text rendered by FormatDec pads to at most this many digits.
inline constexpr uint64_t kMaxFormatWidth = 256;

// FormatRadix: nb-rs's format_u64 text, lowercase, prefixed 0b, 0o, 0x for
// radix 2, 8, 16; decimal for 10 and for any other radix.
std::string format_radix(uint64_t value, uint64_t radix);

// FormatFixed: nb-rs's format_f64, Rust's {:.p}: fixed notation with p
// digits (at most kMaxFormatWidth), the exact binary value rounded half to
// even; NaN, inf and -inf as Rust writes them.
std::string format_fixed(double value, uint64_t precision);

// Neg, Not, Popcount, Clz, Ctz, ToStr, Hex on a scalar.
Value eval_unary(OpKind op, const Value& x);
// Add..Pow, Concat, FormatDec, FormatRadix on two operands already typed by the typing table.
Value eval_binary(OpKind op, const Value& l, const Value& r);
// `x as to` for scalars.
Value eval_cast(const Value& x, const Ty& to);

}  // namespace polydat::ir
