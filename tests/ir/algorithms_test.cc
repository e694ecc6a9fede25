// SCCs, topological order, loop structure and loop plans, checked as facts
// about the graphs (not assumed), plus the deep-graph test.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "ir/interp.h"
#include "ir/loops.h"
#include "ir/scc.h"
#include "ir/topo.h"
#include "graph_surgery.h"
#include "shapes.h"

using namespace polydat::ir;
using shapes::must;
using K = OpKind;

namespace {
std::vector<std::vector<ObjectId>> nontrivial(std::vector<std::vector<ObjectId>> comps) {
  std::erase_if(comps, [](const auto& c) { return c.size() < 2; });
  return comps;
}

ObjectId merge_named(const CategoryIr& g, const std::string& name) {
  for (const Object& o : g.objects())
    if (o.kind == ObjectKind::LoopMerge && o.name == name) return o.id;
  FAIL("no merge named " << name);
  return {};
}

std::map<MorphismId, size_t> positions(const std::vector<MorphismId>& order) {
  std::map<MorphismId, size_t> pos;
  for (size_t i = 0; i < order.size(); ++i) pos[order[i]] = i;
  return pos;
}

// Objects reachable from `from` along non-LoopBack edges.
std::set<ObjectId> downstream(const CategoryIr& g, ObjectId from) {
  std::set<ObjectId> seen{from};
  std::vector<ObjectId> work{from};
  while (!work.empty()) {
    ObjectId o = work.back();
    work.pop_back();
    for (MorphismId m : g.out_edges(o)) {
      const Morphism& mm = g.morphism(m);
      if (mm.op.kind != K::LoopBack && seen.insert(mm.target).second) work.push_back(mm.target);
    }
  }
  return seen;
}

// Every morphism once; each morphism after all definers of its source.
void check_is_execution_order(const CategoryIr& g, FuncId f) {
  const auto order = topo_order(g, f);
  CHECK(order.size() == g.func(f).morphisms.size());
  const auto pos = positions(order);
  CHECK(pos.size() == order.size());
  for (MorphismId m : order) {
    const Object& src = g.object(g.morphism(m).source);
    for (MorphismId d : g.in_edges(src.id)) {
      if (g.morphism(d).op.kind == K::LoopBack) continue;  // the one edge that closes a cycle
      CHECK(pos.at(d) < pos.at(m));
    }
  }
}
}  // namespace

TEST_CASE("loop-free graphs have only trivial SCCs and no loops") {
  for (const CategoryIr& g : {shapes::add(), shapes::pipeline(), shapes::phi_abs(), shapes::fanout_tupled()}) {
    CHECK(nontrivial(sccs(g, g.entry())).empty());
    CHECK(loop_structure(g, g.entry()).empty());
    CHECK(loop_nest(g, g.entry()).loops.empty());
    check_is_execution_order(g, g.entry());
  }
}

TEST_CASE("a loop is exactly one SCC: the merge and the body, not the exit or the invariants") {
  const CategoryIr g = shapes::count_up();
  const auto comps = nontrivial(sccs(g, g.entry()));
  REQUIRE(comps.size() == 1);
  const auto plan = loop_plan(g, g.entry(), merge_named(g, "i"));
  REQUIRE(plan);
  const auto& c = comps[0];
  auto in = [&](ObjectId o) { return std::binary_search(c.begin(), c.end(), o); };
  CHECK(in(plan->merge));
  CHECK(in(plan->back_route));
  CHECK(in(plan->cond));
  CHECK(in(plan->next));
  CHECK_FALSE(in(plan->init));
  CHECK_FALSE(in(plan->exit_route));
  CHECK_FALSE(in(plan->exit_target));
  CHECK_FALSE(in(g.func(g.entry()).input));
  CHECK(c == plan->region);
}

TEST_CASE("LoopBack edges are exactly the cycle-breakers") {
  for (const CategoryIr& g : {shapes::count_up(), shapes::sum_to_n(), shapes::nested_loops(), shapes::gcd(), shapes::two_loops()}) {
    const auto nodes = g.objects_of(g.entry());
    CHECK_FALSE(nontrivial(strong_components(g, nodes)).empty());
    const auto without_back = strong_components(g, nodes, [](const Morphism& m) { return m.op.kind != K::LoopBack; });
    CHECK(nontrivial(without_back).empty());
    // And every LoopBack lies on a cycle: removing any other kind of edge keeps them.
    const auto comps = nontrivial(strong_components(g, nodes));
    for (const Morphism& m : g.morphisms()) {
      if (m.op.kind != K::LoopBack) continue;
      bool on_cycle = false;
      for (const auto& c : comps)
        on_cycle = on_cycle || (std::binary_search(c.begin(), c.end(), m.source) &&
                                std::binary_search(c.begin(), c.end(), m.target));
      CHECK(on_cycle);
    }
  }
}

