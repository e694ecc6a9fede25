#include "program_gen.h"

#include <rapidcheck.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/typing.h"
#include "ir/validate.h"

namespace polydat::ir::testgen {

namespace {
using K = OpKind;

template <class T>
T must(Result<T> r) {
  if (!r) throw std::logic_error(std::string(error_kind_name(r.error().kind)) + ": " + r.error().message);
  return std::move(r).value();
}

const std::vector<Ty>& scalar_tys() {
  static const std::vector<Ty> tys = {
      Ty::scalar(TyKind::U8), Ty::scalar(TyKind::U16), Ty::scalar(TyKind::U32), Ty::u64(),
      Ty::scalar(TyKind::I8), Ty::scalar(TyKind::I16), Ty::scalar(TyKind::I32), Ty::scalar(TyKind::I64),
      Ty::boolean(),          Ty::scalar(TyKind::F32), Ty::scalar(TyKind::F64),
  };
  return tys;
}

const Ty& in_struct_ty() {
  static const Ty t = Ty::structure("In", {{"a", Ty::u64()}, {"b", Ty::scalar(TyKind::I32)}});
  return t;
}

const Ty& pt_ty() {
  static const Ty t = Ty::structure("Pt", {{"x", Ty::u64()}, {"on", Ty::boolean()}});
  return t;
}

int draw(int lo, int hi) { return *rc::gen::inRange(lo, hi); }  // [lo, hi)
bool coin() { return *rc::gen::arbitrary<bool>(); }

std::vector<OpTyping> rows_of(Form form) {
  std::vector<OpTyping> rows;
  for (const OpTyping& r : typing_table())
    if (r.form == form && r.op != K::Cast) rows.push_back(r);
  return rows;
}
}  // namespace

// Draws a program that only ever makes valid builder calls; `must` turns a
// refusal into a failed property.
class ProgramGen::Impl {
 public:
  explicit Impl(GenOptions options) : options_(options) {}

  Generated make() {
    const bool struct_in = coin();
    const bool pair_out = coin();
    out_ = pair_out ? Ty::tuple({Ty::u64(), Ty::boolean()}) : Ty::u64();
    const FuncId main = must(b_.declare("main", struct_in ? in_struct_ty() : Ty::u64(), out_, loc()));
    helper_ = must(b_.declare("helper", Ty::u64(), Ty::u64(), loc()));
    if (options_.rich) helper2_ = must(b_.declare("helper2", Ty::u64(), pt_ty(), loc()));
    build_helper();
    if (options_.rich) build_helper2();
    FnBuilder fb = must(b_.build_fn(main));
    f_ = &fb;
    seed_pool(struct_in);
    const int steps = draw(1, 14);
    for (int i = 0; i < steps; ++i) {
      step();
      if (options_.rich && draw(0, 8) == 0) mark_volatile();
    }
    write_result();
    must(fb.finish());
    f_ = nullptr;
    Value input = struct_in
                      ? Value::structure(in_struct_ty(), {Value::integer(TyKind::U64, *rc::gen::arbitrary<uint64_t>()),
                                                          Value::integer(TyKind::I32, *rc::gen::arbitrary<uint32_t>())})
                      : Value::integer(TyKind::U64, *rc::gen::arbitrary<uint64_t>());
    return Generated{must(std::move(b_).seal(main)), std::move(input)};
  }

 private:
  struct Item {
    ObjectId id;
    Ty ty;
  };

  SourceLoc loc() {
    ++line_;
    return SourceLoc{0, line_ * 10, line_ * 10 + 5, line_, 1};
  }

  void build_helper() {
    FnBuilder fb = must(b_.build_fn(helper_));
    ObjectId x = fb.input();
    const K ops[] = {K::Add, K::Mul, K::Xor, K::Sub};
    for (int i = draw(0, 4); i > 0; --i) {
      const ObjectId k = must(fb.constant(Value::integer(TyKind::U64, *rc::gen::arbitrary<uint64_t>()), loc()));
      x = must(fb.binop(ops[draw(0, 4)], x, k, Dest::fresh(), loc()));
    }
    if (options_.rich && coin()) x = helper_loop(fb, x);
    must(fb.output(x, std::nullopt, loc()));
    must(fb.finish());
  }

