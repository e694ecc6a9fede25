// The meaning of each scalar operation, exactly as LANGUAGE.md states it.
// The interpreter evaluates with these; later passes fold constants with them.
#pragma once

#include "ir/op.h"
#include "ir/value.h"

namespace polydat::ir {

// Neg, Not, Popcount, Clz, Ctz on a scalar.
Value eval_unary(OpKind op, const Value& x);
// Add..Pow on two scalars already typed by the typing table.
Value eval_binary(OpKind op, const Value& l, const Value& r);
// `x as to` for scalars.
Value eval_cast(const Value& x, const Ty& to);

}  // namespace polydat::ir