TEST_CASE("topo order: header first, invariants before LoopEnter, LoopExit before its consumers") {
  for (const CategoryIr& g : {shapes::count_up(), shapes::sum_to_n(), shapes::nested_loops(), shapes::gcd(), shapes::two_loops()}) {
    const FuncId f = g.entry();
    check_is_execution_order(g, f);
    const auto order = topo_order(g, f);
    const auto pos = positions(order);
    const LoopNest nest = loop_nest(g, f);
    std::set<ObjectId> gated_by_any;
    for (const Loop& loop : nest.loops) gated_by_any.merge(downstream(g, loop.merge));
    for (const Loop& loop : nest.loops) {
      const auto plan = loop_plan(g, nest, loop.merge);
      REQUIRE(plan);
      const std::set<ObjectId> gated = downstream(g, loop.merge);
      for (MorphismId m : order) {
        const Morphism& mm = g.morphism(m);
        if (gated.count(mm.source))
          CHECK(pos.at(plan->enter) < pos.at(m));  // header first
        else if (!gated_by_any.count(mm.target))
          CHECK(pos.at(m) < pos.at(plan->enter));  // work no loop gates comes before every header
      }
      for (MorphismId m : g.out_edges(plan->exit_target)) CHECK(pos.at(plan->exit) < pos.at(m));
      for (MorphismId m : order)  // the whole body runs before the exit fires
        if (loop.contains(g.morphism(m).target) && m != plan->enter) CHECK(pos.at(m) < pos.at(plan->exit));
    }
  }
}

TEST_CASE("topo order puts multi-hop invariants before the loop header") {
  IrBuilder b;
  shapes::Lines lines;
  FuncId f = must(b.declare("inv", Ty::u64(), Ty::u64(), lines.next()));
  FnBuilder fb = must(b.build_fn(f));
  ObjectId zero = must(fb.constant(shapes::u64(0), lines.next()));
  LoopHandle lh = must(fb.begin_loop(zero, lines.next()));  // the header comes first in the source...
  ObjectId m = fb.merge_of(lh);
  // ...and the invariant step = (x * 2) + 3 after it, three hops from the input.
  ObjectId two = must(fb.constant(shapes::u64(2), lines.next()));
  ObjectId step = must(fb.binop(K::Add, must(fb.binop(K::Mul, fb.input(), two, Dest::fresh(), lines.next())),
                                must(fb.constant(shapes::u64(3), lines.next())), Dest::fresh("step"), lines.next()));
  ObjectId c = must(fb.binop(K::Lt, m, must(fb.constant(shapes::u64(100), lines.next())), Dest::fresh(), lines.next()));
  must(fb.loop_back(lh, must(fb.binop(K::Add, m, step, Dest::fresh(), lines.next())), c, lines.next()));
  must(fb.loop_exit(lh, m, c, Dest::ret(), lines.next()));
  must(fb.end_loop(lh));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  const auto order = topo_order(g, f);
  const auto plan = loop_plan(g, f, m);
  REQUIRE(plan);
  const auto pos = positions(order);
  for (MorphismId d : g.in_edges(step)) CHECK(pos.at(d) < pos.at(plan->enter));
  CHECK(must(evaluate(g, f, shapes::u64(1)).ok() ? Result<bool>(true) : Result<bool>(IrError{})));
  CHECK(evaluate(g, f, shapes::u64(1))->as_u64() == 100);   // steps of 5: 0, 5, ..., 100
  CHECK(evaluate(g, f, shapes::u64(10))->as_u64() == 115);  // steps of 23: ..., 92, 115
}

