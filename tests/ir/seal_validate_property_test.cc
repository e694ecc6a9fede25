// The headline property: whatever sequence of builder calls a client makes,
// every call either succeeds or returns an IrError, and a graph that seals
// validates clean. Plus a generator of well-typed programs that must seal,
// validate and run, and a check that the oracle does catch a planted fault.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <functional>
#include <ostream>

#include "graph_surgery.h"
#include "ir/builder.h"
#include "ir/interp.h"
#include "ir/typing.h"
#include "ir/validate.h"
#include "program_gen.h"
#include "shapes.h"

using namespace polydat::ir;
using K = OpKind;
using polydat::ir::testgen::Generated;
using polydat::ir::testgen::ProgramGen;

namespace {

std::string describe(const std::vector<IrViolation>& vs) {
  std::string s;
  for (const IrViolation& v : vs) s += std::string(error_kind_name(v.kind)) + ": " + v.message + "\n";
  return s;
}

template <class T>
T must(Result<T> r) {
  if (!r) throw std::logic_error(std::string(error_kind_name(r.error().kind)) + ": " + r.error().message);
  return std::move(r).value();
}

Ty nested_tuple(int depth) {
  Ty t = Ty::u64();
  for (int i = 1; i < depth; ++i) t = Ty::tuple({t, Ty::u64()});
  return t;
}

const Ty& point_ty() {
  static const Ty t = Ty::structure("Point", {{"x", Ty::u64()}, {"y", Ty::scalar(TyKind::I32)}});
  return t;
}

// ======================= (a) arbitrary call sequences =======================

// One builder call, in raw numbers: the harness maps them onto a call and its
// operands, so rapidcheck can shrink a failing sequence step by step.
struct Step {
  uint8_t action = 0;
  uint8_t fn = 0;
  uint16_t a = 0, b = 0, c = 0;
  uint8_t variant = 0;
};

void showValue(const Step& s, std::ostream& os) {
  os << "{action " << int(s.action) << ", fn " << int(s.fn) << ", a " << s.a << ", b " << s.b << ", c " << s.c
     << ", variant " << int(s.variant) << "}";
}

enum class Action : uint8_t {
  Constant,
  Proj,
  Pack,
  PackStruct,
  Unop,
  Binop,
  Cast,
  Phi,
  Call,
  Output,
  BeginLoop,
  LoopBack,
  LoopExit,
  EndLoop,
  Finish,
  Declare,
  BuildAgain,
  CountedLoop,
  Count,
};

// Types a client might hand the builder, valid or not (a singleton tuple, a
// type too deep, two structs named Point).
Ty palette(uint32_t k) {
  switch (k % 16) {
    case 0: return Ty::u64();
    case 1: return Ty::scalar(TyKind::U8);
    case 2: return Ty::scalar(TyKind::I32);
    case 3: return Ty::scalar(TyKind::I64);
    case 4: return Ty::boolean();
    case 5: return Ty::scalar(TyKind::F64);
    case 6: return Ty::scalar(TyKind::F32);
    case 7: return Ty::unit();
    case 8: return Ty::tuple({Ty::u64(), Ty::boolean()});
    case 9: return point_ty();
    case 10: return Ty::structure("Point", {{"x", Ty::boolean()}});
    case 11: return Ty::tuple({Ty::u64()});
    case 12: return nested_tuple(kMaxTyDepth + 3);
    case 13: return Ty::tuple({Ty::tuple({Ty::u64(), Ty::u64()}), Ty::boolean()});
    case 14: return Ty::str();
    default: return Ty::scalar(TyKind::U16);
  }
}

// A value of type t, or (for some `bits`) a value that does not fit any type.
Value value_for(const Ty& t, uint16_t bits) {
  if (bits % 11 == 10) return Value::structure(point_ty(), {Value::boolean(true)});
  if (bits % 13 == 12) return Value::tuple({Value::integer(TyKind::U64, bits)});
  if (t.is_int()) return Value::integer(t.kind(), uint64_t{bits} * 0x9E3779B97F4A7C15ull);
  if (t.is_bool()) return Value::boolean(bits & 1);
  if (t.kind() == TyKind::F64) return Value::f64(bits / 3.0);
  if (t.kind() == TyKind::F32) return Value::f32(static_cast<float>(bits) / 7.0f);
  if (t.is_str()) return Value::str("s" + std::to_string(bits));
  return Value::zero(t);
}

class ChaosBuilder {
 public:
  ChaosBuilder() {
    declare("main", Ty::u64(), Ty::u64());
    declare("helper", Ty::u64(), Ty::tuple({Ty::u64(), Ty::boolean()}));
  }

