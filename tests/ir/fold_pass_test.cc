// fold_constants: operations on constants become constants, a Phi with a
// constant guard its branch, a Proj of a known product its component, a
// product of constants a constant; never a volatile object, a Call, the loop
// machinery or anything that depends on a loop merge.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "example_kernel.h"
#include "ir/dce_pass.h"
#include "ir/fold_pass.h"
#include "ir/interp.h"
#include "ir/mermaid.h"
#include "ir/typing.h"
#include "program_gen.h"
#include "pass_checks.h"
#include "shapes.h"

using namespace polydat::ir;
using namespace polydat::ir::testgen;
using K = OpKind;

namespace {
CategoryIr must_fold(const CategoryIr& g) { return must_pass(fold_constants, g); }

bool has_constant(const CategoryIr& g, const Value& v) {
  for (const Object& o : g.objects())
    if (o.kind == ObjectKind::Constant && *o.value == v && o.value->bits() == v.bits()) return true;
  return false;
}

// The object that writes the entry's Return whole (its one in-edge's source).
const Object& return_writer(const CategoryIr& g) {
  const ObjectId ret = g.func(g.entry()).output;
  REQUIRE(g.in_edges(ret).size() == 1);
  return g.object(g.morphism(g.in_edges(ret)[0]).source);
}

// Values worth folding at each scalar type: zeros, ones, extremes, NaN.
std::vector<Value> edge_values(const Ty& t) {
  const TyKind k = t.kind();
  if (t.is_bool()) return {Value::boolean(false), Value::boolean(true)};
  if (k == TyKind::F32)
    return {Value::f32(0.0f), Value::f32(-0.0f), Value::f32(1.5f), Value::f32(-7.25f),
            Value::f32(std::numeric_limits<float>::quiet_NaN()), Value::f32(std::numeric_limits<float>::infinity())};
  if (k == TyKind::F64)
    return {Value::f64(0.0), Value::f64(-0.0), Value::f64(1.5), Value::f64(-7.25),
            Value::f64(std::numeric_limits<double>::quiet_NaN()), Value::f64(-std::numeric_limits<double>::infinity())};
  if (t.is_str()) return {Value::str(""), Value::str("ab")};
  const uint64_t top = uint64_t{1} << (t.bits() - 1);
  return {Value::integer(k, 0), Value::integer(k, 1), Value::integer(k, 7), Value::integer(k, top),
          Value::integer(k, ~uint64_t{0}), Value::integer(k, 100)};
}

const std::vector<Ty>& scalars() {
  static const std::vector<Ty> tys = {
      Ty::boolean(), Ty::scalar(TyKind::U8),  Ty::scalar(TyKind::U16), Ty::scalar(TyKind::U32), Ty::u64(),
      Ty::scalar(TyKind::I8), Ty::scalar(TyKind::I16), Ty::scalar(TyKind::I32), Ty::scalar(TyKind::I64),
      Ty::scalar(TyKind::F32), Ty::scalar(TyKind::F64), Ty::str()};
  return tys;
}

// f(_: u64) = <op> of constants; the Return written by the operation itself.
CategoryIr constant_op(const std::function<ObjectId(HandFn&)>& body, const Ty& result) {
  HandFn f("main", Ty::u64(), result);
  body(f);
  return f.seal();
}

// Folds g and checks the Return is now written from a constant equal (bit for
// bit, NaN payloads aside) to what the interpreter computes on the original.
void check_folds_like_interpreter(const CategoryIr& g) {
  const CategoryIr c = must_fold(g);
  const Object& w = return_writer(c);
  CHECK(w.kind == ObjectKind::Constant);
  const auto want = evaluate(g, g.entry(), shapes::u64(0));
  REQUIRE(want.ok());
  CHECK_MESSAGE(outcome_difference(g, c, shapes::u64(0)).empty(), outcome_difference(g, c, shapes::u64(0)));
  if (w.value && !(w.ty.is_float() && std::isnan(w.ty.kind() == TyKind::F32 ? w.value->as_f32() : w.value->as_f64())))
    CHECK(w.value->bits() == want->bits());
}
}  // namespace