TEST_CASE("a loop that reads a later loop's result runs after it, whatever the source order") {
  // first := loop (i = 0) while i < second { i = i + 1 } yield i, written *before*
  // second := sum_to_n(n); the builder needs `second` first, so positions are given by hand.
  IrBuilder b;
  auto at = [](uint32_t line) { return SourceLoc{0, line * 100, line * 100 + 10, line, 1}; };
  FuncId f = must(b.declare("fwd", Ty::u64(), Ty::u64(), at(1)));
  FnBuilder fb = must(b.build_fn(f));
  ObjectId one = must(fb.constant(shapes::u64(1), at(20)));
  ObjectId zero = must(fb.constant(shapes::u64(0), at(20)));
  LoopHandle s = must(fb.begin_loop(must(fb.pack(std::vector{one, zero}, Dest::fresh(), at(20))), at(20)));
  ObjectId sm = fb.merge_of(s);
  ObjectId si = must(fb.proj(sm, 0, Dest::fresh(), at(21)));
  ObjectId sacc = must(fb.proj(sm, 1, Dest::fresh(), at(21)));
  ObjectId sc = must(fb.binop(K::Le, si, fb.input(), Dest::fresh(), at(22)));
  ObjectId snext = must(fb.pack(std::vector{must(fb.binop(K::Add, si, one, Dest::fresh(), at(23))),
                                            must(fb.binop(K::Add, sacc, si, Dest::fresh(), at(23)))},
                                Dest::fresh(), at(23)));
  must(fb.loop_back(s, snext, sc, at(24)));
  ObjectId second = must(fb.loop_exit(s, sacc, sc, Dest::fresh("second"), at(24)));
  must(fb.end_loop(s));
  LoopHandle l = must(fb.begin_loop(zero, at(2)));
  ObjectId i = fb.merge_of(l);
  ObjectId c = must(fb.binop(K::Lt, i, second, Dest::fresh(), at(3)));
  must(fb.loop_back(l, must(fb.binop(K::Add, i, one, Dest::fresh(), at(4))), c, at(5)));
  must(fb.loop_exit(l, i, c, Dest::ret(), at(6)));
  must(fb.end_loop(l));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  check_is_execution_order(g, f);
  const auto pos = positions(topo_order(g, f));
  const auto first_plan = loop_plan(g, f, i);
  const auto second_plan = loop_plan(g, f, sm);
  REQUIRE(first_plan);
  REQUIRE(second_plan);
  CHECK(pos.at(second_plan->exit) < pos.at(first_plan->enter));
  CHECK(evaluate(g, f, shapes::u64(10))->as_u64() == 55);
}

TEST_CASE("loop_structure: nested loops are one SCC with two merges; sequential loops two SCCs") {
  const CategoryIr nested = shapes::nested_loops();
  const auto ns = loop_structure(nested, nested.entry());
  REQUIRE(ns.size() == 1);
  CHECK(ns[0].merges.size() == 2);  // the shape the single-loop FSM predicate refuses

  const CategoryIr tupled = shapes::gcd();
  const auto ts = loop_structure(tupled, tupled.entry());
  REQUIRE(ts.size() == 1);
  CHECK(ts[0].merges.size() == 1);  // the shape it accepts

  const CategoryIr two = shapes::two_loops();
  const auto ws = loop_structure(two, two.entry());
  REQUIRE(ws.size() == 2);
  CHECK(ws[0].merges.size() == 1);
  CHECK(ws[1].merges.size() == 1);
}

TEST_CASE("loop_nest peels nested loops: the inner region lies inside the outer one") {
  const CategoryIr g = shapes::nested_loops();
  const LoopNest nest = loop_nest(g, g.entry());
  CHECK(nest.irreducible.empty());
  REQUIRE(nest.loops.size() == 2);
  const Loop& outer = nest.loops[0];
  const Loop& inner = nest.loops[1];
  CHECK(outer.merge == merge_named(g, "outer"));
  CHECK(inner.merge == merge_named(g, "inner"));
  CHECK(outer.parent == -1);
  CHECK(inner.parent == 0);
  CHECK(std::includes(outer.region.begin(), outer.region.end(), inner.region.begin(), inner.region.end()));
  CHECK(inner.region.size() < outer.region.size());
  CHECK_FALSE(inner.contains(outer.merge));
  const auto plan = loop_plan(g, nest, inner.merge);
  REQUIRE(plan);
  CHECK(plan->parent == outer.merge);
  CHECK(outer.contains(plan->exit_target));  // the inner result feeds the outer body
  CHECK_FALSE(inner.contains(plan->exit_target));
}