  void apply(const Step& s);
  void complete();
  Result<CategoryIr> seal(uint8_t which) && {
    const FuncId entry = which % 16 == 15 ? FuncId(77) : fns_[which % fns_.size()].id;
    for (Fn& f : fns_) f.fb.reset();
    return std::move(b_).seal(entry);
  }

 private:
  struct Fn {
    FuncId id;
    Ty in, out;
    std::optional<FnBuilder> fb;
    bool refused = false;
  };
  struct Item {
    ObjectId id;
    std::optional<Ty> ty;  // unknown for ids the harness guessed
    size_t fn;
  };
  struct Loop {
    LoopHandle lh;
    size_t fn;
    ObjectId merge;
    Ty state;
    std::optional<ObjectId> guard;  // of a LoopBack the builder accepted
    bool open = true;
  };
  using Want = std::function<bool(const Ty&)>;

  SourceLoc loc() {
    ++line_;
    return SourceLoc{0, line_ * 10, line_ * 10 + 5, line_, 1};
  }
  void declare(const std::string& name, Ty in, Ty out) {
    if (auto f = b_.declare(name, in, out, loc()))
      fns_.push_back(Fn{*f, std::move(in), std::move(out), std::nullopt, false});
  }
  FnBuilder* fb(size_t i) {
    Fn& f = fns_[i];
    if (!f.fb && !f.refused) {
      auto r = b_.build_fn(f.id);
      if (r)
        f.fb.emplace(std::move(r).value());
      else
        f.refused = true;
    }
    return f.fb ? &*f.fb : nullptr;
  }
  void keep(const Result<ObjectId>& r, std::optional<Ty> ty, size_t fn) {
    if (!r) return;
    pool_.push_back(Item{*r, std::move(ty), fn});
    max_id_ = std::max(max_id_, r->v);
  }
  std::optional<Ty> ty_of(ObjectId o) const {
    for (const Item& it : pool_)
      if (it.id == o) return it.ty;
    return std::nullopt;
  }

  // Mostly an object of this function of a wanted type; sometimes anything:
  // another function's object, a guessed id, a Return object, no id at all.
  ObjectId pick(uint16_t sel, size_t fn, const Want& want = {}) {
    const uint16_t mode = sel % 10;
    sel /= 10;
    if (mode < 6) {
      std::vector<ObjectId> fits;
      for (const Item& it : pool_)
        if (it.fn == fn && (!want || (it.ty && want(*it.ty)))) fits.push_back(it.id);
      if (!fits.empty()) return fits[sel % fits.size()];
    }
    if (mode == 6 && !pool_.empty()) return pool_[sel % pool_.size()].id;
    if (mode == 7) return ObjectId(sel % (max_id_ + 3));
    if (mode == 8) return sel % 2 ? ObjectId() : ObjectId(1'000'000);
    if (mode == 9) {
      FnBuilder* other = fb(sel % fns_.size());
      if (other) return other->output();
    }
    for (const Item& it : pool_)
      if (it.fn == fn) return it.id;
    return ObjectId(sel);
  }
  static Want same_as(const std::optional<Ty>& t) {
    return [t](const Ty& x) { return !t || x == *t; };
  }
  static Dest dest_of(uint8_t v) {
    switch (v % 10) {
      case 6: return Dest::ret();
      case 7: return Dest::ret_slot(0);
      case 8: return Dest::ret_slot(1);
      case 9: return Dest::ret_slot(v % 3 + 1);
      default: return Dest::fresh();
    }
  }
  // Mostly an open loop of this function; sometimes any loop, or none (a bogus handle).
  Loop* loop_for(const Step& s, size_t fn) {
    if (loops_.empty() || s.variant % 16 == 15) return nullptr;
    std::vector<Loop*> open;
    for (Loop& l : loops_)
      if (l.open && l.fn == fn) open.push_back(&l);
    if (!open.empty() && s.b % 4 != 0) return open[s.b / 4 % open.size()];
    return &loops_[s.b % loops_.size()];
  }
  void end(FnBuilder& f, Loop& l) {
    if (f.end_loop(l.lh)) l.open = false;
  }

