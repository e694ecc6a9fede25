#include "frontend/lower.h"

#include <cmath>
#include <functional>
#include <cstdlib>

#include "frontend/cursors.h"
#include "frontend/weights.h"
#include "ir/builder.h"
#include "ir/interp.h"
#include "ir/library_fn.h"
#include "ir/partition.h"
#include "ir/semantics.h"

namespace polydat::frontend {

namespace {

using ir::Dest;
using ir::ObjectId;
using ir::OpKind;
using ir::Ty;
using ir::TyKind;
using ir::Value;

// Thrown when the builder refuses something the checker accepted: an internal error.
struct Refused {
  ir::IrError error;
};

template <class T>
T must(ir::Result<T> r) {
  if (!r) throw Refused{r.error()};
  return std::move(r).value();
}

OpKind binary_op(Tok t) {
  switch (t) {
    case Tok::Plus: return OpKind::Add;
    case Tok::Minus: return OpKind::Sub;
    case Tok::Star: return OpKind::Mul;
    case Tok::Slash: return OpKind::Div;
    case Tok::Percent: return OpKind::Mod;
    case Tok::StarStar: return OpKind::Pow;
    case Tok::Shl: return OpKind::Shl;
    case Tok::Shr: return OpKind::Shr;
    case Tok::Amp: return OpKind::And;
    case Tok::Pipe: return OpKind::Or;
    case Tok::Caret: return OpKind::Xor;
    case Tok::EqEq: return OpKind::Eq;
    case Tok::NotEq: return OpKind::Neq;
    case Tok::Lt: return OpKind::Lt;
    case Tok::Gt: return OpKind::Gt;
    case Tok::Le: return OpKind::Le;
    default: return OpKind::Ge;
  }
}

// The IR operation of a one-operand float built-in.
OpKind float_op(Builtin b) {
  switch (b) {
    case Builtin::Sqrt: return OpKind::Sqrt;
    case Builtin::Exp: return OpKind::Exp;
    case Builtin::Ln: return OpKind::Ln;
    case Builtin::Sin: return OpKind::Sin;
    case Builtin::Cos: return OpKind::Cos;
    case Builtin::Tan: return OpKind::Tan;
    case Builtin::Asin: return OpKind::Asin;
    case Builtin::Acos: return OpKind::Acos;
    case Builtin::Atan: return OpKind::Atan;
    case Builtin::Floor: return OpKind::Floor;
    case Builtin::Ceil: return OpKind::Ceil;
    case Builtin::Round: return OpKind::Round;
    case Builtin::Trunc: return OpKind::Trunc;
    default: return OpKind::Abs;
  }
}

Value literal_value(const Expr& e) {
  const Ty& t = e.ty;
  if (e.kind == ExprKind::Bool) return Value::boolean(e.bool_value);
  if (e.kind == ExprKind::Float) {
    const bool negative = std::signbit(e.float_value);
    std::string digits;
    for (char c : e.name)
      if (c != '_') digits += c;
    if (t.kind() == TyKind::F32) {
      const float f = std::strtof(digits.c_str(), nullptr);  // one rounding, from the decimal
      return Value::f32(negative ? -f : f);
    }
    return Value::f64(e.float_value);
  }
  // An integer literal: its two's-complement pattern, or converted once to a float.
  const Value as_int = e.int_value < 0 ? Value::integer(TyKind::I64, static_cast<uint64_t>(static_cast<int64_t>(e.int_value)))
                                       : Value::integer(TyKind::U64, static_cast<uint64_t>(e.int_value));
  if (t.is_float()) return ir::eval_cast(as_int, t);
  if (t.is_bool()) return Value::boolean(e.int_value != 0);
  return Value::integer(t.kind(), as_int.bits());
}

Ty port_struct(const std::string& name, const std::vector<Port>& ports) {
  if (ports.empty()) return Ty::unit();
  std::vector<std::pair<std::string, Ty>> fields;
  for (const Port& p : ports) fields.emplace_back(p.name, p.ty);
  return Ty::structure(name, std::move(fields));
}

// Lowers the expressions of one unit into one function.
class Lowerer {
 public:
  Lowerer(Program& p, const Unit& u, ir::FnBuilder& fb, const std::vector<ir::FuncId>& funcs)
      : p_(p), u_(u), fb_(fb), funcs_(funcs) {}

