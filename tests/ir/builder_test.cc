// The builder's rejection matrix: every IrErrorKind is driven by at least one
// test, and a refused call leaves the graph as it was.
#include <doctest/doctest.h>

#include "shapes.h"

using namespace polydat::ir;
using shapes::must;
using K = OpKind;

namespace {
const SourceLoc kLoc{0, 1, 2, 1, 1};

// One function under construction, with shortcuts for the tests below.
struct One {
  IrBuilder b;
  FuncId f;
  std::optional<FnBuilder> fb;

  explicit One(Ty in = Ty::u64(), Ty out = Ty::u64()) {
    f = must(b.declare("f", std::move(in), std::move(out), kLoc));
    fb.emplace(must(b.build_fn(f)));
  }
  ObjectId k(Value v) { return must(fb->constant(std::move(v), kLoc)); }
  ObjectId k64(uint64_t v) { return k(shapes::u64(v)); }
  ObjectId kbool(bool v) { return k(Value::boolean(v)); }
  ObjectId op(K o, ObjectId l, ObjectId r) { return must(fb->binop(o, l, r, Dest::fresh(), kLoc)); }
  Result<CategoryIr> seal() { return std::move(b).seal(f); }
};

template <class T>
IrErrorKind kind_of(const Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error().kind;
}

Ty nest_tuple(int depth) {
  Ty t = Ty::u64();
  for (int i = 1; i < depth; ++i) t = Ty::tuple({t, Ty::u64()});
  return t;
}
}  // namespace

TEST_CASE("DuplicateName: two functions with one name") {
  IrBuilder b;
  REQUIRE(b.declare("f", Ty::u64(), Ty::u64(), kLoc).ok());
  CHECK(kind_of(b.declare("f", Ty::u64(), Ty::u64(), kLoc)) == IrErrorKind::DuplicateName);
}