  void constant(FnBuilder& f, size_t fn, const Step& s) {
    const Ty t = palette(s.variant);
    const Value v = value_for(t, s.a);
    keep(f.constant(v, loc()), v.ty(), fn);
  }
  void proj(FnBuilder& f, size_t fn, const Step& s) {
    const ObjectId src = pick(s.a, fn, [](const Ty& t) { return t.is_product(); });
    const uint32_t index = s.variant % 4;
    const auto st = ty_of(src);
    const std::optional<Ty> rt =
        st && st->is_product() && index < st->arity() ? std::optional(st->component(index)) : std::nullopt;
    keep(f.proj(src, index, dest_of(s.variant / 4), loc()), rt, fn);
  }
  void pack(FnBuilder& f, size_t fn, const Step& s) {
    const uint16_t sel[] = {s.a, s.b, s.c};
    std::vector<ObjectId> parts;
    std::vector<Ty> tys;
    for (size_t i = 0; i < s.variant % 4u; ++i) {
      parts.push_back(pick(sel[i], fn));
      if (auto t = ty_of(parts.back())) tys.push_back(*t);
    }
    std::optional<Ty> t = tys.size() == parts.size() ? std::optional(Ty::tuple(tys)) : std::nullopt;
    keep(f.pack(parts, dest_of(s.variant / 4), loc()), t, fn);
  }
  void pack_struct(FnBuilder& f, size_t fn, const Step& s) {
    const Ty t = s.variant % 3 == 0 ? palette(s.variant / 3) : (s.variant % 3 == 1 ? point_ty() : palette(10));
    const size_t n = t.arity() + (s.c % 3) - 1;  // one fewer, exact, or one more
    const uint16_t sel[] = {s.a, s.b, s.c, s.a};
    std::vector<ObjectId> parts;
    for (size_t i = 0; i < n && i < 4; ++i) {
      const std::optional<Ty> want = i < t.arity() ? std::optional(t.component(i)) : std::nullopt;
      parts.push_back(pick(sel[i], fn, same_as(want)));
    }
    keep(f.pack_struct(t, parts, dest_of(s.variant / 8), loc()), t, fn);
  }
  void unop(FnBuilder& f, size_t fn, const Step& s) {
    const K op = static_cast<K>(s.variant % kNumOpKinds);
    const ObjectId x = pick(s.a, fn, [](const Ty& t) { return t.is_scalar(); });
    const auto xt = ty_of(x);
    keep(f.unop(op, x, dest_of(s.c), loc()), xt ? infer_target(op, *xt) : std::nullopt, fn);
  }
  void binop(FnBuilder& f, size_t fn, const Step& s) {
    const K op = static_cast<K>(s.variant % kNumOpKinds);
    const ObjectId l = pick(s.a, fn, [](const Ty& t) { return t.is_scalar(); });
    const ObjectId r = pick(
        s.b, fn, s.c % 3 ? same_as(ty_of(l)) : [](const Ty& t) { return t.is_unsigned_int(); });
    const auto lt = ty_of(l), rt = ty_of(r);
    const std::optional<Ty> res = lt && rt ? infer_target(op, Ty::tuple({*lt, *rt})) : std::nullopt;
    keep(f.binop(op, l, r, dest_of(s.c / 3), loc()), res, fn);
  }
  void cast(FnBuilder& f, size_t fn, const Step& s) {
    const Ty to = palette(s.variant);
    keep(f.cast(pick(s.a, fn, [](const Ty& t) { return t.is_scalar(); }), to, dest_of(s.c), loc()), to, fn);
  }
  void phi(FnBuilder& f, size_t fn, const Step& s) {
    const ObjectId t = pick(s.a, fn);
    const ObjectId e = pick(s.b, fn, same_as(ty_of(t)));
    const ObjectId cond = pick(s.c, fn, [](const Ty& x) { return x.is_bool(); });
    keep(f.phi(t, e, cond, dest_of(s.variant), loc()), ty_of(t), fn);
  }
  void call(FnBuilder& f, size_t fn, const Step& s) {
    const size_t k = s.variant % (fns_.size() + 1);
    const FuncId callee = k == fns_.size() ? FuncId(99) : fns_[k].id;
    const std::optional<Ty> in = k < fns_.size() ? std::optional(fns_[k].in) : std::nullopt;
    const std::optional<Ty> out = k < fns_.size() ? std::optional(fns_[k].out) : std::nullopt;
    keep(f.call(callee, pick(s.a, fn, same_as(in)), dest_of(s.c), loc()), out, fn);
  }
  void output(FnBuilder& f, size_t fn, const Step& s) {
    const Ty& out = fns_[fn].out;
    const std::optional<uint32_t> slot = s.variant % 4 == 0 ? std::nullopt : std::optional<uint32_t>(s.variant % 4 - 1);
    const std::optional<Ty> want =
        !slot ? std::optional(out)
              : (out.is_product() && *slot < out.arity() ? std::optional(out.component(*slot)) : std::nullopt);
    (void)f.output(pick(s.a, fn, same_as(want)), slot, loc());
  }
  void begin_loop(FnBuilder& f, size_t fn, const Step& s) {
    const ObjectId init = pick(s.a, fn, [](const Ty& t) { return !t.is_unit(); });
    auto lh = f.begin_loop(init, loc());
    if (!lh) return;
    const ObjectId merge = f.merge_of(*lh);
    const std::optional<Ty> t = ty_of(init);
    loops_.push_back(Loop{*lh, fn, merge, t.value_or(Ty::unit()), std::nullopt});
    keep(merge, t, fn);
  }
  void loop_back(FnBuilder& f, size_t fn, const Step& s) {
    Loop* l = loop_for(s, fn);
    const LoopHandle lh = l ? l->lh : LoopHandle{999};
    // The merge itself, the loop's guard or a bool computed from its state keep
    // the route on the cycle, so that extra back edges can seal.
    const ObjectId next =
        l && s.variant % 2 ? l->merge : pick(s.a, fn, same_as(l ? std::optional(l->state) : std::nullopt));
    std::optional<ObjectId> cond;
    if (l && s.variant / 2 % 4 == 0) cond = l->guard;
    if (l && s.variant / 2 % 4 == 1) cond = state_guard(f, *l);
    if (!cond) cond = pick(s.c, fn, [](const Ty& t) { return t.is_bool(); });
    if (f.loop_back(lh, next, *cond, loc()) && l && !l->guard) l->guard = *cond;
  }
  void loop_exit(FnBuilder& f, size_t fn, const Step& s) {
    Loop* l = loop_for(s, fn);
    const LoopHandle lh = l ? l->lh : LoopHandle{999};
    const ObjectId value = l && s.variant % 2 ? l->merge : pick(s.a, fn);
    // Mostly the back edge's guard; otherwise any bool (another loop's, or none's).
    const bool own_guard = l && l->guard && s.variant % 3 != 0;
    const ObjectId cond = own_guard ? *l->guard : pick(s.c, fn, [](const Ty& t) { return t.is_bool(); });
    keep(f.loop_exit(lh, value, cond, dest_of(s.variant / 3), loc()), ty_of(value), fn);
  }
  void end_loop(FnBuilder& f, size_t fn, const Step& s) {
    Loop* l = loop_for(s, fn);
    if (l)
      end(f, *l);
    else
      (void)f.end_loop(LoopHandle{999});
  }
  void declare_another(const Step& s) {
    static const char* const names[] = {"main", "helper", "aux", "extra"};
    declare(names[s.variant % 4], palette(s.a), palette(s.b));
  }
  void build_again(const Step& s) {
    const size_t k = s.variant % (fns_.size() + 1);
    if (k == fns_.size()) {
      (void)b_.build_fn(FuncId(50));
      return;
    }
    fb(k);
    (void)b_.build_fn(fns_[k].id);
  }
  // A canonical counting loop, sometimes left open; its bound may come from an enclosing loop.
  void counted_loop(FnBuilder& f, size_t fn, const Step& s) {
    const auto u64 = [](const Ty& t) { return t == Ty::u64(); };
    const ObjectId bound = pick(s.a, fn, u64);
    auto zero = f.constant(Value::integer(TyKind::U64, 0), loc());
    auto lh = f.begin_loop(zero ? *zero : ObjectId(), loc());
    if (!lh) return;
    const ObjectId i = f.merge_of(*lh);
    loops_.push_back(Loop{*lh, fn, i, Ty::u64(), std::nullopt});
    auto cond = f.binop(K::Lt, i, bound, Dest::fresh(), loc());
    auto one = f.constant(Value::integer(TyKind::U64, 1), loc());
    auto next = f.binop(K::Add, i, one ? *one : ObjectId(), Dest::fresh(), loc());
    const ObjectId guard = cond ? *cond : ObjectId();
    if (f.loop_back(*lh, next ? *next : ObjectId(), guard, loc())) loops_.back().guard = guard;
    keep(f.loop_exit(*lh, i, guard, dest_of(s.variant), loc()), Ty::u64(), fn);
    if (s.c % 2 != 0) end(f, loops_.back());
  }

