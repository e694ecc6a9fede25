// validate(): every builder-made shape is clean, and each invariant, broken
// on a sealed graph by GraphSurgery, is reported with the builder's kind.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "example_kernel.h"
#include "graph_surgery.h"
#include "ir/validate.h"
#include "shapes.h"

using namespace polydat::ir;
using shapes::must;
using S = GraphSurgery;
using K = OpKind;

namespace {

std::string describe(const std::vector<IrViolation>& vs) {
  std::string s;
  for (const IrViolation& v : vs) s += std::string(error_kind_name(v.kind)) + ": " + v.message + "\n";
  return s.empty() ? "(no violations)" : s;
}

bool reports(const std::vector<IrViolation>& vs, IrErrorKind k) {
  return std::any_of(vs.begin(), vs.end(), [&](const IrViolation& v) { return v.kind == k; });
}

#define CHECK_CLEAN(graph)            \
  do {                                \
    const auto vs_ = validate(graph); \
    INFO(describe(vs_));              \
    CHECK(vs_.empty());               \
  } while (0)

#define CHECK_REPORTS(graph, kind)                                      \
  do {                                                                  \
    const auto vs_ = validate(graph);                                   \
    INFO("expected ", error_kind_name(kind), "; got\n", describe(vs_)); \
    CHECK(reports(vs_, kind));                                          \
  } while (0)

// ---- finding things in a sealed graph ----

MorphismId nth_edge(const CategoryIr& g, OpKind k, size_t nth = 0) {
  for (const Morphism& m : g.morphisms())
    if (m.op.kind == k && nth-- == 0) return m.id;
  throw std::logic_error("no such morphism");
}

ObjectId nth_object(const CategoryIr& g, ObjectKind k, size_t nth = 0) {
  for (const Object& o : g.objects())
    if (o.kind == k && nth-- == 0) return o.id;
  throw std::logic_error("no such object");
}

ObjectId named(const CategoryIr& g, std::string_view name) {
  for (const Object& o : g.objects())
    if (o.name == name) return o.id;
  throw std::logic_error("no object named " + std::string(name));
}

// The Pair writing slot `slot` of `product`.
MorphismId slot_edge(const CategoryIr& g, ObjectId product, uint32_t slot) {
  for (MorphismId m : g.in_edges(product))
    if (g.morphism(m).op.kind == K::Pair && g.morphism(m).op.slot() == slot) return m;
  throw std::logic_error("no such slot writer");
}

MorphismId edge_into(const CategoryIr& g, ObjectId target, OpKind k) {
  for (MorphismId m : g.in_edges(target))
    if (g.morphism(m).op.kind == k) return m;
  throw std::logic_error("no such writer");
}

// ---- corrupting it ----

// Moves a morphism's source, keeping the out-edge lists consistent.
void move_source(CategoryIr& g, MorphismId m, ObjectId source) {
  Morphism& mm = S::morphism(g, m);
  std::erase(S::out_edges(g, mm.source), m);
  mm.source = source;
  S::out_edges(g, source).push_back(m);
}

ObjectId add_constant(CategoryIr& g, FuncId f, Value v) {
  const ObjectId o = S::add_object(g, f, v.ty(), ObjectKind::Constant);
  S::object(g, o).value = std::move(v);
  return o;
}

Ty nested_tuple(int depth) {
  Ty t = Ty::u64();
  for (int i = 1; i < depth; ++i) t = Ty::tuple({t, Ty::u64()});
  return t;
}

// Two sequential counting loops in one function (the second counts to the
// first's result); swapping their back edges makes an irreducible cycle.
CategoryIr two_counters() {
  IrBuilder b;
  shapes::Lines lines;
  const FuncId f = must(b.declare("two_counters", Ty::u64(), Ty::u64(), lines.next()));
  FnBuilder fb = must(b.build_fn(f));
  auto counter = [&](ObjectId n, Dest dest, const char* name) {
    const LoopHandle lh = must(fb.begin_loop(must(fb.constant(shapes::u64(0), lines.next())), lines.next(), name));
    const ObjectId i = fb.merge_of(lh);
    const ObjectId cond = must(fb.binop(K::Lt, i, n, Dest::fresh(), lines.next()));
    const ObjectId one = must(fb.constant(shapes::u64(1), lines.next()));
    must(fb.loop_back(lh, must(fb.binop(K::Add, i, one, Dest::fresh(), lines.next())), cond, lines.next()));
    const ObjectId out = must(fb.loop_exit(lh, i, cond, dest, lines.next()));
    must(fb.end_loop(lh));
    return out;
  };
  counter(counter(fb.input(), Dest::fresh(), "a"), Dest::ret(), "b");
  must(fb.finish());
  return must(std::move(b).seal(f));
}

// Two counters side by side, both bounded by the input, summed.
CategoryIr side_by_side_counters() {
  IrBuilder b;
  shapes::Lines lines;
  const FuncId f = must(b.declare("side_by_side", Ty::u64(), Ty::u64(), lines.next()));
  FnBuilder fb = must(b.build_fn(f));
  auto counter = [&](const char* name) {
    const LoopHandle lh = must(fb.begin_loop(must(fb.constant(shapes::u64(0), lines.next())), lines.next(), name));
    const ObjectId i = fb.merge_of(lh);
    const ObjectId cond = must(fb.binop(K::Lt, i, fb.input(), Dest::fresh(), lines.next()));
    const ObjectId one = must(fb.constant(shapes::u64(1), lines.next()));
    must(fb.loop_back(lh, must(fb.binop(K::Add, i, one, Dest::fresh(), lines.next())), cond, lines.next()));
    const ObjectId out = must(fb.loop_exit(lh, i, cond, Dest::fresh(), lines.next()));
    must(fb.end_loop(lh));
    return out;
  };
  const ObjectId a = counter("a");
  const ObjectId c = counter("b");
  must(fb.binop(K::Add, a, c, Dest::ret(), lines.next()));
  must(fb.finish());
  return must(std::move(b).seal(f));
}

}  // namespace