  void body() {
    for (size_t i = 0; i < u_.params.size(); ++i)
      top_[u_.params[i].name] = must(fb_.proj(fb_.input(), static_cast<uint32_t>(i), Dest::fresh(u_.params[i].name),
                                              loc(u_.params[i].span)));
    for (Stmt* s : u_.ordered) binding(*s);
    std::vector<ObjectId> outs;
    for (const Port& o : u_.outputs) outs.push_back(convert(top_.at(o.name), o.ty, o.span));
    if (outs.empty()) {  // a scope of cells only (scope_cells): the unit value
      const ir::SourceLoc at = loc(Span{u_.file, 0, 0});
      must(fb_.output(must(fb_.constant(Value(), at)), std::nullopt, at));
      return;
    }
    must(fb_.pack_struct(port_struct(u_.ir_name + "_out", u_.outputs), outs, Dest::ret(), loc(Span{u_.file, 0, 0})));
  }

  ObjectId lower(const Expr& e, const std::string& name = {}) {
    const ir::SourceLoc at = loc(e.span);
    switch (e.kind) {
      case ExprKind::Int: case ExprKind::Float: case ExprKind::Bool:
        return must(fb_.constant(literal_value(e), at, name));
      case ExprKind::Str: return string(e, name);
      case ExprKind::Name: return lookup(e.name);
      case ExprKind::Unary:
        return must(fb_.unop(e.op == Tok::Minus ? OpKind::Neg : OpKind::Not, lower(*e.operands[0]), Dest::fresh(name), at));
      case ExprKind::Binary: {
        const ObjectId l = lower(*e.operands[0]);
        const ObjectId r = lower(*e.operands[1]);
        if ((e.op == Tok::EqEq || e.op == Tok::NotEq) && e.operands[0]->ty.is_str()) {  // nb-rs's str_eq, as a bool
          const std::vector<ObjectId> both{l, r};
          const ObjectId pair = must(fb_.pack(both, Dest::fresh(), at));
          const ObjectId eq = must(fb_.library(*ir::find_library_fn("str_eq"), pair, Dest::fresh(), at));
          const ObjectId zero = must(fb_.constant(Value::integer(ir::TyKind::U64, 0), at));
          return must(fb_.binop(e.op == Tok::EqEq ? OpKind::Neq : OpKind::Eq, eq, zero, Dest::fresh(name), at));
        }
        return must(fb_.binop(binary_op(e.op), l, r, Dest::fresh(name), at));
      }
      case ExprKind::Cast: return convert(lower(*e.operands[0]), e.ty, e.span, name);
      case ExprKind::Call: return call(e, name);
      case ExprKind::If: {
        const ObjectId c = lower(*e.operands[0]);
        const ObjectId a = lower(*e.operands[1]);
        const ObjectId b = lower(*e.operands[2]);
        return must(fb_.phi(a, b, c, Dest::fresh(name), at));
      }
      case ExprKind::Loop: return loop(e, name);
      case ExprKind::Table: return table(e, name);
      case ExprKind::Tuple: {
        std::vector<ObjectId> parts;
        for (const ExprPtr& x : e.operands) parts.push_back(lower(*x));
        return must(fb_.pack(parts, Dest::fresh(name), at));
      }
    }
    return ObjectId();
  }

 private:
  ir::SourceLoc loc(Span s) const { return p_.sources.loc(s); }

  // `v as to`, or v itself when it already has that type (the IR has no identity casts).
  ObjectId convert(ObjectId v, const Ty& to, Span at, const std::string& name = {}) {
    if (fb_.type_of(v) == to) return v;
    return must(fb_.cast(v, to, Dest::fresh(name), loc(at)));
  }

  ObjectId lookup(const std::string& name) {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (auto f = it->find(name); f != it->end()) return f->second;
    if (auto k = known_.find(name); k != known_.end() && !top_.count(name))
      return top_[name] = must(fb_.constant(k->second, ir::SourceLoc{}));
    return top_.at(name);
  }

 public:
  // Names an expression lowered on its own may read, with their constant values.
  void know(const std::map<std::string, Value>& names) { known_ = names; }

 private:

  void binding(const Stmt& s) {
    if (s.kind == StmtKind::Destructure) {
      const ObjectId whole = lower(*s.value);
      for (size_t i = 0; i < s.names.size(); ++i) {
        if (s.names[i].first == "_") continue;
        top_[s.names[i].first] =
            must(fb_.proj(whole, static_cast<uint32_t>(i), Dest::fresh(s.names[i].first), loc(s.names[i].second)));
      }
      return;
    }
    const ObjectId v = lower(*s.value, s.name);
    if (s.is_volatile) must(fb_.set_volatile(v, loc(s.span)));
    top_[s.name] = v;
  }

