// The operation typing table: one row per admissible typing of an operation.
// It is data, read by both the builder (to type what it mints) and the
// validator (to re-check every edge); nothing else is shared between them.
#pragma once

#include <optional>
#include <span>

#include "ir/op.h"
#include "ir/ty.h"

namespace polydat::ir {

// How an operation's source object is shaped.
enum class Form : uint8_t {
  Unary,       // x -> r, a direct edge
  Binary,      // (l, r) -> r, the source is the 2-tuple product (Pair-then-primitive)
  Select,      // (t, f, cond) -> t
  Slot,        // Pair{slot, arity}: a component into its product's slot
  Projection,  // Proj{index}: a product -> its component
  Route,       // (T, bool) -> T: LoopBack and LoopExit
  Move,        // T -> T: LoopEnter and Output
  Apply,       // Call: the callee's input -> its output
  Lookup,      // Rom: an unsigned index -> the table's element type
  Library,     // LibFn: the argument (a product of them when several) -> the registry's result
};

// Sets of types an operand may have.
enum class TyClass : uint8_t {
  Any, Numeric, Integer, Unsigned, Float, Bool, BoolOrInteger, NumericOrBool, Scalar, Str,
};

enum class ResultRule : uint8_t {
  Operand,   // the first operand's type
  Bool,      // bool
  Text,      // str
  Declared,  // chosen by the caller (Cast): any scalar other than the operand's type
  Shape,     // fixed by the form (structural ops)
};

struct OpTyping {
  OpKind op;
  Form form;
  TyClass first;   // the only operand (Unary), or the left one (Binary)
  TyClass second;  // the right operand (Binary)
  bool same;       // Binary: both operands of one type
  ResultRule result;
};

std::span<const OpTyping> typing_table();
Form form_of(OpKind op);
bool admits(TyClass c, const Ty& t);

// The target type an operation gives a source of type `source`, for the forms
// whose result is computed (Unary, Binary, Select); `declared` is the Cast target.
// nullopt when no row admits the source.
std::optional<Ty> infer_target(OpKind op, const Ty& source, const Ty* declared = nullptr);

// The signature of a called function, for Apply.
struct Signature {
  Ty input;
  Ty output;
};

// Whether an edge `source --op--> target` is typed by a row of the table.
// `callee` is the callee's signature for Call, {index, element} for Rom (ignored otherwise).
bool edge_type_ok(const Operation& op, const Ty& source, const Ty& target,
                  const Signature* callee = nullptr);

}  // namespace polydat::ir
