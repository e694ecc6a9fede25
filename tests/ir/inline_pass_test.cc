// inline_calls: every Call replaced by a copy of its callee's body, callees
// first, keeping only the entry. Expected values are derived by hand.
#include <doctest/doctest.h>

#include "example_kernel.h"
#include "ir/inline_pass.h"
#include "ir/interp.h"
#include "ir/loops.h"
#include "ir/mermaid.h"
#include "program_gen.h"
#include "pass_checks.h"
#include "shapes.h"

using namespace polydat::ir;
using namespace polydat::ir::testgen;
using K = OpKind;

namespace {
CategoryIr must_inline(const CategoryIr& g) { return must_pass(inline_calls, g, false); }

// tri(y) = sum of j for j < y = y(y-1)/2, a loop exiting straight into the
// Return: loop (j = y, s = 0) while j > 0 { s = s + (j - 1); j = j - 1 } yield s.
// Its state starts from y: see the next helper for why that matters.
FuncId add_tri(HandFn& f) {
  return f.callee("tri", Ty::u64(), Ty::u64(), [](HandFn& c) {
    const LoopHandle lh = c.begin(c.pack({c.in(), c.k(0)}), "js");
    const ObjectId m = c.merge(lh);
    const ObjectId j = c.proj(m, 0, Dest::fresh("j"));
    const ObjectId s = c.proj(m, 1, Dest::fresh("s"));
    const ObjectId cond = c.op(K::Gt, j, c.k(0));
    const ObjectId j1 = c.op(K::Sub, j, c.k(1));
    c.back(lh, c.pack({j1, c.op(K::Add, s, j1)}), cond);
    c.exit(lh, s, cond, Dest::ret());
    c.end(lh);
  });
}

// The same sum, the state starting from constants: loop (j = 0, s = 0) while j < y.
FuncId add_tri_from_constants(HandFn& f) {
  return f.callee("tri0", Ty::u64(), Ty::u64(), [](HandFn& c) {
    const LoopHandle lh = c.begin(c.pack({c.k(0), c.k(0)}), "js");
    const ObjectId m = c.merge(lh);
    const ObjectId j = c.proj(m, 0, Dest::fresh("j"));
    const ObjectId s = c.proj(m, 1, Dest::fresh("s"));
    const ObjectId cond = c.op(K::Lt, j, c.in());
    c.back(lh, c.pack({c.op(K::Add, j, c.k(1)), c.op(K::Add, s, j)}), cond);
    c.exit(lh, s, cond, Dest::ret());
    c.end(lh);
  });
}

// main(n) = sum of tri(i) for i < n = n(n-1)(n-2)/6, the call in the loop body.
CategoryIr sum_of_calls(FuncId (*add_callee)(HandFn&)) {
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId tri = add_callee(f);
  const LoopHandle lh = f.begin(f.pack({f.k(0), f.k(0)}), "is");
  const ObjectId m = f.merge(lh);
  const ObjectId i = f.proj(m, 0, Dest::fresh("i"));
  const ObjectId acc = f.proj(m, 1, Dest::fresh("acc"));
  const ObjectId cond = f.op(K::Lt, i, f.in());
  const ObjectId t = f.call(tri, i, Dest::fresh("t"));
  f.back(lh, f.pack({f.op(K::Add, i, f.k(1)), f.op(K::Add, acc, t)}), cond);
  f.exit(lh, acc, cond, Dest::ret());
  f.end(lh);
  return f.seal();
}
}  // namespace

TEST_CASE("inline pass: with_call leaves one function, no Call and the same results") {
  const CategoryIr g = shapes::with_call();  // twice(twice(x)), twice(y) = y + y
  REQUIRE(count_op(g, K::Call) == 2);
  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(c.funcs().size() == 1);
  CHECK(c.func(c.entry()).name == "with_call");
  CHECK(count_op(c, K::Call) == 0);
  CHECK(count_op(c, K::Add) == 2);  // one y + y per inlined call
  for (uint64_t x : {0, 1, 3, 1000}) CHECK(run_u64(c, x) == 4 * x);
}