  // `[e0, ..., en-1][i]`: j = i % n picks an entry through a tree of selects
  // on j's bits, most significant first (in hardware a LUT per result bit when
  // the entries are constants; in LLVM a select chain).
  ObjectId table(const Expr& e, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    std::vector<ObjectId> entries;
    for (size_t i = 0; i + 1 < e.operands.size(); ++i) entries.push_back(lower(*e.operands[i]));
    return select_entry(entries, lower(*e.operands.back()), name, at);
  }

  // entries[index % n].
  ObjectId select_entry(const std::vector<ObjectId>& entries, ObjectId index, const std::string& name, ir::SourceLoc at) {
    const size_t n = entries.size();
    if (n == 1) return entries.front();
    const Ty& ity = fb_.type_of(index);
    auto int_constant = [&](uint64_t v) { return must(fb_.constant(Value::integer(ity.kind(), v), at)); };
    const bool pow2 = (n & (n - 1)) == 0;
    const ObjectId j = must(fb_.binop(pow2 ? OpKind::And : OpKind::Mod, index, int_constant(pow2 ? n - 1 : n), Dest::fresh(), at));
    unsigned bits = 0;
    while ((size_t{1} << bits) < n) ++bits;
    // Entries [base, base + 2^bit) by the bits of j below `bit`.
    std::function<ObjectId(size_t, unsigned)> pick = [&](size_t base, unsigned bit) -> ObjectId {
      if (bit == 0) return entries[base];
      const size_t half = size_t{1} << (bit - 1);
      const ObjectId low = pick(base, bit - 1);
      if (base + half >= n) return low;  // j never reaches the upper half
      const ObjectId high = pick(base + half, bit - 1);
      const ObjectId shifted = must(fb_.binop(OpKind::Shr, j, int_constant(bit - 1), Dest::fresh(), at));
      const ObjectId set = must(fb_.binop(OpKind::And, shifted, int_constant(1), Dest::fresh(), at));
      const ObjectId cond = must(fb_.binop(OpKind::Neq, set, int_constant(0), Dest::fresh(), at));
      return must(fb_.phi(high, low, cond, Dest::fresh(base == 0 && bit == bits ? name : ""), at));
    };
    return pick(0, bits);
  }

  // Literal pieces and rendered values, concatenated left to right.
  ObjectId string(const Expr& e, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    std::vector<ObjectId> pieces;
    size_t next_expr = 0;
    for (const StringPart& part : e.parts) {
      if (!part.is_expr) {
        pieces.push_back(must(fb_.constant(Value::str(part.text), loc(part.span))));
        continue;
      }
      const Expr& x = *e.interpolated[next_expr++];
      const ObjectId v = lower(x);
      if (ir::is_partition(x.ty)) pieces.push_back(must(lower_partition_text(fb_, v, loc(x.span))));
      else pieces.push_back(x.ty.is_str() ? v : must(fb_.unop(OpKind::ToStr, v, Dest::fresh(), loc(x.span))));
    }
    if (pieces.empty()) return must(fb_.constant(Value::str(""), at, name));
    ObjectId acc = pieces.front();
    for (size_t i = 1; i < pieces.size(); ++i)
      acc = must(fb_.binop(OpKind::Concat, acc, pieces[i], Dest::fresh(i + 1 == pieces.size() ? name : ""), at));
    return acc;
  }

  ObjectId call(const Expr& e, const std::string& name) {
    const Callee& callee = u_.callees.at(e.name);
    if (callee.builtin) return builtin(e, *callee.builtin, name);
    if (callee.library) return library(e, *callee.library, name);
    if (callee.distribution) return sample(e.table, lower(*e.args[0].value), name, loc(e.span));
    if (callee.sampled) return sampled(e, *callee.sampled, name);
    const Unit& target = p_.units[callee.unit];
    std::vector<ObjectId> args;
    for (size_t i = 0; i < target.params.size(); ++i) {
      const Expr* a = i < e.args.size() && e.args[i].value ? e.args[i].value.get() : target.params[i].default_value;
      args.push_back(lower(*a));
    }
    return call_unit(callee.unit, args, name, loc(e.span));
  }

