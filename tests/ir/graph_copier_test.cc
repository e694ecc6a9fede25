// The graph copier: a copy without hooks is faithful (same objects, edges,
// names, places, flags and values; validates; evaluates the same) and
// deterministic; each hook does what it says; a hook that asks for the
// impossible gets an IrError, not a crash.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>

#include "example_kernel.h"
#include "ir/graph_copier.h"
#include "ir/interp.h"
#include "ir/mermaid.h"
#include "program_gen.h"
#include "shapes.h"

using namespace polydat::ir;
using namespace polydat::ir::testgen;
using K = OpKind;

namespace {
struct Named {
  std::string name;
  CategoryIr (*build)();
};

CategoryIr example_kernel() { return polydat::cli::build_example_kernel(); }

std::vector<Named> every_graph() {
  std::vector<Named> v;
  for (const shapes::Named& s : shapes::all()) v.push_back({s.name, s.build});
  v.push_back({"example_kernel", example_kernel});
  return v;
}

std::string loc_text(const SourceLoc& l) {
  return std::to_string(l.file) + ":" + std::to_string(l.start) + "-" + std::to_string(l.end) + "@" +
         std::to_string(l.line) + "." + std::to_string(l.col);
}

std::string object_sig(const Object& o) {
  return std::string(kind_name(o.kind)) + "|" + o.name + "|" + loc_text(o.loc) + "|" + ty_label(o.ty) + "|" +
         (o.is_volatile ? "volatile" : "") + "|" + (o.value ? render(*o.value) : "-");
}

// Every object and edge as text (ids left out), sorted: equal exactly when
// two graphs hold the same things with the same names, places, types, flags,
// values and operations between the same kinds of objects.
std::vector<std::string> signature(const CategoryIr& g) {
  std::vector<std::string> sig;
  for (const Object& o : g.objects()) sig.push_back("O " + g.func(o.owner).name + " " + object_sig(o));
  for (const Morphism& m : g.morphisms())
    sig.push_back("M " + std::string(op_name(m.op.kind)) + "/" + std::to_string(m.op.a) + "/" +
                  std::to_string(m.op.b) + " " + loc_text(m.loc) + " [" + object_sig(g.object(m.source)) + "] -> [" +
                  object_sig(g.object(m.target)) + "]");
  std::sort(sig.begin(), sig.end());
  return sig;
}

void check_same_results(const CategoryIr& before, const CategoryIr& after) {
  const Ty& in = before.object(before.func(before.entry()).input).ty;
  for (const Value& x : sample_inputs(in)) {
    REQUIRE(evaluate(before, before.entry(), x).ok());
    CHECK_MESSAGE(outcome_difference(before, after, x).empty(), outcome_difference(before, after, x));
  }
}

CategoryIr must_copy(const CategoryIr& g, const CopyHooks& hooks = {}) {
  auto r = copy_graph(g, hooks);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  return std::move(r).value();
}

// x: u64 -> {a: x + 1, b: x * 2}, as fanout_separate, with the objects named.
struct Fanout {
  CategoryIr g;
  ObjectId a, b;
};
Fanout named_fanout() {
  const Ty out = Ty::structure("fan_out", {{"a", Ty::u64()}, {"b", Ty::u64()}});
  HandFn f("fan", Ty::u64(), out);
  const ObjectId a = f.op(K::Add, f.in(), f.k(1), Dest::fresh("a"));
  const ObjectId b = f.op(K::Mul, f.in(), f.k(2), Dest::fresh("b"));
  f.out(a, 0);
  f.out(b, 1);
  return {f.seal(), a, b};
}

ObjectId named(const CategoryIr& g, const std::string& name) {
  for (const Object& o : g.objects())
    if (o.name == name) return o.id;
  FAIL("no object named " << name);
  return ObjectId();
}
}  // namespace

TEST_CASE("copier: a copy of every shape holds the same objects and edges, validates and evaluates the same") {
  for (const Named& s : every_graph()) {
    CAPTURE(s.name);
    const CategoryIr g = s.build();
    const CategoryIr c = must_copy(g);
    CHECK(violations_text(c).empty());
    CHECK(c.objects().size() == g.objects().size());
    CHECK(c.morphisms().size() == g.morphisms().size());
    CHECK(c.funcs().size() == g.funcs().size());
    CHECK(c.func(c.entry()).name == g.func(g.entry()).name);
    CHECK(signature(c) == signature(g));
    check_same_results(g, c);
  }
}

TEST_CASE("copier: copying is deterministic, and copying a copy changes nothing") {
  for (const Named& s : every_graph()) {
    CAPTURE(s.name);
    const CategoryIr g = s.build();
    const CategoryIr once = must_copy(g);
    const CategoryIr again = must_copy(g);
    CHECK(to_mermaid(once) == to_mermaid(again));
    const CategoryIr twice = must_copy(once);
    CHECK(to_mermaid(twice) == to_mermaid(once));
  }
}

