// The syntax tree of a GK file. Every node carries its span; the checker
// annotates expressions with their types in place.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/lexer.h"
#include "frontend/source.h"
#include "ir/ty.h"

namespace polydat::frontend {

// Expressions nest at most this deep (a 100,000-deep parenthesis or a
// million-term sum is diagnosed, not a stack overflow).
inline constexpr int kMaxExprDepth = 1000;

// How a write to a `shared` cell combines with the cell's value (the
// workload runner applies it): `shared(KIND) name := value`, plain `shared`
// is Last. Last: the written value; Sum: cell + value (integers wrap, floats
// IEEE); Min, Max: the smaller, larger (str: byte-wise); Count: cell + 1.
enum class Combine : uint8_t { Last, Sum, Min, Max, Count };

// "last", "sum", "min", "max", "count".
std::string_view combine_name(Combine c);
// The kind a name denotes (exactly as written above), if any.
std::optional<Combine> combine_from_name(std::string_view name);
// The five names, in the enum's order.
std::vector<std::string> combine_names();

struct TypeRef {
  std::string name;  // bool, u8 .. u64, i8 .. i64, f32, f64, str, Partition
  Span span;
};

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;

struct Arg {
  std::string name;  // empty for a positional argument
  Span name_span;
  ExprPtr value;
};

struct LoopVar {
  std::string name;
  Span span;
  std::optional<TypeRef> type;
  ExprPtr init;
};

enum class ExprKind : uint8_t {
  Int, Float, Bool, Str,  // literals (Str may interpolate)
  Name,                   // a reference
  Unary, Binary,          // operators (op)
  Cast,                   // `x as T`, also inserted by the checker for implicit conversions
  Call,                   // `f(args)`
  If,                     // `if(cond, a, b)`: operands
  Loop,                   // `loop (vars) while guard { body } yield value`
  Tuple,                  // `(a, b)`, only as a loop's yield
  Table,                  // `[e0, ..., en-1][i]`: operands e0..en-1, then the index i
};

struct Expr {
  ExprKind kind = ExprKind::Int;
  Span span;
  int depth = 1;  // of the subtree

  __int128 int_value = 0;   // Int (a leading minus is part of the literal)
  double float_value = 0;   // Float
  bool bool_value = false;  // Bool
  std::vector<StringPart> parts;      // Str: literal pieces and interpolations
  std::vector<ExprPtr> interpolated;  // Str: one expression per interpolation part, in order

  std::string name;  // Name, Call (the callee)
  std::vector<double> table;  // Call of a distribution: its inverse-CDF table, built by the checker
  Span name_span;
  Tok op = Tok::End;               // Unary, Binary
  std::vector<ExprPtr> operands;   // Unary 1, Binary 2, Cast 1, If 3, Tuple n
  TypeRef target;                  // Cast
  bool implicit = false;           // Cast inserted by the checker
  std::vector<Arg> args;           // Call

  std::vector<LoopVar> vars;       // Loop
  ExprPtr guard;
  std::vector<StmtPtr> body;
  ExprPtr yield;

  ir::Ty ty;            // the checker's result (a tuple for multi-output calls and tuple yields)
  bool typed = false;
};

struct Param {
  std::string name;
  Span span;
  std::optional<TypeRef> type;
  ExprPtr default_value;  // externs and module parameters
};

enum class StmtKind : uint8_t {
  Input,        // params: one or several
  Extern,       // params: one, maybe with a default
  Binding,      // name [: type] := value, with modifiers
  Destructure,  // (a, b) := value
  Assign,       // name = value (loop bodies only)
  ModuleDef,    // name(params) -> (outputs) := { body }
  Output,       // output a, b
  Pragma,       // pragma NAME
};

struct Stmt {
  StmtKind kind = StmtKind::Binding;
  Span span;
  std::string doc;  // /// comments just above

  std::vector<Param> params;  // Input, Extern, ModuleDef parameters
  std::string name;           // Binding, Assign, ModuleDef, Pragma
  Span name_span;
  std::optional<TypeRef> type;
  bool is_const = false, is_shared = false, is_volatile = false;
  Combine combine = Combine::Last;  // shared only: `shared(KIND)`
  Span combine_span;                // the KIND, when written
  ExprPtr value;
  std::vector<std::pair<std::string, Span>> names;  // Destructure, Output
  std::vector<Param> outputs;                       // ModuleDef
  std::vector<StmtPtr> body;                        // ModuleDef
};

struct FileAst {
  uint32_t file = 0;
  std::vector<StmtPtr> stmts;
};

// The IR type a type name denotes, if any.
std::optional<ir::Ty> scalar_type(std::string_view name);

// The names `root` reads that are not in `locals` nor bound by its own loops
// (loop variables, and body locals for the statements after them), with where
// each use is, in no particular order. Iterative: any depth.
std::shared_ptr<const std::set<std::string>> no_locals();
void names_read(const Expr& root, std::shared_ptr<const std::set<std::string>> locals,
                std::vector<std::pair<std::string, Span>>& out);

}  // namespace polydat::frontend
