#include "ir/typing.h"

#include <array>

#include "ir/library_fn.h"

namespace polydat::ir {

namespace {
using enum OpKind;
using F = Form;
using C = TyClass;
using R = ResultRule;

// Pow appears twice: integers take an unsigned exponent, floats a float of their own type.
constexpr std::array kTable = {
    OpTyping{Pair, F::Slot, C::Any, C::Any, false, R::Shape},
    OpTyping{Proj, F::Projection, C::Any, C::Any, false, R::Shape},
    OpTyping{Add, F::Binary, C::Numeric, C::Numeric, true, R::Operand},
    OpTyping{Sub, F::Binary, C::Numeric, C::Numeric, true, R::Operand},
    OpTyping{Mul, F::Binary, C::Numeric, C::Numeric, true, R::Operand},
    OpTyping{Div, F::Binary, C::Numeric, C::Numeric, true, R::Operand},
    OpTyping{Mod, F::Binary, C::Numeric, C::Numeric, true, R::Operand},
    OpTyping{Neg, F::Unary, C::Numeric, C::Any, false, R::Operand},
    OpTyping{Eq, F::Binary, C::NumericOrBool, C::NumericOrBool, true, R::Bool},
    OpTyping{Neq, F::Binary, C::NumericOrBool, C::NumericOrBool, true, R::Bool},
    OpTyping{Lt, F::Binary, C::Numeric, C::Numeric, true, R::Bool},
    OpTyping{Gt, F::Binary, C::Numeric, C::Numeric, true, R::Bool},
    OpTyping{Le, F::Binary, C::Numeric, C::Numeric, true, R::Bool},
    OpTyping{Ge, F::Binary, C::Numeric, C::Numeric, true, R::Bool},
    OpTyping{And, F::Binary, C::BoolOrInteger, C::BoolOrInteger, true, R::Operand},
    OpTyping{Or, F::Binary, C::BoolOrInteger, C::BoolOrInteger, true, R::Operand},
    OpTyping{Xor, F::Binary, C::BoolOrInteger, C::BoolOrInteger, true, R::Operand},
    OpTyping{Not, F::Unary, C::BoolOrInteger, C::Any, false, R::Operand},
    OpTyping{Shl, F::Binary, C::Integer, C::Unsigned, false, R::Operand},
    OpTyping{Shr, F::Binary, C::Integer, C::Unsigned, false, R::Operand},
    OpTyping{Rotl, F::Binary, C::Integer, C::Unsigned, false, R::Operand},
    OpTyping{Rotr, F::Binary, C::Integer, C::Unsigned, false, R::Operand},
    OpTyping{Pow, F::Binary, C::Integer, C::Unsigned, false, R::Operand},
    OpTyping{Pow, F::Binary, C::Float, C::Float, true, R::Operand},
    OpTyping{Cast, F::Unary, C::Scalar, C::Any, false, R::Declared},
    OpTyping{Popcount, F::Unary, C::Integer, C::Any, false, R::Operand},
    OpTyping{Clz, F::Unary, C::Integer, C::Any, false, R::Operand},
    OpTyping{Ctz, F::Unary, C::Integer, C::Any, false, R::Operand},
    OpTyping{ToStr, F::Unary, C::Scalar, C::Any, false, R::Text},
    OpTyping{Concat, F::Binary, C::Str, C::Str, true, R::Text},
    OpTyping{FormatDec, F::Binary, C::Unsigned, C::Unsigned, false, R::Text},
    OpTyping{Hex, F::Unary, C::Integer, C::Any, false, R::Text},
    OpTyping{FormatRadix, F::Binary, C::Unsigned, C::Unsigned, false, R::Text},
    OpTyping{FormatFixed, F::Binary, C::Float, C::Unsigned, false, R::Text},
    OpTyping{Sqrt, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Exp, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Ln, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Sin, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Cos, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Tan, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Asin, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Acos, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Atan, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Floor, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Ceil, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Round, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Trunc, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Abs, F::Unary, C::Float, C::Any, false, R::Operand},
    OpTyping{Atan2, F::Binary, C::Float, C::Float, true, R::Operand},
    OpTyping{Phi, F::Select, C::Any, C::Bool, false, R::Operand},
    OpTyping{Call, F::Apply, C::Any, C::Any, false, R::Shape},
    OpTyping{LibFn, F::Library, C::Any, C::Any, false, R::Shape},
    OpTyping{Rom, F::Lookup, C::Unsigned, C::Any, false, R::Shape},
    OpTyping{LoopEnter, F::Move, C::Any, C::Any, false, R::Shape},
    OpTyping{LoopBack, F::Route, C::Any, C::Bool, false, R::Shape},
    OpTyping{LoopExit, F::Route, C::Any, C::Bool, false, R::Shape},
    OpTyping{Output, F::Move, C::Any, C::Any, false, R::Shape},
};

std::optional<Ty> result_of(const OpTyping& row, const Ty& operand, const Ty* declared) {
  switch (row.result) {
    case R::Operand: return operand;
    case R::Bool: return Ty::boolean();
    case R::Text: return Ty::str();
    case R::Declared:
      if (declared == nullptr || !declared->is_scalar() || *declared == operand) return std::nullopt;
      return *declared;
    case R::Shape: return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Ty> apply_row(const OpTyping& row, const Ty& source, const Ty* declared) {
  switch (row.form) {
    case F::Unary:
      if (!admits(row.first, source)) return std::nullopt;
      return result_of(row, source, declared);
    case F::Binary: {
      if (source.kind() != TyKind::Tuple || source.arity() != 2) return std::nullopt;
      const Ty& l = source.component(0);
      const Ty& r = source.component(1);
      if (!admits(row.first, l) || !admits(row.second, r)) return std::nullopt;
      if (row.same && !(l == r)) return std::nullopt;
      return result_of(row, l, declared);
    }
    case F::Select: {
      if (source.kind() != TyKind::Tuple || source.arity() != 3) return std::nullopt;
      const Ty& t = source.component(0);
      if (!(t == source.component(1)) || !admits(row.second, source.component(2))) return std::nullopt;
      return t;
    }
    default:
      return std::nullopt;
  }
}
}  // namespace

std::span<const OpTyping> typing_table() { return kTable; }

Form form_of(OpKind op) {
  for (const OpTyping& row : kTable)
    if (row.op == op) return row.form;
  return F::Move;  // unreachable: every op has a row
}

bool admits(TyClass c, const Ty& t) {
  switch (c) {
    case C::Any: return true;
    case C::Numeric: return t.is_numeric();
    case C::Integer: return t.is_int();
    case C::Unsigned: return t.is_unsigned_int();
    case C::Float: return t.is_float();
    case C::Bool: return t.is_bool();
    case C::BoolOrInteger: return t.is_bool() || t.is_int();
    case C::NumericOrBool: return t.is_numeric() || t.is_bool();
    case C::Scalar: return t.is_scalar();
    case C::Str: return t.is_str();
  }
  return false;
}

std::optional<Ty> infer_target(OpKind op, const Ty& source, const Ty* declared) {
  for (const OpTyping& row : kTable) {
    if (row.op != op) continue;
    if (auto t = apply_row(row, source, declared)) return t;
  }
  return std::nullopt;
}

bool edge_type_ok(const Operation& op, const Ty& source, const Ty& target, const Signature* callee) {
  switch (form_of(op.kind)) {
    case F::Unary:
    case F::Binary:
    case F::Select: {
      auto t = infer_target(op.kind, source, &target);
      return t && *t == target;
    }
    case F::Slot:
      return target.is_product() && target.arity() == op.arity() && op.slot() < op.arity() &&
             target.component(op.slot()) == source;
    case F::Projection:
      return source.is_product() && op.index() < source.arity() && source.component(op.index()) == target;
    case F::Route:
      return source.kind() == TyKind::Tuple && source.arity() == 2 && source.component(0) == target &&
             source.component(1).is_bool();
    case F::Move:
      return source == target;
    case F::Apply:
      return callee != nullptr && callee->input == source && callee->output == target;
    case F::Lookup:
      return callee != nullptr && source.is_unsigned_int() && callee->output == target;
    case F::Library: {
      const auto t = library_result(op.library_fn(), source);
      return t && *t == target;
    }
  }
  return false;
}

}  // namespace polydat::ir