TEST_CASE("UnknownFunction: build_fn and call with an id never issued") {
  One o;
  CHECK(kind_of(o.b.build_fn(FuncId(77))) == IrErrorKind::UnknownFunction);
  CHECK(kind_of(o.fb->call(FuncId(77), o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::UnknownFunction);
}

TEST_CASE("NoEntry: seal with an undeclared entry") {
  IrBuilder b;
  CHECK(kind_of(std::move(b).seal(FuncId(0))) == IrErrorKind::NoEntry);
}

TEST_CASE("AlreadyBuilt: a second build_fn, and calls after finish") {
  One o;
  CHECK(kind_of(o.b.build_fn(o.f)) == IrErrorKind::AlreadyBuilt);
  must(o.fb->output(o.fb->input(), std::nullopt, kLoc));
  must(o.fb->finish());
  CHECK(kind_of(o.fb->constant(shapes::u64(1), kLoc)) == IrErrorKind::AlreadyBuilt);
  CHECK(kind_of(o.fb->finish()) == IrErrorKind::AlreadyBuilt);
}

TEST_CASE("UnfinishedFunction: seal with a function declared but not finished") {
  IrBuilder b;
  FuncId f = must(b.declare("f", Ty::u64(), Ty::u64(), kLoc));
  must(b.declare("g", Ty::u64(), Ty::u64(), kLoc));
  FnBuilder fb = must(b.build_fn(f));
  must(fb.output(fb.input(), std::nullopt, kLoc));
  must(fb.finish());
  CHECK(kind_of(std::move(b).seal(f)) == IrErrorKind::UnfinishedFunction);
}

TEST_CASE("RecursiveCall: mutual and self recursion are refused at seal") {
  SUBCASE("mutual") {
    IrBuilder b;
    FuncId f = must(b.declare("f", Ty::u64(), Ty::u64(), kLoc));
    FuncId g = must(b.declare("g", Ty::u64(), Ty::u64(), kLoc));
    FnBuilder ff = must(b.build_fn(f));
    must(ff.call(g, ff.input(), Dest::ret(), kLoc));
    must(ff.finish());
    FnBuilder gg = must(b.build_fn(g));
    must(gg.call(f, gg.input(), Dest::ret(), kLoc));
    must(gg.finish());
    auto r = std::move(b).seal(f);
    CHECK(kind_of(r) == IrErrorKind::RecursiveCall);
    CHECK(r.error().message.find("f -> g -> f") != std::string::npos);
  }
  SUBCASE("self") {
    One o;
    must(o.fb->call(o.f, o.fb->input(), Dest::ret(), kLoc));
    must(o.fb->finish());
    CHECK(kind_of(o.seal()) == IrErrorKind::RecursiveCall);
  }
}

TEST_CASE("UnknownObject: an object id never issued") {
  One o;
  CHECK(kind_of(o.fb->proj(ObjectId(9999), 0, Dest::fresh(), kLoc)) == IrErrorKind::UnknownObject);
  CHECK(kind_of(o.fb->binop(K::Add, o.fb->input(), ObjectId(9999), Dest::fresh(), kLoc)) == IrErrorKind::UnknownObject);
}

TEST_CASE("ForeignObject: an object of another function") {
  IrBuilder b;
  FuncId f = must(b.declare("f", Ty::u64(), Ty::u64(), kLoc));
  FuncId g = must(b.declare("g", Ty::u64(), Ty::u64(), kLoc));
  FnBuilder ff = must(b.build_fn(f));
  FnBuilder gg = must(b.build_fn(g));
  CHECK(kind_of(gg.binop(K::Add, gg.input(), ff.input(), Dest::fresh(), kLoc)) == IrErrorKind::ForeignObject);
  CHECK(kind_of(gg.output(ff.input(), std::nullopt, kLoc)) == IrErrorKind::ForeignObject);
}

TEST_CASE("ReturnAsOperand: the Return object is a sink") {
  One o;
  CHECK(kind_of(o.fb->binop(K::Add, o.fb->output(), o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::ReturnAsOperand);
}

TEST_CASE("NotUnary and NotBinary: operations of the wrong arity") {
  One o;
  CHECK(kind_of(o.fb->unop(K::Add, o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::NotUnary);
  CHECK(kind_of(o.fb->unop(K::Cast, o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::NotUnary);
  CHECK(kind_of(o.fb->unop(K::Pair, o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::NotUnary);
  CHECK(kind_of(o.fb->binop(K::Neg, o.fb->input(), o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::NotBinary);
  CHECK(kind_of(o.fb->binop(K::Phi, o.fb->input(), o.fb->input(), Dest::fresh(), kLoc)) == IrErrorKind::NotBinary);
}

TEST_CASE("TypeMismatch: every operation is checked against the typing table") {
  One o;
  ObjectId t = o.kbool(true), f = o.kbool(false);
  ObjectId x = o.fb->input();
  ObjectId s = o.k(Value::integer(TyKind::I64, 5));
  ObjectId fl = o.k(Value::f64(1.5));
  // Eq admits bool; ordering does not.
  CHECK(o.fb->binop(K::Eq, t, f, Dest::fresh(), kLoc).ok());
  CHECK(kind_of(o.fb->binop(K::Lt, t, f, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  // Signed meets unsigned: the frontend must insert a cast.
  CHECK(kind_of(o.fb->binop(K::Add, x, s, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  // Shift amounts are unsigned; floats have no shifts or bit counts.
  CHECK(kind_of(o.fb->binop(K::Shl, x, s, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(o.fb->binop(K::Shl, s, x, Dest::fresh(), kLoc).ok());
  CHECK(kind_of(o.fb->binop(K::Shl, fl, x, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(kind_of(o.fb->unop(K::Popcount, fl, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  // Integer ** takes an unsigned exponent; float ** a float of the same type.
  CHECK(o.fb->binop(K::Pow, s, x, Dest::fresh(), kLoc).ok());
  CHECK(kind_of(o.fb->binop(K::Pow, x, s, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(o.fb->binop(K::Pow, fl, fl, Dest::fresh(), kLoc).ok());
  // Arithmetic is not defined on bool; Not is.
  CHECK(kind_of(o.fb->binop(K::Add, t, f, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(o.fb->unop(K::Not, t, Dest::fresh(), kLoc).ok());
  // Phi needs a bool guard and branches of one type.
  CHECK(kind_of(o.fb->phi(x, x, x, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(kind_of(o.fb->phi(x, s, t, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(o.fb->phi(x, x, t, Dest::fresh(), kLoc).ok());
  // Casts go between distinct scalar types only: no identity morphisms.
  CHECK(kind_of(o.fb->cast(x, Ty::u64(), Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(kind_of(o.fb->cast(x, Ty::str(), Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(o.fb->cast(x, Ty::scalar(TyKind::U8), Dest::fresh(), kLoc).ok());
  // Calls take exactly the callee's input type.
  CHECK(kind_of(o.fb->call(o.f, s, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  // Loop state and guards.
  LoopHandle lh = must(o.fb->begin_loop(x, kLoc));
  CHECK(kind_of(o.fb->loop_back(lh, s, t, kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(kind_of(o.fb->loop_back(lh, x, x, kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(kind_of(o.fb->loop_exit(lh, x, x, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
}

TEST_CASE("NonCoreType: degenerate products and stateless loops") {
  IrBuilder b;
  CHECK(kind_of(b.declare("a", Ty::tuple({Ty::u64()}), Ty::u64(), kLoc)) == IrErrorKind::NonCoreType);
  CHECK(kind_of(b.declare("b", Ty::structure("Empty", {}), Ty::u64(), kLoc)) == IrErrorKind::NonCoreType);
  CHECK(kind_of(b.declare("c", Ty::tuple({Ty::unit(), Ty::u64()}), Ty::u64(), kLoc)) == IrErrorKind::NonCoreType);
  One o;
  ObjectId unit = o.k(Value());
  CHECK(kind_of(o.fb->pack(std::vector{unit, o.fb->input()}, Dest::fresh(), kLoc)) == IrErrorKind::NonCoreType);
  CHECK(kind_of(o.fb->begin_loop(unit, kLoc)) == IrErrorKind::NonCoreType);
}

TEST_CASE("TyTooDeep: types nest at most kMaxTyDepth levels") {
  IrBuilder b;
  CHECK(b.declare("ok", nest_tuple(kMaxTyDepth), Ty::u64(), kLoc).ok());
  CHECK(kind_of(b.declare("deep", nest_tuple(kMaxTyDepth + 1), Ty::u64(), kLoc)) == IrErrorKind::TyTooDeep);
  // Synthesized types are checked too: a route (state, bool) one level deeper.
  FuncId f = must(b.declare("f", nest_tuple(kMaxTyDepth), Ty::u64(), kLoc));
  FnBuilder fb = must(b.build_fn(f));
  LoopHandle lh = must(fb.begin_loop(fb.input(), kLoc));
  ObjectId t = must(fb.constant(Value::boolean(true), kLoc));
  CHECK(kind_of(fb.loop_back(lh, fb.merge_of(lh), t, kLoc)) == IrErrorKind::TyTooDeep);
}

TEST_CASE("NotAProduct: projections and struct packs need products") {
  One o;
  CHECK(kind_of(o.fb->proj(o.fb->input(), 0, Dest::fresh(), kLoc)) == IrErrorKind::NotAProduct);
  const Ty tup = Ty::tuple({Ty::u64(), Ty::u64()});
  const ObjectId xs[] = {o.fb->input(), o.fb->input()};
  CHECK(kind_of(o.fb->pack_struct(tup, xs, Dest::fresh(), kLoc)) == IrErrorKind::NotAProduct);
}

TEST_CASE("SlotOutOfRange: a projection or return slot past the arity") {
  One o(Ty::tuple({Ty::u64(), Ty::u64()}), Ty::tuple({Ty::u64(), Ty::u64()}));
  CHECK(o.fb->proj(o.fb->input(), 1, Dest::fresh(), kLoc).ok());
  CHECK(kind_of(o.fb->proj(o.fb->input(), 2, Dest::fresh(), kLoc)) == IrErrorKind::SlotOutOfRange);
  CHECK(kind_of(o.fb->binop(K::Add, o.k64(1), o.k64(2), Dest::ret_slot(2), kLoc)) == IrErrorKind::SlotOutOfRange);
}

TEST_CASE("ArityMismatch: a struct pack with the wrong number of fields") {
  One o;
  const Ty point = Ty::structure("Point", {{"x", Ty::u64()}, {"y", Ty::u64()}});
  const ObjectId one[] = {o.fb->input()};
  CHECK(kind_of(o.fb->pack_struct(point, one, Dest::fresh(), kLoc)) == IrErrorKind::ArityMismatch);
  const ObjectId two[] = {o.fb->input(), o.k(Value::boolean(true))};
  CHECK(kind_of(o.fb->pack_struct(point, two, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
}

TEST_CASE("EmptyProduct and SingletonTuple: tuples have at least two components") {
  One o;
  CHECK(kind_of(o.fb->pack({}, Dest::fresh(), kLoc)) == IrErrorKind::EmptyProduct);
  const ObjectId one[] = {o.fb->input()};
  CHECK(kind_of(o.fb->pack(one, Dest::fresh(), kLoc)) == IrErrorKind::SingletonTuple);
}

TEST_CASE("ValueTyMismatch: a constant whose payload does not fit its type") {
  One o;
  const Ty point = Ty::structure("Point", {{"x", Ty::u64()}, {"y", Ty::u64()}});
  CHECK(kind_of(o.fb->constant(Value::structure(point, {shapes::u64(1)}), kLoc)) == IrErrorKind::ValueTyMismatch);
  CHECK(kind_of(o.fb->constant(Value::structure(point, {shapes::u64(1), Value::boolean(true)}), kLoc)) ==
        IrErrorKind::ValueTyMismatch);
  CHECK(o.fb->constant(Value::structure(point, {shapes::u64(1), shapes::u64(2)}), kLoc).ok());
}

TEST_CASE("StructNameConflict: one struct name, two field lists") {
  IrBuilder b;
  REQUIRE(b.declare("a", Ty::structure("Point", {{"x", Ty::u64()}}), Ty::u64(), kLoc).ok());
  CHECK(b.declare("b", Ty::structure("Point", {{"x", Ty::u64()}}), Ty::u64(), kLoc).ok());
  CHECK(kind_of(b.declare("c", Ty::u64(), Ty::structure("Point", {{"y", Ty::u64()}}), kLoc)) ==
        IrErrorKind::StructNameConflict);
}

TEST_CASE("LoopClosed: a handle after end_loop or from another function") {
  IrBuilder b;
  FuncId f = must(b.declare("f", Ty::u64(), Ty::u64(), kLoc));
  FuncId g = must(b.declare("g", Ty::u64(), Ty::u64(), kLoc));
  FnBuilder ff = must(b.build_fn(f));
  FnBuilder gg = must(b.build_fn(g));
  LoopHandle lh = must(ff.begin_loop(ff.input(), kLoc));
  ObjectId m = ff.merge_of(lh);
  ObjectId one = must(ff.constant(shapes::u64(1), kLoc));
  ObjectId c = must(ff.binop(K::Lt, m, one, Dest::fresh(), kLoc));
  ObjectId gt = must(gg.constant(Value::boolean(true), kLoc));
  CHECK(kind_of(gg.loop_back(lh, gg.input(), gt, kLoc)) == IrErrorKind::LoopClosed);
  must(ff.loop_back(lh, must(ff.binop(K::Add, m, one, Dest::fresh(), kLoc)), c, kLoc));
  must(ff.loop_exit(lh, m, c, Dest::ret(), kLoc));
  must(ff.end_loop(lh));
  CHECK(kind_of(ff.loop_back(lh, m, c, kLoc)) == IrErrorKind::LoopClosed);
  CHECK(kind_of(ff.end_loop(lh)) == IrErrorKind::LoopClosed);
  CHECK(kind_of(ff.end_loop(LoopHandle{42})) == IrErrorKind::LoopClosed);
}

TEST_CASE("OpenLoop, LoopWithoutBack, LoopWithoutExit: loops must be closed") {
  One o;
  LoopHandle lh = must(o.fb->begin_loop(o.fb->input(), kLoc));
  ObjectId m = o.fb->merge_of(lh);
  ObjectId c = o.op(K::Lt, m, o.k64(10));
  CHECK(kind_of(o.fb->end_loop(lh)) == IrErrorKind::LoopWithoutBack);
  must(o.fb->loop_back(lh, o.op(K::Add, m, o.k64(1)), c, kLoc));
  CHECK(kind_of(o.fb->end_loop(lh)) == IrErrorKind::LoopWithoutExit);
  must(o.fb->output(o.fb->input(), std::nullopt, kLoc));
  CHECK(kind_of(o.fb->finish()) == IrErrorKind::OpenLoop);
}

namespace {
// A counting loop x -> loop (i = x) while i < 10 { i = i + 1 }, left open.
struct Counting : One {
  LoopHandle lh;
  ObjectId m, c, next;
  Counting() {
    lh = must(fb->begin_loop(fb->input(), kLoc));
    m = fb->merge_of(lh);
    c = op(K::Lt, m, k64(10));
    next = op(K::Add, m, k64(1));
  }
};
}  // namespace

TEST_CASE("LoopBackOutsideScc: a next state that does not depend on the loop state") {
  SUBCASE("the only back edge is invariant") {
    Counting o;
    ObjectId t = o.kbool(true);
    must(o.fb->loop_back(o.lh, o.k64(3), t, kLoc));
    must(o.fb->loop_exit(o.lh, o.m, t, Dest::ret(), kLoc));
    must(o.fb->end_loop(o.lh));
    must(o.fb->finish());
    CHECK(kind_of(o.seal()) == IrErrorKind::LoopBackOutsideScc);
  }
  SUBCASE("a second back edge outside the cycle") {
    Counting o;
    must(o.fb->loop_back(o.lh, o.next, o.c, kLoc));
    must(o.fb->loop_back(o.lh, o.k64(3), o.kbool(false), kLoc));
    must(o.fb->loop_exit(o.lh, o.m, o.c, Dest::ret(), kLoc));
    must(o.fb->end_loop(o.lh));
    must(o.fb->finish());
    CHECK(kind_of(o.seal()) == IrErrorKind::LoopBackOutsideScc);
  }
}

TEST_CASE("LoopGuardInvariant: a guard that ignores the loop state") {
  Counting o;
  ObjectId t = o.kbool(true);
  must(o.fb->loop_back(o.lh, o.next, t, kLoc));
  must(o.fb->loop_exit(o.lh, o.m, t, Dest::ret(), kLoc));
  must(o.fb->end_loop(o.lh));
  must(o.fb->finish());
  CHECK(kind_of(o.seal()) == IrErrorKind::LoopGuardInvariant);
}

TEST_CASE("LoopExitUnattributed: an exit guarded by something other than the loop's guard") {
  Counting o;
  must(o.fb->loop_back(o.lh, o.next, o.c, kLoc));
  ObjectId other = o.op(K::Gt, o.m, o.k64(3));
  must(o.fb->loop_exit(o.lh, o.m, other, Dest::ret(), kLoc));
  must(o.fb->end_loop(o.lh));
  must(o.fb->finish());
  CHECK(kind_of(o.seal()) == IrErrorKind::LoopExitUnattributed);
}

TEST_CASE("LoopExitInsideScc: a loop result fed back into the same loop") {
  One o;
  LoopHandle lh = must(o.fb->begin_loop(o.fb->input(), kLoc));
  ObjectId m = o.fb->merge_of(lh);
  ObjectId c = o.op(K::Lt, m, o.k64(10));
  ObjectId out = must(o.fb->loop_exit(lh, m, c, Dest::fresh(), kLoc));
  must(o.fb->loop_back(lh, o.op(K::Add, out, o.k64(1)), c, kLoc));
  must(o.fb->end_loop(lh));
  must(o.fb->output(out, std::nullopt, kLoc));
  must(o.fb->finish());
  CHECK(kind_of(o.seal()) == IrErrorKind::LoopExitInsideScc);
}

TEST_CASE("IrreducibleLoop: one cycle entered through two merges") {
  One o;
  LoopHandle a = must(o.fb->begin_loop(o.k64(0), kLoc));
  LoopHandle b = must(o.fb->begin_loop(o.k64(1), kLoc));
  ObjectId s = o.op(K::Add, o.fb->merge_of(a), o.fb->merge_of(b));
  ObjectId c = o.op(K::Lt, s, o.k64(100));
  ObjectId c2 = o.op(K::Lt, s, o.k64(50));
  must(o.fb->loop_back(a, s, c, kLoc));
  must(o.fb->loop_back(b, s, c2, kLoc));
  must(o.fb->loop_exit(a, s, c, Dest::ret(), kLoc));
  must(o.fb->loop_exit(b, s, c2, Dest::fresh(), kLoc));
  must(o.fb->end_loop(a));
  must(o.fb->end_loop(b));
  must(o.fb->finish());
  CHECK(kind_of(o.seal()) == IrErrorKind::IrreducibleLoop);
}

TEST_CASE("Return writers: whole or slot by slot, each once, of the right type") {
  const Ty pair = Ty::tuple({Ty::u64(), Ty::u64()});
  SUBCASE("RetMixedWriters") {
    One o(Ty::u64(), pair);
    must(o.fb->binop(K::Add, o.k64(1), o.k64(2), Dest::ret_slot(0), kLoc));
    const ObjectId xs[] = {o.fb->input(), o.fb->input()};
    CHECK(kind_of(o.fb->pack(xs, Dest::ret(), kLoc)) == IrErrorKind::RetMixedWriters);
    One p(Ty::u64(), pair);
    must(p.fb->pack(xs, Dest::ret(), kLoc));
    CHECK(kind_of(p.fb->output(p.fb->input(), 0, kLoc)) == IrErrorKind::RetSlotConflict);
    One q(pair, pair);
    must(q.fb->output(q.fb->input(), std::nullopt, kLoc));
    CHECK(kind_of(q.fb->proj(q.fb->input(), 0, Dest::ret_slot(1), kLoc)) == IrErrorKind::RetMixedWriters);
  }
  SUBCASE("RetSlotConflict") {
    One o(Ty::u64(), pair);
    must(o.fb->output(o.fb->input(), 0, kLoc));
    CHECK(kind_of(o.fb->output(o.fb->input(), 0, kLoc)) == IrErrorKind::RetSlotConflict);
    One p;
    must(p.fb->output(p.fb->input(), std::nullopt, kLoc));
    CHECK(kind_of(p.fb->binop(K::Add, p.k64(1), p.k64(1), Dest::ret(), kLoc)) == IrErrorKind::RetSlotConflict);
  }
  SUBCASE("RetSlotMissing") {
    One o;
    CHECK(kind_of(o.fb->finish()) == IrErrorKind::RetSlotMissing);
    One p(Ty::u64(), pair);
    must(p.fb->output(p.fb->input(), 1, kLoc));
    CHECK(kind_of(p.fb->finish()) == IrErrorKind::RetSlotMissing);
    One unit(Ty::u64(), Ty::unit());
    CHECK(unit.fb->finish().ok());  // a unit result needs no writer
  }
  SUBCASE("RetNotProduct") {
    One o;
    CHECK(kind_of(o.fb->output(o.fb->input(), 0, kLoc)) == IrErrorKind::RetNotProduct);
  }
  SUBCASE("RetTypeMismatch") {
    One o;
    CHECK(kind_of(o.fb->binop(K::Lt, o.k64(1), o.k64(2), Dest::ret(), kLoc)) == IrErrorKind::RetTypeMismatch);
    One p(Ty::u64(), Ty::tuple({Ty::u64(), Ty::boolean()}));
    CHECK(kind_of(p.fb->output(p.fb->input(), 1, kLoc)) == IrErrorKind::RetTypeMismatch);
  }
}

TEST_CASE("a refused call adds nothing to the graph") {
  auto build = [](bool with_refusals) {
    One o;
    ObjectId x = o.fb->input();
    ObjectId one = o.k64(1);
    if (with_refusals) {
      CHECK_FALSE(o.fb->binop(K::Add, x, o.fb->output(), Dest::fresh(), kLoc).ok());
      CHECK_FALSE(o.fb->binop(K::Lt, x, one, Dest::ret(), kLoc).ok());     // after packing would begin
      CHECK_FALSE(o.fb->loop_exit(LoopHandle{9}, x, x, Dest::fresh(), kLoc).ok());
      CHECK_FALSE(o.fb->pack(std::vector{x}, Dest::fresh(), kLoc).ok());
    }
    must(o.fb->binop(K::Add, x, one, Dest::ret(), kLoc));
    must(o.fb->finish());
    CategoryIr g = must(o.seal());
    return std::pair(g.objects().size(), g.morphisms().size());
  };
  CHECK(build(true) == build(false));
}

TEST_CASE("every error kind has a name") {
  for (int k = 0; k <= static_cast<int>(IrErrorKind::RetTypeMismatch); ++k)
    CHECK(error_kind_name(static_cast<IrErrorKind>(k)) != "?");
}

TEST_CASE("apply: an operation on an existing product, checked like binop") {
  One o;
  ObjectId x = o.fb->input();
  const ObjectId parts[] = {x, o.k64(3)};
  ObjectId p = must(o.fb->pack(parts, Dest::fresh(), kLoc));
  CHECK(o.fb->apply(K::Add, p, Dest::fresh(), kLoc).ok());
  CHECK(kind_of(o.fb->apply(K::Neg, p, Dest::fresh(), kLoc)) == IrErrorKind::NotBinary);
  CHECK(kind_of(o.fb->apply(K::Phi, p, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  CHECK(kind_of(o.fb->apply(K::Add, x, Dest::fresh(), kLoc)) == IrErrorKind::TypeMismatch);
  const ObjectId three[] = {x, x, o.kbool(true)};
  ObjectId q = must(o.fb->pack(three, Dest::fresh(), kLoc));
  must(o.fb->apply(K::Phi, q, Dest::ret(), kLoc));
  must(o.fb->finish());
  const CategoryIr g = must(o.seal());
  CHECK(g.morphisms().size() == 7);  // 2 Pairs + Add, 3 Pairs + the Phi into ret
}

TEST_CASE("set_volatile marks an object; the flag reaches the sealed graph") {
  One o;
  ObjectId k = o.k64(7);
  must(o.fb->set_volatile(k, kLoc));
  CHECK(kind_of(o.fb->set_volatile(ObjectId(999), kLoc)) == IrErrorKind::UnknownObject);
  must(o.fb->binop(K::Add, o.fb->input(), k, Dest::ret(), kLoc));
  must(o.fb->finish());
  const CategoryIr g = must(o.seal());
  CHECK(g.object(k).is_volatile);
  CHECK_FALSE(g.object(g.func(g.entry()).input).is_volatile);
}
