#include "frontend/check.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <set>
#include <tuple>

#include "frontend/constant_params.h"
#include "frontend/cursors.h"
#include "frontend/lower.h"
#include "frontend/sampled_functions.h"
#include "frontend/typing_rules.h"
#include "frontend/weights.h"
#include "ir/library_fn.h"
#include "ir/partition.h"
#include "ir/text_regex.h"

namespace polydat::frontend {

namespace {

using ir::Ty;
using ir::TyKind;

// What an expression is, before it meets its context.
struct Typed {
  ETy t;
  bool dynamic = false;  // depends on an input
};

class UnitChecker {
 public:
  UnitChecker(Program& p, size_t ui) : p_(p), ui_(ui), u_(p.units[ui]) {}

  void run() {
    const size_t errors_before = p_.diags.error_count();
    collect_scope();
    collect_references();
    type_externs_and_defaults();  // constants: they read no names, and bindings read them
    order_bindings();
    for (Stmt* s : u_.ordered) check_statement(*s);
    finish_signature();
    u_.checked_ok = p_.diags.error_count() == errors_before;
  }

 private:
  struct Entry {
    enum class Kind : uint8_t { Input, Extern, Param, Binding, Part } kind;
    Stmt* stmt = nullptr;  // Binding, Part
    size_t part = 0;       // Part: position in its destructuring
    Port* port = nullptr;  // Input, Extern, Param: filled in signature
    Span span;
    Ty ty;
    bool typed = false;
    bool dynamic = false;
    bool referenced = false;  // read by another binding (so not an output)
    bool zero_one = false;    // an integer known to be 0 or 1 (see zero_or_one)
  };
  struct Local {
    Ty ty;
    bool dynamic = false;
    bool is_var = false;  // a loop variable (assignable in its own loop)
    int loop = 0;         // the loop it belongs to
    bool zero_one = false;  // a body binding known to be 0 or 1 (see zero_or_one)
  };

  Diagnostics& diags() { return p_.diags; }
  void error(DiagKind k, Span s, std::string m) { diags().error(k, s, std::move(m)); }

  // ---- scope ----