  // A bool computed from the loop state: Eq of its first scalar with itself.
  std::optional<ObjectId> state_guard(FnBuilder& f, const Loop& l) {
    ObjectId x = l.merge;
    Ty t = l.state;
    while (t.is_product()) {
      auto p = f.proj(x, 0, Dest::fresh(), loc());
      if (!p) return std::nullopt;
      x = *p;
      Ty c = t.component(0);
      t = c;
    }
    auto g = f.binop(K::Eq, x, x, Dest::fresh(), loc());
    return g ? std::optional(*g) : std::nullopt;
  }
  void close_loop(Loop& l) {
    FnBuilder* f = fb(l.fn);
    if (!f) return;
    if (!l.open) return;
    auto r = f->end_loop(l.lh);
    if (r || (r.error().kind != IrErrorKind::LoopWithoutBack && r.error().kind != IrErrorKind::LoopWithoutExit)) return;
    if (!l.guard) {
      const auto g = state_guard(*f, l);
      if (!g || !f->loop_back(l.lh, l.merge, *g, loc())) return;
      l.guard = *g;
    }
    (void)f->loop_exit(l.lh, l.merge, *l.guard, Dest::fresh(), loc());
    (void)f->end_loop(l.lh);
  }
  void write_return(size_t i) {
    FnBuilder* f = fb(i);
    if (!f) return;
    const Ty& out = fns_[i].out;
    auto c = f->constant(Value::zero(out), loc());
    if (c && f->output(*c, std::nullopt, loc())) return;
    for (uint32_t k = 0; out.is_product() && k < out.arity(); ++k)
      if (auto ck = f->constant(Value::zero(out.component(k)), loc())) (void)f->output(*ck, k, loc());
  }

