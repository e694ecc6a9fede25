// eliminate_common_subexpressions: one object per (operation, operands,
// type), one per constant (type and bits); never a volatile object, a
// parameter, a loop merge, route or exit, and never one loop guard in place
// of another.
#include <doctest/doctest.h>

#include <limits>

#include "example_kernel.h"
#include "ir/cse_pass.h"
#include "ir/graph_copier.h"
#include "ir/interp.h"
#include "ir/mermaid.h"
#include "program_gen.h"
#include "pass_checks.h"
#include "shapes.h"

using namespace polydat::ir;
using namespace polydat::ir::testgen;
using K = OpKind;

namespace {
CategoryIr must_cse(const CategoryIr& g) { return must_pass(eliminate_common_subexpressions, g); }

}  // namespace

TEST_CASE("cse pass: (x + 1) * (x + 1) computes x + 1 once") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const ObjectId a = f.op(K::Add, f.in(), f.k(1));
  const ObjectId b = f.op(K::Add, f.in(), f.k(1));
  f.op(K::Mul, a, b, Dest::ret());
  const CategoryIr g = f.seal();
  REQUIRE(count_op(g, K::Add) == 2);
  const CategoryIr c = must_cse(g);
  CHECK(count_op(c, K::Add) == 1);
  CHECK(count_kind(c, ObjectKind::Constant) == 1);
  CHECK(count_op(c, K::Pair) == 4);  // (x, 1) once, and (x + 1, x + 1)
  // The Mul reads one object in both slots.
  const ObjectId product = c.morphism(c.in_edges(c.func(c.entry()).output)[0]).source;
  REQUIRE(c.in_edges(product).size() == 2);
  CHECK(c.morphism(c.in_edges(product)[0]).source == c.morphism(c.in_edges(product)[1]).source);
  for (uint64_t x : {0, 2, 9}) CHECK(run_u64(c, x) == (x + 1) * (x + 1));
}

TEST_CASE("cse pass: equal constants are one object: same type and the same bits") {
  const Ty out = Ty::tuple({Ty::u64(), Ty::u64(), Ty::scalar(TyKind::U32), Ty::scalar(TyKind::F64),
                            Ty::scalar(TyKind::F64), Ty::scalar(TyKind::F64)});
  HandFn f("main", Ty::u64(), out);
  f.out(f.pack({f.k(5), f.k(5), f.konst(Value::integer(TyKind::U32, 5)), f.konst(Value::f64(0.0)),
                f.konst(Value::f64(-0.0)), f.konst(Value::f64(0.0))}));
  const CategoryIr g = f.seal();
  const CategoryIr c = must_cse(g);
  CHECK(count_kind(c, ObjectKind::Constant) == 4);  // u64 5, u32 5, 0.0, -0.0
  CHECK(outcome_difference(g, c, shapes::u64(0)).empty());
  const Value r = *evaluate(c, c.entry(), shapes::u64(0));
  CHECK(r.elems()[3].bits() == Value::f64(0.0).bits());
  CHECK(r.elems()[4].bits() == Value::f64(-0.0).bits());
}

TEST_CASE("cse pass: volatile objects are not merged") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const ObjectId one = f.k(1);
  const ObjectId one_v = f.k(1);
  f.set_volatile(one_v);
  const ObjectId a = f.op(K::Add, f.in(), one);
  f.set_volatile(a);
  const ObjectId b = f.op(K::Add, f.in(), one);
  const ObjectId c1 = f.op(K::Add, f.in(), one_v);
  f.op(K::Add, f.op(K::Add, a, b), c1, Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_cse(g);
  CHECK(count_kind(c, ObjectKind::Constant) == 2);  // the volatile 1 stays apart
  CHECK(count_op(c, K::Add) == 5);                  // a (volatile), b, c1, and the two sums
  for (uint64_t x : {0, 3}) CHECK(run_u64(c, x) == 3 * (x + 1));
}

TEST_CASE("cse pass: products, projections and calls merge too") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId twice = f.callee("twice", Ty::u64(), Ty::u64(), [](HandFn& c) { c.op(K::Add, c.in(), c.in(), Dest::ret()); });
  const ObjectId p = f.pack({f.in(), f.k(3)});
  const ObjectId q = f.pack({f.in(), f.k(3)});
  const ObjectId s = f.op(K::Add, f.proj(p, 1), f.proj(q, 1));  // 3 + 3
  const ObjectId t = f.op(K::Add, f.call(twice, f.in()), f.call(twice, f.in()));
  f.op(K::Add, s, t, Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_cse(g);
  CHECK(count_op(c, K::Call) == 1);
  CHECK(count_op(c, K::Proj) == 1);
  CHECK(c.funcs().size() == 2);
  for (uint64_t x : {0, 5}) CHECK(run_u64(c, x) == 6 + 4 * x);
}