  // nb-rs's LutF64::sample of the checker's table at the quantile u, operation
  // for operation (distributions.h's sample_table is the reference).
  // nb-rs's sampling modules: hash, quantile, sample, then the finish.
  ObjectId sampled(const Expr& e, const SampledFunction& f, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    if (f.finish == SampleFinish::Bimodal || f.finish == SampleFinish::ServiceModel) return two_modes(e, f, name);
    const ObjectId q = call_module("unit_interval", {call_module("hash", {lower(*e.args[0].value)}, at)}, at);
    ObjectId v = sample(e.table, q, f.finish == SampleFinish::None ? name : "", at);
    auto real = [&](double d) { return must(fb_.constant(Value::f64(d), at)); };
    if (f.finish == SampleFinish::Latency) v = call_module("clamp_f64", {v, real(0.1), real(999999.0)}, at);
    if (f.finish == SampleFinish::ClampRound)
      v = call_module("clamp_f64", {v, lower(*e.args[1].value), lower(*e.args[2].value)}, at);
    if (f.finish == SampleFinish::Round || f.finish == SampleFinish::ClampRound) v = call_module("round_to_u64", {v}, at);
    return v;
  }

  // modeling.gk's bimodal_latency and service_model, operation for operation.
  ObjectId two_modes(const Expr& e, const SampledFunction& f, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    auto real = [&](double d) { return must(fb_.constant(Value::f64(d), at)); };
    const size_t half = e.table.size() / 2;
    const std::vector<double> fast_table(e.table.begin(), e.table.begin() + static_cast<std::ptrdiff_t>(half));
    const std::vector<double> slow_table(e.table.begin() + static_cast<std::ptrdiff_t>(half), e.table.end());
    const ObjectId x = lower(*e.args[0].value);
    const ObjectId h1 = call_module("hash", {x}, at), h2 = call_module("hash", {h1}, at);
    auto latency = [&](const std::vector<double>& table, ObjectId h) {
      const ObjectId sampled = sample(table, call_module("unit_interval", {h}, at), "", at);
      return call_module("clamp_f64", {sampled, real(0.1), real(999999.0)}, at);
    };
    const ObjectId fast = latency(fast_table, h1), slow = latency(slow_table, h2);
    const ObjectId coin = call_module("unfair_coin", {x, lower(*e.args[1].value)}, at);
    const ObjectId zero = must(fb_.constant(Value::integer(ir::TyKind::U64, 0), at));
    const ObjectId is_slow = must(fb_.binop(OpKind::Neq, coin, zero, Dest::fresh(), at));
    const bool model = f.finish == SampleFinish::ServiceModel;
    const ObjectId lat = must(fb_.phi(slow, fast, is_slow, Dest::fresh(model ? "" : name), at));
    if (!model) return lat;
    const ObjectId error_pct = lower(*e.args[2].value);
    const ObjectId err = must(fb_.phi(call_module("unfair_coin", {h2, error_pct}, at),
                                      call_module("unfair_coin", {h1, error_pct}, at), is_slow, Dest::fresh(), at));
    const std::vector<ObjectId> both{lat, err};
    return must(fb_.pack(both, Dest::fresh(name), at));
  }

  ObjectId sample(const std::vector<double>& table, ObjectId quantile, const std::string& name, ir::SourceLoc at) {
    const Ty f64 = Ty::scalar(ir::TyKind::F64);
    auto real = [&](double d) { return must(fb_.constant(Value::f64(d), at)); };
    auto index = [&](uint64_t v) { return must(fb_.constant(Value::integer(ir::TyKind::U64, v), at)); };
    auto bin = [&](OpKind op, ObjectId l, ObjectId r) { return must(fb_.binop(op, l, r, Dest::fresh(), at)); };
    const uint64_t n = table.size();
    ObjectId u = quantile;
    // Clamped by comparisons, so a NaN stays NaN.
    u = must(fb_.phi(real(0.0), u, bin(OpKind::Lt, u, real(0.0)), Dest::fresh(), at));
    u = must(fb_.phi(real(1.0), u, bin(OpKind::Gt, u, real(1.0)), Dest::fresh(), at));
    const ObjectId pos = bin(OpKind::Mul, u, real(static_cast<double>(n - 1)));
    const ObjectId whole = must(fb_.cast(pos, Ty::u64(), Dest::fresh(), at));  // saturating; NaN gives 0
    const ObjectId i = must(fb_.phi(index(n - 2), whole, bin(OpKind::Gt, whole, index(n - 2)), Dest::fresh(), at));
    const ObjectId frac = bin(OpKind::Sub, pos, must(fb_.cast(i, f64, Dest::fresh(), at)));
    std::vector<Value> entries;
    for (double d : table) entries.push_back(Value::f64(d));
    const uint32_t rom = must(fb_.add_rom(ir::RomTable{f64, std::move(entries)}, at));
    const ObjectId lo = must(fb_.rom(rom, i, Dest::fresh(), at));
    const ObjectId hi = must(fb_.rom(rom, bin(OpKind::Add, i, index(1)), Dest::fresh(), at));
    return must(fb_.binop(OpKind::Add, bin(OpKind::Mul, lo, bin(OpKind::Sub, real(1.0), frac)), bin(OpKind::Mul, hi, frac),
                          Dest::fresh(name), at));
  }