// ================= clean graphs =================

TEST_CASE("every test shape validates clean") {
  std::vector<std::pair<const char*, std::function<CategoryIr()>>> all;
  for (const shapes::Named& s : shapes::all()) all.emplace_back(s.name, s.build);
  all.emplace_back("two_counters", two_counters);
  all.emplace_back("side_by_side_counters", side_by_side_counters);
  for (const auto& [name, make] : all) {
    INFO("shape ", name);
    CHECK_CLEAN(make());
  }
}

TEST_CASE("the example kernel validates clean") { CHECK_CLEAN(polydat::cli::build_example_kernel(1000)); }

TEST_CASE("a unit function that writes nothing validates clean") {
  IrBuilder b;
  const FuncId f = must(b.declare("nothing", Ty::unit(), Ty::unit(), {}));
  must(must(b.build_fn(f)).finish());
  CHECK_CLEAN(must(std::move(b).seal(f)));
}

TEST_CASE("a 100,000-object chain validates without deep recursion") {
  IrBuilder b;
  const FuncId f = must(b.declare("chain", Ty::u64(), Ty::u64(), {}));
  FnBuilder fb = must(b.build_fn(f));
  ObjectId x = fb.input();
  for (int i = 0; i < 100'000; ++i) x = must(fb.unop(K::Neg, x, Dest::fresh(), {}));
  must(fb.output(x, std::nullopt, {}));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  CHECK(g.objects().size() > 100'000);
  CHECK_CLEAN(g);
}

TEST_CASE("a loop around a 100,000-object body validates without deep recursion") {
  IrBuilder b;
  const FuncId f = must(b.declare("long_body", Ty::u64(), Ty::u64(), {}));
  FnBuilder fb = must(b.build_fn(f));
  const LoopHandle lh = must(fb.begin_loop(must(fb.constant(shapes::u64(0), {})), {}));
  const ObjectId i = fb.merge_of(lh);
  const ObjectId one = must(fb.constant(shapes::u64(1), {}));
  ObjectId x = i;
  for (int k = 0; k < 50'000; ++k) x = must(fb.binop(K::Add, x, one, Dest::fresh(), {}));
  const ObjectId cond = must(fb.binop(K::Lt, i, fb.input(), Dest::fresh(), {}));
  must(fb.loop_back(lh, x, cond, {}));
  must(fb.loop_exit(lh, i, cond, Dest::ret(), {}));
  must(fb.end_loop(lh));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  CHECK(g.objects().size() > 100'000);
  CHECK_CLEAN(g);
}

// ================= ids =================

TEST_CASE("the entry names a function") {
  CategoryIr g = shapes::pipeline();
  SUBCASE("out of range") { S::set_entry(g, FuncId(7)); }
  SUBCASE("no id at all") { S::set_entry(g, FuncId()); }
  CHECK_REPORTS(g, IrErrorKind::NoEntry);
}

TEST_CASE("ids are the dense indices of their entities") {
  CategoryIr g = shapes::pipeline();
  SUBCASE("object") {
    S::object(g, ObjectId(2)).id = ObjectId(3);
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
  SUBCASE("morphism") {
    S::morphism(g, MorphismId(1)).id = MorphismId(0);
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
  SUBCASE("function") {
    S::func(g, FuncId(0)).id = FuncId(4);
    CHECK_REPORTS(g, IrErrorKind::UnknownFunction);
  }
}

TEST_CASE("a morphism's endpoints are objects") {
  CategoryIr g = shapes::pipeline();
  SUBCASE("target") { S::morphism(g, MorphismId(0)).target = ObjectId(100'000); }
  SUBCASE("source") { S::morphism(g, MorphismId(0)).source = ObjectId(); }
  CHECK_REPORTS(g, IrErrorKind::UnknownObject);
}

TEST_CASE("every object is owned by a function") {
  CategoryIr g = shapes::pipeline();
  S::object(g, nth_object(g, ObjectKind::Constant)).owner = FuncId(9);
  CHECK_REPORTS(g, IrErrorKind::UnknownFunction);
}

TEST_CASE("a function lists exactly the objects it owns") {
  SUBCASE("one left out") {
    CategoryIr g = shapes::pipeline();
    S::func(g, FuncId(0)).objects.pop_back();
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
  SUBCASE("another function's object listed") {
    CategoryIr g = shapes::with_call();
    S::func(g, FuncId(0)).objects.push_back(S::func(g, FuncId(1)).objects.back());
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
}

TEST_CASE("every morphism is listed by exactly one function") {
  SUBCASE("listed by none") {
    CategoryIr g = shapes::pipeline();
    auto& list = S::func(g, FuncId(0)).morphisms;
    list.erase(list.begin());
    CHECK_REPORTS(g, IrErrorKind::ForeignObject);
  }
  SUBCASE("listed by two") {
    CategoryIr g = shapes::with_call();
    const MorphismId in_twice = S::func(g, FuncId(1)).morphisms.front();
    S::func(g, FuncId(0)).morphisms.push_back(in_twice);
    CHECK_REPORTS(g, IrErrorKind::ForeignObject);
  }
  SUBCASE("a listed id that is no morphism") {
    CategoryIr g = shapes::pipeline();
    S::func(g, FuncId(0)).morphisms.push_back(MorphismId(999));
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
}

TEST_CASE("a function owns both endpoints of its morphisms") {
  CategoryIr g = shapes::with_call();
  const ObjectId twice_ret = g.func(FuncId(1)).output;
  S::add_edge(g, g.func(FuncId(0)).input, twice_ret, Operation::simple(K::Output));
  CHECK_REPORTS(g, IrErrorKind::ForeignObject);
}

TEST_CASE("edge lists agree with the morphism table") {
  CategoryIr g = shapes::pipeline();
  const MorphismId m = nth_edge(g, K::Mul);
  const Morphism mm = g.morphism(m);
  SUBCASE("missing from the target's in-edges") { std::erase(S::in_edges(g, mm.target), m); }
  SUBCASE("missing from the source's out-edges") { std::erase(S::out_edges(g, mm.source), m); }
  SUBCASE("listed twice") { S::out_edges(g, mm.source).push_back(m); }
  SUBCASE("listed at an object it does not touch") { S::in_edges(g, g.func(FuncId(0)).input).push_back(m); }
  SUBCASE("a dangling entry") { S::out_edges(g, mm.target).push_back(MorphismId(4242)); }
  CHECK_REPORTS(g, IrErrorKind::UnknownObject);
}

// ================= functions =================

TEST_CASE("function names are unique") {
  CategoryIr g = shapes::with_call();
  S::func(g, FuncId(1)).name = "with_call";
  CHECK_REPORTS(g, IrErrorKind::DuplicateName);
}

TEST_CASE("a function's input is its own Parameter and its output its own Return") {
  SUBCASE("input is a Temporary") {
    CategoryIr g = shapes::pipeline();
    S::func(g, FuncId(0)).input = nth_object(g, ObjectKind::Temporary);
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
  SUBCASE("input does not exist") {
    CategoryIr g = shapes::pipeline();
    S::func(g, FuncId(0)).input = ObjectId(5000);
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
  SUBCASE("input is another function's") {
    CategoryIr g = shapes::with_call();
    S::func(g, FuncId(0)).input = g.func(FuncId(1)).input;
    CHECK_REPORTS(g, IrErrorKind::ForeignObject);
  }
  SUBCASE("output is a Constant") {
    CategoryIr g = shapes::pipeline();
    S::func(g, FuncId(0)).output = nth_object(g, ObjectKind::Constant);
    CHECK_REPORTS(g, IrErrorKind::UnknownObject);
  }
}

TEST_CASE("a function has exactly one Parameter and one Return") {
  CategoryIr g = shapes::pipeline();
  SUBCASE("a second Parameter") { S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Parameter); }
  SUBCASE("a second Return") { S::add_object(g, FuncId(0), Ty::unit(), ObjectKind::Return); }
  CHECK_REPORTS(g, IrErrorKind::UnknownObject);
}

// ================= types =================

TEST_CASE("object types are core types") {
  SUBCASE("a singleton tuple") {
    CategoryIr g = shapes::pipeline();
    S::object(g, nth_object(g, ObjectKind::Temporary)).ty = Ty::tuple({Ty::u64()});
    CHECK_REPORTS(g, IrErrorKind::NonCoreType);
  }
  SUBCASE("unit inside a product") {
    CategoryIr g = shapes::pipeline();
    S::object(g, nth_object(g, ObjectKind::Temporary)).ty = Ty::tuple({Ty::u64(), Ty::unit()});
    CHECK_REPORTS(g, IrErrorKind::NonCoreType);
  }
  SUBCASE("a struct without fields") {
    CategoryIr g = shapes::pipeline();
    S::add_object(g, FuncId(0), Ty::structure("empty", {}), ObjectKind::Temporary);
    CHECK_REPORTS(g, IrErrorKind::NonCoreType);
  }
  SUBCASE("a loop merge without state") {
    CategoryIr g = shapes::count_up();
    S::object(g, nth_object(g, ObjectKind::LoopMerge)).ty = Ty::unit();
    CHECK_REPORTS(g, IrErrorKind::NonCoreType);
  }
}

TEST_CASE("types nest at most kMaxTyDepth deep") {
  CategoryIr g = shapes::pipeline();
  S::add_object(g, FuncId(0), nested_tuple(kMaxTyDepth + 1), ObjectKind::Temporary);
  CHECK_REPORTS(g, IrErrorKind::TyTooDeep);
  CategoryIr ok = shapes::pipeline();
  S::object(ok, nth_object(ok, ObjectKind::Constant)).ty = nested_tuple(kMaxTyDepth);
  CHECK_FALSE(reports(validate(ok), IrErrorKind::TyTooDeep));
}

TEST_CASE("one struct name means one struct type") {
  CategoryIr g = shapes::add();  // its input is struct pair_in {a: u64, b: u64}
  const Ty other = Ty::structure("pair_in", {{"a", Ty::boolean()}});
  add_constant(g, FuncId(0), Value::zero(other));
  const auto vs = validate(g);
  INFO(describe(vs));
  REQUIRE(vs.size() == 1);
  CHECK(vs[0].kind == IrErrorKind::StructNameConflict);
}

// ================= constants =================

TEST_CASE("a Constant carries a value and only a Constant does") {
  CategoryIr g = shapes::pipeline();
  SUBCASE("a Constant without a value") { S::object(g, nth_object(g, ObjectKind::Constant)).value.reset(); }
  SUBCASE("a Temporary with a value") { S::object(g, nth_object(g, ObjectKind::Temporary)).value = shapes::u64(1); }
  SUBCASE("a Constant turned Temporary") {
    S::object(g, nth_object(g, ObjectKind::Constant)).kind = ObjectKind::Temporary;
  }
  CHECK_REPORTS(g, IrErrorKind::ValueTyMismatch);
}

TEST_CASE("a constant's value has its object's type and fits it") {
  CategoryIr g = shapes::pipeline();
  SUBCASE("another type") { S::object(g, nth_object(g, ObjectKind::Constant)).value = Value::boolean(true); }
  SUBCASE("a product value missing a component") {
    const ObjectId c = add_constant(g, FuncId(0), Value::tuple({shapes::u64(1), shapes::u64(2)}));
    S::object(g, c).value->elems().pop_back();
  }
  SUBCASE("a product value with a mistyped component") {
    const ObjectId c = add_constant(g, FuncId(0), Value::tuple({shapes::u64(1), shapes::u64(2)}));
    S::object(g, c).value->elems()[1] = Value::boolean(false);
  }
  CHECK_REPORTS(g, IrErrorKind::ValueTyMismatch);
}

// ================= one-definition rule =================

TEST_CASE("parameters and constants are never written") {
  CategoryIr g = shapes::pipeline();
  const ObjectId x = g.func(FuncId(0)).input;
  const ObjectId k = nth_object(g, ObjectKind::Constant);
  SUBCASE("a Constant") { S::add_edge(g, x, k, Operation::simple(K::Neg)); }
  SUBCASE("the Parameter") { S::add_edge(g, k, x, Operation::simple(K::Neg)); }
  CHECK_REPORTS(g, IrErrorKind::RetSlotConflict);
}

TEST_CASE("a temporary has one definer") {
  CategoryIr g = shapes::pipeline();
  const ObjectId y = g.morphism(nth_edge(g, K::Mul)).target;
  S::add_edge(g, g.func(FuncId(0)).input, y, Operation::simple(K::Neg));
  CHECK_REPORTS(g, IrErrorKind::RetSlotConflict);
}

TEST_CASE("a temporary is defined") {
  CategoryIr g = shapes::pipeline();
  S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
  CHECK_REPORTS(g, IrErrorKind::RetSlotMissing);
}

TEST_CASE("a product's slots are each written once") {
  CategoryIr g = shapes::pipeline();  // (x, 2): both u64, so moving a slot stays well typed
  const ObjectId product = g.morphism(nth_edge(g, K::Mul)).source;
  S::morphism(g, slot_edge(g, product, 1)).op = Operation::pair(0, 2);
  CHECK_REPORTS(g, IrErrorKind::RetSlotConflict);
  CHECK_REPORTS(g, IrErrorKind::RetSlotMissing);
}

TEST_CASE("a Pair's arity is its product's arity and its slot lies within") {
  CategoryIr g = shapes::pipeline();
  const ObjectId product = g.morphism(nth_edge(g, K::Mul)).source;
  const MorphismId p = slot_edge(g, product, 1);
  SUBCASE("arity") {
    S::morphism(g, p).op = Operation::pair(1, 3);
    CHECK_REPORTS(g, IrErrorKind::ArityMismatch);
  }
  SUBCASE("slot") {
    S::morphism(g, p).op = Operation::pair(2, 2);
    CHECK_REPORTS(g, IrErrorKind::SlotOutOfRange);
  }
}

TEST_CASE("a Pair writes into a product") {
  CategoryIr g = shapes::pipeline();
  const ObjectId t = S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
  S::add_edge(g, g.func(FuncId(0)).input, t, Operation::pair(0, 2));
  CHECK_REPORTS(g, IrErrorKind::NotAProduct);
}

TEST_CASE("a product is defined by Pairs alone") {
  CategoryIr g = shapes::pipeline();
  const ObjectId product = g.morphism(nth_edge(g, K::Mul)).source;
  S::add_edge(g, g.func(FuncId(0)).input, product, Operation::simple(K::Neg));
  CHECK_REPORTS(g, IrErrorKind::RetMixedWriters);
}

TEST_CASE("a loop merge has one LoopEnter and at least one LoopBack") {
  CategoryIr g = shapes::count_up();
  const ObjectId merge = nth_object(g, ObjectKind::LoopMerge);
  SUBCASE("two LoopEnters") {
    S::add_edge(g, g.func(FuncId(0)).input, merge, Operation::simple(K::LoopEnter));
    CHECK_REPORTS(g, IrErrorKind::RetSlotConflict);
  }
  SUBCASE("no LoopEnter") {
    S::morphism(g, edge_into(g, merge, K::LoopEnter)).op = Operation::simple(K::Output);
    CHECK_REPORTS(g, IrErrorKind::RetSlotMissing);
  }
  SUBCASE("no LoopBack") {
    S::morphism(g, edge_into(g, merge, K::LoopBack)).op = Operation::simple(K::LoopExit);
    CHECK_REPORTS(g, IrErrorKind::LoopWithoutBack);
    CHECK_REPORTS(g, IrErrorKind::RetMixedWriters);
  }
}

TEST_CASE("LoopEnter and LoopBack target only loop merges, Output only a Return") {
  SUBCASE("LoopEnter into a Return") {
    CategoryIr g = shapes::fanout_tupled();
    S::morphism(g, nth_edge(g, K::Output)).op = Operation::simple(K::LoopEnter);
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
  SUBCASE("Output into a Temporary") {
    CategoryIr g = shapes::phi_abs();
    S::morphism(g, nth_edge(g, K::Neg)).op = Operation::simple(K::Output);
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
  SUBCASE("LoopBack into a Temporary") {
    CategoryIr g = shapes::count_up();
    const MorphismId back = nth_edge(g, K::LoopBack);
    const ObjectId t = S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
    S::add_edge(g, g.morphism(back).source, t, Operation::simple(K::LoopBack));
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
}

// ================= the Return object =================

TEST_CASE("a Return has at most one whole writer") {
  CategoryIr g = shapes::pipeline();
  S::add_edge(g, g.func(FuncId(0)).input, g.func(FuncId(0)).output, Operation::simple(K::Output));
  CHECK_REPORTS(g, IrErrorKind::RetSlotConflict);
}

TEST_CASE("a non-unit Return is written") {
  CategoryIr g = shapes::pipeline();
  const ObjectId t = S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
  S::retarget(g, edge_into(g, g.func(FuncId(0)).output, K::Mul), t);
  CHECK_REPORTS(g, IrErrorKind::RetSlotMissing);
}

TEST_CASE("whole and slot writers of a Return do not mix") {
  CategoryIr g = shapes::fanout_tupled();
  S::add_edge(g, g.func(FuncId(0)).input, g.func(FuncId(0)).output, Operation::pair(0, 2));
  CHECK_REPORTS(g, IrErrorKind::RetMixedWriters);
}

TEST_CASE("a Return's slots are each written once") {
  CategoryIr g = shapes::fanout_separate();
  S::morphism(g, slot_edge(g, g.func(FuncId(0)).output, 1)).op = Operation::pair(0, 2);
  CHECK_REPORTS(g, IrErrorKind::RetSlotConflict);
  CHECK_REPORTS(g, IrErrorKind::RetSlotMissing);
}

TEST_CASE("a Return writer has the Return's type") {
  SUBCASE("whole") {
    CategoryIr g = shapes::pipeline();
    S::morphism(g, edge_into(g, g.func(FuncId(0)).output, K::Mul)).op = Operation::simple(K::Output);
    CHECK_REPORTS(g, IrErrorKind::RetTypeMismatch);
  }
  SUBCASE("slot") {
    CategoryIr g = shapes::fanout_separate();
    const ObjectId b = S::add_object(g, FuncId(0), Ty::boolean(), ObjectKind::Temporary);
    S::retarget(g, slot_edge(g, g.func(FuncId(0)).output, 1), b);
    const ObjectId k = add_constant(g, FuncId(0), Value::boolean(true));
    S::add_edge(g, k, g.func(FuncId(0)).output, Operation::pair(1, 2));
    CHECK_REPORTS(g, IrErrorKind::RetTypeMismatch);
  }
}

TEST_CASE("slot writes need a product Return") {
  CategoryIr g = shapes::pipeline();
  const ObjectId t = S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
  S::retarget(g, edge_into(g, g.func(FuncId(0)).output, K::Mul), t);
  S::add_edge(g, g.func(FuncId(0)).input, g.func(FuncId(0)).output, Operation::pair(0, 2));
  CHECK_REPORTS(g, IrErrorKind::RetNotProduct);
}

TEST_CASE("a Return is never read") {
  CategoryIr g = shapes::pipeline();
  const ObjectId t = S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
  S::add_edge(g, g.func(FuncId(0)).output, t, Operation::simple(K::Neg));
  CHECK_REPORTS(g, IrErrorKind::ReturnAsOperand);
}

// ================= typing =================

TEST_CASE("every edge is typed by the typing table") {
  SUBCASE("a comparison into a u64") {
    CategoryIr g = shapes::pipeline();
    S::morphism(g, nth_edge(g, K::Add)).op = Operation::simple(K::Lt);
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
  SUBCASE("a cast of a tuple") {
    CategoryIr g = shapes::pipeline();
    S::morphism(g, nth_edge(g, K::Add)).op = Operation::simple(K::Cast);
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
  SUBCASE("a route without a bool guard") {
    CategoryIr g = shapes::count_up();
    S::object(g, g.morphism(nth_edge(g, K::LoopBack)).source).ty = Ty::tuple({Ty::u64(), Ty::u64()});
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
  SUBCASE("an unknown operation") {
    CategoryIr g = shapes::pipeline();
    S::morphism(g, nth_edge(g, K::Add)).op.kind = static_cast<OpKind>(200);
    CHECK_REPORTS(g, IrErrorKind::TypeMismatch);
  }
}

TEST_CASE("a projection reads a component that exists") {
  SUBCASE("index out of range") {
    CategoryIr g = shapes::add();
    S::morphism(g, nth_edge(g, K::Proj)).op = Operation::proj(5);
    CHECK_REPORTS(g, IrErrorKind::SlotOutOfRange);
  }
  SUBCASE("from a scalar") {
    CategoryIr g = shapes::phi_abs();
    S::morphism(g, nth_edge(g, K::Neg)).op = Operation::proj(0);
    CHECK_REPORTS(g, IrErrorKind::NotAProduct);
  }
}

TEST_CASE("a call names an existing function") {
  CategoryIr g = shapes::with_call();
  S::morphism(g, nth_edge(g, K::Call)).op = Operation::call(FuncId(99));
  CHECK_REPORTS(g, IrErrorKind::UnknownFunction);
}

TEST_CASE("a call matches its callee's signature") {
  CategoryIr g = shapes::with_call();
  S::object(g, g.func(FuncId(1)).input).ty = Ty::scalar(TyKind::I64);
  const auto vs = validate(g);
  INFO(describe(vs));
  const MorphismId call = nth_edge(g, K::Call);
  CHECK(std::any_of(vs.begin(), vs.end(),
                    [&](const IrViolation& v) { return v.kind == IrErrorKind::TypeMismatch && v.morphism == call; }));
}

// ================= calls =================

TEST_CASE("the call graph is acyclic") {
  SUBCASE("a function calls itself") {
    CategoryIr g = shapes::with_call();
    S::morphism(g, nth_edge(g, K::Call, 1)).op = Operation::call(FuncId(0));
    const auto vs = validate(g);
    INFO(describe(vs));
    REQUIRE(vs.size() == 1);
    CHECK(vs[0].kind == IrErrorKind::RecursiveCall);
  }
  SUBCASE("two functions call each other") {
    CategoryIr g = shapes::with_call();
    S::morphism(g, nth_edge(g, K::Add)).op = Operation::call(FuncId(0));
    CHECK_REPORTS(g, IrErrorKind::RecursiveCall);
  }
}

// ================= loops =================

TEST_CASE("a cycle is entered through exactly one merge") {
  SUBCASE("two headers") {
    // Swapped back edges join two side-by-side loops into one cycle whose two
    // merges are both entered from outside and both exit out of it.
    CategoryIr g = side_by_side_counters();
    const ObjectId a = named(g, "a"), b = named(g, "b");
    const MorphismId back_a = edge_into(g, a, K::LoopBack), back_b = edge_into(g, b, K::LoopBack);
    S::retarget(g, back_a, b);
    S::retarget(g, back_b, a);
    CHECK_REPORTS(g, IrErrorKind::IrreducibleLoop);
  }
  SUBCASE("no merge at all") {
    CategoryIr g = shapes::pipeline();
    const ObjectId first_product = g.morphism(nth_edge(g, K::Mul)).source;
    const ObjectId z = g.morphism(nth_edge(g, K::Add)).target;
    S::add_edge(g, z, first_product, Operation::pair(0, 2));
    CHECK_REPORTS(g, IrErrorKind::IrreducibleLoop);
  }
  SUBCASE("a cycle its back edges do not break") {
    CategoryIr g = shapes::count_up();
    const ObjectId merge = nth_object(g, ObjectKind::LoopMerge);
    const ObjectId next = g.morphism(slot_edge(g, g.morphism(nth_edge(g, K::LoopBack)).source, 0)).source;
    S::add_edge(g, next, merge, Operation::simple(K::Neg));
    CHECK_REPORTS(g, IrErrorKind::IrreducibleLoop);
  }
}

TEST_CASE("a LoopBack's route lies in its loop") {
  CategoryIr g = shapes::count_up();
  const ObjectId merge = nth_object(g, ObjectKind::LoopMerge);
  const ObjectId route = S::add_object(g, FuncId(0), Ty::tuple({Ty::u64(), Ty::boolean()}), ObjectKind::Temporary);
  S::add_edge(g, g.func(FuncId(0)).input, route, Operation::pair(0, 2));
  S::add_edge(g, add_constant(g, FuncId(0), Value::boolean(true)), route, Operation::pair(1, 2));
  S::add_edge(g, route, merge, Operation::simple(K::LoopBack));
  const auto vs = validate(g);
  INFO(describe(vs));
  REQUIRE(vs.size() == 1);
  CHECK(vs[0].kind == IrErrorKind::LoopBackOutsideScc);
}

TEST_CASE("a loop guard depends on the loop state") {
  CategoryIr g = shapes::count_up();
  const ObjectId route = g.morphism(nth_edge(g, K::LoopBack)).source;
  move_source(g, slot_edge(g, route, 1), add_constant(g, FuncId(0), Value::boolean(true)));
  CHECK_REPORTS(g, IrErrorKind::LoopGuardInvariant);
}

TEST_CASE("a loop exit uses the guard of exactly one loop") {
  SUBCASE("of none") {
    CategoryIr g = shapes::count_up();
    const ObjectId route = g.morphism(nth_edge(g, K::LoopExit)).source;
    move_source(g, slot_edge(g, route, 1), add_constant(g, FuncId(0), Value::boolean(false)));
    CHECK_REPORTS(g, IrErrorKind::LoopExitUnattributed);
  }
  SUBCASE("of two") {
    CategoryIr g = shapes::nested_loops();
    const ObjectId outer_route = g.morphism(edge_into(g, named(g, "outer"), K::LoopBack)).source;
    const ObjectId inner_route = g.morphism(edge_into(g, named(g, "inner"), K::LoopBack)).source;
    move_source(g, slot_edge(g, inner_route, 1), g.morphism(slot_edge(g, outer_route, 1)).source);
    CHECK_REPORTS(g, IrErrorKind::LoopExitUnattributed);
  }
}

TEST_CASE("a loop exit leaves its loop") {
  // The inner exit is moved onto the outer loop's guard; its target feeds the outer back edge.
  CategoryIr g = shapes::nested_loops();
  const ObjectId outer_route = g.morphism(edge_into(g, named(g, "outer"), K::LoopBack)).source;
  const ObjectId outer_guard = g.morphism(slot_edge(g, outer_route, 1)).source;
  const ObjectId inner_exit_route = g.morphism(edge_into(g, named(g, "s_out"), K::LoopExit)).source;
  move_source(g, slot_edge(g, inner_exit_route, 1), outer_guard);
  CHECK_REPORTS(g, IrErrorKind::LoopExitInsideScc);
}

TEST_CASE("every loop has an exit") {
  CategoryIr g = shapes::count_up();
  S::morphism(g, nth_edge(g, K::LoopExit)).op = Operation::proj(0);
  const auto vs = validate(g);
  INFO(describe(vs));
  REQUIRE(vs.size() == 1);
  CHECK(vs[0].kind == IrErrorKind::LoopWithoutExit);
}

// ================= determinism =================

TEST_CASE("validate reports the same violations in the same order every run") {
  CategoryIr g = shapes::nested_loops();
  S::set_entry(g, FuncId(3));
  S::add_object(g, FuncId(0), Ty::u64(), ObjectKind::Temporary);
  S::morphism(g, nth_edge(g, K::LoopExit)).op = Operation::proj(0);
  S::add_edge(g, g.func(FuncId(0)).output, named(g, "i"), Operation::simple(K::Neg));
  const auto first = validate(g);
  REQUIRE(first.size() >= 4);
  for (int run = 0; run < 3; ++run) {
    const auto again = validate(g);
    REQUIRE(again.size() == first.size());
    for (size_t i = 0; i < first.size(); ++i) {
      CHECK(again[i].kind == first[i].kind);
      CHECK(again[i].message == first[i].message);
      CHECK(again[i].object == first[i].object);
      CHECK(again[i].morphism == first[i].morphism);
    }
  }
}