  bool declare(const std::string& name, Entry e) {
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

  void collect_scope() {
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

  // ---- references: what each binding reads, and inferred inputs ----

  // Names an expression reads from the unit scope (loop variables and locals excluded).
  void references(const Expr& root, std::vector<std::pair<std::string, Span>>& out) {
    names_read(root, no_locals(), out);
  }

  void collect_references() {
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
  std::set<std::string> inferred_constant_names(const std::vector<std::pair<std::string, Span>>& unbound,
                                                const std::set<std::string>& body_locals) {
    if (has_inputs_ || u_.is_def) return {};
    std::set<std::string> names;
    for (const auto& [name, span] : unbound)
      if (!scope_.count(name) && !body_locals.count(name)) names.insert(name);
    return constant_parameters(p_, u_, bindings_, names);
  }

  // A constant parameter of a module where its value is needed: the caller's,
  // unknown here. The body is checked without it and the module becomes one
  // that is not compiled (Unit::needs_values).
  bool value_of_caller(const Expr& arg, const std::string& what) {
    const Expr* e = &arg;
    while (e->kind == ExprKind::Cast && e->implicit) e = e->operands[0].get();
    if (!u_.is_def || e->kind != ExprKind::Name || visible_local(e->name)) return false;
    const auto it = scope_.find(e->name);
    if (it == scope_.end() || it->second.kind != Entry::Kind::Param || it->second.dynamic) return false;
    if (u_.needs_values.empty()) u_.needs_values = "its parameter '" + e->name + "' gives " + what;
    return true;
  }

  // Defaults are constant: literals, operators, casts and built-in calls, no names.
  void check_constant_expr(const Expr& e, const char* what) {
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

  // A call of a module or a loop inside an expression that reads no names, if any.
  static const Expr* first_non_constant_part(const Expr& e) {
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

  // The value of a checked expression known at compile time: literals,
  // operators and built-in calls, and names bound to such expressions (not
  // externs, which a run may set, nor volatile bindings). nullopt otherwise.
  std::optional<ir::Value> known_constant(const Expr& e, int depth = 0) {
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

  // Bindings in dependency order (iterative depth-first); a cycle is an error.
  void order_bindings() {
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

  static std::string stmt_name(const Stmt& s) {
    if (s.kind == StmtKind::Binding) return cursor_of(s.name) ? written_name(s.name) : s.name;
    std::string n = "(";
    for (size_t i = 0; i < s.names.size(); ++i) n += (i ? ", " : "") + s.names[i].first;
    return n + ")";
  }

  // ---- statements ----

  void check_statement(Stmt& s) {
    if (s.kind == StmtKind::Destructure) return check_destructure(s, std::nullopt);
    auto it = scope_.find(s.name);
    if (it == scope_.end() || it->second.stmt != &s) return;  // refused when declared
    Entry& e = it->second;
    Typed t = check(s.value);
    coerce(s.value, t, s.type ? *scalar_type(s.type->name) : t.t.ty, true, s.type ? "the annotated type" : "");
    if (s.value->ty.kind() == TyKind::Tuple)
      error(DiagKind::TupleMisuse, s.value->span, "this yields several values; destructure them with (a, b) := ...");
    e.ty = s.value->ty;
    e.typed = true;
    e.dynamic = t.dynamic;
    e.zero_one = zero_or_one(*s.value);
    if (s.is_shared) check_combine(s, e.ty);
    if (s.is_const && t.dynamic)
      error(DiagKind::ConstDependsOnInput, s.value->span, "const '" + s.name + "' depends on an input");
    if (t.dynamic && is_cursor_helper(s.name) && s.name != cursor_problem_name(cursor_of(s.name).value_or("")))
      error(DiagKind::NotConstant, s.value->span,
            "cursor '" + cursor_of(s.name).value_or(s.name) + "': its range and its `over` are fixed when its scope "
            "starts, so they cannot depend on `cycle` or on a value that changes per cycle");
  }

  // The types each combine applies to: sum an integer or a float, min and
  // max those or a str, count an integer, last any.
  void check_combine(const Stmt& s, const Ty& ty) {
    const bool ok = s.combine == Combine::Last || ty.is_int() ||
                    (ty.is_float() && s.combine != Combine::Count) ||
                    (ty.is_str() && (s.combine == Combine::Min || s.combine == Combine::Max));
    if (ok || ty.kind() == TyKind::Tuple) return;  // a tuple is reported on its own
    const char* needs = s.combine == Combine::Sum     ? "an integer or float cell"
                        : s.combine == Combine::Count ? "an integer cell"
                                                      : "an integer, float or str cell";
    error(DiagKind::TypeMismatch, s.combine_span,
          "shared(" + std::string(combine_name(s.combine)) + ") needs " + needs + ", but '" + s.name + "' is " +
              ir::ty_label(ty));
  }

  // `(a, b) := value` at the unit level, or into loop-body scope `local_scope`
  // (an index: checking the value may push scopes and move the vector).
  void check_destructure(Stmt& s, std::optional<size_t> local_scope) {
    Typed t = check(s.value);
    const Ty& ty = s.value->ty;
    if (ty.kind() != TyKind::Tuple) {
      error(DiagKind::TupleMisuse, s.value->span, "this gives one value; bind it with ':='");
      return;
    }
    if (ty.arity() != s.names.size()) {
      error(DiagKind::TupleMisuse, s.span,
            "this gives " + std::to_string(ty.arity()) + " values, not " + std::to_string(s.names.size()));
      return;
    }
    for (size_t i = 0; i < s.names.size(); ++i) {
      if (s.names[i].first == "_") continue;
      if (local_scope) {
        locals_[*local_scope][s.names[i].first] = Local{ty.component(i), t.dynamic, false, loop_depth_};
        continue;
      }
      auto it = scope_.find(s.names[i].first);
      if (it == scope_.end() || it->second.stmt != &s) continue;  // refused when declared
      Entry& e = it->second;
      e.ty = ty.component(i);
      e.typed = true;
      e.dynamic = t.dynamic;
    }
  }

  void type_externs_and_defaults() {
    for (Stmt* s : externs_) {
      Param& p = s->params.front();
      auto it = scope_.find(p.name);
      if (it == scope_.end() || it->second.stmt != s) continue;  // refused when declared
      Entry& e = it->second;
      Ty ty = p.type ? *scalar_type(p.type->name) : Ty::u64();
      if (p.default_value) {
        const ExprKind k = p.default_value->kind;
        const bool literal = k == ExprKind::Int || k == ExprKind::Float || k == ExprKind::Bool || k == ExprKind::Str;
        if (s->is_shared && !p.type && !literal)
          error(DiagKind::TypeMismatch, p.default_value->span,
                "the type of shared cell '" + p.name + "' is taken from a literal value; for this value write its type: "
                "`shared " + p.name + ": TYPE := ...`");
        Typed t = check(p.default_value);
        if (!p.type) ty = t.t.ty;
        coerce(p.default_value, t, ty, true, s->is_shared ? "the annotated type" : "the extern's type");
      }
      if (s->is_shared) check_combine(*s, ty);
      e.ty = ty;
      e.typed = true;
      for (Port& port : u_.params)
        if (port.name == p.name) port.ty = ty;
    }
    if (u_.is_def) {
      for (size_t i = 0; i < u_.def->params.size(); ++i) {
        Param& prm = u_.def->params[i];
        if (!prm.default_value) continue;
        Typed t = check(prm.default_value);
        coerce(prm.default_value, t, u_.params[i].ty, true, "the parameter's type");
      }
    }
  }

  void finish_signature() {
    if (u_.is_def) {
      for (Param& out : u_.def->outputs) {
        auto it = scope_.find(out.name);
        const Ty want = *scalar_type(out.type->name);
        if (it == scope_.end() || (it->second.kind != Entry::Kind::Binding && it->second.kind != Entry::Kind::Part)) {
          error(DiagKind::UnknownOutput, out.span, "result '" + out.name + "' is never bound in the body");
          continue;
        }
        const bool adapted = want.is_bool() && it->second.zero_one;  // a comparison as a bool result
        if (it->second.typed && !lossless(it->second.ty, want) && !adapted)
          error(DiagKind::TypeMismatch, it->second.span,
                "result '" + out.name + "' is declared " + ir::ty_label(want) + " but bound to " + ir::ty_label(it->second.ty) +
                    (it->second.ty.is_scalar() && !it->second.ty.is_str() ? "; convert with `as " + ir::ty_label(want) + "`" : ""));
        u_.outputs.push_back(Port{out.name, out.span, want, false, false, nullptr, {}, false, false, false, Combine::Last});
      }
      return;
    }
    if (ui_ == 0 && !p_.options.outputs.empty()) {
      select_outputs(p_.options.outputs);
      return;
    }
    // File units: every binding nothing else reads, plus those listed by `output`.
    std::set<std::string> listed;
    for (Stmt* s : outputs_listed_)
      for (auto& [name, span] : s->names) {
        auto it = scope_.find(name);
        if (it == scope_.end() || (it->second.kind != Entry::Kind::Binding && it->second.kind != Entry::Kind::Part)) {
          if (!reported_unknown_.count(name))
            error(DiagKind::UnknownOutput, span, "'" + name + "' is not a binding of this file");
          continue;
        }
        listed.insert(name);
      }
    for (const std::string& name : names_in_order_) {
      const Entry& e = scope_.at(name);  // names_in_order_ holds exactly the declared names
      if (e.kind != Entry::Kind::Binding && e.kind != Entry::Kind::Part) continue;
      if (e.referenced && !listed.count(name)) continue;
      if (is_cursor_helper(name) && !listed.count(name)) continue;  // a cursor's own: the runner asks for it
      u_.outputs.push_back(output_port(name, e));
    }
    // Under scope_cells a scope may hold only cells: a kernel of no outputs.
    const bool has_cells = std::any_of(u_.params.begin(), u_.params.end(), [](const Port& p) { return p.is_shared; });
    if (u_.outputs.empty() && !diags().has_errors() && !has_cells && !module_library())
      error(DiagKind::NoOutputs, Span{u_.file, 0, 0}, "'" + u_.name + "' has no bindings, so no outputs");
  }

  // A root file of module definitions only, as nb-rs's stdlib files: a library
  // to check, with no kernel of its own (as a callee it would be one of no results).
  bool module_library() const {
    if (ui_ != 0) return false;
    bool defs = false;
    for (const StmtPtr& s : u_.ast->stmts) {
      if (s->kind == StmtKind::ModuleDef) defs = true;
      else if (s->kind != StmtKind::Pragma) return false;
    }
    return defs;
  }

  // A binding (or a part of a destructuring) as a result, with its facts.
  Port output_port(const std::string& name, const Entry& e) {
    const bool binding = e.stmt && e.stmt->kind == StmtKind::Binding;
    const bool is_volatile = binding && e.stmt->is_volatile;
    return Port{name, e.span, e.ty, false, binding && e.stmt->is_shared, nullptr, {}, binding && e.stmt->is_const,
                is_volatile, e.dynamic || volatile_reach().count(e.stmt), binding ? e.stmt->combine : Combine::Last,
                e.zero_one};
  }

  // The bindings that are volatile or read, directly or through others, a
  // volatile binding or cell: they change per evaluation like the inputs'.
  const std::set<const Stmt*>& volatile_reach() {
    if (volatile_reach_) return *volatile_reach_;
    volatile_reach_.emplace();
    std::set<const Stmt*>& out = *volatile_reach_;
    for (Stmt* s : u_.ordered) {  // dependencies first
      bool v = s->is_volatile;
      for (const std::string& d : deps_[s]) {
        auto it = scope_.find(d);
        if (it == scope_.end() || it->second.stmt == nullptr || it->second.stmt == s) continue;
        v = v || out.count(it->second.stmt) || (it->second.kind == Entry::Kind::Extern && it->second.stmt->is_volatile);
      }
      if (v) out.insert(s);
    }
    return out;
  }

  // The caller's choice of the root's outputs: any of its bindings, each once.
  void select_outputs(const std::vector<std::string>& names) {
    std::set<std::string> seen;
    for (const std::string& name : names) {
      auto it = scope_.find(name);
      if (it == scope_.end() || (it->second.kind != Entry::Kind::Binding && it->second.kind != Entry::Kind::Part)) {
        error(DiagKind::UnknownOutput, Span{u_.file, 0, 0}, "'" + name + "' is asked for as an output, but it is not a binding of this file");
        continue;
      }
      if (!seen.insert(name).second) continue;
      const Entry& e = it->second;
      u_.outputs.push_back(output_port(name, e));
    }
  }

  // ---- expressions ----

  Typed literal_int(Expr& e) {
    ETy t = ETy::int_literal(e.int_value);
    if (!fits(e.int_value, t.ty))
      error(DiagKind::LiteralOutOfRange, e.span, "the literal " + int_text(e.int_value) + " fits no integer type");
    e.ty = t.ty;
    e.typed = true;
    return Typed{t, false};
  }

  Typed check(ExprPtr& ep) {
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
  void coerce(ExprPtr& ep, const Typed& t, const Ty& to, bool declared, const std::string& context) {
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

  void mismatch(const Expr& e, const Ty& from, const Ty& to, const std::string& context) {
    std::string m = "expected " + ir::ty_label(to) + (context.empty() ? "" : " (" + context + ")") + ", found " +
                    ir::ty_label(from);
    if (from.is_scalar() && to.is_scalar() && !to.is_str() && !from.is_str()) m += "; convert with `as " + ir::ty_label(to) + "`";
    error(DiagKind::TypeMismatch, e.span, m);
  }

  void wrap_cast(ExprPtr& ep, const Ty& to) {
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

  Typed check_string(Expr& e) {
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

  Typed check_name(Expr& e) {
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

  Typed check_unary(ExprPtr& ep) {
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
  std::optional<Ty> unify_operands(ExprPtr& a, const Typed& ta, ExprPtr& b, const Typed& tb, Span at) {
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
  bool integer_operand(ExprPtr& x, const Typed& t, bool must_be_unsigned, const char* role, Span at) {
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

  void check_zero_divisor(const Expr& divisor, Span at) {
    if (divisor.kind == ExprKind::Int && divisor.int_value == 0)
      error(DiagKind::ZeroDivisor, at, "division by the literal 0");
  }

  Typed arithmetic(Tok op, ExprPtr& a, ExprPtr& b, Span at) {
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

  static bool is_comparison(Tok op) {
    return op == Tok::EqEq || op == Tok::NotEq || op == Tok::Lt || op == Tok::Gt || op == Tok::Le || op == Tok::Ge;
  }

  // A comparison is computed as a bool and yields it as the u64 1 or 0 (nb-rs's
  // u64_eq ... nodes): the implicit cast that to_bool removes again.
  Typed check_binary(ExprPtr& ep) {
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
  bool zero_or_one(const Expr& e) const {
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

  bool name_is_zero_one(const std::string& name) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (auto f = it->find(name); f != it->end()) return f->second.zero_one;
    auto it = scope_.find(name);
    return it != scope_.end() && it->second.typed && it->second.zero_one;
  }

  // A zero_or_one expression as a bool: the comparisons inside it stay
  // one-bit (& | ^ and if on bools), and only a name gets a cast.
  void to_bool(ExprPtr& ep) {
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

  Typed check_cast(Expr& e) {
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
  Typed check_table(Expr& e) {
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

  Typed check_if(Expr& e) {
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
  void condition(ExprPtr& c, const Typed& t, const char* role) {
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

  // ---- calls ----

  // Matches arguments to parameter names: positional first, then by name.
  // Returns one slot per parameter (nullptr where none was given).
  std::optional<std::vector<Arg*>> bind_args(Expr& call, const std::vector<std::string>& params, bool variadic) {
    std::vector<Arg*> slots(params.size(), nullptr);
    size_t positional = 0;
    for (Arg& a : call.args) {
      if (!a.name.empty()) break;
      ++positional;
    }
    if (positional > params.size() && !variadic) {
      error(DiagKind::ArgumentCount, call.args[params.size()].value->span,
            "'" + call.name + "' takes " + std::to_string(params.size()) + " argument" +
                (params.size() == 1 ? "" : "s") + ", not " + std::to_string(call.args.size()));
      return std::nullopt;
    }
    for (size_t i = 0; i < std::min(positional, params.size()); ++i) slots[i] = &call.args[i];
    for (size_t i = positional; i < call.args.size(); ++i) {
      Arg& a = call.args[i];
      auto it = std::find(params.begin(), params.end(), a.name);
      // nb-rs calls a function's first parameter `input` (a keyword here).
      if (it == params.end() && a.name == "input" && !params.empty()) it = params.begin();
      if (it == params.end()) {
        std::string m = "'" + call.name + "' has no parameter '" + a.name + "'";
        if (std::string near = closest_name(a.name, params); !near.empty()) m += "; did you mean '" + near + "'?";
        error(DiagKind::UnknownArgument, a.name_span, m);
        return std::nullopt;
      }
      const size_t k = static_cast<size_t>(it - params.begin());
      if (slots[k]) {
        error(DiagKind::DuplicateArgument, a.name_span, "'" + a.name + "' is given twice");
        return std::nullopt;
      }
      slots[k] = &a;
    }
    return slots;
  }

  // sum(a, b, c) is (a + b) + c and product likewise (with no argument 0 and
  // 1, with one that argument); min(a, b, c) is min(min(a, b), c), max too.
  // True when `ep` was rewritten (and is then checked as what it became).
  bool fold_variadic(ExprPtr& ep) {
    Expr& e = *ep;
    auto callee = u_.callees.find(e.name);
    if (callee == u_.callees.end() || !callee->second.builtin) return false;
    const Builtin b = *callee->second.builtin;
    if (b == Builtin::Identity && e.args.size() == 1 && (e.args[0].name.empty() || e.args[0].name == "input")) {
      ep = std::move(e.args[0].value);
      return true;
    }
    if (b == Builtin::StrConcat) {  // "{a}{b}{c}": each value's text, joined
      auto s = std::make_unique<Expr>();
      s->kind = ExprKind::Str;
      s->span = e.span;
      for (Arg& a : e.args) {
        s->parts.push_back(StringPart{true, "", a.value->span});
        s->interpolated.push_back(std::move(a.value));
      }
      ep = std::move(s);
      return true;
    }
    const bool arithmetic = b == Builtin::Sum || b == Builtin::Product;
    if (!arithmetic && !((b == Builtin::Min || b == Builtin::Max) && e.args.size() > 2)) return false;
    for (const Arg& a : e.args)
      if (!a.name.empty()) {
        error(DiagKind::UnknownArgument, a.name_span, e.name + " takes its arguments by position");
        return false;
      }
    if (arithmetic && e.args.size() <= 1) {
      ExprPtr only = e.args.empty() ? std::make_unique<Expr>() : std::move(e.args[0].value);
      if (e.args.empty()) {  // the identity: sum() is 0, product() is 1 (u64, as nb-rs's)
        only->int_value = b == Builtin::Sum ? 0 : 1;
        only->span = e.span;
      }
      ep = std::move(only);
      return true;
    }
    ExprPtr acc = std::move(e.args[0].value);
    for (size_t i = 1; i < e.args.size(); ++i) {
      auto next = std::make_unique<Expr>();
      next->span = e.span;
      if (arithmetic) {
        next->kind = ExprKind::Binary;
        next->op = b == Builtin::Sum ? Tok::Plus : Tok::Star;
        next->operands.push_back(std::move(acc));
        next->operands.push_back(std::move(e.args[i].value));
      } else {
        next->kind = ExprKind::Call;
        next->name = e.name;
        next->name_span = e.name_span;
        next->args.resize(2);
        next->args[0].value = std::move(acc);
        next->args[1].value = std::move(e.args[i].value);
      }
      acc = std::move(next);
    }
    ep = std::move(acc);
    return true;
  }

  Typed check_call(Expr& e) {
    auto callee = u_.callees.find(e.name);
    if (callee == u_.callees.end()) {  // already reported when resolving
      for (Arg& a : e.args) check(a.value);
      return Typed{ETy::of(Ty::u64()), false};
    }
    if (callee->second.builtin) return check_builtin(e, *find_builtin(e.name));
    if (callee->second.library) return check_library(e, *callee->second.library);
    if (callee->second.distribution) return check_distribution(e, *callee->second.distribution);
    if (callee->second.sampled) return check_sampled(e, *callee->second.sampled);
    const Unit& target = p_.units[callee->second.unit];
    if (!target.checked_ok) {
      for (Arg& a : e.args) check(a.value);
      return Typed{ETy::of(Ty::u64()), false};
    }
    if (!target.needs_values.empty())
      error(DiagKind::NotConstant, e.name_span,
            "module '" + e.name + "' cannot be called: " + target.needs_values +
                "; polydat compiles a module once, without its callers' constants, where nb-rs inlines it at each "
                "call (call the function it wraps, with constants)");
    std::vector<std::string> names;
    for (const Port& prm : target.params) names.push_back(prm.name);
    auto slots = bind_args(e, names, false);
    bool dyn = false;
    if (slots) {
      for (size_t i = 0; i < slots->size(); ++i) {
        Arg* a = (*slots)[i];
        if (a == nullptr) {
          if (!target.params[i].default_value)
            error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for '" + names[i] + "'");
          continue;
        }
        Typed t = check(a->value);
        dyn = dyn || t.dynamic;
        // An extern is fixed for a whole run (nb-rs's init-time constants: seeds, ranges, weights).
        if (target.params[i].is_extern && t.dynamic)
          error(DiagKind::NotConstant, a->value->span,
                "'" + names[i] + "' of " + e.name + " is a constant (" +
                    (target.is_def ? "the module passes it on to a constant" : "an extern of the module") +
                    "), but this depends on an input");
        coerce(a->value, t, target.params[i].ty, true, "parameter '" + names[i] + "' of " + e.name);
      }
      // Reorder to parameter order, leaving defaults out: the lowering fills them in.
      std::vector<Arg> ordered(names.size());
      for (size_t i = 0; i < names.size(); ++i) {
        if ((*slots)[i] == nullptr) continue;
        ordered[i].name = names[i];
        ordered[i].name_span = (*slots)[i]->name_span;
        ordered[i].value = std::move((*slots)[i]->value);
      }
      e.args = std::move(ordered);
    } else {
      for (Arg& a : e.args)
        if (a.value) check(a.value);
    }
    if (target.outputs.size() == 1) return Typed{ETy::of(target.outputs[0].ty), dyn};
    std::vector<Ty> tys;
    for (const Port& o : target.outputs) tys.push_back(o.ty);
    return Typed{ETy::of(Ty::tuple(std::move(tys))), dyn};
  }

  // nb-rs's data points: numbers separated by spaces, commas or semicolons.
  static std::optional<std::vector<double>> data_points(const std::string& spec) {
    std::vector<double> out;
    size_t at = 0;
    while (at <= spec.size()) {
      const size_t end = std::min(spec.find_first_of(" ,;", at), spec.size());
      std::string tok = spec.substr(at, end - at);
      at = end + 1;
      if (tok.empty()) continue;
      if (tok.front() == '+') tok.erase(0, 1);
      double v = 0;
      const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
      if (r.ec != std::errc() || r.ptr != tok.data() + tok.size()) return std::nullopt;
      out.push_back(v);
    }
    return out;
  }

  // A distribution: the quantile input, then constants fixed when the kernel is
  // built, from which the checker builds the table the lowering samples.
  Typed check_distribution(Expr& e, const DistributionInfo& d) {
    return check_table_call(e, d.name, false, d.params, d.params.size(), Ty::scalar(TyKind::F64));
  }

  // An f64 parameter's argument: a literal or a float converts exactly, an
  // integer as nb-rs's adapters convert it (to the nearest f64).
  void f64_argument(ExprPtr& a, const Typed& t, const std::string& what) {
    if (t.t.is_literal() || a->ty.is_float()) coerce(a, t, Ty::scalar(TyKind::F64), true, what);
    else if (a->ty.is_int()) wrap_cast(a, Ty::scalar(TyKind::F64));
    else mismatch(*a, a->ty, Ty::scalar(TyKind::F64), what);
  }

  // nb-rs's sampling modules: a u64 input hashed to a quantile; the table from
  // the first table_params constants, the rest (clamp bounds) kept as arguments.
  Typed check_sampled(Expr& e, const SampledFunction& f) {
    const bool rounds = f.finish == SampleFinish::Round || f.finish == SampleFinish::ClampRound;
    const Ty f64 = Ty::scalar(TyKind::F64);
    const Ty result = f.finish == SampleFinish::ServiceModel ? Ty::tuple({f64, Ty::u64()}) : rounds ? Ty::u64() : f64;
    return check_table_call(e, f.distribution, true, f.params, f.table_params, result, f.finish);
  }

  Typed check_table_call(Expr& e, std::string_view table_name, bool u64_input, std::span<const DistributionParam> params,
                         size_t table_params, const Ty& result, SampleFinish finish = SampleFinish::None) {
    std::vector<std::string> names{"input"};
    for (const DistributionParam& p : params) names.emplace_back(p.name);
    auto slots = bind_args(e, names, false);
    const Typed none{ETy::of(result), false};
    if (!slots) return none;
    if ((*slots)[0] == nullptr) {
      error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for 'input'");
      return none;
    }
    std::vector<double> constants;
    bool all_known = true, dyn = false;
    for (size_t i = 0; i < slots->size(); ++i) {
      Arg* a = (*slots)[i];
      if (a == nullptr) continue;
      const Typed t = check(a->value);
      ExprPtr& v = a->value;
      const DistributionParamKind kind = i == 0 ? (u64_input ? DistributionParamKind::U64 : DistributionParamKind::F64)
                                                : params[i - 1].kind;
      if (kind == DistributionParamKind::Str) coerce(v, t, Ty::str(), true, "'" + names[i] + "' of " + e.name);
      else if (kind == DistributionParamKind::U64 && t.t.lit != ETy::Lit::Float) coerce(v, t, Ty::u64(), true, "'" + names[i] + "' of " + e.name);
      else f64_argument(v, t, "'" + names[i] + "' of " + e.name);
      if (i == 0) {
        dyn = t.dynamic;
        continue;
      }
      const auto k = known_constant(*v);
      if (!k) {
        if (!value_of_caller(*v, "'" + names[i] + "' of " + e.name + ", from which its table is built"))
          error(DiagKind::NotConstant, v->span, "'" + names[i] + "' of " + e.name + " is fixed when the kernel is built: it must be a constant");
        all_known = false;
      }
    }
    if (!all_known) return none;
    for (size_t i = 1; i <= table_params; ++i) {
      const DistributionParam& p = params[i - 1];
      Arg* a = (*slots)[i];
      if (p.kind == DistributionParamKind::Str) {
        const std::string spec = a ? known_constant(*a->value)->as_str() : std::string(p.default_text);
        auto points = data_points(spec);
        if (!points) {
          error(DiagKind::TypeMismatch, a ? a->value->span : e.span, "the data of " + e.name + " must be numbers separated by spaces, commas or semicolons");
          return none;
        }
        constants.insert(constants.end(), points->begin(), points->end());
      } else if (a) {
        const ir::Value k = *known_constant(*a->value);
        constants.push_back(k.ty().is_float() ? k.as_f64() : static_cast<double>(k.as_u64()));
      } else if (p.default_value) {
        constants.push_back(*p.default_value);
      } else {  // the sampling modules' constants have no defaults, as nb-rs's module parameters
        error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for '" + names[i] + "'");
        return none;
      }
    }
    // The two latency modes: their tables one after the other, split by the lowering.
    std::vector<std::vector<double>> specs{constants};
    if (finish == SampleFinish::Bimodal) specs = {{constants[0], constants[1]}, {constants[2], constants[3]}};
    if (finish == SampleFinish::ServiceModel) specs = {{constants[0], 0.5}, {constants[1], 5.0}};
    e.table.clear();
    for (const std::vector<double>& spec : specs) {
      std::string why;
      auto table = build_distribution_table(table_name, spec, &why);
      if (!table) {
        error(DiagKind::NotConstant, e.span, e.name + ": " + why);
        return none;
      }
      e.table.insert(e.table.end(), table->begin(), table->end());
    }
    std::vector<Arg> ordered;
    ordered.push_back(std::move(*(*slots)[0]));
    for (size_t i = table_params + 1; i < slots->size(); ++i) {
      if ((*slots)[i] == nullptr) {
        error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for '" + names[i] + "'");
        return none;
      }
      ordered.push_back(std::move(*(*slots)[i]));
    }
    e.args = std::move(ordered);
    return Typed{ETy::of(result), dyn};
  }

  // nb-rs's combinations takes a pattern only; a third, constant argument (its
  // strings.gk passes a length) is dropped by its node builder, one that
  // changes per evaluation is refused (a wire too many). So here, with a warning.
  void drop_combinations_length(Expr& e) {
    if (e.args.size() != 3 || !e.args[2].name.empty()) return;
    ExprPtr& length = e.args[2].value;
    const Typed t = check(length);
    coerce(length, t, Ty::u64(), true, "the length nb-rs ignores");
    if (t.dynamic) {
      error(DiagKind::ArgumentCount, length->span,
            "combinations takes no length (the pattern sets it); nb-rs drops a constant third argument and refuses "
            "one that changes per evaluation, as this one does");
    } else {
      diags().warning(DiagKind::ArgumentCount, length->span,
                      "combinations takes no length: nb-rs ignores this argument, and so does polydat (the pattern, "
                      "one character per ';'-separated set, sets the length)");
    }
    e.args.pop_back();
  }

  // A function of ir/library_fn.h: u64 parameters take any unsigned integer,
  // f64 ones any number, `Any` ones any scalar or string.
  Typed check_library(Expr& e, uint32_t fn) {
    const ir::LibraryFn& f = ir::library_fns()[fn];
    const size_t fixed = f.variadic ? f.params.size() - 1 : f.params.size();
    std::vector<std::string> names(f.param_names.begin(), f.param_names.begin() + static_cast<std::ptrdiff_t>(fixed));
    auto slots = bind_args(e, names, f.variadic);
    if (!slots) return Typed{ETy::of(ir::library_ty(f.result)), false};
    std::vector<Arg> ordered;
    for (size_t i = 0; i < slots->size(); ++i) {
      if ((*slots)[i] == nullptr) {
        error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for '" + names[i] + "'");
        return Typed{ETy::of(ir::library_ty(f.result)), false};
      }
      ordered.push_back(std::move(*(*slots)[i]));
    }
    for (size_t i = slots->size(); i < e.args.size(); ++i) ordered.push_back(std::move(e.args[i]));
    e.args = std::move(ordered);
    bool dyn = false;
    for (size_t i = 0; i < e.args.size(); ++i) {
      ExprPtr& a = e.args[i].value;
      const Typed t = check(a);
      dyn = dyn || t.dynamic;
      const std::string what = "argument " + std::to_string(i + 1) + " of " + e.name;
      switch (f.params[std::min(i, f.params.size() - 1)]) {
        case ir::LibTy::U64: coerce(a, t, Ty::u64(), true, what); break;
        case ir::LibTy::Str: coerce(a, t, Ty::str(), true, what); break;
        case ir::LibTy::F64: f64_argument(a, t, what); break;
        case ir::LibTy::Any:
          if (t.t.lit == ETy::Lit::Int) coerce(a, t, Ty::u64(), false, what);
          else if (t.t.lit == ETy::Lit::Float) coerce(a, t, Ty::scalar(TyKind::F64), false, what);
          else if (!a->ty.is_scalar() && !a->ty.is_str())
            error(DiagKind::TypeMismatch, a->span, e.name + " takes numbers, bools and strings, not " + ir::ty_label(a->ty));
          break;
        case ir::LibTy::Bool: break;  // a result type only
      }
      if (i < 32 && (f.constant_params >> i & 1)) {
        const auto k = known_constant(*a);
        const std::string param(f.param_names[std::min(i, f.param_names.size() - 1)]);
        if (!k && !value_of_caller(*a, "'" + param + "' of " + e.name + ", which is checked"))
          error(DiagKind::NotConstant, a->span, "'" + param + "' of " + e.name + " is fixed when the kernel is built: it must be a constant");
        else if (k && f.check_constant)
          if (auto why = f.check_constant(i, *k)) error(DiagKind::InvalidPattern, a->span, *why);
      }
    }
    return Typed{ETy::of(ir::library_ty(f.result)), dyn};
  }

  // nb-rs's defaults for the assertions' constants: lo 0, hi 2^64-1, name "".
  void fill_assertion_defaults(Expr& e, Builtin b) {
    auto fill = [&](size_t position, const std::string& name, ExprKind kind, __int128 value) {
      const bool given = e.args.size() > position && e.args[position].name.empty();
      if (given || std::any_of(e.args.begin(), e.args.end(), [&](const Arg& a) { return a.name == name; })) return;
      Arg d;
      d.name = name;
      d.value = std::make_unique<Expr>();
      d.value->span = e.span;
      d.value->kind = kind;
      if (kind == ExprKind::Int) d.value->int_value = value;
      else d.value->parts.push_back(StringPart{false, "", e.span});
      e.args.push_back(std::move(d));
    };
    if (b == Builtin::InRange) {
      fill(1, "lo", ExprKind::Int, 0);
      fill(2, "hi", ExprKind::Int, static_cast<__int128>(~uint64_t{0}));
    }
    if (b == Builtin::IsPositive) fill(1, "name", ExprKind::Str, 0);
  }

  Typed check_builtin(Expr& e, const BuiltinInfo& b) {
    fill_assertion_defaults(e, b.id);
    if (b.id == Builtin::Combinations) drop_combinations_length(e);
    std::vector<std::string> names(b.params.begin(), b.params.end());
    const bool last_given = e.args.size() >= names.size() &&
                            std::all_of(e.args.begin(), e.args.begin() + static_cast<std::ptrdiff_t>(names.size()),
                                        [](const Arg& a) { return a.name.empty(); });
    const bool last_named = !names.empty() && std::any_of(e.args.begin(), e.args.end(),
                                                          [&](const Arg& a) { return a.name == names.back(); });
    if ((b.last_default || !b.last_default_text.empty()) && !last_given && !last_named) {
      Arg d;  // an omitted last argument takes its default
      d.name = names.back();
      d.value = std::make_unique<Expr>();
      d.value->span = e.span;
      if (b.last_default) {
        d.value->kind = ExprKind::Int;
        d.value->int_value = static_cast<int64_t>(*b.last_default);
      } else {
        d.value->kind = ExprKind::Str;
        d.value->parts.push_back(StringPart{false, std::string(b.last_default_text), e.span});
      }
      e.args.push_back(std::move(d));
    }
    auto slots = bind_args(e, names, b.variadic);
    if (!slots) return Typed{ETy::of(Ty::u64()), false};
    for (size_t i = 0; i < slots->size(); ++i)
      if ((*slots)[i] == nullptr) {
        error(DiagKind::MissingArgument, e.span, "'" + e.name + "' needs an argument for '" + names[i] + "'");
        return Typed{ETy::of(Ty::u64()), false};
      }
    if (b.variadic) {  // keep the extra positional arguments after the named slots
      std::vector<Arg> ordered;
      for (Arg* a : *slots) ordered.push_back(std::move(*a));
      for (size_t i = slots->size(); i < e.args.size(); ++i) ordered.push_back(std::move(e.args[i]));
      e.args = std::move(ordered);
    } else {
      std::vector<Arg> ordered;
      for (Arg* a : *slots) ordered.push_back(std::move(*a));
      e.args = std::move(ordered);
    }
    auto arg = [&](size_t i) -> ExprPtr& { return e.args[i].value; };
    switch (b.id) {
      case Builtin::Mod: case Builtin::Div: case Builtin::Add: case Builtin::Sub: case Builtin::Mul: {
        const Tok op = b.id == Builtin::Mod ? Tok::Percent : b.id == Builtin::Div ? Tok::Slash
                     : b.id == Builtin::Add ? Tok::Plus : b.id == Builtin::Sub ? Tok::Minus : Tok::Star;
        Typed t = arithmetic(op, arg(0), arg(1), e.span);
        // nb-rs refuses a constant divisor of 0 in mod and div; the operators follow RISC-V.
        if ((b.id == Builtin::Mod || b.id == Builtin::Div) && arg(1)->kind != ExprKind::Int)
          if (auto n = known_constant(*arg(1)); n && n->ty().is_int() && n->bits() == 0)
            error(DiagKind::ZeroDivisor, arg(1)->span,
                  "the divisor of " + e.name + " is the constant 0 (as in nb-rs, " + e.name + " refuses it)");
        return t;
      }
      case Builtin::Min: case Builtin::Max: {
        Typed t = arithmetic(Tok::Plus, arg(0), arg(1), e.span);
        return t;
      }
      case Builtin::Clamp: {
        Typed tx = check(arg(0)), tl = check(arg(1)), th = check(arg(2));
        Unified u1 = unify(tx.t, tl.t);
        Unified u = u1.ty ? unify(ETy::of(*u1.ty), th.t) : u1;
        if (!u.ty || !u.ty->is_numeric()) {
          error(u.signed_unsigned ? DiagKind::SignedUnsignedMix : DiagKind::TypeMismatch, e.span,
                u.ty ? "clamp needs numbers" : u.error);
          return Typed{ETy::of(Ty::u64()), false};
        }
        coerce(arg(0), tx, *u.ty, false, "");
        coerce(arg(1), tl, *u.ty, false, "");
        coerce(arg(2), th, *u.ty, false, "");
        return Typed{ETy::of(*u.ty), tx.dynamic || tl.dynamic || th.dynamic};
      }
      case Builtin::Rotl: case Builtin::Rotr:
        return arithmetic(Tok::Shl, arg(0), arg(1), e.span);
      case Builtin::Popcount: case Builtin::Clz: case Builtin::Ctz: {
        Typed t = check(arg(0));
        integer_operand(arg(0), t, false, "the argument", e.span);
        return Typed{ETy::of(arg(0)->ty), t.dynamic};
      }
      case Builtin::ToF64: case Builtin::ToU64: {
        Typed t = check(arg(0));
        coerce(arg(0), t, t.t.ty, false, "");
        if (!arg(0)->ty.is_scalar())
          error(DiagKind::TypeMismatch, e.span, "cannot convert " + ir::ty_label(arg(0)->ty));
        return Typed{ETy::of(b.id == Builtin::ToF64 ? Ty::scalar(TyKind::F64) : Ty::u64()), t.dynamic};
      }
      case Builtin::FormatU64: case Builtin::ZeroPadU64: case Builtin::Hex: {
        bool dyn = false;
        for (size_t i = 0; i < e.args.size(); ++i) {
          Typed t = check(arg(i));
          dyn = dyn || t.dynamic;
          coerce(arg(i), t, Ty::u64(), true, "an argument of " + e.name);
        }
        if (b.id == Builtin::FormatU64) {  // nb-rs's radixes, fixed when the kernel is built
          auto r = known_constant(*arg(1));
          if (!r || !r->ty().is_int() || (r->bits() != 2 && r->bits() != 8 && r->bits() != 10 && r->bits() != 16))
            error(DiagKind::NotConstant, arg(1)->span, "the radix of format_u64 must be the constant 2, 8, 10 or 16");
        }
        return Typed{ETy::of(Ty::str()), dyn};
      }
      case Builtin::Sum: case Builtin::Product: break;  // folded into operators before checking
      case Builtin::Sqrt: case Builtin::Exp: case Builtin::Ln: case Builtin::Sin: case Builtin::Cos:
      case Builtin::Tan: case Builtin::Asin: case Builtin::Acos: case Builtin::Atan: case Builtin::AbsF64:
      case Builtin::Floor: case Builtin::Ceil: case Builtin::Round: case Builtin::Trunc:
      case Builtin::Atan2: case Builtin::Pow: {
        // At the operands' float type; integers (and float literals alone) are f64.
        std::vector<Typed> ts;
        bool dyn = false;
        std::optional<Ty> fty;
        for (size_t i = 0; i < e.args.size(); ++i) {
          ts.push_back(check(arg(i)));
          dyn = dyn || ts.back().dynamic;
          if (ts.back().t.ty.is_float() && ts.back().t.lit == ETy::Lit::None && !fty) fty = ts.back().t.ty;
        }
        const Ty to = fty.value_or(Ty::scalar(TyKind::F64));
        for (size_t i = 0; i < e.args.size(); ++i) {
          const Ty& from = ts[i].t.ty;
          if (!from.is_numeric() && !ts[i].t.is_literal()) {
            error(DiagKind::TypeMismatch, arg(i)->span, e.name + " needs a number, not " + ir::ty_label(from));
            continue;
          }
          if (ts[i].t.lit != ETy::Lit::None) coerce(arg(i), ts[i], to, false, "");
          else if (!(from == to)) wrap_cast(arg(i), to);
        }
        return Typed{ETy::of(to), dyn};
      }
      case Builtin::FormatF64: {
        Typed t = check(arg(0)), tp = check(arg(1));
        if (t.t.is_literal()) coerce(arg(0), t, Ty::scalar(TyKind::F64), false, "");
        else if (arg(0)->ty.is_int()) wrap_cast(arg(0), Ty::scalar(TyKind::F64));
        else if (!arg(0)->ty.is_float()) error(DiagKind::TypeMismatch, arg(0)->span, "format_f64 writes a number");
        coerce(arg(1), tp, Ty::u64(), true, "the precision");
        return Typed{ETy::of(Ty::str()), t.dynamic || tp.dynamic};
      }
      case Builtin::StrConcat: break;  // folded into a string before checking
      case Builtin::Combinations: {
        Typed t = check(arg(0));
        coerce(arg(0), t, Ty::u64(), true, "the value to write");
        check(arg(1));
        if (!literal_text(*arg(1)))
          error(DiagKind::NotConstant, arg(1)->span, "the pattern of combinations must be a string literal");
        return Typed{ETy::of(Ty::str()), t.dynamic};
      }
      case Builtin::OneOf: {
        Typed t = check(arg(0));
        coerce(arg(0), t, Ty::u64(), true, "the value to hash");
        bool dyn = t.dynamic;
        for (size_t i = 1; i < e.args.size(); ++i) {
          Typed tv = check(arg(i));
          dyn = dyn || tv.dynamic;
          if (!arg(i)->ty.is_str()) error(DiagKind::TypeMismatch, arg(i)->span, "one_of chooses among str values");
        }
        return Typed{ETy::of(Ty::str()), dyn};
      }
      case Builtin::OneOfWeighted:
      case Builtin::WeightedU64: case Builtin::WeightedStrings: case Builtin::WeightedPick: case Builtin::Histribution: {
        Typed t = check(arg(0));
        coerce(arg(0), t, Ty::u64(), true, "the value to choose by");
        for (size_t i = 1; i < e.args.size(); ++i) {
          if (!e.args[i].name.empty() && b.id == Builtin::WeightedPick && i > 2)
            error(DiagKind::UnknownArgument, e.args[i].name_span, "weighted_pick takes its pairs by position");
          Typed ta = check(arg(i));
          coerce(arg(i), ta, ta.t.ty, false, "");
        }
        std::string problem;
        Span at;
        const auto items = weighted_call_items(e, b.id == Builtin::WeightedPick, problem, at);
        for (const WeightedItem& item : items) {
          uint64_t v;
          if (problem.empty() && b.id == Builtin::WeightedU64 && !parse_u64(item.value, v))
            problem = "'" + item.value + "' is not a u64 value";
        }
        if (!problem.empty()) error(DiagKind::NotConstant, at, problem);
        const bool text = b.id == Builtin::WeightedStrings || b.id == Builtin::OneOfWeighted;
        return Typed{ETy::of(text ? Ty::str() : Ty::u64()), t.dynamic};
      }
      case Builtin::Pick: return check_pick(e);
      case Builtin::Identity: break;  // rewritten to its argument before checking
      case Builtin::InRange: case Builtin::IsOneOf: case Builtin::IsPositive: case Builtin::Matches:
        return check_assertion(e, b.id);
      case Builtin::StartOf: case Builtin::EndOf: case Builtin::IdxOf: case Builtin::Cardinality: case Builtin::ModIn:
      case Builtin::ClampIn: case Builtin::At: case Builtin::Partitions: case Builtin::CursorOver:
      case Builtin::CursorProblem: case Builtin::PartitionFirst:
        return check_partition_call(e, b.id);
      case Builtin::MixedRadix: {
        Typed t = check(arg(0));
        coerce(arg(0), t, Ty::u64(), true, "the value to split");
        std::vector<Ty> digits;
        for (size_t i = 1; i < e.args.size(); ++i) {
          if (!e.args[i].name.empty() && i > 1) {
            error(DiagKind::UnknownArgument, e.args[i].name_span, "mixed_radix takes its radixes by position");
            continue;
          }
          Expr& r = *arg(i);
          if (r.kind != ExprKind::Int || r.int_value < 0) {
            error(DiagKind::NotConstant, r.span, "a radix of mixed_radix must be a non-negative integer literal");
            continue;
          }
          Typed tr = check(arg(i));
          coerce(arg(i), tr, Ty::u64(), true, "a radix");
          digits.push_back(Ty::u64());
        }
        if (digits.size() + 1 != e.args.size() || digits.size() == 1) return Typed{ETy::of(Ty::u64()), t.dynamic};
        return Typed{ETy::of(Ty::tuple(std::move(digits))), t.dynamic};
      }
    }
    return Typed{ETy::of(Ty::u64()), false};
  }

  // The partition built-ins (frontend/cursors.h), each argument by its kind.
  Typed check_partition_call(Expr& e, Builtin b) {
    const std::string_view kinds = partition_arg_kinds(b);
    bool dyn = false;
    for (size_t i = 0; i < e.args.size() && i < kinds.size(); ++i) {
      ExprPtr& a = e.args[i].value;
      const Typed t = check(a);
      dyn = dyn || t.dynamic;
      const std::string what = "argument " + std::to_string(i + 1) + " of " + e.name;
      if (kinds[i] == 'n' || kinds[i] == 'S') {
        coerce(a, t, kinds[i] == 'n' ? Ty::u64() : Ty::str(), true, what);
      } else if (b != Builtin::CursorProblem &&  // its source is the one __cursor_over reports on
                 (t.t.is_literal() || (!ir::is_partition(a->ty) && (kinds[i] == 'p' || !a->ty.is_str())))) {
        error(DiagKind::TypeMismatch, a->span,
              (kinds[i] == 'p' ? e.name + " takes a partition (a cursor's `.cursor`, or a variable of `for: \"p in partitions(...)\"`)"
                               : std::string("a cursor's `over` takes a partition spec (a str such as \"0..50%\") or a partition")) +
                  ", not " + (t.t.is_literal() ? std::string("a number") : ir::ty_label(a->ty)));
      }
    }
    auto constant = [&](size_t i) { return i < e.args.size() ? known_constant(*e.args[i].value) : std::nullopt; };
    switch (b) {
      case Builtin::Partitions:
        error(DiagKind::TypeMismatch, e.span,
              "partitions(...) is a list of partitions, and a kernel's value holds one: iterate the list in the "
              "workload (`for: \"p in partitions(...)\"`), or narrow a cursor with `over partitions(...)`");
        return Typed{ETy::of(Ty::u64()), dyn};
      case Builtin::At:
        if (auto p = constant(0), i = constant(1); p && i)
          if (auto part = ir::as_partition(*p); part && i->as_u64() >= part->cardinality())
            error(DiagKind::LiteralOutOfRange, e.args[1].value->span,
                  "at(partition, " + std::to_string(i->as_u64()) + "): the partition holds " +
                      std::to_string(part->cardinality()) + " ordinals, numbered from 0");
        break;
      case Builtin::PartitionFirst: case Builtin::CursorOver: {
        const bool first = b == Builtin::PartitionFirst;
        const auto spec = constant(0);
        if (first && (!spec || !constant(1))) {
          error(DiagKind::NotConstant, e.span, "the spec and the extent of `over partitions(...)` must be constants");
          break;
        }
        if (!spec || !spec->ty().is_str()) break;  // a partition, or a spec known only at run time
        const auto start = first ? std::optional(ir::Value::integer(TyKind::U64, 0)) : constant(1);
        const auto end = constant(first ? 1 : 2);
        if (!start || !end) break;
        const uint64_t extent = end->as_u64() > start->as_u64() ? end->as_u64() - start->as_u64() : 0;
        if (auto why = spec_problem(spec->as_str(), extent))
          error(DiagKind::BadPartitionSpec, e.args[0].value->span,
                "the partition spec \"" + spec->as_str() + "\" does not resolve against " + std::to_string(extent) +
                    " ordinals: " + *why);
        break;
      }
      default: break;
    }
    if (b == Builtin::CursorProblem) return Typed{ETy::of(Ty::str()), dyn};
    if (b == Builtin::CursorOver || b == Builtin::PartitionFirst) return Typed{ETy::of(ir::partition_ty()), dyn};
    return Typed{ETy::of(Ty::u64()), dyn};
  }

  // pick(b0..bN-1, v0..vN-1): selectors are conditions, values one type.
  // Selectors all known when the kernel is built must have exactly one true
  // (nb-rs stops the run otherwise); at run time the first true one wins.
  Typed check_pick(Expr& e) {
    const size_t n = e.args.size() / 2;
    if (e.args.size() < 2 || e.args.size() % 2 != 0) {
      error(DiagKind::ArgumentCount, e.span, "pick takes N selectors then N values: an even number of arguments, at least 2");
      for (Arg& a : e.args) check(a.value);
      return Typed{ETy::of(Ty::u64()), false};
    }
    bool dyn = false, all_known = true;
    size_t true_count = 0;
    for (size_t i = 0; i < n; ++i) {
      Typed t = check(e.args[i].value);
      dyn = dyn || t.dynamic;
      condition(e.args[i].value, t, "a selector of pick");
      const auto k = known_constant(*e.args[i].value);
      if (!k) all_known = false;
      else true_count += k->bits() != 0;
    }
    std::vector<Typed> ts;
    std::optional<ETy> common;
    for (size_t i = n; i < e.args.size(); ++i) {
      ts.push_back(check(e.args[i].value));
      dyn = dyn || ts.back().dynamic;
      if (!common) {
        common = ts.back().t;
        continue;
      }
      if (common->ty.is_str() && ts.back().t.ty.is_str()) continue;
      const Unified u = unify(*common, ts.back().t);
      if (!u.ty) {
        error(u.signed_unsigned ? DiagKind::SignedUnsignedMix : DiagKind::TypeMismatch, e.args[i].value->span,
              "the values of pick must have one type: " + u.error);
        return Typed{ETy::of(Ty::u64()), dyn};
      }
      common = ETy::of(*u.ty);
    }
    if (!common->ty.is_str())
      for (size_t i = n; i < e.args.size(); ++i) coerce(e.args[i].value, ts[i - n], common->ty, false, "");
    if (all_known && true_count != 1)
      error(DiagKind::AssertionFailed, e.span,
            true_count == 0 ? "pick: no selector is true" : "pick: " + std::to_string(true_count) + " selectors are true");
    return Typed{ETy::of(common->ty), dyn};
  }

  // nb-rs's parameter assertions: every argument a constant, the assertion
  // decided when the kernel is built; the result is the input.
  Typed check_assertion(Expr& e, Builtin b) {
    const bool text = b == Builtin::Matches;
    std::vector<ir::Value> k;
    for (size_t i = 0; i < e.args.size(); ++i) {
      ExprPtr& a = e.args[i].value;
      const Typed t = check(a);
      const bool str_arg = text || (b == Builtin::IsPositive && i == 1);
      coerce(a, t, str_arg ? Ty::str() : Ty::u64(), true, "argument " + std::to_string(i + 1) + " of " + e.name);
      auto v = known_constant(*a);
      if (!v) {
        error(DiagKind::NotConstant, a->span, e.name + " checks a value known when the kernel is built: this must be a constant");
        return Typed{ETy::of(text ? Ty::str() : Ty::u64()), false};
      }
      k.push_back(*v);
    }
    const Typed result{ETy::of(text ? Ty::str() : Ty::u64()), false};
    std::string failed;
    if (b == Builtin::InRange) {
      const uint64_t v = k[0].as_u64(), lo = k[1].as_u64(), hi = k[2].as_u64();
      if (v < lo || v > hi) failed = "in_range: value " + std::to_string(v) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    } else if (b == Builtin::IsOneOf) {
      if (std::none_of(k.begin() + 1, k.end(), [&](const ir::Value& a) { return a.as_u64() == k[0].as_u64(); }))
        failed = "is_one_of: value " + std::to_string(k[0].as_u64()) + " is not one of the allowed values";
    } else if (b == Builtin::IsPositive) {
      if (k[0].as_u64() == 0) failed = "is_positive(" + k[1].as_str() + "): value must be > 0, got 0";
    } else if (auto why = ir::regex_error(k[1].as_str())) {
      error(DiagKind::InvalidPattern, e.args[1].value->span, "invalid regex '" + k[1].as_str() + "': " + *why);
    } else if (!ir::regex_is_match(k[1].as_str(), k[0].as_str())) {
      failed = "matches: value \"" + k[0].as_str() + "\" does not match pattern \"" + k[1].as_str() + "\"";
    }
    if (!failed.empty()) error(DiagKind::AssertionFailed, e.args[0].value->span, failed);
    return result;
  }

  // ---- loops ----

  Typed check_loop(Expr& e) {
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

  bool visible_local(const std::string& name) const {
    for (const auto& l : locals_)
      if (l.count(name)) return true;
    return false;
  }

  bool reads_loop_variable(const Expr& root, const std::map<std::string, Local>& vars) const {
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
  bool check_loop_statement(Stmt& s, int loop) {
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

  Program& p_;
  size_t ui_;
  Unit& u_;
  std::map<std::string, Entry> scope_;
  std::vector<std::string> names_in_order_;
  std::vector<Stmt*> bindings_;
  std::vector<Stmt*> externs_;
  std::vector<Stmt*> outputs_listed_;
  std::map<Stmt*, std::vector<std::string>> deps_;
  std::set<std::string> reported_unknown_;
  std::vector<std::map<std::string, Local>> locals_;
  int loop_depth_ = 0;
  bool has_inputs_ = false;
  std::optional<std::set<const Stmt*>> volatile_reach_;
};

}  // namespace

namespace {
// The root kernel's top-level statements as the options ask: bindings
// renamed (rename_bindings), then shared bindings made cells (scope_cells).
void apply_scope_options(Program& program) {
  if (program.units.empty() || program.units[0].is_def) return;
  const CompileOptions& o = program.options;
  if (o.rename_bindings.empty() && !o.scope_cells) return;
  for (Stmt* s : program.units[0].statements()) {
    if (s->kind != StmtKind::Binding) continue;
    if (auto it = o.rename_bindings.find(s->name); it != o.rename_bindings.end()) s->name = it->second;
    if (!o.scope_cells || !s->is_shared || !s->value) continue;
    // `shared [const] [volatile] name[: T] := v` -> `extern name[: T] = v`, keeping the words.
    s->kind = StmtKind::Extern;
    s->params.push_back(Param{s->name, s->name_span, s->type, std::move(s->value)});
  }
}
}  // namespace

bool check_program(Program& program) {
  apply_scope_options(program);
  for (size_t u : program.order) UnitChecker(program, u).run();
  return !program.diags.has_errors();
}

}  // namespace polydat::frontend