TEST_CASE("copier: names, source positions, merge names and the volatile flag survive") {
  HandFn f("flags", Ty::u64(), Ty::u64());
  f.set_volatile(f.in());
  const ObjectId seven = f.konst(shapes::u64(7), "seven");
  f.set_volatile(seven);
  const ObjectId y = f.op(K::Add, f.in(), seven, Dest::fresh("y"));
  f.set_volatile(y);
  const LoopHandle lh = f.begin(f.k(0), "counter");
  const ObjectId i = f.merge(lh);
  const ObjectId cond = f.op(K::Lt, i, y, Dest::fresh("more"));
  f.back(lh, f.op(K::Add, i, f.k(1), Dest::fresh("i1")), cond);
  f.exit(lh, i, cond, Dest::ret());
  f.end(lh);
  const CategoryIr g = f.seal();
  const CategoryIr c = must_copy(g);
  CHECK(signature(c) == signature(g));
  CHECK(c.object(named(c, "seven")).is_volatile);
  CHECK(c.object(named(c, "y")).is_volatile);
  CHECK(c.object(c.func(c.entry()).input).is_volatile);
  CHECK(c.object(named(c, "counter")).kind == ObjectKind::LoopMerge);
  CHECK(c.object(named(c, "more")).loc == g.object(cond).loc);
  check_same_results(g, c);
}

TEST_CASE("copier: a constant nothing reads is copied; one whose only reader is replaced is not") {
  HandFn f("consts", Ty::u64(), Ty::u64());
  f.konst(shapes::u64(99), "unread");
  const ObjectId three = f.k(3);
  f.op(K::Add, f.in(), f.un(K::Not, three, Dest::fresh("flipped")), Dest::ret());
  const CategoryIr g = f.seal();
  CHECK(count_kind(must_copy(g), ObjectKind::Constant) == 2);

  CopyHooks hooks;
  hooks.replace = [&](CopyScope&, ObjectId o) -> std::optional<Replacement> {
    if (g.object(o).name == "flipped") return Replacement::constant(shapes::u64(~uint64_t{3}));
    return std::nullopt;
  };
  const CategoryIr c = must_copy(g, hooks);
  CHECK(violations_text(c).empty());
  // 99 (nothing read it in the source either) and ~3; not 3, whose only reader became ~3.
  CHECK(count_kind(c, ObjectKind::Constant) == 2);
  CHECK(count_op(c, K::Not) == 0);
  for (const Object& o : c.objects())
    if (o.value) CHECK(o.value->as_u64() != 3);
  check_same_results(g, c);
}

TEST_CASE("copier hook: an object replaced by a constant") {
  const CategoryIr g = shapes::pipeline();  // (x * 2 + 5) * 3
  const ObjectId mul = g.morphism(g.func(g.entry()).morphisms[2]).target;
  REQUIRE(g.morphism(g.func(g.entry()).morphisms[2]).op.kind == K::Mul);
  CopyHooks hooks;
  hooks.replace = [&](CopyScope&, ObjectId o) -> std::optional<Replacement> {
    if (o == mul) return Replacement::constant(shapes::u64(10));
    return std::nullopt;
  };
  const CategoryIr c = must_copy(g, hooks);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Mul) == 1);  // only * 3 remains
  for (uint64_t x : {0, 4, 100}) CHECK(evaluate(c, c.entry(), shapes::u64(x))->as_u64() == 45);  // (10 + 5) * 3
}

TEST_CASE("copier hook: an object replaced by another source object") {
  const CategoryIr g = shapes::pipeline();  // (x * 2 + 5) * 3
  std::map<K, ObjectId> by_op;
  for (MorphismId m : g.func(g.entry()).morphisms) by_op.emplace(g.morphism(m).op.kind, g.morphism(m).target);
  CopyHooks hooks;
  hooks.replace = [&](CopyScope&, ObjectId o) -> std::optional<Replacement> {
    if (o == by_op.at(K::Add)) return Replacement::same_as(by_op.at(K::Mul));  // x * 2 + 5  ->  x * 2
    return std::nullopt;
  };
  const CategoryIr c = must_copy(g, hooks);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Add) == 0);
  for (uint64_t x : {0, 4, 100}) CHECK(evaluate(c, c.entry(), shapes::u64(x))->as_u64() == x * 6);
}

TEST_CASE("copier hook: an object replaced by a new object the made hook reported") {
  const Fanout f = named_fanout();
  std::map<ObjectId, ObjectId> made;
  CopyHooks hooks;
  hooks.made = [&](CopyScope&, ObjectId src, ObjectId id) { made[src] = id; };
  hooks.replace = [&](CopyScope&, ObjectId o) -> std::optional<Replacement> {
    if (o == f.b) return Replacement::existing(made.at(f.a));  // b := the copy of a
    return std::nullopt;
  };
  const CategoryIr c = must_copy(f.g, hooks);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Mul) == 0);
  CHECK(made.count(f.a) == 1);
  CHECK(made.count(f.b) == 0);  // replaced, not made
  const Ty& out = c.object(c.func(c.entry()).output).ty;
  CHECK(*evaluate(c, c.entry(), shapes::u64(5)) == Value::structure(out, {shapes::u64(6), shapes::u64(6)}));
}