  // The arguments in order, checked and converted to the parameters' types.
  ObjectId library(const Expr& e, uint32_t fn, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    std::vector<ObjectId> args;
    for (const Arg& a : e.args) args.push_back(lower(*a.value));
    const ObjectId arg = args.size() == 1 ? args.front()
                         : args.empty()   ? must(fb_.constant(Value(), at))
                                          : must(fb_.pack(args, Dest::fresh(), at));
    return must(fb_.library(fn, arg, Dest::fresh(name), at));
  }

  // A module the unit resolved (a call of it, or a built-in that uses it), with one result.
  ObjectId call_module(const std::string& module, const std::vector<ObjectId>& args, ir::SourceLoc at) {
    return call_unit(u_.callees.at(module).unit, args, "", at);
  }

  ObjectId call_unit(size_t unit, const std::vector<ObjectId>& args, const std::string& name, ir::SourceLoc at) {
    const Unit& target = p_.units[unit];
    const ObjectId arg = args.empty() ? must(fb_.constant(Value(), at))
                                      : must(fb_.pack_struct(port_struct(target.ir_name + "_in", target.params), args,
                                                             Dest::fresh(), at));
    const ObjectId result = must(fb_.call(funcs_.at(unit), arg, Dest::fresh(), at));
    if (target.outputs.size() == 1) return must(fb_.proj(result, 0, Dest::fresh(name), at));
    return result;
  }