  IrBuilder b_;
  std::vector<Fn> fns_;
  std::vector<Item> pool_;
  std::vector<Loop> loops_;
  uint32_t line_ = 0;
  uint32_t max_id_ = 0;
};

void ChaosBuilder::apply(const Step& s) {
  const auto action = static_cast<Action>(s.action % static_cast<uint8_t>(Action::Count));
  if (action == Action::Declare) return declare_another(s);
  if (action == Action::BuildAgain) return build_again(s);
  const size_t fn = s.fn % fns_.size();
  FnBuilder* f = fb(fn);
  if (!f) return;
  switch (action) {
    case Action::Constant: return constant(*f, fn, s);
    case Action::Proj: return proj(*f, fn, s);
    case Action::Pack: return pack(*f, fn, s);
    case Action::PackStruct: return pack_struct(*f, fn, s);
    case Action::Unop: return unop(*f, fn, s);
    case Action::Binop: return binop(*f, fn, s);
    case Action::Cast: return cast(*f, fn, s);
    case Action::Phi: return phi(*f, fn, s);
    case Action::Call: return call(*f, fn, s);
    case Action::Output: return output(*f, fn, s);
    case Action::BeginLoop: return begin_loop(*f, fn, s);
    case Action::LoopBack: return loop_back(*f, fn, s);
    case Action::LoopExit: return loop_exit(*f, fn, s);
    case Action::EndLoop: return end_loop(*f, fn, s);
    case Action::Finish: (void)f->finish(); return;
    case Action::CountedLoop: return counted_loop(*f, fn, s);
    default: return;
  }
}

// Best effort to make the graph sealable: close open loops, write unwritten
// returns, finish every function. Each call may still be refused.
void ChaosBuilder::complete() {
  for (size_t i = loops_.size(); i-- > 0;) close_loop(loops_[i]);
  for (size_t i = 0; i < fns_.size(); ++i) {
    write_return(i);
    if (FnBuilder* f = fb(i)) (void)f->finish();
  }
}

struct Outcome {
  bool sealed = false;
  std::vector<IrViolation> violations;
  size_t merges = 0, backs = 0, exits = 0;  // of the sealed graph: how much loop shape it exercised
};

Outcome run_chaos(const std::vector<Step>& steps, bool complete, uint8_t entry) {
  ChaosBuilder chaos;
  for (const Step& s : steps) chaos.apply(s);
  if (complete) chaos.complete();
  auto ir = std::move(chaos).seal(entry);
  if (!ir) return {};
  Outcome out{true, validate(*ir)};
  for (const Object& o : ir->objects()) out.merges += o.kind == ObjectKind::LoopMerge;
  for (const Morphism& m : ir->morphisms()) {
    out.backs += m.op.kind == K::LoopBack;
    out.exits += m.op.kind == K::LoopExit;
  }
  return out;
}

void classify(const Outcome& out) {
  RC_CLASSIFY(out.sealed, "sealed");
  RC_CLASSIFY(out.merges > 0, "sealed with loops");
  RC_CLASSIFY(out.merges > 1, "sealed with several loops");
  RC_CLASSIFY(out.backs > out.merges, "sealed with extra back edges");
  RC_CLASSIFY(out.exits > out.merges, "sealed with extra exits");
}

rc::Gen<Step> arbitrary_step(uint8_t max_action) {
  return rc::gen::build<Step>(rc::gen::set(&Step::action, rc::gen::inRange<uint8_t>(0, max_action)),
                              rc::gen::set(&Step::fn), rc::gen::set(&Step::a), rc::gen::set(&Step::b),
                              rc::gen::set(&Step::c), rc::gen::set(&Step::variant));
}

// Variants whose LoopBack routes the merge itself under the loop's guard (or
// a bool of its state), so that extra back edges and exits stay on the cycle.
rc::Gen<uint8_t> on_cycle_variant() {
  return rc::gen::map(
      rc::gen::pair(rc::gen::inRange<uint8_t>(0, 32), rc::gen::element<uint8_t>(1, 3)),
      [](const std::pair<uint8_t, uint8_t>& p) { return static_cast<uint8_t>(p.first * 8 + p.second); });
}

bool headline_property(uint8_t max_action) {
  return rc::check([max_action] {
    const auto steps = *rc::gen::scale(2.0, rc::gen::container<std::vector<Step>>(arbitrary_step(max_action)));
    const bool complete = *rc::gen::weightedElement<bool>({{4, true}, {1, false}});
    const auto entry = *rc::gen::arbitrary<uint8_t>();
    const Outcome out = run_chaos(steps, complete, entry);
    classify(out);
    if (out.sealed && !out.violations.empty()) RC_FAIL(describe(out.violations));
  });
}

// ======================= (b) well-typed programs =======================

// The generator of well-typed programs lives in program_gen.h (shared with
// the optimisation passes' property).

bool same_outcome(const Expected<Value, InterpError>& a, const Expected<Value, InterpError>& b) {
  if (a.ok() != b.ok()) return false;
  return a.ok() ? *a == *b : a.error().kind == b.error().kind && a.error().message == b.error().message;
}

// Faults that any generated program can be given.
void plant_fault(CategoryIr& g, int which) {
  using S = GraphSurgery;
  const FuncId main = g.entry();
  const FuncDef& fd = g.func(main);
  switch (which) {
    case 0: S::set_entry(g, FuncId(42)); break;
    case 1: S::func(g, main).morphisms.erase(S::func(g, main).morphisms.begin()); break;
    case 2: S::add_object(g, main, Ty::u64(), ObjectKind::Temporary); break;
    case 3: {
      const MorphismId w = g.in_edges(fd.output).front();
      const ObjectId moved = S::add_object(g, main, g.object(fd.output).ty, ObjectKind::Temporary);
      S::retarget(g, w, moved);
      break;
    }
    case 4: S::object(g, fd.input).kind = ObjectKind::Temporary; break;
    case 5:
      S::add_edge(g, fd.output, S::add_object(g, main, Ty::u64(), ObjectKind::Temporary), Operation::simple(K::Output));
      break;
    case 6: S::func(g, *g.find_func("helper")).name = "main"; break;
    case 7: S::object(g, fd.input).ty = Ty::tuple({Ty::u64()}); break;
    default: {
      const MorphismId m = fd.morphisms.back();
      S::out_edges(g, g.morphism(m).source).push_back(m);
      break;
    }
  }
}

// One raw corruption of a sealed graph: which field, which entity, what value.
struct Mutation {
  uint8_t what = 0;
  uint16_t at = 0;
  uint16_t value = 0;
};

void showValue(const Mutation& m, std::ostream& os) {
  os << "{what " << int(m.what) << ", at " << m.at << ", value " << m.value << "}";
}

// Ids past the end (and no id at all) are part of the range on purpose.
template <class IdT>
IdT raw_id(uint16_t v, size_t n) {
  return v % 7 == 6 ? IdT() : IdT(static_cast<uint32_t>(v % (n + 2)));
}

void mutate(CategoryIr& g, const Mutation& m) {
  using S = GraphSurgery;
  const size_t no = g.objects().size(), nm = g.morphisms().size(), nf = g.funcs().size();
  const ObjectId o(m.at % no);
  const MorphismId e(m.at % nm);
  const FuncId f(m.at % nf);
  switch (m.what % 16) {
    case 0: S::object(g, o).id = raw_id<ObjectId>(m.value, no); break;
    case 1: S::object(g, o).kind = static_cast<ObjectKind>(m.value % 7); break;
    case 2: S::object(g, o).owner = raw_id<FuncId>(m.value, nf); break;
    case 3: S::object(g, o).ty = palette(m.value); break;
    case 4:
      S::object(g, o).value = m.value % 2 ? std::optional(value_for(palette(m.value / 2), m.value)) : std::nullopt;
      break;
    case 5: S::morphism(g, e).source = raw_id<ObjectId>(m.value, no); break;
    case 6: S::morphism(g, e).target = raw_id<ObjectId>(m.value, no); break;
    case 7: S::morphism(g, e).op.kind = static_cast<K>(m.value % (kNumOpKinds + 3)); break;
    case 8: S::morphism(g, e).op.a = m.value % 5; break;
    case 9: S::morphism(g, e).op.b = m.value % 5; break;
    case 10: (m.value % 2 ? S::func(g, f).input : S::func(g, f).output) = raw_id<ObjectId>(m.value / 2, no); break;
    case 11: S::func(g, f).morphisms.push_back(raw_id<MorphismId>(m.value, nm)); break;
    case 12: {
      auto& list = m.value % 2 ? S::in_edges(g, o) : S::out_edges(g, o);
      if (!list.empty()) list.erase(list.begin() + m.value / 2 % list.size());
      break;
    }
    case 13:
      (m.value % 2 ? S::in_edges(g, o) : S::out_edges(g, o)).push_back(raw_id<MorphismId>(m.value / 2, nm));
      break;
    case 14: S::set_entry(g, raw_id<FuncId>(m.value, nf)); break;
    default:  // add_edge files the edge under the source's owner, so that must exist
      if (g.has_func(g.object(o).owner))
        S::add_edge(g, o, ObjectId(m.value % no), Operation{static_cast<K>(m.value % kNumOpKinds), m.value % 3u, 2});
      break;
  }
}

bool same_report(const std::vector<IrViolation>& a, const std::vector<IrViolation>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].kind != b[i].kind || a[i].message != b[i].message || a[i].object != b[i].object ||
        a[i].morphism != b[i].morphism)
      return false;
  return true;
}

}  // namespace