  // Rich programs: loop (i = 0, acc = x) while i < (x & 7) { acc = acc * k + i } yield acc.
  ObjectId helper_loop(FnBuilder& fb, ObjectId x) {
    const auto k = [&](uint64_t v) { return must(fb.constant(Value::integer(TyKind::U64, v), loc())); };
    const ObjectId bound = must(fb.binop(K::And, x, k(7), Dest::fresh("bound"), loc()));
    const ObjectId init[] = {k(0), x};
    const LoopHandle lh = must(fb.begin_loop(must(fb.pack(init, Dest::fresh(), loc())), loc(), "h"));
    const ObjectId m = fb.merge_of(lh);
    const ObjectId i = must(fb.proj(m, 0, Dest::fresh("i"), loc()));
    const ObjectId acc = must(fb.proj(m, 1, Dest::fresh("acc"), loc()));
    const ObjectId cond = must(fb.binop(K::Lt, i, bound, Dest::fresh(), loc()));
    const ObjectId scaled = must(fb.binop(K::Mul, acc, k(*rc::gen::arbitrary<uint64_t>()), Dest::fresh(), loc()));
    const ObjectId next[] = {must(fb.binop(K::Add, i, k(1), Dest::fresh(), loc())),
                             must(fb.binop(K::Add, scaled, i, Dest::fresh(), loc()))};
    must(fb.loop_back(lh, must(fb.pack(next, Dest::fresh(), loc())), cond, loc()));
    const ObjectId out = must(fb.loop_exit(lh, acc, cond, Dest::fresh("acc_out"), loc()));
    must(fb.end_loop(lh));
    return out;
  }

  // Rich programs: helper2(x) = {x: r, on: r < x} with r from a loop calling
  // helper on each step; the Return written slot by slot or whole.
  void build_helper2() {
    FnBuilder fb = must(b_.build_fn(helper2_));
    const auto k = [&](uint64_t v) { return must(fb.constant(Value::integer(TyKind::U64, v), loc())); };
    const ObjectId x = fb.input();
    const ObjectId init[] = {k(0), x};
    const LoopHandle lh = must(fb.begin_loop(must(fb.pack(init, Dest::fresh(), loc())), loc(), "h2"));
    const ObjectId m = fb.merge_of(lh);
    const ObjectId i = must(fb.proj(m, 0, Dest::fresh("i"), loc()));
    const ObjectId acc = must(fb.proj(m, 1, Dest::fresh("acc"), loc()));
    const ObjectId cond = must(fb.binop(K::Lt, i, k(static_cast<uint64_t>(draw(0, 4))), Dest::fresh(), loc()));
    const ObjectId arg = must(fb.binop(K::Add, acc, i, Dest::fresh(), loc()));
    const ObjectId next[] = {must(fb.binop(K::Add, i, k(1), Dest::fresh(), loc())),
                             must(fb.call(helper_, arg, Dest::fresh("h"), loc()))};
    must(fb.loop_back(lh, must(fb.pack(next, Dest::fresh(), loc())), cond, loc()));
    const ObjectId r = must(fb.loop_exit(lh, acc, cond, Dest::fresh("r"), loc()));
    must(fb.end_loop(lh));
    const ObjectId on = must(fb.binop(K::Lt, r, x, Dest::fresh("on"), loc()));
    if (coin()) {
      must(fb.output(r, 0u, loc()));
      must(fb.output(on, 1u, loc()));
    } else {
      const ObjectId parts[] = {r, on};
      must(fb.pack_struct(pt_ty(), parts, Dest::ret(), loc()));
    }
    must(fb.finish());
  }

  // Rich programs: the latest pool object is never constant-folded.
  void mark_volatile() {
    const Item& it = pool_.back();
    must(f_->set_volatile(it.id, loc()));
  }

  void seed_pool(bool struct_in) {
    const ObjectId in = f_->input();
    if (!struct_in) return pool_.push_back({in, Ty::u64()});
    pool_.push_back({in, in_struct_ty()});
    pool_.push_back({must(f_->proj(in, 0, Dest::fresh("a"), loc())), Ty::u64()});
    pool_.push_back({must(f_->proj(in, 1, Dest::fresh("b"), loc())), Ty::scalar(TyKind::I32)});
  }

