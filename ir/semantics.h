// The meaning of each scalar operation, exactly as LANGUAGE.md states it.
// The interpreter evaluates with these; later passes fold constants with them.
#pragma once

#include "ir/op.h"
#include "ir/value.h"

namespace polydat::ir {

// Text rendered by FormatDec pads to at most this many digits.
inline constexpr uint64_t kMaxFormatWidth = 256;

// Neg, Not, Popcount, Clz, Ctz, ToStr, Hex on a scalar.
Value eval_unary(OpKind op, const Value& x);
// Add..Pow, Concat, FormatDec on two operands already typed by the typing table.
Value eval_binary(OpKind op, const Value& l, const Value& r);
// `x as to` for scalars.
Value eval_cast(const Value& x, const Ty& to);

}  // namespace polydat::ir
