// The checker's names: the unit scope, what each binding reads, inferred inputs, and the order of the bindings.
#include <algorithm>
#include <set>

#include "frontend/check_internal.h"
#include "frontend/constant_params.h"
#include "frontend/cursors.h"

namespace polydat::frontend::check_detail {

namespace {

std::string stmt_name(const Stmt& s) {
  if (s.kind == StmtKind::Binding) return cursor_of(s.name) ? written_name(s.name) : s.name;
  std::string n = "(";
  for (size_t i = 0; i < s.names.size(); ++i) n += (i ? ", " : "") + s.names[i].first;
  return n + ")";
}

}  // namespace

bool UnitChecker::declare(const std::string& name, Entry e) {
  if (name == "_") {
    if (e.kind == Entry::Kind::Part) return true;  // a discarded part of a destructuring
    error(DiagKind::Syntax, e.span, "'_' only discards a value in a destructuring; give this a name");
    return false;
  }
  if (auto it = scope_.find(name); it != scope_.end()) {
    // A cursor declared twice is said once, at its start binding's place.
    if (is_cursor_helper(name) && !cursor_of_start_name(name)) return false;
    error(DiagKind::Redefinition, e.span,
          cursor_of_start_name(name) ? "cursor " + *cursor_of_start_name(name) + " is already declared in this scope"
                                     : written_name(name) + " is already defined in this scope");
    diags().last().notes.emplace_back(it->second.span, "first defined here");
    return false;
  }
  names_in_order_.push_back(name);
  scope_.emplace(name, std::move(e));
  return true;
}

void UnitChecker::collect_scope() {
  if (u_.is_def) {
    std::set<std::string> names;
    for (Param& p : u_.def->params) names.insert(p.name);
    const std::set<std::string> constant = constant_parameters(p_, u_, u_.statements(), names);
    for (Param& p : u_.def->params) {
      const bool c = constant.count(p.name) > 0;  // fixed when the kernel is built, like an extern
      u_.params.push_back(Port{p.name, p.span, *scalar_type(p.type->name), c, false, p.default_value.get(), {},
                               false, false, !c, Combine::Last});
    }
    for (size_t i = 0; i < u_.params.size(); ++i)
      declare(u_.params[i].name, Entry{Entry::Kind::Param, nullptr, 0, nullptr, u_.params[i].span,
                                       u_.params[i].ty, true, u_.params[i].dynamic, false});
  }
  for (Stmt* s : u_.statements()) {
    if (u_.is_def && (s->kind == StmtKind::Input || s->kind == StmtKind::Extern || s->kind == StmtKind::Output)) {
      error(DiagKind::Syntax, s->span,
            "a module definition's inputs are its parameters and its results are declared after '->'; "
            "this statement belongs at the top of a file");
      continue;
    }
    switch (s->kind) {
      case StmtKind::Input:
        has_inputs_ = true;
        for (Param& p : s->params) {
          u_.params.push_back(Port{p.name, p.span, *scalar_type(p.type->name), false, false, nullptr, {}, false, false,
                                   true, Combine::Last});
          declare(p.name, Entry{Entry::Kind::Input, nullptr, 0, nullptr, p.span, u_.params.back().ty, true, true, false});
        }
        break;
      case StmtKind::Extern: {
        Param& p = s->params.front();
        // A cell (scope_cells) is an extern that keeps its binding's words.
        u_.params.push_back(Port{p.name, p.span, Ty(), true, s->is_shared, p.default_value.get(), {}, s->is_const,
                                 s->is_volatile, s->is_volatile, s->combine});
        declare(p.name, Entry{Entry::Kind::Extern, s, 0, nullptr, p.span, Ty(), false, false, false});
        externs_.push_back(s);
        break;
      }
      case StmtKind::Binding:
        declare(s->name, Entry{Entry::Kind::Binding, s, 0, nullptr, s->name_span, Ty(), false, false, false});
        bindings_.push_back(s);
        break;
      case StmtKind::Destructure:
        for (size_t i = 0; i < s->names.size(); ++i)
          declare(s->names[i].first,
                  Entry{Entry::Kind::Part, s, i, nullptr, s->names[i].second, Ty(), false, false, false});
        bindings_.push_back(s);
        break;
      case StmtKind::Output:
        outputs_listed_.push_back(s);
        break;
      case StmtKind::Pragma:
        if (s->name != "no_inline")
          diags().warning(DiagKind::UnknownPragma, s->name_span, "unknown pragma '" + s->name + "' is ignored");
        break;
      case StmtKind::Assign:
        error(DiagKind::Syntax, s->span, "'" + s->name + " = ...' assigns a loop variable; bind with ':='");
        break;
      case StmtKind::ModuleDef:
        break;
    }
  }
}

// Names an expression reads from the unit scope (loop variables and locals excluded).
void UnitChecker::references(const Expr& root, std::vector<std::pair<std::string, Span>>& out) {
  names_read(root, no_locals(), out);
}

void UnitChecker::collect_references() {
  std::vector<std::pair<std::string, Span>> unbound;
  auto visit = [&](Stmt* owner, const Expr& e) {
    std::vector<std::pair<std::string, Span>> refs;
    references(e, refs);
    for (auto& [name, span] : refs) {
      auto it = scope_.find(name);
      if (it == scope_.end()) {
        unbound.emplace_back(name, span);
        continue;
      }
      if (owner) deps_[owner].push_back(name);
      if (owner && it->second.stmt != owner) it->second.referenced = true;
    }
  };
  for (Stmt* s : bindings_) visit(s, *s->value);
  for (Stmt* s : externs_)
    if (s->params.front().default_value)
      check_constant_expr(*s->params.front().default_value, s->is_shared ? "a shared cell's value" : "an extern's default");
  if (u_.is_def)
    for (Param& prm : u_.def->params)
      if (prm.default_value) check_constant_expr(*prm.default_value, "a parameter's default");
  // Names bound in loop bodies, to explain a read from outside the body.
  std::set<std::string> body_locals;
  for (Stmt* s : bindings_) {
    std::vector<const Expr*> work{s->value.get()};
    while (!work.empty()) {
      const Expr* x = work.back();
      work.pop_back();
      for (const StmtPtr& b : x->body) {
        if (b->kind == StmtKind::Binding) body_locals.insert(b->name);
        for (const auto& [n, sp] : b->names) body_locals.insert(n);
        if (b->value) work.push_back(b->value.get());
      }
      for (const ExprPtr& c : x->operands) work.push_back(c.get());
      for (const ExprPtr& c : x->interpolated) work.push_back(c.get());
      for (const Arg& a : x->args) work.push_back(a.value.get());
      for (const LoopVar& v : x->vars) work.push_back(v.init.get());
      if (x->guard) work.push_back(x->guard.get());
      if (x->yield) work.push_back(x->yield.get());
    }
  }
  // Unbound names: inferred u64 inputs when the file declares none, else errors.
  std::sort(unbound.begin(), unbound.end(), [](const auto& a, const auto& b) { return a.second.start < b.second.start; });
  const std::set<std::string> inferred_constants = inferred_constant_names(unbound, body_locals);
  for (auto& [name, span] : unbound) {
    if (scope_.count(name)) continue;  // inferred by an earlier use
    if (!has_inputs_ && !u_.is_def && !body_locals.count(name) && !cursor_of(name)) {
      // Passed on to a constant, it is an extern of the file (nb-rs's init-time inputs of a module file).
      const bool c = inferred_constants.count(name) > 0;
      u_.params.push_back(Port{name, span, Ty::u64(), c, false, nullptr, {}, false, false, !c, Combine::Last});
      u_.inputs_inferred = true;
      declare(name, Entry{Entry::Kind::Input, nullptr, 0, nullptr, span, Ty::u64(), true, !c, false});
      continue;
    }
    std::string message = "unknown name " + written_name(name);
    if (cursor_of(name) && !is_cursor_helper(name))
      message += ": only a cursor declared with `over` has `.cursor`";
    else if (body_locals.count(name))
      message += ": it is bound inside a loop body, which only the body's later statements see "
                 "(a loop's guard and yield see its variables)";
    else if (std::string near = closest_name(name, names_in_order_); !near.empty())
      message += "; did you mean '" + near + "'?";
    else if (has_inputs_)
      message += " (this file declares its inputs, so every input must be declared)";
    error(DiagKind::UnknownName, span, message);
    reported_unknown_.insert(name);
  }
}

// The unbound names a file that declares no inputs passes on to constants.
std::set<std::string> UnitChecker::inferred_constant_names(const std::vector<std::pair<std::string, Span>>& unbound,
                                                           const std::set<std::string>& body_locals) {
  if (has_inputs_ || u_.is_def) return {};
  std::set<std::string> names;
  for (const auto& [name, span] : unbound)
    if (!scope_.count(name) && !body_locals.count(name)) names.insert(name);
  return constant_parameters(p_, u_, bindings_, names);
}

// Bindings in dependency order (iterative depth-first); a cycle is an error.
void UnitChecker::order_bindings() {
  std::map<Stmt*, int> state;
  for (Stmt* root : bindings_) {
    if (state[root]) continue;
    std::vector<std::pair<Stmt*, size_t>> stack{{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto [s, next] = stack.back();
      const auto& ds = deps_[s];
      if (next == ds.size()) {
        state[s] = 2;
        u_.ordered.push_back(s);
        stack.pop_back();
        continue;
      }
      stack.back().second++;
      auto found = scope_.find(ds[next]);
      if (found == scope_.end()) continue;
      const Entry& e = found->second;
      Stmt* d = e.stmt;
      if (d == nullptr || (e.kind != Entry::Kind::Binding && e.kind != Entry::Kind::Part)) continue;
      if (state[d] == 1) {
        std::string cycle;
        bool on = false;
        for (auto& [v, unused] : stack) {
          on = on || v == d;
          if (on) cycle += stmt_name(*v) + " -> ";
        }
        error(DiagKind::CyclicBinding, d->span, "bindings depend on each other in a cycle: " + cycle + stmt_name(*d));
        state[d] = 2;
        continue;
      }
      if (state[d] == 0) {
        state[d] = 1;
        stack.emplace_back(d, 0);
      }
    }
  }
}

Typed UnitChecker::check_name(Expr& e) {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
    if (auto f = it->find(e.name); f != it->end()) return Typed{ETy::of(f->second.ty), f->second.dynamic};
  auto it = scope_.find(e.name);
  if (it == scope_.end()) {
    if (!reported_unknown_.count(e.name)) {
      error(DiagKind::UnknownName, e.span, "unknown name '" + e.name + "'");
      reported_unknown_.insert(e.name);
    }
    return Typed{ETy::of(Ty::u64()), false};
  }
  if (!it->second.typed) return Typed{ETy::of(Ty::u64()), false};  // in a reported cycle
  return Typed{ETy::of(it->second.ty), it->second.dynamic};
}

bool UnitChecker::visible_local(const std::string& name) const {
  for (const auto& l : locals_)
    if (l.count(name)) return true;
  return false;
}

}  // namespace polydat::frontend::check_detail