TEST_CASE("loop_plan: the canonical layout, and nothing for other shapes") {
  const CategoryIr g = shapes::sum_to_n();
  const ObjectId m = merge_named(g, "state");
  const auto plan = loop_plan(g, g.entry(), m);
  REQUIRE(plan);
  CHECK(g.morphism(plan->enter).op.kind == K::LoopEnter);
  CHECK(g.morphism(plan->back).op.kind == K::LoopBack);
  CHECK(g.morphism(plan->exit).op.kind == K::LoopExit);
  CHECK(g.morphism(plan->exit).target == g.func(g.entry()).output);
  CHECK(g.object(plan->exit_value).name == "acc");   // the exit reads the merge view
  CHECK(g.object(plan->next).ty == g.object(m).ty);
  CHECK(g.object(plan->cond).ty.is_bool());
  CHECK_FALSE(plan->parent.valid());
  CHECK_FALSE(loop_plan(g, g.entry(), g.func(g.entry()).input));  // not a merge

  // Two back edges: valid, but not canonical.
  IrBuilder b;
  FuncId f = must(b.declare("two_backs", Ty::u64(), Ty::u64(), {}));
  FnBuilder fb = must(b.build_fn(f));
  LoopHandle lh = must(fb.begin_loop(fb.input(), {}));
  ObjectId x = fb.merge_of(lh);
  ObjectId c = must(fb.binop(K::Lt, x, must(fb.constant(shapes::u64(9), {})), Dest::fresh(), {}));
  ObjectId next = must(fb.binop(K::Add, x, must(fb.constant(shapes::u64(1), {})), Dest::fresh(), {}));
  must(fb.loop_back(lh, next, c, {}));
  must(fb.loop_back(lh, next, c, {}));
  must(fb.loop_exit(lh, x, c, Dest::ret(), {}));
  must(fb.end_loop(lh));
  must(fb.finish());
  const CategoryIr two = must(std::move(b).seal(f));
  CHECK_FALSE(loop_plan(two, f, x));
  auto r = evaluate(two, f, shapes::u64(0));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == InterpErrorKind::NonCanonicalLoop);
}