TEST_CASE("cse pass: parameters and loop machinery are never merged; two identical loops stay two") {
  // count(n) + count(n), the same loop written twice.
  HandFn f("main", Ty::u64(), Ty::u64());
  auto count = [&f](const char* name) {
    const LoopHandle lh = f.begin(f.k(0), name);
    const ObjectId i = f.merge(lh);
    const ObjectId cond = f.op(K::Lt, i, f.in());
    f.back(lh, f.op(K::Add, i, f.k(1)), cond);
    const ObjectId out = f.exit(lh, i, cond);
    f.end(lh);
    return out;
  };
  const ObjectId a = count("i");
  const ObjectId b = count("j");
  f.op(K::Add, a, b, Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_cse(g);
  CHECK(count_kind(c, ObjectKind::LoopMerge) == 2);
  CHECK(count_op(c, K::LoopBack) == 2);
  CHECK(count_op(c, K::LoopExit) == 2);
  CHECK(count_op(c, K::Lt) == 2);
  CHECK(count_kind(c, ObjectKind::Constant) == 2);  // one 0, one 1
  for (uint64_t n : {0, 4}) CHECK(run_u64(c, n) == 2 * n);
}

TEST_CASE("cse pass: two loops whose guards are the same expression keep two guards") {
  // Outer loop on i, inner loop on j starting at i; with p = i + 3, both
  // guards are j < p -- the inner one reads j inside its loop, the outer one
  // reads the inner merge once the inner loop has run. Merging them would
  // give two loops one guard (seal: LoopExitUnattributed).
  HandFn f("main", Ty::u64(), Ty::u64());
  const LoopHandle outer = f.begin(f.in(), "i");
  const ObjectId i = f.merge(outer);
  const ObjectId p = f.op(K::Add, i, f.k(3));
  const LoopHandle inner = f.begin(i, "j");
  const ObjectId j = f.merge(inner);
  const ObjectId g_inner = f.op(K::Lt, j, p);
  f.back(inner, f.op(K::Add, j, f.k(1)), g_inner);
  const ObjectId j_out = f.exit(inner, j, g_inner);
  f.end(inner);
  const ObjectId g_outer = f.op(K::Lt, j, p);  // same operation, same operands
  f.back(outer, j_out, g_outer);
  f.exit(outer, i, g_outer, Dest::ret());
  f.end(outer);
  const CategoryIr g = f.seal();
  for (uint64_t x : {0, 7}) REQUIRE(run_u64(g, x) == x);  // j ends at i + 3, so the outer guard fails at once
  const CategoryIr c = must_cse(g);
  CHECK(count_op(c, K::Lt) == 2);
  CHECK(count_op(c, K::LoopExit) == 2);
  for (uint64_t x : {0, 7}) CHECK(run_u64(c, x) == x);
}

TEST_CASE("cse pass: a value computed twice in a loop, once for the next state and once for the result") {
  // loop (i = 0) while i < n { i = i + 1 } yield i + 1  ->  n + 1
  HandFn f("main", Ty::u64(), Ty::u64());
  const LoopHandle lh = f.begin(f.k(0), "i");
  const ObjectId i = f.merge(lh);
  const ObjectId cond = f.op(K::Lt, i, f.in());
  const ObjectId yield = f.op(K::Add, i, f.k(1));
  f.back(lh, f.op(K::Add, i, f.k(1)), cond);
  f.exit(lh, yield, cond, Dest::ret());
  f.end(lh);
  const CategoryIr g = f.seal();
  const CategoryIr c = must_cse(g);
  CHECK(count_op(c, K::Add) == 1);
  for (uint64_t n : {0, 1, 6}) CHECK(run_u64(c, n) == n + 1);
}

TEST_CASE("cse pass: every shape validates, evaluates the same and merges deterministically") {
  std::vector<std::pair<std::string, CategoryIr>> graphs;
  for (const shapes::Named& s : shapes::all()) graphs.emplace_back(s.name, s.build());
  graphs.emplace_back("example_kernel", polydat::cli::build_example_kernel());
  for (const auto& [name, g] : graphs) {
    CAPTURE(name);
    const CategoryIr c = must_cse(g);
    CHECK(graph_size(c) <= graph_size(g));
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    for (const Value& x : sample_inputs(in)) CHECK_MESSAGE(outcome_difference(g, c, x).empty(), outcome_difference(g, c, x));
    CHECK(to_mermaid(must_cse(g)) == to_mermaid(c));
  }
  // nested_loops reads 0 three times and 1 twice, from two constant objects already: nothing to merge.
  CHECK(graph_size(must_cse(shapes::nested_loops())) == graph_size(shapes::nested_loops()));
}
