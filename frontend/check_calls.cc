// The checker's calls: arguments to parameters, module calls, library functions and table-sampling calls.
#include <algorithm>
#include <charconv>

#include "frontend/check_internal.h"
#include "frontend/distributions.h"
#include "frontend/sampled_functions.h"
#include "ir/library_fn.h"

namespace polydat::frontend::check_detail {

namespace {

// nb-rs's data points: numbers separated by spaces, commas or semicolons.
std::optional<std::vector<double>> data_points(const std::string& spec) {
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

}  // namespace

// Matches arguments to parameter names: positional first, then by name.
// Returns one slot per parameter (nullptr where none was given).
std::optional<std::vector<Arg*>> UnitChecker::bind_args(Expr& call, const std::vector<std::string>& params,
                                                         bool variadic) {
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
bool UnitChecker::fold_variadic(ExprPtr& ep) {
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

Typed UnitChecker::check_call(Expr& e) {
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

// A distribution: the quantile input, then constants fixed when the kernel is
// built, from which the checker builds the table the lowering samples.
Typed UnitChecker::check_distribution(Expr& e, const DistributionInfo& d) {
  return check_table_call(e, d.name, false, d.params, d.params.size(), Ty::scalar(TyKind::F64));
}

// An f64 parameter's argument: a literal or a float converts exactly, an
// integer as nb-rs's adapters convert it (to the nearest f64).
void UnitChecker::f64_argument(ExprPtr& a, const Typed& t, const std::string& what) {
  if (t.t.is_literal() || a->ty.is_float()) coerce(a, t, Ty::scalar(TyKind::F64), true, what);
  else if (a->ty.is_int()) wrap_cast(a, Ty::scalar(TyKind::F64));
  else mismatch(*a, a->ty, Ty::scalar(TyKind::F64), what);
}

// nb-rs's sampling modules: a u64 input hashed to a quantile; the table from
// the first table_params constants, the rest (clamp bounds) kept as arguments.
Typed UnitChecker::check_sampled(Expr& e, const SampledFunction& f) {
  const bool rounds = f.finish == SampleFinish::Round || f.finish == SampleFinish::ClampRound;
  const Ty f64 = Ty::scalar(TyKind::F64);
  const Ty result = f.finish == SampleFinish::ServiceModel ? Ty::tuple({f64, Ty::u64()}) : rounds ? Ty::u64() : f64;
  return check_table_call(e, f.distribution, true, f.params, f.table_params, result, f.finish);
}

Typed UnitChecker::check_table_call(Expr& e, std::string_view table_name, bool u64_input,
                                    std::span<const DistributionParam> params, size_t table_params, const Ty& result,
                                    SampleFinish finish) {
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

// A function of ir/library_fn.h: u64 parameters take any unsigned integer,
// f64 ones any number, `Any` ones any scalar or string.
Typed UnitChecker::check_library(Expr& e, uint32_t fn) {
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

}  // namespace polydat::frontend::check_detail
