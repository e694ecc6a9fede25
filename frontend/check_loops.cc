// The checker's loops: loop variables, the guard and the yield, and the scopes of loop bodies.
#include "frontend/check_internal.h"

namespace polydat::frontend::check_detail {

Typed UnitChecker::check_loop(Expr& e) {
  ++loop_depth_;
  const int me = loop_depth_;
  std::map<std::string, Local> vars;
  bool dyn = false;
  for (LoopVar& v : e.vars) {
    Typed t = check(v.init);
    dyn = dyn || t.dynamic;
    const Ty ty = v.type ? *scalar_type(v.type->name) : t.t.ty;
    coerce(v.init, t, ty, true, "the loop variable's type");
    if (!ty.is_scalar()) error(DiagKind::TypeMismatch, v.span, "a loop variable holds a scalar, not " + ir::ty_label(ty));
    if (scope_.count(v.name) || visible_local(v.name) || vars.count(v.name)) {
      error(DiagKind::Redefinition, v.span, "'" + v.name + "' is already defined");
      continue;
    }
    vars[v.name] = Local{ty, t.dynamic, true, me};
  }
  locals_.push_back(vars);
  Typed g = check(e.guard);
  condition(e.guard, g, "the loop guard");
  if (!reads_loop_variable(*e.guard, vars))
    error(DiagKind::LoopGuardInvariant, e.guard->span,
          "the loop guard reads no loop variable, so the loop would run zero times or forever");
  Typed y;
  if (e.yield->kind == ExprKind::Tuple) {  // `yield (a, b)`: the one place a tuple is written
    std::vector<Ty> tys;
    for (ExprPtr& part : e.yield->operands) {
      Typed pt = check(part);
      coerce(part, pt, pt.t.ty, false, "");
      tys.push_back(part->ty);
      y.dynamic = y.dynamic || pt.dynamic;
    }
    e.yield->ty = Ty::tuple(std::move(tys));
    e.yield->typed = true;
    y.t = ETy::of(e.yield->ty);
  } else {
    y = check(e.yield);
    coerce(e.yield, y, y.t.ty, false, "");
  }
  // The body, statement by statement, in a scope of its own.
  locals_.emplace_back();
  for (StmtPtr& s : e.body) dyn = check_loop_statement(*s, me) || dyn;
  locals_.pop_back();
  locals_.pop_back();
  --loop_depth_;
  return Typed{ETy::of(e.yield->ty), dyn || g.dynamic || y.dynamic};
}

bool UnitChecker::reads_loop_variable(const Expr& root, const std::map<std::string, Local>& vars) const {
  std::vector<const Expr*> work{&root};
  while (!work.empty()) {
    const Expr* x = work.back();
    work.pop_back();
    if (x == nullptr) continue;  // an argument slot left for its default
    if (x->kind == ExprKind::Name && vars.count(x->name)) return true;
    for (const ExprPtr& c : x->operands) work.push_back(c.get());
    for (const ExprPtr& c : x->interpolated) work.push_back(c.get());
    for (const Arg& a : x->args) work.push_back(a.value.get());
    if (x->guard) work.push_back(x->guard.get());
    if (x->yield) work.push_back(x->yield.get());
    for (const LoopVar& v : x->vars) work.push_back(v.init.get());
    for (const StmtPtr& s : x->body)
      if (s->value) work.push_back(s->value.get());
  }
  return false;
}

// Checks one statement of a loop body; returns whether it reads an input.
bool UnitChecker::check_loop_statement(Stmt& s, int loop) {
  // By index: checking a nested loop pushes scopes, which may move the vector.
  const size_t body = locals_.size() - 1;
  if (s.kind == StmtKind::Assign) {
    Local* var = nullptr;
    for (auto it = locals_.rbegin(); it != locals_.rend() && !var; ++it)
      if (auto f = it->find(s.name); f != it->end()) var = &f->second;
    Typed t = check(s.value);
    if (var == nullptr || !var->is_var || var->loop != loop) {
      error(DiagKind::NotALoopVariable, s.name_span,
            "'" + s.name + "' is not a variable of this loop; bind a new name with ':='");
      return t.dynamic;
    }
    coerce(s.value, t, var->ty, true, "the loop variable's type");
    var->dynamic = var->dynamic || t.dynamic;
    return t.dynamic;
  }
  if (s.kind == StmtKind::Destructure) {
    for (auto& [n, sp] : s.names)
      if (n != "_" && (scope_.count(n) || visible_local(n))) error(DiagKind::Redefinition, sp, "'" + n + "' is already defined");
    check_destructure(s, body);
    return false;
  }
  if (s.is_const || s.is_shared)
    error(DiagKind::Syntax, s.span, "a loop body binds plain names; const and shared belong at the top level");
  if (scope_.count(s.name) || visible_local(s.name)) {
    error(DiagKind::Redefinition, s.name_span, "'" + s.name + "' is already defined");
    return false;
  }
  Typed t = check(s.value);
  const Ty ty = s.type ? *scalar_type(s.type->name) : t.t.ty;
  coerce(s.value, t, ty, true, "the annotated type");
  if (s.value->ty.kind() == TyKind::Tuple)
    error(DiagKind::TupleMisuse, s.value->span, "this yields several values; destructure them with (a, b) := ...");
  locals_[body][s.name] = Local{s.value->ty, t.dynamic, false, loop, zero_or_one(*s.value)};
  return t.dynamic;
}

}  // namespace polydat::frontend::check_detail