TEST_CASE("fold pass: (2 * 3) + x becomes 6 + x") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const ObjectId six = f.op(K::Mul, f.k(2), f.k(3));
  f.op(K::Add, six, f.in(), Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_fold(g);
  CHECK(count_op(c, K::Mul) == 0);
  CHECK(count_op(c, K::Add) == 1);
  CHECK(count_kind(c, ObjectKind::Constant) == 1);  // 6 alone: 2 and 3 are no longer read
  CHECK(has_constant(c, shapes::u64(6)));
  // The Add reads (6, x).
  const ObjectId ret = c.func(c.entry()).output;
  const ObjectId product = c.morphism(c.in_edges(ret)[0]).source;
  for (MorphismId m : c.in_edges(product)) {
    const Object& part = c.object(c.morphism(m).source);
    if (c.morphism(m).op.slot() == 0) CHECK((part.kind == ObjectKind::Constant && part.value->as_u64() == 6));
    if (c.morphism(m).op.slot() == 1) CHECK(part.kind == ObjectKind::Parameter);
  }
  for (uint64_t x : {0, 1, 94}) CHECK(run_u64(c, x) == x + 6);
}

TEST_CASE("fold pass: a volatile operand or a volatile result is not folded") {
  SUBCASE("a volatile constant is not read as a constant") {
    HandFn f("main", Ty::u64(), Ty::u64());
    const ObjectId three = f.k(3);
    f.set_volatile(three);
    f.op(K::Add, f.op(K::Mul, f.k(2), three), f.in(), Dest::ret());
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Mul) == 1);
    CHECK(count_op(c, K::Pair) == 4);  // (2, 3) and (2 * 3, x) are still built
    for (const Object& o : c.objects())
      if (o.kind == ObjectKind::Constant && o.value->as_u64() == 3) CHECK(o.is_volatile);
    CHECK(run_u64(c, 4) == 10);
  }
  SUBCASE("a volatile operation on constants is not folded, nor what reads it") {
    HandFn f("main", Ty::u64(), Ty::u64());
    const ObjectId six = f.op(K::Mul, f.k(2), f.k(3), Dest::fresh("six"));
    f.set_volatile(six);
    f.op(K::Add, f.op(K::Add, six, f.k(1)), f.in(), Dest::ret());
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Mul) == 1);
    CHECK(count_op(c, K::Add) == 2);  // 6 + 1 reads a volatile: it stays
    CHECK_FALSE(has_constant(c, shapes::u64(6)));
    CHECK_FALSE(has_constant(c, shapes::u64(7)));
    CHECK(run_u64(c, 4) == 11);
  }
}

TEST_CASE("fold pass: a Phi with a constant guard becomes its chosen branch") {
  for (bool guard : {true, false}) {
    CAPTURE(guard);
    HandFn f("main", Ty::u64(), Ty::u64());
    const ObjectId t = f.op(K::Add, f.in(), f.k(1));
    const ObjectId e = f.op(K::Mul, f.in(), f.k(2));
    const ObjectId chosen = f.phi(t, e, f.konst(Value::boolean(guard)));
    f.op(K::Sub, chosen, f.k(3), Dest::ret());
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Phi) == 0);
    for (uint64_t x : {5, 10}) CHECK(run_u64(c, x) == (guard ? x + 1 : x * 2) - 3);
  }
  SUBCASE("all three constant: the Phi is the chosen constant") {
    const CategoryIr g = constant_op(
        [](HandFn& f) { return f.phi(f.k(4), f.k(5), f.op(K::Lt, f.k(9), f.k(2)), Dest::ret()); }, Ty::u64());
    const CategoryIr c = must_fold(g);
    CHECK(count_op(c, K::Phi) == 0);
    CHECK(count_op(c, K::Lt) == 0);
    CHECK(return_writer(c).value->as_u64() == 5);
  }
  SUBCASE("a guard that is not constant keeps the Phi") {
    const CategoryIr c = must_fold(shapes::phi_abs());
    CHECK(count_op(c, K::Phi) == 1);
  }
}

