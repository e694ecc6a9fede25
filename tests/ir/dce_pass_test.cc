// eliminate_dead_code: only what each kept function's Return depends on
// survives; a live loop keeps its enter, back routes and exits; functions
// the entry no longer calls are dropped.
#include <doctest/doctest.h>

#include "example_kernel.h"
#include "ir/dce_pass.h"
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
CategoryIr must_dce(const CategoryIr& g) { return must_pass(eliminate_dead_code, g); }

// A counting loop on the bound, its result a fresh object.
ObjectId count_to(HandFn& f, ObjectId bound, const char* name) {
  const LoopHandle lh = f.begin(f.k(0), name);
  const ObjectId i = f.merge(lh);
  const ObjectId cond = f.op(K::Lt, i, bound);
  f.back(lh, f.op(K::Add, i, f.k(1)), cond);
  const ObjectId out = f.exit(lh, i, cond);
  f.end(lh);
  return out;
}
}  // namespace

TEST_CASE("dce pass: an unused chain is removed") {
  HandFn f("main", Ty::u64(), Ty::u64());
  f.op(K::Add, f.in(), f.k(1), Dest::ret());
  f.op(K::Mul, f.op(K::Mul, f.in(), f.k(3)), f.k(5));  // read by nothing
  const CategoryIr g = f.seal();
  const CategoryIr c = must_dce(g);
  CHECK(count_op(c, K::Mul) == 0);
  CHECK(count_kind(c, ObjectKind::Constant) == 1);
  // in, ret, 1, (x, 1); edges: two Pairs and the Add.
  CHECK(c.objects().size() == 4);
  CHECK(c.morphisms().size() == 3);
  for (uint64_t x : {0, 8}) CHECK(run_u64(c, x) == x + 1);
}

TEST_CASE("dce pass: a dead loop is removed and a live one kept") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const ObjectId live = count_to(f, f.in(), "live");
  count_to(f, f.op(K::Mul, f.in(), f.k(2)), "dead");  // its result is never read
  f.op(K::Add, live, f.k(10), Dest::ret());
  const CategoryIr g = f.seal();
  const CategoryIr c = must_dce(g);
  CHECK(count_kind(c, ObjectKind::LoopMerge) == 1);
  CHECK(count_op(c, K::LoopEnter) == 1);
  CHECK(count_op(c, K::LoopBack) == 1);
  CHECK(count_op(c, K::LoopExit) == 1);
  CHECK(count_op(c, K::Mul) == 0);
  for (const Object& o : c.objects())
    if (o.kind == ObjectKind::LoopMerge) CHECK(o.name == "live");
  for (uint64_t n : {0, 3, 7}) CHECK(run_u64(c, n) == n + 10);
}

TEST_CASE("dce pass: a dead loop that never ends no longer stops the program") {
  HandFn f("main", Ty::u64(), Ty::u64());
  count_to(f, f.k(1'000'000'000), "endless");
  f.op(K::Add, f.in(), f.k(1), Dest::ret());
  const CategoryIr g = f.seal();
  InterpOptions opts;
  opts.max_iterations = 1000;
  const auto before = evaluate(g, g.entry(), shapes::u64(4), opts);
  REQUIRE_FALSE(before.ok());
  CHECK(before.error().kind == InterpErrorKind::IterationLimit);
  const CategoryIr c = must_dce(g);
  CHECK(count_kind(c, ObjectKind::LoopMerge) == 0);
  CHECK(run_u64(c, 4, opts) == 5);
}

TEST_CASE("dce pass: a live loop keeps its enter, its back route and every exit") {
  // Two exits on one guard (sealable, though the interpreter only runs
  // canonical loops): one read, one not; both stay.
  HandFn f("main", Ty::u64(), Ty::u64());
  const LoopHandle lh = f.begin(f.k(0), "i");
  const ObjectId i = f.merge(lh);
  const ObjectId cond = f.op(K::Lt, i, f.in());
  f.back(lh, f.op(K::Add, i, f.k(1)), cond);
  f.exit(lh, f.op(K::Mul, i, f.k(2)), cond, Dest::fresh("unread"));
  f.exit(lh, i, cond, Dest::ret());
  f.end(lh);
  const CategoryIr g = f.seal();
  const CategoryIr c = must_dce(g);
  CHECK(count_op(c, K::LoopExit) == 2);
  CHECK(count_op(c, K::LoopBack) == 1);
  CHECK(count_op(c, K::Mul) == 1);  // the unread exit's value is computed in the loop
  CHECK(graph_size(c) == graph_size(g));
  const auto r = evaluate(c, c.entry(), shapes::u64(3));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == InterpErrorKind::NonCanonicalLoop);
}

TEST_CASE("dce pass: functions the entry no longer calls are dropped") {
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId leaf = f.callee("leaf", Ty::u64(), Ty::u64(), [](HandFn& c) { c.op(K::Add, c.in(), c.k(7), Dest::ret()); });
  const FuncId mid = f.callee("mid", Ty::u64(), Ty::u64(), [&](HandFn& c) { c.call(leaf, c.in(), Dest::ret()); });
  const FuncId used = f.callee("used", Ty::u64(), Ty::u64(), [](HandFn& c) {
    c.op(K::Mul, c.in(), c.k(3), Dest::ret());
    c.op(K::Sub, c.in(), c.k(9));  // dead inside a kept callee
  });
  f.callee("never", Ty::u64(), Ty::u64(), [](HandFn& c) { c.out(c.in()); });
  f.call(mid, f.in());  // dead: mid, and leaf through it, are no longer called
  f.call(used, f.in(), Dest::ret());
  const CategoryIr g = f.seal();
  REQUIRE(g.funcs().size() == 5);
  const CategoryIr c = must_dce(g);
  REQUIRE(c.funcs().size() == 2);
  CHECK(c.func(c.entry()).name == "main");
  CHECK(c.find_func("used").has_value());
  CHECK_FALSE(c.find_func("mid").has_value());
  CHECK_FALSE(c.find_func("leaf").has_value());
  CHECK_FALSE(c.find_func("never").has_value());
  CHECK(count_op(c, K::Sub) == 0);
  CHECK(count_op(c, K::Call) == 1);
  for (uint64_t x : {0, 5}) CHECK(run_u64(c, x) == 3 * x);
}

TEST_CASE("dce pass: every shape has nothing dead, evaluates the same and prunes deterministically") {
  std::vector<std::pair<std::string, CategoryIr>> graphs;
  for (const shapes::Named& s : shapes::all()) graphs.emplace_back(s.name, s.build());
  graphs.emplace_back("example_kernel", polydat::cli::build_example_kernel());
  for (const auto& [name, g] : graphs) {
    CAPTURE(name);
    const CategoryIr c = must_dce(g);
    CHECK(graph_size(c) == graph_size(g));
    CHECK(c.funcs().size() == g.funcs().size());
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    for (const Value& x : sample_inputs(in)) CHECK_MESSAGE(outcome_difference(g, c, x).empty(), outcome_difference(g, c, x));
    CHECK(to_mermaid(must_dce(g)) == to_mermaid(c));
  }
}