  ObjectId builtin(const Expr& e, Builtin b, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    auto arg = [&](size_t i) { return lower(*e.args[i].value); };
    auto bin = [&](OpKind op, ObjectId l, ObjectId r, const std::string& n) {
      return must(fb_.binop(op, l, r, Dest::fresh(n), at));
    };
    switch (b) {
      case Builtin::Mod: return bin(OpKind::Mod, arg(0), arg(1), name);
      case Builtin::Div: return bin(OpKind::Div, arg(0), arg(1), name);
      case Builtin::Add: return bin(OpKind::Add, arg(0), arg(1), name);
      case Builtin::Sub: return bin(OpKind::Sub, arg(0), arg(1), name);
      case Builtin::Mul: return bin(OpKind::Mul, arg(0), arg(1), name);
      case Builtin::Rotl: return bin(OpKind::Rotl, arg(0), arg(1), name);
      case Builtin::Rotr: return bin(OpKind::Rotr, arg(0), arg(1), name);
      case Builtin::FormatU64: return bin(OpKind::FormatRadix, arg(0), arg(1), name);
      case Builtin::ZeroPadU64: return bin(OpKind::FormatDec, arg(0), arg(1), name);
      case Builtin::Min: case Builtin::Max: {
        const ObjectId a = arg(0), c = arg(1);
        // min: b < a ? b : a; max: a < b ? b : a (std::min and std::max).
        const ObjectId less = b == Builtin::Min ? bin(OpKind::Lt, c, a, "") : bin(OpKind::Lt, a, c, "");
        return must(fb_.phi(c, a, less, Dest::fresh(name), at));
      }
      case Builtin::Clamp: {  // min(max(x, lo), hi)
        const ObjectId x = arg(0), lo = arg(1), hi = arg(2);
        const ObjectId up = must(fb_.phi(lo, x, bin(OpKind::Lt, x, lo, ""), Dest::fresh(), at));
        return must(fb_.phi(hi, up, bin(OpKind::Lt, hi, up, ""), Dest::fresh(name), at));
      }
      case Builtin::Popcount: return must(fb_.unop(OpKind::Popcount, arg(0), Dest::fresh(name), at));
      case Builtin::Clz: return must(fb_.unop(OpKind::Clz, arg(0), Dest::fresh(name), at));
      case Builtin::Ctz: return must(fb_.unop(OpKind::Ctz, arg(0), Dest::fresh(name), at));
      case Builtin::Hex: return must(fb_.unop(OpKind::Hex, arg(0), Dest::fresh(name), at));
      case Builtin::ToF64: case Builtin::ToU64: return convert(arg(0), e.ty, e.span, name);
      case Builtin::Sum: case Builtin::Product: break;  // folded into operators by the checker
      case Builtin::WeightedU64: case Builtin::WeightedStrings: case Builtin::WeightedPick: case Builtin::Histribution:
        return weighted(e, b, name);
      case Builtin::OneOf: {  // values[hash(x) % n]
        const ObjectId h = call_module("hash", {arg(0)}, at);
        std::vector<ObjectId> values;
        for (size_t i = 1; i < e.args.size(); ++i) values.push_back(arg(i));
        return select_entry(values, h, name, at);
      }
      case Builtin::OneOfWeighted: return one_of_weighted(e, name);
      case Builtin::Combinations: return combinations(e, name);
      case Builtin::FormatF64: return bin(OpKind::FormatFixed, arg(0), arg(1), name);
      case Builtin::StrConcat: case Builtin::Identity: break;  // rewritten by the checker
      case Builtin::InRange: case Builtin::IsOneOf: case Builtin::IsPositive: case Builtin::Matches:
        return arg(0);  // the assertion held when the kernel was built
      case Builtin::StartOf: case Builtin::EndOf: case Builtin::IdxOf: case Builtin::Cardinality: case Builtin::ModIn:
      case Builtin::ClampIn: case Builtin::At: case Builtin::Partitions: case Builtin::CursorOver:
      case Builtin::CursorProblem: case Builtin::PartitionFirst: {
        std::vector<ObjectId> args;
        for (size_t i = 0; i < e.args.size(); ++i) args.push_back(arg(i));
        return must(lower_partition_builtin(fb_, b, args, at, name));
      }
      case Builtin::Pick: {  // v_{N-1} unless an earlier selector is true, the first winning
        const size_t n = e.args.size() / 2;
        ObjectId acc = arg(2 * n - 1);
        for (size_t i = n - 1; i-- > 0;) acc = must(fb_.phi(arg(n + i), acc, arg(i), Dest::fresh(i == 0 ? name : ""), at));
        return acc;
      }
      case Builtin::Atan2: return bin(OpKind::Atan2, arg(0), arg(1), name);
      case Builtin::Pow: return bin(OpKind::Pow, arg(0), arg(1), name);
      case Builtin::Sqrt: case Builtin::Exp: case Builtin::Ln: case Builtin::Sin: case Builtin::Cos:
      case Builtin::Tan: case Builtin::Asin: case Builtin::Acos: case Builtin::Atan: case Builtin::AbsF64:
      case Builtin::Floor: case Builtin::Ceil: case Builtin::Round: case Builtin::Trunc:
        return must(fb_.unop(float_op(b), arg(0), Dest::fresh(name), at));
      case Builtin::MixedRadix: {
        ObjectId rem = arg(0);
        std::vector<ObjectId> digits;
        for (size_t i = 1; i < e.args.size(); ++i) {
          const uint64_t r = static_cast<uint64_t>(e.args[i].value->int_value);
          const bool last = i + 1 == e.args.size();
          if (r == 0) {  // a radix of 0 takes the whole remainder; nothing is left
            digits.push_back(rem);
            if (!last) rem = must(fb_.constant(Value::integer(TyKind::U64, 0), at));
            continue;
          }
          const ObjectId rc = lower(*e.args[i].value);
          digits.push_back(bin(OpKind::Mod, rem, rc, ""));
          if (!last) rem = bin(OpKind::Div, rem, rc, "");
        }
        if (digits.size() == 1) return digits.front();
        return must(fb_.pack(digits, Dest::fresh(name), at));
      }
    }
    return ObjectId();
  }