TEST_CASE("fold pass: Proj of a constant product and of a product built by Pairs") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const ObjectId eight = f.proj(f.pack({f.k(7), f.k(8)}), 1);  // (7, 8).1 = 8
  const ObjectId x = f.proj(f.pack({f.in(), f.k(1)}), 0);       // (x, 1).0 = x
  f.op(K::Add, x, eight, Dest::ret());
  const CategoryIr c = must_fold(f.seal());
  CHECK(count_op(c, K::Proj) == 0);
  CHECK(has_constant(c, shapes::u64(8)));
  for (uint64_t v : {0, 5}) CHECK(run_u64(c, v) == v + 8);
}

TEST_CASE("fold pass: a product of constants becomes a constant product") {
  const Ty pair = Ty::tuple({Ty::u64(), Ty::boolean()});
  HandFn f("main", Ty::u64(), pair);
  f.out(f.pack({f.op(K::Add, f.k(40), f.k(2)), f.op(K::Eq, f.k(1), f.k(1))}));
  const CategoryIr g = f.seal();
  const CategoryIr c = must_fold(g);
  CHECK(count_op(c, K::Pair) == 0);
  CHECK(count_op(c, K::Add) == 0);
  CHECK(count_kind(c, ObjectKind::Constant) == 1);
  CHECK(return_writer(c).kind == ObjectKind::Constant);
  CHECK(*evaluate(c, c.entry(), shapes::u64(0)) == Value::tuple({shapes::u64(42), Value::boolean(true)}));
  SUBCASE("a struct too; the Return written slot by slot is left so") {
    const Ty s = Ty::structure("two", {{"a", Ty::u64()}, {"b", Ty::u64()}});
    HandFn h("main", Ty::u64(), Ty::u64());
    const ObjectId sv = shapes::must(h.fb->pack_struct(s, std::vector<ObjectId>{h.k(1), h.k(2)}, Dest::fresh(), h.next()));
    h.op(K::Add, h.proj(sv, 0), h.proj(sv, 1), Dest::ret());
    const CategoryIr c2 = must_fold(h.seal());
    CHECK(count_op(c2, K::Add) == 0);
    CHECK(return_writer(c2).value->as_u64() == 3);
    const CategoryIr c3 = must_fold(shapes::fanout_separate());
    CHECK(c3.in_edges(c3.func(c3.entry()).output).size() == 2);
  }
}

TEST_CASE("fold pass: every operation on constants folds to what the interpreter computes") {
  size_t graphs = 0;
  for (const OpTyping& row : typing_table()) {
    if (row.form != Form::Binary) continue;
    for (const Ty& l : scalars()) {
      if (!admits(row.first, l)) continue;
      for (const Ty& r : scalars()) {
        if (!admits(row.second, r) || (row.same && !(r == l))) continue;
        if (!row.same && !(r == Ty::u64() || r == Ty::scalar(TyKind::U8)) && row.op != K::FormatDec) continue;
        const auto result = infer_target(row.op, Ty::tuple({l, r}));
        REQUIRE(result.has_value());
        for (const Value& a : edge_values(l))
          for (const Value& b : edge_values(r)) {
            if (row.op == K::FormatDec && b.bits() > 300) continue;  // padding is capped; keep it short
            CAPTURE(op_name(row.op));
            CAPTURE(render(a));
            CAPTURE(render(b));
            check_folds_like_interpreter(constant_op(
                [&](HandFn& f) { return f.op(row.op, f.konst(a), f.konst(b), Dest::ret()); }, *result));
            ++graphs;
          }
      }
    }
  }
  for (const OpTyping& row : typing_table()) {
    if (row.form != Form::Unary) continue;
    for (const Ty& t : scalars()) {
      if (!admits(row.first, t) || t.is_str()) continue;
      for (const Value& a : edge_values(t)) {
        CAPTURE(op_name(row.op));
        CAPTURE(render(a));
        if (row.op == K::Cast) {
          for (const Ty& to : scalars()) {
            if (to == t || to.is_str()) continue;
            check_folds_like_interpreter(constant_op(
                [&](HandFn& f) { return shapes::must(f.fb->cast(f.konst(a), to, Dest::ret(), f.next())); }, to));
            ++graphs;
          }
          continue;
        }
        check_folds_like_interpreter(
            constant_op([&](HandFn& f) { return f.un(row.op, f.konst(a), Dest::ret()); }, *infer_target(row.op, t)));
        ++graphs;
      }
    }
  }
  CHECK(graphs > 1000);
}