TEST_CASE("inline pass: the example kernel keeps its hash, inlined") {
  const CategoryIr g = polydat::cli::build_example_kernel();
  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(c.funcs().size() == 1);
  CHECK(count_op(c, K::Call) == 0);
  CHECK(count_op(c, K::Rotl) == count_op(g, K::Rotl));
  CHECK(count_op(c, K::Mul) == count_op(g, K::Mul));
  const Ty& in = g.object(g.func(g.entry()).input).ty;
  for (const Value& x : sample_inputs(in)) CHECK(outcome_difference(g, c, x).empty());
}

TEST_CASE("inline pass: a call in a loop body, to a callee with its own loop, becomes a nested loop") {
  const CategoryIr g = sum_of_calls(add_tri);
  CHECK(run_u64(g, 5) == 10);
  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Call) == 0);
  CHECK(count_kind(c, ObjectKind::LoopMerge) == 2);
  const LoopNest nest = loop_nest(c, c.entry());
  REQUIRE(nest.loops.size() == 2);
  CHECK(nest.loops[0].parent == -1);
  CHECK(nest.loops[1].parent == 0);  // tri's loop now runs inside main's
  CHECK(c.object(nest.loops[1].merge).name == "js");
  for (uint64_t n : {0, 1, 2, 3, 5, 6, 10}) CHECK(run_u64(c, n) == n * (n - 1) * (n - 2) / 6);
}

TEST_CASE("inline pass: a callee with nested loops, called in a loop body, becomes three nested loops") {
  // nest(n) = sum over i < n of sum over j < i of j = C(n, 3), its outer loop
  // counting k = n down (i = n - k) so that every loop's state starts from a
  // value of its enclosing loop; main(x) = sum over m < x of nest(m) = C(x, 4).
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId nest = f.callee("nest", Ty::u64(), Ty::u64(), [](HandFn& c) {
    const ObjectId n = c.in();
    const LoopHandle outer = c.begin(c.pack({n, c.k(0)}), "kt");
    const ObjectId m1 = c.merge(outer);
    const ObjectId k = c.proj(m1, 0, Dest::fresh("k"));
    const ObjectId t = c.proj(m1, 1, Dest::fresh("t"));
    const ObjectId c1 = c.op(K::Gt, k, c.k(0));
    const ObjectId i = c.op(K::Sub, n, k, Dest::fresh("i"));
    const LoopHandle inner = c.begin(c.pack({c.k(0), t}), "js");
    const ObjectId m2 = c.merge(inner);
    const ObjectId j = c.proj(m2, 0, Dest::fresh("j"));
    const ObjectId s = c.proj(m2, 1, Dest::fresh("s"));
    const ObjectId c2 = c.op(K::Lt, j, i);
    c.back(inner, c.pack({c.op(K::Add, j, c.k(1)), c.op(K::Add, s, j)}), c2);
    const ObjectId s_out = c.exit(inner, s, c2, Dest::fresh("s_out"));
    c.end(inner);
    c.back(outer, c.pack({c.op(K::Sub, k, c.k(1)), s_out}), c1);
    c.exit(outer, t, c1, Dest::ret());
    c.end(outer);
  });
  const LoopHandle lh = f.begin(f.pack({f.in(), f.k(0)}), "ma");
  const ObjectId st = f.merge(lh);
  const ObjectId left = f.proj(st, 0, Dest::fresh("left"));
  const ObjectId acc = f.proj(st, 1, Dest::fresh("acc"));
  const ObjectId cond = f.op(K::Gt, left, f.k(0));
  const ObjectId m = f.op(K::Sub, f.in(), left, Dest::fresh("m"));  // m = 0, 1, ..., x - 1
  f.back(lh, f.pack({f.op(K::Sub, left, f.k(1)), f.op(K::Add, acc, f.call(nest, m))}), cond);
  f.exit(lh, acc, cond, Dest::ret());
  f.end(lh);
  const CategoryIr g = f.seal();
  auto choose4 = [](uint64_t x) { return x < 4 ? 0 : x * (x - 1) * (x - 2) * (x - 3) / 24; };
  for (uint64_t x : {0, 4, 6}) REQUIRE(run_u64(g, x) == choose4(x));

  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Call) == 0);
  const LoopNest loops = loop_nest(c, c.entry());
  REQUIRE(loops.loops.size() == 3);
  CHECK(loops.loops[0].parent == -1);
  CHECK(loops.loops[1].parent == 0);
  CHECK(loops.loops[2].parent == 1);
  CHECK(c.object(loops.loops[0].merge).name == "ma");
  CHECK(c.object(loops.loops[1].merge).name == "kt");
  CHECK(c.object(loops.loops[2].merge).name == "js");
  for (uint64_t x : {0, 1, 4, 5, 6, 9}) CHECK(run_u64(c, x) == choose4(x));
}

