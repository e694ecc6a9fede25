// The checker's expressions: constants known when the kernel is built, typing, and implicit conversions.
#include <map>
#include <tuple>

#include "frontend/check_internal.h"
#include "frontend/lower.h"
#include "ir/partition.h"

namespace polydat::frontend::check_detail {

namespace {

// A call of a module or a loop inside an expression that reads no names, if any.
const Expr* first_non_constant_part(const Expr& e) {
  std::vector<const Expr*> work{&e};
  while (!work.empty()) {
    const Expr* x = work.back();
    work.pop_back();
    if (x == nullptr) continue;
    // A built-in that calls a module (one_of hashes) counts as a module call.
    const auto b = x->kind == ExprKind::Call ? find_builtin(x->name) : std::nullopt;
    if ((x->kind == ExprKind::Call && (!b || !b->uses.empty())) || x->kind == ExprKind::Loop) return x;
    for (const ExprPtr& c : x->operands) work.push_back(c.get());
    for (const ExprPtr& c : x->interpolated) work.push_back(c.get());
    for (const Arg& a : x->args) work.push_back(a.value.get());
  }
  return nullptr;
}

bool is_comparison(Tok op) {
  return op == Tok::EqEq || op == Tok::NotEq || op == Tok::Lt || op == Tok::Gt || op == Tok::Le || op == Tok::Ge;
}

}  // namespace

// A constant parameter of a module where its value is needed: the caller's,
// unknown here. The body is checked without it and the module becomes one
// that is not compiled (Unit::needs_values).
bool UnitChecker::value_of_caller(const Expr& arg, const std::string& what) {
  const Expr* e = &arg;
  while (e->kind == ExprKind::Cast && e->implicit) e = e->operands[0].get();
  if (!u_.is_def || e->kind != ExprKind::Name || visible_local(e->name)) return false;
  const auto it = scope_.find(e->name);
  if (it == scope_.end() || it->second.kind != Entry::Kind::Param || it->second.dynamic) return false;
  if (u_.needs_values.empty()) u_.needs_values = "its parameter '" + e->name + "' gives " + what;
  return true;
}

// Defaults are constant: literals, operators, casts and built-in calls, no names.
void UnitChecker::check_constant_expr(const Expr& e, const char* what) {
  std::vector<std::pair<std::string, Span>> refs;
  references(e, refs);
  if (!refs.empty()) {
    error(DiagKind::NotConstant, refs.front().second, std::string(what) + " must be a constant");
    return;
  }
  if (const Expr* bad = first_non_constant_part(e)) {
    error(DiagKind::NotConstant, bad->kind == ExprKind::Loop ? bad->span : bad->name_span,
          std::string(what) + (bad->kind == ExprKind::Loop ? " cannot be a loop" : " may call only built-in functions"));
  }
}

// The value of a checked expression known at compile time: literals,
// operators and built-in calls, and names bound to such expressions (not
// externs, which a run may set, nor volatile bindings). nullopt otherwise.
std::optional<ir::Value> UnitChecker::known_constant(const Expr& e, int depth) {
  if (depth > 64 || !e.typed) return std::nullopt;
  if (e.kind == ExprKind::Name) {
    if (visible_local(e.name)) return std::nullopt;
    auto it = scope_.find(e.name);
    if (it == scope_.end() || it->second.kind != Entry::Kind::Binding || !it->second.typed || it->second.dynamic ||
        it->second.stmt->is_volatile || it->second.stmt->kind != StmtKind::Binding)
      return std::nullopt;
    return known_constant(*it->second.stmt->value, depth + 1);
  }
  if (first_non_constant_part(e)) return std::nullopt;
  std::vector<std::pair<std::string, Span>> refs;
  references(e, refs);
  std::map<std::string, ir::Value> names;
  for (const auto& [name, span] : refs) {
    if (names.count(name)) continue;
    Expr use;
    use.kind = ExprKind::Name;
    use.name = name;
    use.typed = true;
    auto v = known_constant(use, depth + 1);
    if (!v) return std::nullopt;
    names.emplace(name, *v);
  }
  return evaluate_constant(p_, u_, e, names);
}

Typed UnitChecker::literal_int(Expr& e) {
  ETy t = ETy::int_literal(e.int_value);
  if (!fits(e.int_value, t.ty))
    error(DiagKind::LiteralOutOfRange, e.span, "the literal " + int_text(e.int_value) + " fits no integer type");
  e.ty = t.ty;
  e.typed = true;
  return Typed{t, false};
}

Typed UnitChecker::check(ExprPtr& ep) {
  Expr& e = *ep;
  Typed r;
  switch (e.kind) {
    case ExprKind::Int: return literal_int(e);
    case ExprKind::Float:
      e.ty = Ty::scalar(TyKind::F64);
      e.typed = true;
      return Typed{ETy::float_literal(), false};
    case ExprKind::Bool: r = Typed{ETy::of(Ty::boolean()), false}; break;
    case ExprKind::Str: r = check_string(e); break;
    case ExprKind::Name: r = check_name(e); break;
    case ExprKind::Unary: r = check_unary(ep); if (ep.get() != &e) return r; break;
    case ExprKind::Binary: r = check_binary(ep); if (ep.get() != &e) return r; break;
    case ExprKind::Cast: r = check_cast(e); break;
    case ExprKind::Call:
      if (fold_variadic(ep)) return check(ep);
      r = check_call(e);
      break;
    case ExprKind::If: r = check_if(e); break;
    case ExprKind::Loop: r = check_loop(e); break;
    case ExprKind::Table: r = check_table(e); break;
    case ExprKind::Tuple:
      error(DiagKind::TupleMisuse, e.span, "a tuple can only be yielded by a loop");
      r = Typed{ETy::of(Ty::u64()), false};
      break;
  }
  ep->ty = r.t.ty;
  ep->typed = true;
  return r;
}

// Gives a checked expression its final type: literals take it, other
// types convert (an implicit Cast) where the context allows.
void UnitChecker::coerce(ExprPtr& ep, const Typed& t, const Ty& to, bool declared, const std::string& context) {
  Expr& e = *ep;
  if (to.is_unit()) return;
  if (t.t.lit == ETy::Lit::Int) {
    if (to.is_str() || to.kind() == TyKind::Tuple) return mismatch(e, t.t.ty, to, context);
    if (!fits(e.int_value, to))
      return error(DiagKind::LiteralOutOfRange, e.span,
                   "the literal " + int_text(e.int_value) + " does not fit " + ir::ty_label(to));
    e.ty = to;
    return;
  }
  if (t.t.lit == ETy::Lit::Float) {
    if (!to.is_float()) return mismatch(e, t.t.ty, to, context);
    e.ty = to;
    return;
  }
  const Ty& from = e.ty;
  if (from == to) return;
  if (to.is_bool() && zero_or_one(e)) return to_bool(ep);  // the U64 -> Bool adapter, for a known 0 or 1
  if (!from.is_scalar() || !to.is_scalar() || (declared && !lossless(from, to)))
    return mismatch(e, from, to, context);
  wrap_cast(ep, to);
}

void UnitChecker::mismatch(const Expr& e, const Ty& from, const Ty& to, const std::string& context) {
  std::string m = "expected " + ir::ty_label(to) + (context.empty() ? "" : " (" + context + ")") + ", found " +
                  ir::ty_label(from);
  if (from.is_scalar() && to.is_scalar() && !to.is_str() && !from.is_str()) m += "; convert with `as " + ir::ty_label(to) + "`";
  error(DiagKind::TypeMismatch, e.span, m);
}

void UnitChecker::wrap_cast(ExprPtr& ep, const Ty& to) {
  auto c = std::make_unique<Expr>();
  c->kind = ExprKind::Cast;
  c->span = ep->span;
  c->implicit = true;
  c->target = TypeRef{ir::ty_label(to), ep->span};
  c->ty = to;
  c->typed = true;
  c->depth = ep->depth + 1;
  c->operands.push_back(std::move(ep));
  ep = std::move(c);
}

Typed UnitChecker::check_string(Expr& e) {
  bool dyn = false;
  for (ExprPtr& part : e.interpolated) {
    Typed t = check(part);
    dyn = dyn || t.dynamic;
    coerce(part, t, t.t.ty, false, "");
    if (!part->ty.is_scalar() && !part->ty.is_str() && !ir::is_partition(part->ty))
      error(DiagKind::TypeMismatch, part->span, "cannot interpolate a value of type " + ir::ty_label(part->ty));
  }
  return Typed{ETy::of(Ty::str()), dyn};
}

Typed UnitChecker::check_unary(ExprPtr& ep) {
  Expr& e = *ep;
  Expr& x = *e.operands[0];
  if (e.op == Tok::Minus && (x.kind == ExprKind::Int || x.kind == ExprKind::Float)) {
    // -(literal) is a literal.
    ExprPtr lit = std::move(e.operands[0]);
    lit->int_value = -lit->int_value;
    lit->float_value = -lit->float_value;
    lit->span = e.span;
    ep = std::move(lit);
    return check(ep);
  }
  Typed t = check(e.operands[0]);
  coerce(e.operands[0], t, t.t.ty, false, "");
  const Ty& ty = e.operands[0]->ty;
  if (e.op == Tok::Minus && !ty.is_numeric())
    error(DiagKind::TypeMismatch, e.span, "prefix - needs a number, not " + ir::ty_label(ty));
  if (e.op == Tok::Bang && !ty.is_bool() && !ty.is_int())
    error(DiagKind::TypeMismatch, e.span, "! needs a bool or an integer, not " + ir::ty_label(ty));
  return Typed{ETy::of(ty), t.dynamic};
}

// Both operands to their common type; returns it (or nullopt after an error).
std::optional<Ty> UnitChecker::unify_operands(ExprPtr& a, const Typed& ta, ExprPtr& b, const Typed& tb, Span at) {
  // A literal that does not fit the other operand's type is reported at the literal.
  for (auto [lit, other, where] : {std::tuple(&ta, &tb, a->span), std::tuple(&tb, &ta, b->span)}) {
    if (lit->t.lit == ETy::Lit::Int && !other->t.is_literal() && other->t.ty.is_int() &&
        !fits(lit->t.int_value, other->t.ty)) {
      error(DiagKind::LiteralOutOfRange, where,
            "the literal " + int_text(lit->t.int_value) + " does not fit " + ir::ty_label(other->t.ty));
      return std::nullopt;
    }
  }
  Unified u = unify(ta.t, tb.t);
  if (!u.ty) {
    error(u.signed_unsigned ? DiagKind::SignedUnsignedMix : DiagKind::TypeMismatch, at, u.error);
    return std::nullopt;
  }
  coerce(a, ta, *u.ty, false, "");
  coerce(b, tb, *u.ty, false, "");
  return u.ty;
}

// An operand that must be an integer: a literal takes its default type.
bool UnitChecker::integer_operand(ExprPtr& x, const Typed& t, bool must_be_unsigned, const char* role, Span at) {
  coerce(x, t, t.t.ty, false, "");
  const Ty& ty = x->ty;
  if (!ty.is_int() || (must_be_unsigned && !ty.is_unsigned_int())) {
    error(DiagKind::TypeMismatch, at,
          std::string(role) + " must be " + (must_be_unsigned ? "an unsigned integer" : "an integer") + ", not " +
              ir::ty_label(ty));
    return false;
  }
  return true;
}

void UnitChecker::check_zero_divisor(const Expr& divisor, Span at) {
  if (divisor.kind == ExprKind::Int && divisor.int_value == 0)
    error(DiagKind::ZeroDivisor, at, "division by the literal 0");
}

Typed UnitChecker::arithmetic(Tok op, ExprPtr& a, ExprPtr& b, Span at) {
  Typed ta = check(a), tb = check(b);
  const bool dyn = ta.dynamic || tb.dynamic;
  const bool is_float_pow = op == Tok::StarStar && (ta.t.ty.is_float() || tb.t.ty.is_float());
  if (op == Tok::Shl || op == Tok::Shr || (op == Tok::StarStar && !is_float_pow)) {
    // The result has the left operand's type; the right is any unsigned integer.
    integer_operand(a, ta, false, "the left operand", at);
    if (tb.t.lit == ETy::Lit::Int && tb.t.int_value >= 0) coerce(b, tb, Ty::u64(), false, "");
    else integer_operand(b, tb, true, op == Tok::StarStar ? "an integer exponent" : "a shift amount", at);
    return Typed{ETy::of(a->ty), dyn};
  }
  if (op == Tok::Slash || op == Tok::Percent) check_zero_divisor(*b, at);
  auto ty = unify_operands(a, ta, b, tb, at);
  if (!ty) return Typed{ETy::of(Ty::u64()), dyn};
  switch (op) {
    case Tok::EqEq: case Tok::NotEq:
      if (!ty->is_numeric() && !ty->is_bool() && !ty->is_str())
        error(DiagKind::TypeMismatch, at, "cannot compare values of type " + ir::ty_label(*ty));
      return Typed{ETy::of(Ty::boolean()), dyn};
    case Tok::Lt: case Tok::Gt: case Tok::Le: case Tok::Ge:
      if (!ty->is_numeric()) error(DiagKind::TypeMismatch, at, "cannot order values of type " + ir::ty_label(*ty));
      return Typed{ETy::of(Ty::boolean()), dyn};
    case Tok::Amp: case Tok::Pipe: case Tok::Caret:
      if (!ty->is_bool() && !ty->is_int())
        error(DiagKind::TypeMismatch, at, "& | ^ need bools or integers, not " + ir::ty_label(*ty));
      return Typed{ETy::of(*ty), dyn};
    default:
      if (!ty->is_numeric()) error(DiagKind::TypeMismatch, at, "arithmetic needs numbers, not " + ir::ty_label(*ty));
      return Typed{ETy::of(*ty), dyn};
  }
}

// A comparison is computed as a bool and yields it as the u64 1 or 0 (nb-rs's
// u64_eq ... nodes): the implicit cast that to_bool removes again.
Typed UnitChecker::check_binary(ExprPtr& ep) {
  Expr& e = *ep;
  Typed r = arithmetic(e.op, e.operands[0], e.operands[1], e.span);
  if (!is_comparison(e.op)) return r;
  e.ty = Ty::boolean();
  e.typed = true;
  wrap_cast(ep, Ty::u64());
  return Typed{ETy::of(Ty::u64()), r.dynamic};
}

// Whether a checked integer expression is known to be 0 or 1, so that it may
// become a bool where a bool is declared: a comparison (or any bool made an
// integer), the literals 0 and 1, `& | ^` of two such, an `if` whose branches
// are both such, and a name bound with `:=` to such (not a loop variable nor
// a part of a destructuring).
// (The walk follows the tree, whose depth the parser bounds.)
bool UnitChecker::zero_or_one(const Expr& e) const {
  if (!e.ty.is_int()) return false;
  switch (e.kind) {
    case ExprKind::Int: return e.int_value == 0 || e.int_value == 1;
    case ExprKind::Cast: return e.operands[0]->ty.is_bool();
    case ExprKind::Name: return name_is_zero_one(e.name);
    case ExprKind::Binary:
      return (e.op == Tok::Amp || e.op == Tok::Pipe || e.op == Tok::Caret) &&
             zero_or_one(*e.operands[0]) && zero_or_one(*e.operands[1]);
    case ExprKind::If: return zero_or_one(*e.operands[1]) && zero_or_one(*e.operands[2]);
    default: return false;
  }
}

bool UnitChecker::name_is_zero_one(const std::string& name) const {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
    if (auto f = it->find(name); f != it->end()) return f->second.zero_one;
  auto it = scope_.find(name);
  return it != scope_.end() && it->second.typed && it->second.zero_one;
}

// A zero_or_one expression as a bool: the comparisons inside it stay
// one-bit (& | ^ and if on bools), and only a name gets a cast.
void UnitChecker::to_bool(ExprPtr& ep) {
  Expr& e = *ep;
  if (e.kind == ExprKind::Cast && e.operands[0]->ty.is_bool()) {
    ExprPtr inner = std::move(e.operands[0]);
    ep = std::move(inner);
    return;
  }
  const bool logic = e.kind == ExprKind::Binary || e.kind == ExprKind::If;
  if (e.kind == ExprKind::Int || (logic && zero_or_one(e))) {
    for (size_t i = e.kind == ExprKind::If ? 1 : 0; i < e.operands.size(); ++i) to_bool(e.operands[i]);
    e.ty = Ty::boolean();
    return;
  }
  wrap_cast(ep, Ty::boolean());
}

Typed UnitChecker::check_cast(Expr& e) {
  Typed t = check(e.operands[0]);
  coerce(e.operands[0], t, t.t.ty, false, "");
  const Ty to = *scalar_type(e.target.name);
  const Ty& from = e.operands[0]->ty;
  if (!from.is_scalar() || !to.is_scalar())
    error(DiagKind::TypeMismatch, e.span, "cannot convert " + ir::ty_label(from) + " to " + ir::ty_label(to));
  return Typed{ETy::of(to), t.dynamic};
}

// `[e0, ..., en-1][i]`: the entries share one type, as if's branches do;
// the index is unsigned, taken modulo n, and refused when it is known to be n or more.
Typed UnitChecker::check_table(Expr& e) {
  const size_t n = e.operands.size() - 1;
  std::vector<Typed> ts;
  bool dyn = false, all_str = true;
  for (size_t i = 0; i < n; ++i) {
    ts.push_back(check(e.operands[i]));
    dyn = dyn || ts.back().dynamic;
    all_str = all_str && ts.back().t.ty.is_str() && !ts.back().t.is_literal();
  }
  Ty ty = Ty::str();
  if (!all_str) {
    ETy acc = ts[0].t;
    for (size_t i = 1; i < n; ++i) {
      const Unified u = unify(acc, ts[i].t);
      if (!u.ty) {
        error(u.signed_unsigned ? DiagKind::SignedUnsignedMix : DiagKind::TypeMismatch, e.operands[i]->span,
              "the entries of a table share one type: " + u.error);
        return Typed{ETy::of(Ty::u64()), dyn};
      }
      acc = ETy::of(*u.ty);
    }
    ty = acc.ty;
    for (size_t i = 0; i < n; ++i) coerce(e.operands[i], ts[i], ty, false, "");
    if (!ty.is_scalar()) error(DiagKind::TypeMismatch, e.span, "a table holds scalars or text, not " + ir::ty_label(ty));
  }
  ExprPtr& index = e.operands.back();
  Typed ti = check(index);
  if (ti.t.lit == ETy::Lit::Int && ti.t.int_value >= 0) coerce(index, ti, Ty::u64(), false, "");
  else integer_operand(index, ti, true, "a table's index", index->span);
  if (auto k = known_constant(*index); k && k->ty().is_int() && k->bits() >= n)
    error(DiagKind::LiteralOutOfRange, index->span,
          "index " + std::to_string(k->bits()) + " is past the table's " + std::to_string(n) + " entr" +
              (n == 1 ? "y" : "ies") + " (they are numbered from 0)");
  return Typed{ETy::of(ty), dyn || ti.dynamic};
}

Typed UnitChecker::check_if(Expr& e) {
  Typed c = check(e.operands[0]);
  bool dyn = c.dynamic;
  condition(e.operands[0], c, "the condition of if");
  Typed a = check(e.operands[1]), b = check(e.operands[2]);
  dyn = dyn || a.dynamic || b.dynamic;
  if (a.t.ty.is_str() && b.t.ty.is_str()) return Typed{ETy::of(Ty::str()), dyn};
  auto ty = unify_operands(e.operands[1], a, e.operands[2], b, e.span);
  return Typed{ETy::of(ty ? *ty : Ty::u64()), dyn};
}

// A condition is bool, or an integer that is true when nonzero.
void UnitChecker::condition(ExprPtr& c, const Typed& t, const char* role) {
  coerce(c, t, t.t.ty, false, "");
  if (c->ty.is_bool()) return;
  if (!c->ty.is_int()) {
    error(DiagKind::TypeMismatch, c->span, std::string(role) + " must be bool or an integer, not " + ir::ty_label(c->ty));
    return;
  }
  if (c->kind == ExprKind::Unary && c->op == Tok::Bang && zero_or_one(*c->operands[0]))
    diags().warning(DiagKind::ConstantCondition, c->span,
                    std::string(role) + " is always true: `!` of a comparison is bitwise on its u64 1 or 0 "
                    "(all ones, or all ones but bit 0), never 0; negate the comparison or write `(...) == 0`");
  if (zero_or_one(*c)) to_bool(c);
  else wrap_cast(c, Ty::boolean());
}

}  // namespace polydat::frontend::check_detail