// Raw call sequences over every action: most seal attempts are refused; the
// ones that seal must validate clean.
TEST_CASE("a sealed graph from any builder call sequence validates clean") {
  CHECK(headline_property(static_cast<uint8_t>(Action::Count)));
}

// The same, without declare/build_fn noise, so that more sequences seal.
TEST_CASE("a sealed graph from any in-function call sequence validates clean") {
  CHECK(headline_property(static_cast<uint8_t>(Action::Declare)));
}

TEST_CASE("a sealed graph from loop-heavy call sequences validates clean") {
  CHECK(rc::check([] {
    const auto loopish = rc::gen::build<Step>(
        rc::gen::set(&Step::action, rc::gen::element<uint8_t>(uint8_t(Action::Constant), uint8_t(Action::Binop),
                                                              uint8_t(Action::Pack), uint8_t(Action::Proj),
                                                              uint8_t(Action::BeginLoop), uint8_t(Action::LoopBack),
                                                              uint8_t(Action::LoopExit), uint8_t(Action::EndLoop),
                                                              uint8_t(Action::CountedLoop), uint8_t(Action::Output))),
        rc::gen::set(&Step::fn, rc::gen::just<uint8_t>(0)), rc::gen::set(&Step::a), rc::gen::set(&Step::b),
        rc::gen::set(&Step::c),
        rc::gen::set(&Step::variant, rc::gen::oneOf(rc::gen::arbitrary<uint8_t>(), on_cycle_variant())));
    const auto steps = *rc::gen::scale(2.0, rc::gen::container<std::vector<Step>>(loopish));
    const Outcome out = run_chaos(steps, true, 0);
    classify(out);
    if (out.sealed && !out.violations.empty()) RC_FAIL(describe(out.violations));
  }));
}