// loop_nest (ir/loops.cc) takes as a component's header every merge whose
// initial value comes from outside the component, so a nested loop whose
// state starts from values invariant in the enclosing loop makes two headers
// and seal refuses the graph as IrreducibleLoop -- whether a client builds it
// by hand or inlining makes it. Until that is fixed, inlining such a call
// must fail with exactly the builder's refusal, never produce a wrong graph;
// once it is fixed, the inlined graph must evaluate right.
TEST_CASE("inline pass: a callee whose loop starts from constants, called in a loop body") {
  const CategoryIr g = sum_of_calls(add_tri_from_constants);
  CHECK(run_u64(g, 5) == 10);
  auto c = inline_calls(g);
  if (!c.ok()) {
    CHECK(c.error().kind == IrErrorKind::IrreducibleLoop);
    // The same nest written by hand is refused the same way.
    HandFn f("main", Ty::u64(), Ty::u64());
    const LoopHandle outer = f.begin(f.pack({f.k(0), f.k(0)}), "is");
    const ObjectId m = f.merge(outer);
    const ObjectId i = f.proj(m, 0), acc = f.proj(m, 1);
    const ObjectId c1 = f.op(K::Lt, i, f.in());
    const LoopHandle inner = f.begin(f.k(0), "j");
    const ObjectId j = f.merge(inner);
    const ObjectId c2 = f.op(K::Lt, j, i);
    f.back(inner, f.op(K::Add, j, f.k(1)), c2);
    const ObjectId jn = f.exit(inner, j, c2);
    f.end(inner);
    f.back(outer, f.pack({f.op(K::Add, i, f.k(1)), f.op(K::Add, acc, jn)}), c1);
    f.exit(outer, acc, c1, Dest::ret());
    f.end(outer);
    shapes::must(f.fb->finish());
    f.fb.reset();
    auto sealed = std::move(f.b).seal(f.id);
    REQUIRE_FALSE(sealed.ok());
    CHECK(sealed.error().kind == IrErrorKind::IrreducibleLoop);
    return;
  }
  CHECK(violations_text(*c).empty());
  CHECK(count_op(*c, K::Call) == 0);
  for (uint64_t n : {0, 1, 2, 5, 10}) CHECK(run_u64(*c, n) == n * (n - 1) * (n - 2) / 6);
}

TEST_CASE("inline pass: a chain of calls flattens callee first") {
  // f3(x) = x * 3; f2(x) = f3(x) + 1; f1(x) = f2(f2(x)) = 9x + 4; main(x) = f1(x).
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId f3 = f.callee("f3", Ty::u64(), Ty::u64(), [](HandFn& c) { c.op(K::Mul, c.in(), c.k(3), Dest::ret()); });
  const FuncId f2 = f.callee("f2", Ty::u64(), Ty::u64(),
                             [&](HandFn& c) { c.op(K::Add, c.call(f3, c.in()), c.k(1), Dest::ret()); });
  const FuncId f1 = f.callee("f1", Ty::u64(), Ty::u64(), [&](HandFn& c) { c.call(f2, c.call(f2, c.in()), Dest::ret()); });
  f.call(f1, f.in(), Dest::ret());
  const CategoryIr g = f.seal();
  const std::vector<FuncId> order = callees_first(g, g.entry());
  REQUIRE(order.size() == 4);
  CHECK(order[0] == f3);
  CHECK(order[1] == f2);
  CHECK(order[2] == f1);
  CHECK(order[3] == g.entry());

  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(c.funcs().size() == 1);
  CHECK(count_op(c, K::Call) == 0);
  CHECK(count_op(c, K::Mul) == 2);
  CHECK(count_op(c, K::Add) == 2);
  for (uint64_t x : {0, 1, 7}) CHECK(run_u64(c, x) == 9 * x + 4);
}