  // nb-rs's alias-table choice: slot x % n, kept when (x >> 32) / (2^32 - 1)
  // is below its bias, else its alias. The bias test is the integer compare
  // with coin_threshold, so no float is computed.
  ObjectId weighted(const Expr& e, Builtin b, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    std::string problem;
    Span where;
    const std::vector<WeightedItem> items = weighted_call_items(e, b == Builtin::WeightedPick, problem, where);
    std::vector<double> weights;
    for (const WeightedItem& item : items) weights.push_back(item.weight);
    const AliasTable t = alias_table(weights);
    const ObjectId x = lower(*e.args[0].value);
    auto u64_constant = [&](uint64_t v) { return must(fb_.constant(Value::integer(TyKind::U64, v), at)); };
    auto value_of = [&](size_t i) {
      if (b == Builtin::WeightedStrings) return must(fb_.constant(Value::str(items[i].value), at));
      uint64_t v = 0;
      parse_u64(items[i].value, v);
      return u64_constant(v);
    };
    std::vector<ObjectId> primary, alias, threshold;
    for (size_t i = 0; i < items.size(); ++i) {
      primary.push_back(value_of(i));
      alias.push_back(value_of(t.alias[i]));
      threshold.push_back(u64_constant(coin_threshold(t.bias[i])));
    }
    const ObjectId high = must(fb_.binop(OpKind::Shr, x, u64_constant(32), Dest::fresh(), at));
    const ObjectId keep =
        must(fb_.binop(OpKind::Lt, high, select_entry(threshold, x, "", at), Dest::fresh(), at));
    return must(fb_.phi(select_entry(primary, x, "", at), select_entry(alias, x, "", at), keep, Dest::fresh(name), at));
  }

  // nb-rs's combinations: r = x % (the product of the radixes, saturating);
  // each digit piece writes chars[r % radix] and divides r by its radix.
  ObjectId combinations(const Expr& e, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    const std::vector<CombinationPiece> pieces = combination_pieces(literal_text(*e.args[1].value).value_or(""));
    auto u64_constant = [&](uint64_t v) { return must(fb_.constant(Value::integer(TyKind::U64, v), at)); };
    uint64_t modulus = 1;
    for (const CombinationPiece& p : pieces)
      if (!p.literal) modulus = __builtin_mul_overflow(modulus, p.chars.size(), &modulus) ? ~uint64_t{0} : modulus;
    ObjectId rest = must(fb_.binop(OpKind::Mod, lower(*e.args[0].value), u64_constant(modulus), Dest::fresh(), at));
    std::optional<ObjectId> text;
    for (const CombinationPiece& p : pieces) {
      ObjectId piece;
      if (p.literal) {
        piece = must(fb_.constant(Value::str(p.text), at));
      } else {
        std::vector<ObjectId> chars;
        for (const std::string& c : p.chars) chars.push_back(must(fb_.constant(Value::str(c), at)));
        piece = select_entry(chars, rest, "", at);
        rest = must(fb_.binop(OpKind::Div, rest, u64_constant(p.chars.size()), Dest::fresh(), at));
      }
      text = text ? must(fb_.binop(OpKind::Concat, *text, piece, Dest::fresh(), at)) : piece;
    }
    if (!text) return must(fb_.constant(Value::str(""), at, name));
    return *text;
  }

  // nb-rs's one_of_weighted: the first value whose cumulative share is at
  // least hash(x) / 2^64, counted as the thresholds hash(x) reaches.
  ObjectId one_of_weighted(const Expr& e, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    std::string problem;
    Span where;
    const std::vector<WeightedItem> items = weighted_call_items(e, false, problem, where);
    std::vector<double> weights;
    std::vector<ObjectId> values;
    for (const WeightedItem& item : items) {
      weights.push_back(item.weight);
      values.push_back(must(fb_.constant(Value::str(item.value), at)));
    }
    const ObjectId h = call_module("hash", {lower(*e.args[0].value)}, at);
    ObjectId index = must(fb_.constant(Value::integer(TyKind::U64, 0), at));
    for (const std::optional<uint64_t>& g : cdf_thresholds(weights)) {
      if (!g) continue;  // a share no quotient passes (the last ones, within rounding)
      const ObjectId reached =
          must(fb_.binop(OpKind::Ge, h, must(fb_.constant(Value::integer(TyKind::U64, *g), at)), Dest::fresh(), at));
      const ObjectId one = must(fb_.cast(reached, Ty::u64(), Dest::fresh(), at));
      index = must(fb_.binop(OpKind::Add, index, one, Dest::fresh(), at));
    }
    return select_entry(values, index, name, at);
  }

