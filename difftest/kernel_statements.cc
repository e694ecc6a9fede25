// KernelWriter's statements: bounded loops, module definitions and the
// kernel's top-level bindings.
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "difftest/kernel_writer.h"

namespace polydat::difftest::generator {

namespace {
// Whether a value of `from` adapts to `to` without loss (the annotation rule).
bool lossless(TyKind from, TyKind to) {
  if (from == to) return true;
  if (from == TyKind::Bool) return is_int(to);
  if (from == TyKind::F32) return to == TyKind::F64;
  if (!is_int(from)) return false;
  const unsigned w = width(from);
  if (to == TyKind::F32) return w <= 24;
  if (to == TyKind::F64) return w <= 32;
  if (!is_int(to)) return false;
  if (is_signed(from)) return is_signed(to) && width(to) >= w;
  return is_signed(to) ? width(to) > w : width(to) >= w;
}
}  // namespace

// A loop variable's next value: usually its old value combined with another,
// so the result depends on the trip count.
std::string KernelWriter::update(const Name& v, int depth) {
  if (chance(35)) return expr(v.ty, depth);
  if (v.ty == TyKind::Bool)
    return chance(30) ? "(!" + v.text + ")" : bin({v.text, chance(50) ? "^" : "|", expr(v.ty, depth)});
  static const std::vector<std::string> kInt = {"+", "-", "*", "^", "|"};
  static const std::vector<std::string> kFloat = {"+", "-", "*", "/"};
  if (is_int(v.ty) && chance(20)) {
    const std::string f = chance(50) ? "rotl" : "rotr";
    return call(f, {v.text, shift_amount(v.ty, depth)});
  }
  return bin({v.text, one_of(is_int(v.ty) ? kInt : kFloat), expr(v.ty, depth)});
}

// A loop with a counter guard that bounds it, 1-3 carried variables of mixed
// types, locals and assignments in the body, and a yield of `yields`.
std::string KernelWriter::loop(const std::vector<TyKind>& yields, int depth, const std::string& indent,
                               bool multiline) {
  --loops_left_;
  ++loops_made_;
  const uint64_t mask = loop_depth_ == 0 ? 15 : loop_depth_ == 1 ? 7 : 3;
  const size_t mark = env_.size();
  const TyKind ct = chance(75) ? one_of(kUnsigned) : one_of(kInts);
  const std::string c = fresh("c"), cty = type_name(ct);
  std::string bound;
  {
    NoLoops no_loops(*this);
    bound = "(" + expr(ct, 1) + " & " + std::to_string(mask) + ")";
  }
  std::string c_init, guard, step;
  switch (pick(7)) {
    case 0:
    case 1:  // counting down from the bound
      c_init = bound, guard = "(" + c + " > 0)", step = c + " = " + c + " - 1";
      break;
    case 2:  // the guard fails on the initial state
      c_init = std::to_string(mask + 1), guard = "(" + c + " < " + bound + ")", step = c + " = " + c + " + 1";
      features_.insert("loop-guard-fails-at-once");
      break;
    default: c_init = "0", guard = "(" + c + " < " + bound + ")", step = c + " = " + c + " + 1";
  }
  std::vector<std::string> decls = {c + ": " + cty + " = " + c_init};
  std::vector<Name> vars;
  const uint64_t nvars = 1 + pick(3);
  for (uint64_t i = 0; i < nvars; ++i) {
    // A loop variable holds a scalar (the language has no str state).
    TyKind t = i < yields.size() && chance(60) ? yields[i] : value_type();
    if (t == TyKind::Str) t = scalar_type();
    std::string init;
    std::vector<const Name*> fed;
    for (const Name& r : loop_results_)
      if (r.ty == t) fed.push_back(&r);
    const int before = loops_made_;
    if (loop_depth_ == 0 && !fed.empty() && chance(50)) {
      init = fed[pick(fed.size())]->text;
      features_.insert("loop-yield-feeds-loop");
    } else {
      init = expr(t, depth - 1);
    }
    if (loops_made_ != before) features_.insert("loop-in-loop-initial-state");
    vars.push_back({fresh("v"), t});
    decls.push_back(vars.back().text + ": " + type_name(t) + " = " + init);
  }
  std::set<TyKind> kinds = {ct};
  for (const Name& v : vars) kinds.insert(v.ty);
  if (kinds.size() >= 3) features_.insert("loop-carries-several-types");

  env_.push_back({c, ct});
  for (const Name& v : vars) env_.push_back(v);
  ++loop_depth_;
  if (chance(25)) {
    NoLoops no_loops(*this);
    guard = "(" + guard + " & " + expr(TyKind::Bool, 1) + ")";
    features_.insert("loop-data-dependent-guard");
  }
  // The body: every variable assigned once, locals in between, the counter last.
  std::vector<std::string> body;
  const std::string inner = indent + "    ";
  std::vector<size_t> order(vars.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[pick(i)]);  // std::shuffle varies by library
  for (size_t i : order) {
    if (chance(40)) {
      const TyKind t = value_type();
      const std::string name = fresh("t");
      const int before = loops_made_;
      const std::string rhs = can_loop() && chance(40) ? loop({t}, depth, inner, multiline) : expr(t, depth - 1);
      if (loops_made_ != before) features_.insert("loop-in-loop-body");
      body.push_back(name + " := " + rhs);
      env_.push_back({name, t});
    }
    const Name& v = vars[i];
    const int before = loops_made_;
    body.push_back(v.text + " = " + update(v, depth - 1));
    if (loops_made_ != before) features_.insert("loop-in-loop-body");
  }
  body.push_back(step);
  --loop_depth_;
  env_.resize(mark + 1 + vars.size());  // the yield does not see the body's locals
  std::string yield;
  {
    NoLoops no_loops(*this);
    for (TyKind t : yields)
      if (t == TyKind::Str) features_.insert("loop-yields-str");
    if (yields.size() == 1) {
      yield = expr(yields[0], depth - 1);
    } else {
      features_.insert("loop-tuple-yield");
      yield = "(";
      for (size_t i = 0; i < yields.size(); ++i) yield += (i ? ", " : "") + expr(yields[i], depth - 1);
      yield += ")";
    }
  }
  env_.resize(mark);

  std::string s = "loop (";
  for (size_t i = 0; i < decls.size(); ++i) s += (i ? ", " : "") + decls[i];
  s += ") while " + guard + " {";
  for (const std::string& b : body) s += multiline ? "\n" + inner + b : " " + b + ";";
  s += multiline ? "\n" + indent + "}" : " }";
  return s + " yield " + yield;
}

// name(p: T, q: U = default) -> (r: R) := { ... }: its own scope, no str.
std::string KernelWriter::module_definition() {
  Module m;
  m.name = fresh("m");
  const uint64_t nparams = 1 + pick(2);
  for (uint64_t i = 0; i < nparams; ++i) m.params.push_back({fresh("p"), scalar_type()});
  m.last_has_default = chance(50);
  m.result = scalar_type();
  std::vector<Name> saved = std::move(env_);
  env_ = m.params;
  const int before = loops_made_;
  std::string body;
  if (chance(40)) {
    const TyKind t = scalar_type();
    const std::string local = fresh("l");
    body += "    " + local + " := " + expr(t, 2) + "\n";
    env_.push_back({local, t});
  }
  const std::string r = fresh("r");
  const std::string value = can_loop() && chance(30) ? loop({m.result}, 3, "    ", true) : expr(m.result, 3);
  body += "    " + r + " := " + value + "\n";
  m.has_loop = loops_made_ != before;
  env_ = std::move(saved);

  std::string s = m.name + "(";
  for (size_t i = 0; i < m.params.size(); ++i) {
    s += (i ? ", " : "") + m.params[i].text + ": " + type_name(m.params[i].ty);
    if (i + 1 == m.params.size() && m.last_has_default) s += " = " + literal(m.params[i].ty);
  }
  s += ") -> (" + r + ": " + type_name(m.result) + ") := {\n" + body + "}\n";
  modules_.push_back(m);
  return s;
}

// One top-level statement: a loop (maybe yielding a tuple), a mixed_radix
// destructuring, an annotated binding, or a plain one.
std::string KernelWriter::binding() {
  if (loops_left_ > 0 && chance(40)) {
    if (chance(25)) {
      const TyKind a = value_type(), b = value_type();
      const Name x{fresh("b"), a}, y{fresh("b"), b};
      const std::string text = "(" + x.text + ", " + y.text + ") := " + loop({a, b}, 3, "", true);
      env_.push_back(x), env_.push_back(y);
      loop_results_.push_back(x), loop_results_.push_back(y);
      return text;
    }
    const Name x{fresh("b"), value_type()};
    const std::string text = x.text + " := " + loop({x.ty}, 3, "", true);
    env_.push_back(x);
    loop_results_.push_back(x);
    return text;
  }
  if (!modules_.empty() && chance(25)) {
    const Module& m = modules_[pick(modules_.size())];
    if (!m.has_loop || can_call_loopy()) {
      const Name x{fresh("b"), m.result};
      const std::string text = x.text + " := " + module_call(m, 3);
      env_.push_back(x);
      return text;
    }
  }
  if (chance(5)) {
    static const unsigned kRadixes[] = {0, 1, 2, 7, 10, 16, 100, 255, 1000};
    const uint64_t n = 2 + pick(2);
    std::string names, radixes;
    std::vector<Name> digits;
    for (uint64_t i = 0; i < n; ++i) {
      digits.push_back({fresh("b"), TyKind::U64});
      names += (i ? ", " : "") + digits.back().text;
      radixes += ", " + std::to_string(one_of(kRadixes));
    }
    const std::string text = "(" + names + ") := mixed_radix(" + expr(one_of(kUnsigned), 2) + radixes + ")";
    for (const Name& dgt : digits) env_.push_back(dgt);
    features_.insert("call-mixed_radix");
    return text;
  }
  if (chance(6)) {  // the U64 -> Bool adapter of a value known to be 0 or 1
    const Name x{fresh("b"), TyKind::Bool};
    const std::string cmp = chance(70) ? comparison(3) : bin({comparison(2), chance(50) ? "&" : "|", comparison(2)});
    env_.push_back(x);
    features_.insert("comparison-as-bool");
    return x.text + ": bool := " + cmp;
  }
  const TyKind t = value_type();
  if (t != TyKind::Str && chance(10)) {
    std::vector<TyKind> wider;
    for (TyKind u : kScalars)
      if (u != t && lossless(t, u) && !(hw_ && is_float(u))) wider.push_back(u);
    if (!wider.empty()) {
      const Name x{fresh("b"), one_of(wider)};
      const std::string text = x.text + ": " + type_name(x.ty) + " := " + expr(t, 3);
      env_.push_back(x);
      features_.insert("annotation-adapter");
      return text;
    }
  }
  const Name x{fresh("b"), t};
  const std::string text = x.text + " := " + expr(t, 3);
  env_.push_back(x);
  return text;
}

}  // namespace polydat::difftest::generator