TEST_CASE("inline pass: a callee that writes its struct Return slot by slot") {
  const Ty halves = Ty::structure("halves", {{"lo", Ty::u64()}, {"hi", Ty::u64()}});
  auto split_body = [](HandFn& c) {
    c.op(K::And, c.in(), c.k(255), Dest::ret_slot(0));
    c.op(K::Shr, c.in(), c.k(8), Dest::ret_slot(1));
  };
  SUBCASE("its result read by the caller: repacked with pack_struct") {
    HandFn f("main", Ty::u64(), Ty::u64());
    const FuncId split = f.callee("split", Ty::u64(), halves, split_body);
    const ObjectId s = f.call(split, f.in(), Dest::fresh("s"));
    f.op(K::Add, f.proj(s, 0), f.proj(s, 1), Dest::ret());
    const CategoryIr g = f.seal();
    const CategoryIr c = must_inline(g);
    CHECK(violations_text(c).empty());
    CHECK(count_op(c, K::Call) == 0);
    bool repacked = false;  // a "s" object of type halves built by two Pair edges
    for (const Object& o : c.objects())
      if (o.name == "s" && o.ty == halves && c.in_edges(o.id).size() == 2 &&
          c.morphism(c.in_edges(o.id)[0]).op.kind == K::Pair)
        repacked = true;
    CHECK(repacked);
    for (uint64_t x : {0, 255, 256, 0x1234}) CHECK(run_u64(c, x) == (x & 255) + (x >> 8));
  }
  SUBCASE("its result is the caller's Return: written slot by slot") {
    HandFn f("main", Ty::u64(), halves);
    const FuncId split = f.callee("split", Ty::u64(), halves, split_body);
    f.call(split, f.in(), Dest::ret());
    const CategoryIr g = f.seal();
    const CategoryIr c = must_inline(g);
    CHECK(violations_text(c).empty());
    CHECK(count_op(c, K::Call) == 0);
    CHECK(c.in_edges(c.func(c.entry()).output).size() == 2);
    for (uint64_t x : {0, 0x1234})
      CHECK(*evaluate(c, c.entry(), shapes::u64(x)) == Value::structure(halves, {shapes::u64(x & 255), shapes::u64(x >> 8)}));
  }
}

TEST_CASE("inline pass: a volatile parameter and a volatile call result stay volatile") {
  // ident(y) = y, with y volatile; main(x) = v + 1 where v = ident(5), volatile.
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId ident = f.callee("ident", Ty::u64(), Ty::u64(), [](HandFn& c) {
    c.set_volatile(c.in());
    c.out(c.in());
  });
  const ObjectId v = f.call(ident, f.k(5), Dest::fresh("v"));
  f.set_volatile(v);
  f.op(K::Add, v, f.k(1), Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Call) == 0);
  size_t volatiles = 0;
  for (const Object& o : c.objects()) {
    volatiles += o.is_volatile;
    if (o.kind == ObjectKind::Constant) CHECK_FALSE(o.is_volatile);  // the flag never lands on the shared 5
  }
  CHECK(volatiles == 2);  // the parameter's stand-in and v's
  CHECK(run_u64(c, 0) == 6);
}

TEST_CASE("inline pass: a callee returning unit becomes a unit constant") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId noop = f.callee("noop", Ty::u64(), Ty::unit(), [](HandFn& c) { c.op(K::Add, c.in(), c.k(1)); });
  f.call(noop, f.in(), Dest::fresh("nothing"));
  f.op(K::Mul, f.in(), f.k(2), Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_inline(g);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Call) == 0);
  for (const Object& o : c.objects())
    if (o.name == "nothing") CHECK((o.kind == ObjectKind::Constant && o.ty.is_unit()));
  CHECK(run_u64(c, 21) == 42);
}

TEST_CASE("inline pass: every shape validates, evaluates the same and inlines deterministically") {
  std::vector<std::pair<std::string, CategoryIr>> graphs;
  for (const shapes::Named& s : shapes::all()) graphs.emplace_back(s.name, s.build());
  graphs.emplace_back("example_kernel", polydat::cli::build_example_kernel());
  for (const auto& [name, g] : graphs) {
    CAPTURE(name);
    const CategoryIr c = must_inline(g);
    CHECK(violations_text(c).empty());
    CHECK(c.funcs().size() == 1);
    CHECK(count_op(c, K::Call) == 0);
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    for (const Value& x : sample_inputs(in)) CHECK_MESSAGE(outcome_difference(g, c, x).empty(), outcome_difference(g, c, x));
    CHECK(to_mermaid(must_inline(g)) == to_mermaid(c));
  }
}