TEST_CASE("well-typed generated programs seal, validate clean and run deterministically") {
  CHECK(rc::check([] {
    Generated p = ProgramGen().make();
    const auto vs = validate(p.ir);
    if (!vs.empty()) RC_FAIL(describe(vs));
    InterpOptions opts;
    opts.max_iterations = 10'000;
    const auto first = evaluate(p.ir, p.ir.entry(), p.input, opts);
    const auto second = evaluate(p.ir, p.ir.entry(), p.input, opts);
    RC_CLASSIFY(first.ok(), "evaluated");
    RC_ASSERT(same_outcome(first, second));
  }));
}

// The harness can fail: a fault planted in a generated program is reported.
TEST_CASE("a fault planted in a generated program is reported") {
  CHECK(rc::check([] {
    Generated p = ProgramGen().make();
    RC_PRE(validate(p.ir).empty());
    const int which = *rc::gen::inRange(0, 9);
    plant_fault(p.ir, which);
    RC_TAG(which);
    RC_ASSERT_FALSE(validate(p.ir).empty());
  }));
}

// The oracle itself never throws or reads out of bounds, whatever the corruption,
// and reports the same violations in the same order every time.
TEST_CASE("validate survives arbitrary corruption and reports deterministically") {
  CHECK(rc::check([] {
    static const std::function<CategoryIr()> shapes_[] = {shapes::nested_loops,    shapes::with_call,
                                                          shapes::two_loops,       shapes::gcd,
                                                          shapes::fanout_separate, shapes::phi_abs};
    CategoryIr g = shapes_[*rc::gen::inRange<size_t>(0, std::size(shapes_))]();
    const auto mutations = *rc::gen::nonEmpty(rc::gen::container<std::vector<Mutation>>(rc::gen::build<Mutation>(
        rc::gen::set(&Mutation::what), rc::gen::set(&Mutation::at), rc::gen::set(&Mutation::value))));
    for (const Mutation& m : mutations) mutate(g, m);
    const auto first = validate(g);
    RC_ASSERT(same_report(first, validate(g)));
  }));
}