  ObjectId constant_of(const Ty& t) {
    const uint64_t bits = *rc::gen::arbitrary<uint64_t>();
    Value v;
    if (t.is_int())
      v = Value::integer(t.kind(), bits);
    else if (t.is_bool())
      v = Value::boolean(bits & 1);
    else if (t.kind() == TyKind::F32)
      v = Value::f32(static_cast<float>(static_cast<int16_t>(bits)) / 8.0f);
    else if (t.kind() == TyKind::F64)
      v = Value::f64(static_cast<double>(static_cast<int32_t>(bits)) / 16.0);
    else
      v = Value::zero(t);
    return must(f_->constant(v, loc()));
  }
  ObjectId small_u64(uint64_t hi) {
    return must(f_->constant(Value::integer(TyKind::U64, *rc::gen::inRange<uint64_t>(0, hi)), loc()));
  }

  // A pool object whose type `want` admits, or a fresh constant of one of `fallback`.
  Item operand(const std::function<bool(const Ty&)>& want, const std::vector<Ty>& fallback) {
    std::vector<const Item*> fits;
    for (const Item& it : pool_)
      if (want(it.ty)) fits.push_back(&it);
    if (!fits.empty() && draw(0, 4) != 0) return *fits[static_cast<size_t>(draw(0, static_cast<int>(fits.size())))];
    const Ty& t = fallback[static_cast<size_t>(draw(0, static_cast<int>(fallback.size())))];
    return {constant_of(t), t};
  }
  std::vector<Ty> scalars_where(const std::function<bool(const Ty&)>& want) {
    std::vector<Ty> tys;
    for (const Ty& t : scalar_tys())
      if (want(t)) tys.push_back(t);
    return tys;
  }
  Item scalar_operand(TyClass c) {
    return operand([c](const Ty& t) { return t.is_scalar() && admits(c, t); },
                   scalars_where([c](const Ty& t) { return admits(c, t); }));
  }
  Item of_type(const Ty& t) {
    return operand([&t](const Ty& x) { return x == t; }, {t});
  }
  Item as_u64(const Item& x) {
    if (x.ty == Ty::u64()) return x;
    return {must(f_->cast(x.id, Ty::u64(), Dest::fresh(), loc())), Ty::u64()};
  }
  Item bool_operand() {
    if (coin()) return of_type(Ty::boolean());
    const Item a = scalar_operand(TyClass::Numeric);
    const Item b = of_type(a.ty);
    return {must(f_->binop(draw(0, 2) ? K::Lt : K::Neq, a.id, b.id, Dest::fresh(), loc())), Ty::boolean()};
  }

  void step() {
    switch (draw(0, 11)) {
      case 0: {
        const Ty& t = scalar_tys()[static_cast<size_t>(draw(0, 11))];
        pool_.push_back({constant_of(t), t});
        return;
      }
      case 1: return binary();
      case 2: return unary();
      case 3: return cast();
      case 4: return phi();
      case 5: return tuple();
      case 6: return structure();
      case 7: return projection();
      case 8: return call();
      case 9: return pool_.push_back(counted_loop(false));
      default: return pool_.push_back(counted_loop(true));
    }
  }

