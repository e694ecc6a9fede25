// The checker's entry point and a unit's run: its statements, in dependency order, and its signature.
#include "frontend/check.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "frontend/check_internal.h"
#include "frontend/cursors.h"
#include "text/plural.h"

namespace polydat::frontend {

namespace check_detail {

void UnitChecker::run() {
  const size_t errors_before = p_.diags.error_count();
  collect_scope();
  collect_references();
  type_externs_and_defaults();  // constants: they read no names, and bindings read them
  order_bindings();
  for (Stmt* s : u_.ordered) check_statement(*s);
  finish_signature();
  u_.checked_ok = p_.diags.error_count() == errors_before;
}

void UnitChecker::check_statement(Stmt& s) {
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
void UnitChecker::check_combine(const Stmt& s, const Ty& ty) {
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
void UnitChecker::check_destructure(Stmt& s, std::optional<size_t> local_scope) {
  Typed t = check(s.value);
  const Ty& ty = s.value->ty;
  if (ty.kind() != TyKind::Tuple) {
    error(DiagKind::TupleMisuse, s.value->span, "this gives one value; bind it with ':='");
    return;
  }
  if (ty.arity() != s.names.size()) {
    error(DiagKind::TupleMisuse, s.span,
          "this gives " + text::counted(ty.arity(), "value") + ", not " + std::to_string(s.names.size()));
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

void UnitChecker::type_externs_and_defaults() {
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

void UnitChecker::finish_signature() {
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
  for (const std::string& name : default_outputs(true)) u_.outputs.push_back(output_port(name, scope_.at(name)));
  // Under scope_cells a scope may hold only cells: a kernel of no outputs.
  const bool has_cells = std::any_of(u_.params.begin(), u_.params.end(), [](const Port& p) { return p.is_shared; });
  if (u_.outputs.empty() && !diags().has_errors() && !has_cells && !module_library())
    error(DiagKind::NoOutputs, Span{u_.file, 0, 0}, "'" + u_.name + "' has no bindings, so no outputs");
}

// A root file of module definitions only, as nb-rs's stdlib files: a library
// to check, with no kernel of its own (as a callee it would be one of no results).
bool UnitChecker::module_library() const {
  if (ui_ != 0) return false;
  bool defs = false;
  for (const StmtPtr& s : u_.ast->stmts) {
    if (s->kind == StmtKind::ModuleDef) defs = true;
    else if (s->kind != StmtKind::Pragma) return false;
  }
  return defs;
}

// A binding (or a part of a destructuring) as a result, with its facts.
Port UnitChecker::output_port(const std::string& name, const Entry& e) {
  const bool binding = e.stmt && e.stmt->kind == StmtKind::Binding;
  const bool is_volatile = binding && e.stmt->is_volatile;
  return Port{name, e.span, e.ty, false, binding && e.stmt->is_shared, nullptr, {}, binding && e.stmt->is_const,
              is_volatile, e.dynamic || volatile_reach().count(e.stmt), binding ? e.stmt->combine : Combine::Last,
              e.zero_one};
}

// The bindings that are volatile or read, directly or through others, a
// volatile binding or cell: they change per evaluation like the inputs'.
const std::set<const Stmt*>& UnitChecker::volatile_reach() {
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

// A file unit's outputs: every binding nothing else reads, plus those listed by `output`
// (`report`: say which listed names are not bindings).
std::vector<std::string> UnitChecker::default_outputs(bool report) {
  std::vector<std::string> out;
  std::set<std::string> listed;
  for (Stmt* s : outputs_listed_)
    for (auto& [name, span] : s->names) {
      auto it = scope_.find(name);
      if (it == scope_.end() || (it->second.kind != Entry::Kind::Binding && it->second.kind != Entry::Kind::Part)) {
        if (report && !reported_unknown_.count(name))
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
    out.push_back(name);
  }
  return out;
}

// Every binding a caller may ask for as an output, in the order the file declares them.
std::vector<std::string> UnitChecker::binding_names() const {
  std::vector<std::string> out;
  for (const std::string& name : names_in_order_) {
    const Entry& e = scope_.at(name);
    if ((e.kind == Entry::Kind::Binding || e.kind == Entry::Kind::Part) && !is_cursor_helper(name)) out.push_back(name);
  }
  return out;
}

// The caller's choice of the root's outputs: any of its bindings, each once. A name that is none is no
// place in the file: the error has no location (kNoFile) and lists what could be asked for instead.
void UnitChecker::select_outputs(const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const std::string& name : names) {
    auto it = scope_.find(name);
    if (it == scope_.end() || (it->second.kind != Entry::Kind::Binding && it->second.kind != Entry::Kind::Part)) {
      error(DiagKind::UnknownOutput, Span{kNoFile, 0, 0}, unknown_request_message(name));
      continue;
    }
    if (!seen.insert(name).second) continue;
    const Entry& e = it->second;
    u_.outputs.push_back(output_port(name, e));
  }
}

std::string UnitChecker::unknown_request_message(const std::string& name) {
  const std::vector<std::string> outputs = default_outputs(false), bindings = binding_names();
  auto join = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& n : v) out += (out.empty() ? "" : ", ") + n;
    return out;
  };
  std::vector<std::string> others;
  for (const std::string& b : bindings)
    if (std::find(outputs.begin(), outputs.end(), b) == outputs.end()) others.push_back(b);
  const std::string file = std::filesystem::path(p_.sources.file(u_.file).path).filename().string();
  std::string msg = "'" + name + "' is asked for as an output, but it is not a binding of " + file;
  if (const std::string near = closest_name(name, bindings); !near.empty()) msg += " (did you mean '" + near + "'?)";
  msg += outputs.empty() ? "; it has no outputs" : "; its outputs: " + join(outputs);
  if (!others.empty()) msg += "; its other bindings: " + join(others);
  return msg;
}

}  // namespace check_detail

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
  for (size_t u : program.order) check_detail::UnitChecker(program, u).run();
  return !program.diags.has_errors();
}

}  // namespace polydat::frontend