  // The state is the loop variables (a tuple when several); the guard and the
  // yield read the merge view; the body runs its statements in order.
  ObjectId loop(const Expr& e, const std::string& name) {
    const ir::SourceLoc at = loc(e.span);
    std::vector<ObjectId> inits;
    for (const LoopVar& v : e.vars) inits.push_back(lower(*v.init));
    const bool one = inits.size() == 1;
    const ObjectId state = one ? inits.front() : must(fb_.pack(inits, Dest::fresh(), at));
    std::string state_name;
    for (const LoopVar& v : e.vars) state_name += (state_name.empty() ? "" : ", ") + v.name;
    const ir::LoopHandle lh = must(fb_.begin_loop(state, at, state_name));
    const ObjectId merge = fb_.merge_of(lh);
    locals_.emplace_back();
    for (size_t i = 0; i < e.vars.size(); ++i)
      locals_.back()[e.vars[i].name] =
          one ? merge : must(fb_.proj(merge, static_cast<uint32_t>(i), Dest::fresh(e.vars[i].name), loc(e.vars[i].span)));
    const size_t vars_level = locals_.size() - 1;
    const ObjectId cond = lower(*e.guard);
    const ObjectId result = lower(*e.yield);
    locals_.emplace_back();
    for (const StmtPtr& s : e.body) {
      if (s->kind == StmtKind::Assign) {
        locals_[vars_level][s->name] = lower(*s->value);
      } else if (s->kind == StmtKind::Destructure) {
        const ObjectId whole = lower(*s->value);
        for (size_t i = 0; i < s->names.size(); ++i)
          if (s->names[i].first != "_")
            locals_.back()[s->names[i].first] =
                must(fb_.proj(whole, static_cast<uint32_t>(i), Dest::fresh(s->names[i].first), loc(s->names[i].second)));
      } else {
        locals_.back()[s->name] = lower(*s->value, s->name);
      }
    }
    std::vector<ObjectId> next;
    for (const LoopVar& v : e.vars) next.push_back(locals_[vars_level].at(v.name));
    const ObjectId next_state = one ? next.front() : must(fb_.pack(next, Dest::fresh(), at));
    locals_.pop_back();
    locals_.pop_back();
    must(fb_.loop_back(lh, next_state, cond, at));
    const ObjectId out = must(fb_.loop_exit(lh, result, cond, Dest::fresh(name), at));
    must(fb_.end_loop(lh));
    return out;
  }

 private:
  Program& p_;
  const Unit& u_;
  ir::FnBuilder& fb_;
  const std::vector<ir::FuncId>& funcs_;
  std::map<std::string, ObjectId> top_;
  std::vector<std::map<std::string, ObjectId>> locals_;
  std::map<std::string, Value> known_;
};

}  // namespace

std::optional<ir::CategoryIr> lower_program(Program& p) {
  ir::IrBuilder b;
  std::vector<ir::FuncId> funcs(p.units.size());
  try {
    for (size_t u : p.order) {
      const Unit& unit = p.units[u];
      if (!unit.needs_values.empty()) continue;  // never called: calls of it are refused
      funcs[u] = must(b.declare(unit.ir_name, port_struct(unit.ir_name + "_in", unit.params),
                                port_struct(unit.ir_name + "_out", unit.outputs), p.sources.loc(Span{unit.file, 0, 0})));
    }
    for (size_t u : p.order) {
      if (!p.units[u].needs_values.empty()) continue;
      ir::FnBuilder fb = must(b.build_fn(funcs[u]));
      Lowerer(p, p.units[u], fb, funcs).body();
      must(fb.finish());
    }
    return must(std::move(b).seal(funcs[0]));
  } catch (const Refused& r) {
    p.diags.error(DiagKind::Syntax, Span{r.error.loc.file, r.error.loc.start, r.error.loc.end},
                  "internal error: the IR builder refused this (" + std::string(ir::error_kind_name(r.error.kind)) +
                      ": " + r.error.message + ")");
    return std::nullopt;
  }
}

std::optional<ir::Value> evaluate_constant(Program& p, const Unit& unit, const Expr& e,
                                           const std::map<std::string, ir::Value>& names) {
  ir::IrBuilder b;
  const std::vector<ir::FuncId> no_units;
  try {
    const ir::FuncId f = must(b.declare("constant", Ty::unit(), e.ty, p.sources.loc(e.span)));
    ir::FnBuilder fb = must(b.build_fn(f));
    Lowerer lowerer(p, unit, fb, no_units);
    lowerer.know(names);
    const ObjectId v = lowerer.lower(e);
    must(fb.output(v, std::nullopt, p.sources.loc(e.span)));
    must(fb.finish());
    const ir::CategoryIr g = must(std::move(b).seal(f));
    auto r = ir::evaluate(g, f, Value());
    if (!r) return std::nullopt;
    return *r;
  } catch (const Refused&) {
    return std::nullopt;
  }
}

}  // namespace polydat::frontend