TEST_CASE("a 100,000-object chain: no algorithm recurses on the host stack") {
  IrBuilder b;
  FuncId f = must(b.declare("chain", Ty::u64(), Ty::u64(), {}));
  FnBuilder fb = must(b.build_fn(f));
  ObjectId one = must(fb.constant(shapes::u64(1), {}));
  ObjectId x = fb.input();
  constexpr int kLinks = 50'000;  // each link is a pair product and a sum: 100,000 objects
  for (int i = 0; i < kLinks; ++i) x = must(fb.binop(K::Add, x, one, Dest::fresh(), {}));
  must(fb.output(x, std::nullopt, {}));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  CHECK(g.objects().size() > 100'000);
  CHECK(nontrivial(sccs(g, f)).empty());
  CHECK(topo_order(g, f).size() == g.morphisms().size());
  CHECK(evaluate(g, f, shapes::u64(7))->as_u64() == 7 + kLinks);
}

TEST_CASE("a 100,000-object chain inside a loop body") {
  IrBuilder b;
  FuncId f = must(b.declare("chain_loop", Ty::u64(), Ty::u64(), {}));
  FnBuilder fb = must(b.build_fn(f));
  ObjectId one = must(fb.constant(shapes::u64(1), {}));
  LoopHandle lh = must(fb.begin_loop(must(fb.constant(shapes::u64(0), {})), {}));
  ObjectId m = fb.merge_of(lh);
  ObjectId x = m;
  constexpr int kLinks = 50'000;
  for (int i = 0; i < kLinks; ++i) x = must(fb.binop(K::Add, x, one, Dest::fresh(), {}));
  ObjectId c = must(fb.binop(K::Lt, m, fb.input(), Dest::fresh(), {}));
  must(fb.loop_back(lh, x, c, {}));
  must(fb.loop_exit(lh, m, c, Dest::ret(), {}));
  must(fb.end_loop(lh));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  const auto comps = nontrivial(sccs(g, f));
  REQUIRE(comps.size() == 1);
  CHECK(comps[0].size() > 100'000);
  CHECK(topo_order(g, f).size() == g.morphisms().size());
  CHECK(evaluate(g, f, shapes::u64(2 * kLinks))->as_u64() == 2 * kLinks);  // two iterations
}

TEST_CASE("loop_plan head: the guard and what leaves the loop; the next state is body") {
  const CategoryIr g = shapes::sum_to_n();
  const auto plan = loop_plan(g, g.entry(), merge_named(g, "state"));
  REQUIRE(plan);
  CHECK(plan->in_head(plan->merge));
  CHECK(plan->in_head(plan->cond));
  CHECK(plan->in_head(plan->exit_value));  // acc leaves the loop through the exit
  CHECK_FALSE(plan->in_head(plan->next));
  CHECK_FALSE(plan->in_head(plan->back_route));
  CHECK(std::includes(plan->region.begin(), plan->region.end(), plan->head.begin(), plan->head.end()));

  const CategoryIr nested = shapes::nested_loops();
  const LoopNest nest = loop_nest(nested, nested.entry());
  const auto outer = loop_plan(nested, nest, merge_named(nested, "outer"));
  const auto inner = loop_plan(nested, nest, merge_named(nested, "inner"));
  REQUIRE(outer);
  REQUIRE(inner);
  CHECK_FALSE(outer->in_head(inner->merge));  // the guard i < n does not need the inner loop
  CHECK(inner->in_head(inner->exit_value));
}

TEST_CASE("loop_nest terminates on cycles that are not loops") {
  // A second edge into the merge closes a cycle its back edge does not break;
  // surgery makes the graph, since the builder cannot.
  CategoryIr g = shapes::count_up();
  const ObjectId m = merge_named(g, "i");
  const auto plan = loop_plan(g, g.entry(), m);
  REQUIRE(plan);
  GraphSurgery::add_edge(g, plan->next, m, Operation::simple(K::Neg));
  const LoopNest nest = loop_nest(g, g.entry());
  CHECK_FALSE(nest.irreducible.empty());

  // A cycle through no merge at all.
  CategoryIr h = shapes::pipeline();
  const FuncDef& fd = h.func(h.entry());
  const Morphism& last = h.morphism(fd.morphisms.back());
  GraphSurgery::add_edge(h, last.source, h.morphism(fd.morphisms.front()).source, Operation::simple(K::Neg));
  CHECK_FALSE(loop_nest(h, h.entry()).irreducible.empty());
}

TEST_CASE("nested loops whose inner state starts from constants: the outer merge is the header") {
  // sum over i < n of (sum over j <= i of j * i): the inner loop reads i only in its body and guard.
  IrBuilder b;
  shapes::Lines lines;
  FuncId f = must(b.declare("inner_reads_outer", Ty::u64(), Ty::u64(), lines.next()));
  FnBuilder fb = must(b.build_fn(f));
  auto k = [&](uint64_t v) { return must(fb.constant(shapes::u64(v), lines.next())); };
  auto op = [&](K o, ObjectId l, ObjectId r) { return must(fb.binop(o, l, r, Dest::fresh(), lines.next())); };
  const ObjectId zero = k(0), one = k(1);
  const ObjectId outer_init = must(fb.pack(std::vector{zero, zero}, Dest::fresh(), lines.next()));
  LoopHandle outer = must(fb.begin_loop(outer_init, lines.next(), "outer"));
  const ObjectId m1 = fb.merge_of(outer);
  const ObjectId i = must(fb.proj(m1, 0, Dest::fresh("i"), lines.next()));
  const ObjectId acc = must(fb.proj(m1, 1, Dest::fresh("acc"), lines.next()));
  const ObjectId c1 = op(K::Lt, i, fb.input());
  const ObjectId inner_init = must(fb.pack(std::vector{zero, zero}, Dest::fresh(), lines.next()));
  LoopHandle inner = must(fb.begin_loop(inner_init, lines.next(), "inner"));
  const ObjectId m2 = fb.merge_of(inner);
  const ObjectId j = must(fb.proj(m2, 0, Dest::fresh("j"), lines.next()));
  const ObjectId s = must(fb.proj(m2, 1, Dest::fresh("s"), lines.next()));
  const ObjectId c2 = op(K::Le, j, i);
  const ObjectId s_next = op(K::Add, s, op(K::Mul, j, i));
  must(fb.loop_back(inner, must(fb.pack(std::vector{op(K::Add, j, one), s_next}, Dest::fresh(), lines.next())), c2,
                    lines.next()));
  const ObjectId s_out = must(fb.loop_exit(inner, s, c2, Dest::fresh("s_out"), lines.next()));
  must(fb.end_loop(inner));
  must(fb.loop_back(outer, must(fb.pack(std::vector{op(K::Add, i, one), op(K::Add, acc, s_out)}, Dest::fresh(), lines.next())),
                    c1, lines.next()));
  must(fb.loop_exit(outer, acc, c1, Dest::ret(), lines.next()));
  must(fb.end_loop(outer));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(f));
  const LoopNest nest = loop_nest(g, f);
  REQUIRE(nest.loops.size() == 2);
  CHECK(nest.loops[0].merge == m1);
  CHECK(nest.loops[1].merge == m2);
  CHECK(nest.loops[1].parent == 0);
  CHECK(loop_structure(g, f).size() == 1);
  // n = 4: i * (0 + 1 + ... + i) for i < 4 = 0 + 1 + 6 + 18 = 25.
  CHECK(evaluate(g, f, shapes::u64(4))->as_u64() == 25);
}