  void binary() {
    static const std::vector<OpTyping> rows = rows_of(Form::Binary);
    const OpTyping& row = rows[static_cast<size_t>(draw(0, static_cast<int>(rows.size())))];
    const Item l = scalar_operand(row.first);
    const Item r = row.same ? of_type(l.ty) : scalar_operand(row.second);
    const auto t = infer_target(row.op, Ty::tuple({l.ty, r.ty}));
    RC_ASSERT(t.has_value());
    pool_.push_back({must(f_->binop(row.op, l.id, r.id, Dest::fresh(), loc())), *t});
  }
  void unary() {
    static const std::vector<OpTyping> rows = rows_of(Form::Unary);
    const OpTyping& row = rows[static_cast<size_t>(draw(0, static_cast<int>(rows.size())))];
    const Item x = scalar_operand(row.first);
    pool_.push_back({must(f_->unop(row.op, x.id, Dest::fresh(), loc())), *infer_target(row.op, x.ty)});
  }
  void cast() {
    const Item x = scalar_operand(TyClass::Scalar);
    const std::vector<Ty> others = scalars_where([&](const Ty& t) { return !(t == x.ty); });
    const Ty& to = others[static_cast<size_t>(draw(0, static_cast<int>(others.size())))];
    pool_.push_back({must(f_->cast(x.id, to, Dest::fresh(), loc())), to});
  }
  void phi() {
    const Item t = pool_[static_cast<size_t>(draw(0, static_cast<int>(pool_.size())))];
    const Item e = of_type(t.ty);
    const Item c = bool_operand();
    pool_.push_back({must(f_->phi(t.id, e.id, c.id, Dest::fresh(), loc())), t.ty});
  }
  void tuple() {
    std::vector<ObjectId> parts;
    std::vector<Ty> tys;
    for (int i = draw(2, 4); i > 0; --i) {
      const Item it = pool_[static_cast<size_t>(draw(0, static_cast<int>(pool_.size())))];
      parts.push_back(it.id);
      tys.push_back(it.ty);
    }
    pool_.push_back({must(f_->pack(parts, Dest::fresh(), loc())), Ty::tuple(tys)});
  }
  void structure() {
    const ObjectId parts[] = {as_u64(scalar_operand(TyClass::Scalar)).id, bool_operand().id};
    pool_.push_back({must(f_->pack_struct(pt_ty(), parts, Dest::fresh(), loc())), pt_ty()});
  }
  void projection() {
    std::vector<const Item*> products;
    for (const Item& it : pool_)
      if (it.ty.is_product()) products.push_back(&it);
    if (products.empty()) return tuple();
    const Item p = *products[static_cast<size_t>(draw(0, static_cast<int>(products.size())))];
    const uint32_t k = static_cast<uint32_t>(draw(0, static_cast<int>(p.ty.arity())));
    pool_.push_back({must(f_->proj(p.id, k, Dest::fresh(), loc())), p.ty.component(k)});
  }
  void call() {
    const Item arg = as_u64(scalar_operand(TyClass::Scalar));
    if (options_.rich && coin()) {
      pool_.push_back({must(f_->call(helper2_, arg.id, Dest::fresh(), loc())), pt_ty()});
      return;
    }
    pool_.push_back({must(f_->call(helper_, arg.id, Dest::fresh(), loc())), Ty::u64()});
  }

  // acc := acc op cast(k): the loop body's update of an accumulator of type t.
  ObjectId accumulate(ObjectId acc, const Ty& t, ObjectId k) {
    if (options_.rich && coin()) k = must(f_->call(helper_, k, Dest::fresh(), loc()));  // a call in a loop body
    const ObjectId step = t == Ty::u64() ? k : must(f_->cast(k, t, Dest::fresh(), loc()));
    const K op = t.is_bool()
                     ? (coin() ? K::Xor : K::Or)
                     : (t.is_float() ? (coin() ? K::Add : K::Mul)
                                     : std::vector<K>{K::Add, K::Sub, K::Mul, K::Xor}[static_cast<size_t>(draw(0, 4))]);
    return must(f_->binop(op, acc, step, Dest::fresh(), loc()));
  }

