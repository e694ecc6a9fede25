#include "frontend/constant_params.h"

#include <algorithm>

#include "ir/library_fn.h"

namespace polydat::frontend {

namespace {

// A callee's parameters in order, each with whether it takes a constant.
struct Slots {
  std::vector<std::string> names;
  std::vector<bool> constant;
  bool variadic = false;  // the last slot repeats
};

Slots table_slots(std::span<const DistributionParam> params) {
  Slots s{{"input"}, {false}};
  for (const DistributionParam& d : params) {
    s.names.emplace_back(d.name);
    s.constant.push_back(true);
  }
  return s;
}

// Built-ins are left out: their constants are literal patterns and radixes,
// which a module parameter cannot be. But for combinations' third argument, a
// constant nb-rs ignores (its strings.gk passes its `length` parameter there).
std::optional<Slots> slots_of(const Program& p, const Callee& c) {
  if (c.builtin == Builtin::Combinations) return Slots{{"x", "pattern", ""}, {false, false, true}};
  if (c.builtin) return std::nullopt;
  if (c.distribution) return table_slots(c.distribution->params);
  if (c.sampled) return table_slots(c.sampled->params);
  if (c.library) {
    const ir::LibraryFn& f = ir::library_fns()[*c.library];
    Slots s;
    s.variadic = f.variadic;
    for (size_t i = 0; i < f.param_names.size(); ++i) {
      s.names.emplace_back(f.param_names[i]);
      s.constant.push_back(i < 32 && (f.constant_params >> i & 1));
    }
    return s;
  }
  const Unit& target = p.units[c.unit];
  if (!target.checked_ok) return std::nullopt;
  Slots s;
  for (const Port& prm : target.params) {
    s.names.push_back(prm.name);
    s.constant.push_back(prm.is_extern);
  }
  return s;
}

// The slot an argument fills: by position, or by its name.
std::optional<size_t> slot_of(const Slots& s, const Expr& call, size_t arg) {
  const Arg& a = call.args[arg];
  if (a.name.empty()) {
    if (arg < s.names.size()) return arg;
    if (s.variadic && !s.names.empty()) return s.names.size() - 1;
    return std::nullopt;
  }
  const auto it = std::find(s.names.begin(), s.names.end(), a.name);
  if (it == s.names.end()) return std::nullopt;
  return static_cast<size_t>(it - s.names.begin());
}

}  // namespace

std::set<std::string> constant_parameters(const Program& p, const Unit& u, const std::vector<Stmt*>& body,
                                          const std::set<std::string>& candidates) {
  std::set<std::string> out;
  if (candidates.empty()) return out;
  std::vector<const Expr*> work;
  for (const Stmt* s : body)
    if (s->value) work.push_back(s->value.get());
  while (!work.empty()) {  // iterative: expressions nest up to kMaxExprDepth
    const Expr* e = work.back();
    work.pop_back();
    if (e == nullptr) continue;
    for (const ExprPtr& c : e->operands) work.push_back(c.get());
    for (const ExprPtr& c : e->interpolated) work.push_back(c.get());
    for (const Arg& a : e->args) work.push_back(a.value.get());
    for (const LoopVar& v : e->vars) work.push_back(v.init.get());
    work.push_back(e->guard.get());
    work.push_back(e->yield.get());
    for (const StmtPtr& s : e->body) work.push_back(s->value.get());
    if (e->kind != ExprKind::Call) continue;
    const auto callee = u.callees.find(e->name);
    if (callee == u.callees.end()) continue;
    const std::optional<Slots> slots = slots_of(p, callee->second);
    if (!slots) continue;
    for (size_t i = 0; i < e->args.size(); ++i) {
      const Expr* v = e->args[i].value.get();
      if (v == nullptr || v->kind != ExprKind::Name || !candidates.count(v->name)) continue;
      const std::optional<size_t> slot = slot_of(*slots, *e, i);
      if (slot && slots->constant[*slot]) out.insert(v->name);
    }
  }
  return out;
}

}  // namespace polydat::frontend