TEST_CASE("copier hook: a replaced whole-value writer of the Return is written from its replacement") {
  const CategoryIr g = shapes::pipeline();
  const ObjectId ret = g.func(g.entry()).output;
  CopyHooks hooks;
  hooks.replace = [&](CopyScope&, ObjectId o) -> std::optional<Replacement> {
    if (o == ret) return Replacement::constant(shapes::u64(8));
    return std::nullopt;
  };
  const CategoryIr c = must_copy(g, hooks);
  CHECK(violations_text(c).empty());
  CHECK(count_op(c, K::Output) == 1);
  CHECK(evaluate(c, c.entry(), shapes::u64(3))->as_u64() == 8);
}

TEST_CASE("copier hook: keep drops objects, a loop among them") {
  HandFn f("drops", Ty::u64(), Ty::u64());
  f.op(K::Add, f.in(), f.k(1), Dest::ret());
  const ObjectId first_dropped = f.k(3);  // everything from here on is unused
  f.op(K::Mul, f.op(K::Mul, f.in(), first_dropped), f.k(5));
  const LoopHandle lh = f.begin(f.k(0), "unused");
  const ObjectId i = f.merge(lh);
  const ObjectId cond = f.op(K::Lt, i, f.in());
  f.back(lh, f.op(K::Add, i, f.k(1)), cond);
  f.exit(lh, i, cond);
  f.end(lh);
  const CategoryIr g = f.seal();
  CopyHooks hooks;
  hooks.keep = [&](ObjectId o) { return o < first_dropped; };
  const CategoryIr c = must_copy(g, hooks);
  CHECK(violations_text(c).empty());
  CHECK(c.objects().size() == first_dropped.v);
  CHECK(count_op(c, K::Mul) == 0);
  CHECK(count_kind(c, ObjectKind::LoopMerge) == 0);
  for (uint64_t x : {0, 3, 9}) CHECK(evaluate(c, c.entry(), shapes::u64(x))->as_u64() == x + 1);
}

TEST_CASE("copier hook: a call inlined from a call-free body") {
  const CategoryIr g = shapes::with_call();  // twice(twice(x))
  const FuncId twice = *g.find_func("twice");
  const FuncId only_twice[] = {twice};
  auto body = copy_graph(g, only_twice, twice);
  REQUIRE(body.ok());
  CopyHooks hooks;
  hooks.inline_body = [&](FuncId callee) { return callee == twice ? &*body : nullptr; };
  const FuncId only_entry[] = {g.entry()};
  auto c = copy_graph(g, only_entry, g.entry(), hooks);
  REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
  CHECK(violations_text(*c).empty());
  CHECK(c->funcs().size() == 1);
  CHECK(count_op(*c, K::Call) == 0);
  CHECK(count_op(*c, K::Add) == 2);
  check_same_results(g, *c);
}

TEST_CASE("copier: a subset of the functions, with another entry") {
  const CategoryIr g = shapes::with_call();
  const FuncId twice = *g.find_func("twice");
  const FuncId only_twice[] = {twice};
  auto c = copy_graph(g, only_twice, twice);
  REQUIRE(c.ok());
  CHECK(c->funcs().size() == 1);
  CHECK(c->func(c->entry()).name == "twice");
  CHECK(evaluate(*c, c->entry(), shapes::u64(21))->as_u64() == 42);
}

TEST_CASE("copier: a hook that asks for the impossible gets an IrError") {
  const CategoryIr g = shapes::pipeline();
  SUBCASE("a constant of the wrong type") {
    CopyHooks hooks;
    hooks.replace = [&](CopyScope&, ObjectId o) -> std::optional<Replacement> {
      if (g.object(o).kind == ObjectKind::Temporary && g.object(o).ty == Ty::u64())
        return Replacement::constant(Value::boolean(true));
      return std::nullopt;
    };
    auto r = copy_graph(g, hooks);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == IrErrorKind::TypeMismatch);
  }
  SUBCASE("a kept object reads a dropped one") {
    CopyHooks hooks;
    hooks.keep = [&](ObjectId o) { return g.object(o).kind != ObjectKind::Constant; };
    auto r = copy_graph(g, hooks);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == IrErrorKind::UnknownObject);
  }
  SUBCASE("a call to a function neither copied nor inlined") {
    const CategoryIr w = shapes::with_call();
    const FuncId only_entry[] = {w.entry()};
    auto r = copy_graph(w, only_entry, w.entry());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == IrErrorKind::UnknownFunction);
  }
  SUBCASE("an entry that is not copied") {
    const CategoryIr w = shapes::with_call();
    const FuncId only_twice[] = {*w.find_func("twice")};
    auto r = copy_graph(w, only_twice, w.entry());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == IrErrorKind::NoEntry);
  }
}