  // for (i = 0, acc = x; i < bound; ++i) acc = acc op i   -- with, when nested,
  // an inner loop over j < i in place of the update. Yields acc or the whole state.
  Item counted_loop(bool nested) {
    const Item acc0 = scalar_operand(TyClass::Scalar);
    const ObjectId zero = small_u64(1), one = must(f_->constant(Value::integer(TyKind::U64, 1), loc()));
    // Rich programs sometimes run a loop far past any iteration limit a test sets.
    const ObjectId bound = options_.rich && !nested && draw(0, 12) == 0
                               ? must(f_->constant(Value::integer(TyKind::U64, 1'000'000'000), loc()))
                               : small_u64(7);
    const ObjectId init[] = {zero, acc0.id};
    const Ty state = Ty::tuple({Ty::u64(), acc0.ty});
    const LoopHandle lh = must(f_->begin_loop(must(f_->pack(init, Dest::fresh(), loc())), loc(), "outer"));
    const ObjectId m = f_->merge_of(lh);
    const ObjectId i = must(f_->proj(m, 0, Dest::fresh("i"), loc()));
    const ObjectId acc = must(f_->proj(m, 1, Dest::fresh("acc"), loc()));
    const ObjectId cond = must(f_->binop(K::Lt, i, bound, Dest::fresh(), loc()));
    const ObjectId acc1 = nested ? inner_loop(i, acc, acc0.ty, one) : accumulate(acc, acc0.ty, i);
    const ObjectId next[] = {must(f_->binop(K::Add, i, one, Dest::fresh(), loc())), acc1};
    must(f_->loop_back(lh, must(f_->pack(next, Dest::fresh(), loc())), cond, loc()));
    const bool whole = coin();
    const ObjectId out = must(f_->loop_exit(lh, whole ? m : acc, cond, Dest::fresh(), loc()));
    must(f_->end_loop(lh));
    return {out, whole ? state : acc0.ty};
  }
  ObjectId inner_loop(ObjectId outer_i, ObjectId acc, const Ty& t, ObjectId one) {
    const ObjectId init[] = {small_u64(1), acc};
    const LoopHandle lh = must(f_->begin_loop(must(f_->pack(init, Dest::fresh(), loc())), loc(), "inner"));
    const ObjectId m = f_->merge_of(lh);
    const ObjectId j = must(f_->proj(m, 0, Dest::fresh("j"), loc()));
    const ObjectId s = must(f_->proj(m, 1, Dest::fresh("s"), loc()));
    const ObjectId cond = must(f_->binop(K::Lt, j, outer_i, Dest::fresh(), loc()));
    const ObjectId next[] = {must(f_->binop(K::Add, j, one, Dest::fresh(), loc())), accumulate(s, t, j)};
    must(f_->loop_back(lh, must(f_->pack(next, Dest::fresh(), loc())), cond, loc()));
    const ObjectId out = must(f_->loop_exit(lh, s, cond, Dest::fresh("s_out"), loc()));
    must(f_->end_loop(lh));
    return out;
  }

  void write_result() {
    const Item x = scalar_operand(TyClass::Scalar);
    if (out_ == Ty::u64()) {
      if (x.ty == Ty::u64())
        must(f_->output(x.id, std::nullopt, loc()));
      else
        must(f_->cast(x.id, Ty::u64(), Dest::ret(), loc()));
      return;
    }
    const ObjectId parts[] = {as_u64(x).id, bool_operand().id};
    if (coin()) {
      must(f_->pack(parts, Dest::ret(), loc()));
      return;
    }
    must(f_->output(parts[0], 0u, loc()));
    must(f_->output(parts[1], 1u, loc()));
  }

  GenOptions options_;
  IrBuilder b_;
  FnBuilder* f_ = nullptr;
  FuncId helper_, helper2_;
  Ty out_;
  std::vector<Item> pool_;
  uint32_t line_ = 0;
};

ProgramGen::ProgramGen(GenOptions options) : impl_(std::make_unique<Impl>(options)) {}
ProgramGen::~ProgramGen() = default;
Generated ProgramGen::make() { return impl_->make(); }

HandFn::HandFn(const char* name, Ty in, Ty out) {
  id = must(b.declare(name, std::move(in), std::move(out), next()));
  fb.emplace(must(b.build_fn(id)));
}
SourceLoc HandFn::next() {
  ++line;
  return SourceLoc{0, line * 100, line * 100 + 10, line, 1};
}
ObjectId HandFn::k(uint64_t v) { return must(fb->constant(Value::integer(TyKind::U64, v), next())); }
ObjectId HandFn::konst(Value v, std::string name) { return must(fb->constant(std::move(v), next(), std::move(name))); }
ObjectId HandFn::op(OpKind o, ObjectId l, ObjectId r, Dest d) { return must(fb->binop(o, l, r, std::move(d), next())); }
ObjectId HandFn::un(OpKind o, ObjectId x, Dest d) { return must(fb->unop(o, x, std::move(d), next())); }
ObjectId HandFn::proj(ObjectId s, uint32_t i, Dest d) { return must(fb->proj(s, i, std::move(d), next())); }
ObjectId HandFn::pack(std::vector<ObjectId> parts, Dest d) { return must(fb->pack(parts, std::move(d), next())); }
ObjectId HandFn::phi(ObjectId t, ObjectId f, ObjectId c, Dest d) { return must(fb->phi(t, f, c, std::move(d), next())); }
ObjectId HandFn::call(FuncId callee, ObjectId arg, Dest d) { return must(fb->call(callee, arg, std::move(d), next())); }
void HandFn::out(ObjectId v, std::optional<uint32_t> slot) { must(fb->output(v, slot, next())); }
void HandFn::set_volatile(ObjectId o) { must(fb->set_volatile(o, next())); }
LoopHandle HandFn::begin(ObjectId init, const char* name) { return must(fb->begin_loop(init, next(), name)); }
void HandFn::back(LoopHandle lh, ObjectId n, ObjectId c) { must(fb->loop_back(lh, n, c, next())); }
ObjectId HandFn::exit(LoopHandle lh, ObjectId v, ObjectId c, Dest d) {
  return must(fb->loop_exit(lh, v, c, std::move(d), next()));
}
void HandFn::end(LoopHandle lh) { must(fb->end_loop(lh)); }
FuncId HandFn::callee(const char* name, Ty in, Ty out, const std::function<void(HandFn&)>& body) {
  const FuncId c = must(b.declare(name, std::move(in), std::move(out), next()));
  std::optional<FnBuilder> mine = std::move(fb);
  fb.emplace(must(b.build_fn(c)));
  body(*this);
  must(fb->finish());
  fb = std::move(mine);
  return c;
}
CategoryIr HandFn::seal() {
  must(fb->finish());
  fb.reset();
  return must(std::move(b).seal(id));
}

namespace {
std::vector<Value> scalar_samples(const Ty& t) {
  if (t.is_bool()) return {Value::boolean(false), Value::boolean(true)};
  if (t.kind() == TyKind::F32) return {Value::f32(0.0f), Value::f32(1.5f), Value::f32(-2.0f)};
  if (t.kind() == TyKind::F64) return {Value::f64(0.0), Value::f64(1.5), Value::f64(-2.0)};
  if (t.is_str()) return {Value::str(""), Value::str("ab")};
  if (t.is_signed_int()) {
    std::vector<Value> v;
    for (int64_t x : {-7, -1, 0, 3, 12}) v.push_back(Value::integer(t.kind(), static_cast<uint64_t>(x)));
    return v;
  }
  std::vector<Value> v;
  for (uint64_t x : {0, 1, 2, 5, 10, 12}) v.push_back(Value::integer(t.kind(), x));
  return v;
}
}  // namespace

std::vector<Value> sample_inputs(const Ty& t) {
  if (!t.is_product()) return t.is_unit() ? std::vector<Value>{Value()} : scalar_samples(t);
  std::vector<std::vector<Value>> per(t.arity());
  size_t n = 0;
  for (size_t i = 0; i < t.arity(); ++i) {
    per[i] = scalar_samples(t.component(i));
    n = std::max(n, per[i].size());
  }
  std::vector<Value> out;
  for (size_t k = 0; k < n; ++k) {
    std::vector<Value> parts;
    for (size_t i = 0; i < t.arity(); ++i) parts.push_back(per[i][(k + 2 * i) % per[i].size()]);
    out.push_back(t.kind() == TyKind::Struct ? Value::structure(t, std::move(parts)) : Value::tuple(std::move(parts)));
  }
  return out;
}

size_t count_op(const CategoryIr& g, OpKind k) {
  size_t n = 0;
  for (const Morphism& m : g.morphisms()) n += m.op.kind == k;
  return n;
}

size_t count_kind(const CategoryIr& g, ObjectKind k) {
  size_t n = 0;
  for (const Object& o : g.objects()) n += o.kind == k;
  return n;
}

std::string violations_text(const CategoryIr& g) {
  std::string s;
  for (const IrViolation& v : validate(g)) s += std::string(error_kind_name(v.kind)) + ": " + v.message + "\n";
  return s;
}

std::string outcome_difference(const CategoryIr& before, const CategoryIr& after, const Value& input,
                               InterpOptions options) {
  const auto want = evaluate(before, before.entry(), input, options);
  if (!want.ok()) return {};
  const auto got = evaluate(after, after.entry(), input, options);
  if (!got.ok())
    return "on " + render(input) + ": expected " + render(*want) + ", got the error " +
           std::string(interp_error_name(got.error().kind)) + " (" + got.error().message + ")";
  if (!(*got == *want)) return "on " + render(input) + ": expected " + render(*want) + ", got " + render(*got);
  return {};
}

}  // namespace polydat::ir::testgen