TEST_CASE("fold pass: nothing that depends on a loop merge is folded; loop guards stay") {
  SUBCASE("sum_to_n: only the initial state folds") {
    const CategoryIr g = shapes::sum_to_n();
    const CategoryIr c = must_fold(g);
    CHECK(count_kind(c, ObjectKind::LoopMerge) == 1);
    CHECK(count_op(c, K::Le) == 1);
    CHECK(count_op(c, K::Add) == 2);
    CHECK(has_constant(c, Value::tuple({shapes::u64(1), shapes::u64(0)})));
    for (const Morphism& m : c.morphisms())
      if (m.op.kind == K::LoopEnter) CHECK(c.object(m.source).kind == ObjectKind::Constant);
    for (uint64_t n : {0, 1, 10}) CHECK(run_u64(c, n) == n * (n + 1) / 2);
  }
  SUBCASE("a guard that a fold would make invariant is left as it is") {
    // loop (i = 0) while (i < n, true).0  -- (g, true).0 would fold to g, and
    // Phi(i < n, i < n, true) to i < n: both still depend on i, but inside a
    // loop nothing is folded, so the guard objects are kept as they are.
    HandFn f("main", Ty::u64(), Ty::u64());
    const LoopHandle lh = f.begin(f.k(0), "i");
    const ObjectId i = f.merge(lh);
    const ObjectId lt = f.op(K::Lt, i, f.in());
    const ObjectId through = f.proj(f.pack({lt, f.konst(Value::boolean(true))}), 0);
    const ObjectId guard = f.phi(through, lt, f.konst(Value::boolean(true)));
    f.back(lh, f.op(K::Add, i, f.k(1)), guard);
    f.exit(lh, i, guard, Dest::ret());
    f.end(lh);
    const CategoryIr g = f.seal();
    const CategoryIr c = must_fold(g);
    CHECK(count_op(c, K::Phi) == 1);
    CHECK(count_op(c, K::Proj) == 1);
    for (uint64_t n : {0, 4}) CHECK(run_u64(c, n) == n);
  }
  SUBCASE("a guard whose value is a constant is not made that constant") {
    // loop (i = 0) while (false, i).0 { i = i + 1 } yield i: the guard reads
    // the state, so the loop seals; folded to `false` it would not
    // (LoopGuardInvariant) -- fold must leave it.
    HandFn f("main", Ty::u64(), Ty::u64());
    const LoopHandle lh = f.begin(f.k(0), "i");
    const ObjectId i = f.merge(lh);
    const ObjectId guard = f.proj(f.pack({f.konst(Value::boolean(false)), i}), 0);
    f.back(lh, f.op(K::Add, i, f.k(1)), guard);
    f.exit(lh, i, guard, Dest::ret());
    f.end(lh);
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Proj) == 1);
    CHECK(run_u64(c, 9) == 0);
  }
  SUBCASE("after a loop: what reads its result is not folded either") {
    HandFn f("main", Ty::u64(), Ty::u64());
    const LoopHandle lh = f.begin(f.k(0), "i");
    const ObjectId i = f.merge(lh);
    const ObjectId cond = f.op(K::Lt, i, f.in());
    f.back(lh, f.op(K::Add, i, f.k(1)), cond);
    const ObjectId out = f.exit(lh, i, cond);
    f.end(lh);
    f.op(K::Add, f.proj(f.pack({out, f.k(5)}), 1), f.op(K::Mul, f.k(2), f.k(3)), Dest::ret());
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Mul) == 0);   // 2 * 3 does not depend on the loop
    CHECK(count_op(c, K::Proj) == 1);  // (out, 5).1 does
    CHECK(run_u64(c, 3) == 11);
  }
}

TEST_CASE("fold pass: (b as T) as bool of a bool b is b, also inside a loop") {
  // A comparison yields the u64 1 or 0; a bool context wants the comparison back.
  auto cast = [](HandFn& f, ObjectId x, const Ty& to, Dest d = Dest::fresh()) {
    return f.fb->cast(x, to, d, f.next()).value();
  };
  for (TyKind wide : {TyKind::U64, TyKind::U8, TyKind::I32}) {
    CAPTURE(std::string(scalar_name(wide)));
    HandFn f("main", Ty::u64(), Ty::boolean());
    const ObjectId lt = f.op(K::Lt, f.in(), f.k(10));
    cast(f, cast(f, lt, Ty::scalar(wide)), Ty::boolean(), Dest::ret());
    const CategoryIr g = f.seal();
    const CategoryIr c = must_pass(eliminate_dead_code, must_fold(g));  // the widening is left unread
    CHECK(count_op(c, K::Cast) == 0);
    CHECK(count_op(c, K::Lt) == 1);
    for (uint64_t x : {0, 9, 10, 11}) CHECK_MESSAGE(outcome_difference(g, c, shapes::u64(x)).empty(), x);
  }
  SUBCASE("an integer that is not a widened bool keeps both casts") {
    HandFn f("main", Ty::u64(), Ty::boolean());
    cast(f, cast(f, f.in(), Ty::scalar(TyKind::U8)), Ty::boolean(), Dest::ret());
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Cast) == 2);
  }
  SUBCASE("a volatile widening is kept") {
    HandFn f("main", Ty::u64(), Ty::boolean());
    const ObjectId wide = cast(f, f.op(K::Lt, f.in(), f.k(10)), Ty::u64());
    f.set_volatile(wide);
    cast(f, wide, Ty::boolean(), Dest::ret());
    const CategoryIr c = must_fold(f.seal());
    CHECK(count_op(c, K::Cast) == 2);
  }
  SUBCASE("a loop guard made of (i < n) as u64 as bool becomes i < n") {
    HandFn f("main", Ty::u64(), Ty::u64());
    const LoopHandle lh = f.begin(f.k(0), "i");
    const ObjectId i = f.merge(lh);
    const ObjectId guard = cast(f, cast(f, f.op(K::Lt, i, f.in()), Ty::u64()), Ty::boolean());
    f.back(lh, f.op(K::Add, i, f.k(1)), guard);
    f.exit(lh, i, guard, Dest::ret());
    f.end(lh);
    const CategoryIr g = f.seal();
    const CategoryIr c = must_pass(eliminate_dead_code, must_fold(g));
    CHECK(count_op(c, K::Cast) == 0);
    CHECK(violations_text(c).empty());
    for (uint64_t n : {0, 1, 7}) CHECK(run_u64(c, n) == n);
  }
}

TEST_CASE("fold pass: a Call is never folded, even on a constant") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId twice = f.callee("twice", Ty::u64(), Ty::u64(), [](HandFn& c) { c.op(K::Add, c.in(), c.in(), Dest::ret()); });
  f.op(K::Add, f.call(twice, f.k(5)), f.in(), Dest::ret());
  const CategoryIr c = must_fold(f.seal());
  CHECK(count_op(c, K::Call) == 1);
  CHECK(run_u64(c, 1) == 11);
}

TEST_CASE("fold pass: every shape validates, evaluates the same and folds deterministically") {
  std::vector<std::pair<std::string, CategoryIr>> graphs;
  for (const shapes::Named& s : shapes::all()) graphs.emplace_back(s.name, s.build());
  graphs.emplace_back("example_kernel", polydat::cli::build_example_kernel());
  for (const auto& [name, g] : graphs) {
    CAPTURE(name);
    const CategoryIr c = must_fold(g);
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    for (const Value& x : sample_inputs(in)) CHECK_MESSAGE(outcome_difference(g, c, x).empty(), outcome_difference(g, c, x));
    CHECK(to_mermaid(must_fold(g)) == to_mermaid(c));
  }
}
