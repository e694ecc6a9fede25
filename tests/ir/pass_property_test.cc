// Every pass, and the pipeline, against the interpreter: on every shape, on
// the example kernel and on generated well-typed programs with calls and
// loops, a result validates clean and computes what the original computes
// (wherever the original computes a value), and a pass run twice dumps the
// same. Then the harness is shown to fail: wrong folds planted in a result,
// or in a pass, are reported.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <atomic>
#include <chrono>
#include <functional>

#include "example_kernel.h"
#include "graph_surgery.h"
#include "ir/cse_pass.h"
#include "ir/dce_pass.h"
#include "ir/fold_pass.h"
#include "ir/graph_copier.h"
#include "ir/inline_pass.h"
#include "ir/interp.h"
#include "ir/mermaid.h"
#include "ir/pass_pipeline.h"
#include "ir/semantics.h"
#include "ir/typing.h"
#include "program_gen.h"
#include "shapes.h"

using namespace polydat::ir;
using namespace polydat::ir::testgen;
using K = OpKind;

namespace {
struct Pass {
  const char* name;
  std::function<Result<CategoryIr>(const CategoryIr&)> run;
};

const std::vector<Pass>& passes() {
  static const std::vector<Pass> kPasses = {
      {"copy", [](const CategoryIr& g) { return copy_graph(g); }},
      {"inline", inline_calls},
      {"fold", fold_constants},
      {"cse", eliminate_common_subexpressions},
      {"dce", eliminate_dead_code},
      {"pipeline", optimize},
  };
  return kPasses;
}

std::vector<std::pair<std::string, CategoryIr>> every_graph() {
  std::vector<std::pair<std::string, CategoryIr>> v;
  for (const shapes::Named& s : shapes::all()) v.emplace_back(s.name, s.build());
  v.emplace_back("example_kernel", polydat::cli::build_example_kernel());
  return v;
}

// The property's limit: a generated loop meant to run "forever" stops here.
InterpOptions limited() {
  InterpOptions o;
  o.max_iterations = 300;
  return o;
}

// Empty when `after` is a clean graph computing what `before` computes on `input`.
std::string check_result(const CategoryIr& before, const CategoryIr& after, const Value& input,
                         InterpOptions options = {}) {
  if (std::string v = violations_text(after); !v.empty()) return "validate: " + v;
  return outcome_difference(before, after, input, options);
}

// A deliberately wrong fold: an integer binary operation on two constants
// folds to the right value with its lowest bit flipped. `applied` says
// whether it folded anything.
Result<CategoryIr> wrong_fold(const CategoryIr& g, bool* applied) {
  CopyHooks hooks;
  hooks.replace = [&g, applied](CopyScope& s, ObjectId o) -> std::optional<Replacement> {
    const Object& obj = g.object(o);
    auto in = g.in_edges(o);
    if (obj.is_volatile || !obj.ty.is_int() || in.size() != 1) return std::nullopt;
    const Morphism& m = g.morphism(in[0]);
    if (form_of(m.op.kind) != Form::Binary || g.in_edges(m.source).size() != 2) return std::nullopt;
    std::optional<Value> operand[2];
    for (MorphismId e : g.in_edges(m.source)) operand[g.morphism(e).op.slot()] = s.known_value(g.morphism(e).source);
    if (!operand[0] || !operand[1]) return std::nullopt;
    *applied = true;
    const Value right = eval_binary(m.op.kind, *operand[0], *operand[1]);
    return Replacement::constant(Value::integer(obj.ty.kind(), right.bits() ^ 1));
  };
  return copy_graph(g, hooks);
}
}  // namespace

TEST_CASE("passes: every pass and the pipeline on every shape and the example kernel") {
  for (const auto& [name, g] : every_graph()) {
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    for (const Pass& p : passes()) {
      CAPTURE(name);
      CAPTURE(p.name);
      auto r = p.run(g);
      REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
      for (const Value& x : sample_inputs(in)) {
        REQUIRE(evaluate(g, g.entry(), x).ok());
        CHECK_MESSAGE(check_result(g, *r, x).empty(), check_result(g, *r, x));
      }
      CHECK(graph_size(*r) <= graph_size(g) + (std::string(p.name) == "inline" ? graph_size(g) : 0));
      CHECK(to_mermaid(*p.run(g)) == to_mermaid(*r));  // deterministic
    }
  }
}

TEST_CASE("pass pipeline: inline, fold, merge and prune, on a hand-built program") {
  // main(x) = twice(2 * 3) + (x + 1) * (x + 1), twice(y) = y + y, and an unused x * 9.
  HandFn f("main", Ty::u64(), Ty::u64());
  const FuncId twice = f.callee("twice", Ty::u64(), Ty::u64(), [](HandFn& c) { c.op(K::Add, c.in(), c.in(), Dest::ret()); });
  const ObjectId t = f.call(twice, f.op(K::Mul, f.k(2), f.k(3)));
  const ObjectId sq = f.op(K::Mul, f.op(K::Add, f.in(), f.k(1)), f.op(K::Add, f.in(), f.k(1)));
  f.op(K::Mul, f.in(), f.k(9));
  f.op(K::Add, t, sq, Dest::ret());
  const CategoryIr g = f.seal();
  auto r = optimize(g);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
  const CategoryIr& o = *r;
  CHECK(violations_text(o).empty());
  // Left: x, ret, 1, (x, 1), x + 1, (x + 1, x + 1), the square, 12, (12, square).
  CHECK(o.funcs().size() == 1);
  CHECK(o.objects().size() == 9);
  CHECK(o.morphisms().size() == 9);  // 6 Pairs, Add, Mul, Add
  CHECK(count_op(o, K::Call) == 0);
  CHECK(count_op(o, K::Add) == 2);
  CHECK(count_op(o, K::Mul) == 1);
  CHECK(count_kind(o, ObjectKind::Constant) == 2);
  for (uint64_t x : {0, 1, 7}) CHECK(evaluate(o, o.entry(), shapes::u64(x))->as_u64() == (x + 1) * (x + 1) + 12);
}

TEST_CASE("pass pipeline: what it does to sum_to_n and to the example kernel") {
  SUBCASE("sum_to_n: the initial state (1, 0) becomes one constant; the loop is untouched") {
    const CategoryIr g = shapes::sum_to_n();
    const CategoryIr o = *optimize(g);
    MESSAGE("sum_to_n: " << g.objects().size() << " objects, " << g.morphisms().size() << " morphisms -> "
                         << o.objects().size() << " objects, " << o.morphisms().size() << " morphisms");
    CHECK(g.objects().size() == 17);
    CHECK(g.morphisms().size() == 22);
    CHECK(o.objects().size() == 16);    // the product (1, 0) and the 0 give way to the constant (1, 0)
    CHECK(o.morphisms().size() == 20);  // its two Pair edges go
    CHECK(count_kind(o, ObjectKind::LoopMerge) == 1);
    for (uint64_t n : {0, 1, 10, 100}) CHECK(evaluate(o, o.entry(), shapes::u64(n))->as_u64() == n * (n + 1) / 2);
  }
  SUBCASE("the example kernel: hash inlined; nothing to fold, merge or prune") {
    const CategoryIr g = polydat::cli::build_example_kernel();
    const CategoryIr o = *optimize(g);
    MESSAGE("example kernel: " << g.objects().size() << " objects, " << g.morphisms().size() << " morphisms in "
                               << g.funcs().size() << " functions -> " << o.objects().size() << " objects, "
                               << o.morphisms().size() << " morphisms in " << o.funcs().size());
    // example: in, ret, cycle, the call's result, 1000, (h, 1000), id; hash: in, ret, 8 constants,
    // 13 operand pairs, 12 results. Inlined: hash's in and ret, and the call's result, give way
    // to the hash's last Xor.
    CHECK(g.objects().size() == 42);
    CHECK(g.morphisms().size() == 45);
    CHECK(o.objects().size() == 40);
    CHECK(o.morphisms().size() == 44);  // the Call edge is gone
    CHECK(o.funcs().size() == 1);
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    for (const Value& x : sample_inputs(in)) CHECK(outcome_difference(g, o, x).empty());
  }
}

TEST_CASE("passes: generated programs with calls and loops compute the same after every pass") {
  const auto start = std::chrono::steady_clock::now();
  CHECK(rc::check([] {
    const Generated p = ProgramGen(GenOptions{true}).make();
    RC_ASSERT(violations_text(p.ir).empty());
    const auto original = evaluate(p.ir, p.ir.entry(), p.input, limited());
    RC_CLASSIFY(original.ok(), "the original evaluates");
    RC_CLASSIFY(!original.ok(), "the original hits the iteration limit");
    for (const Pass& pass : passes()) {
      auto r = pass.run(p.ir);
      if (!r) RC_FAIL(std::string(pass.name) + ": " + r.error().message);
      const std::string problem = check_result(p.ir, *r, p.input, limited());
      if (!problem.empty()) RC_FAIL(std::string(pass.name) + ": " + problem);
      auto again = pass.run(p.ir);
      RC_ASSERT(again.ok());
      RC_ASSERT(to_mermaid(*again) == to_mermaid(*r));
      if (std::string(pass.name) == "pipeline") {
        RC_ASSERT(r->funcs().size() == 1u);
        RC_ASSERT(count_op(*r, K::Call) == 0u);
        RC_CLASSIFY(graph_size(*r) < graph_size(p.ir), "the pipeline shrinks it");
      }
    }
  }));
  MESSAGE("generated-program property: "
          << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s");
}

// The harness can fail: a constant corrupted in a result is reported.
TEST_CASE("passes harness: a wrong fold planted in a result is reported") {
  SUBCASE("fold's 6 in 6 + x made 7") {
    HandFn f("main", Ty::u64(), Ty::u64());
    f.op(K::Add, f.op(K::Mul, f.k(2), f.k(3)), f.in(), Dest::ret());
    const CategoryIr g = f.seal();
    CategoryIr folded = *fold_constants(g);
    for (uint64_t x : {0, 5}) REQUIRE(check_result(g, folded, shapes::u64(x)).empty());
    bool planted = false;
    for (const Object& o : folded.objects())
      if (o.kind == ObjectKind::Constant && o.value->as_u64() == 6) {
        GraphSurgery::object(folded, o.id).value = shapes::u64(7);
        planted = true;
      }
    REQUIRE(planted);
    CHECK(violations_text(folded).empty());  // still well-formed: only the interpreter can tell
    for (uint64_t x : {0, 5}) CHECK(check_result(g, folded, shapes::u64(x)) ==
                                    "on " + std::to_string(x) + ": expected " + std::to_string(x + 6) + ", got " +
                                        std::to_string(x + 7));
  }
  SUBCASE("every constant of the optimised example kernel, one at a time") {
    const CategoryIr g = polydat::cli::build_example_kernel();
    const CategoryIr o = *optimize(g);
    const Ty& in = g.object(g.func(g.entry()).input).ty;
    size_t planted = 0, reported = 0;
    for (const Object& c : o.objects()) {
      if (c.kind != ObjectKind::Constant) continue;
      CategoryIr bad = o;
      GraphSurgery::object(bad, c.id).value = Value::integer(TyKind::U64, c.value->as_u64() ^ 1);
      ++planted;
      bool seen = false;
      for (const Value& x : sample_inputs(in)) seen = seen || !check_result(g, bad, x).empty();
      reported += seen;
    }
    CHECK(planted == 9);  // the hash's 8 and the modulus
    CHECK(reported == planted);
  }
}

TEST_CASE("passes harness: wrong folds planted in generated programs are reported") {
  // Two plants per program: the pipeline's result with every integer constant
  // off by its lowest bit (made with GraphSurgery: still well-formed), and a
  // fold pass that gets integer operations on constants wrong. The check
  // that passes every real pass above must report them where they show.
  static std::atomic<int> corrupted{0}, corrupted_seen{0}, misfolded{0}, misfolded_seen{0};
  corrupted = corrupted_seen = misfolded = misfolded_seen = 0;
  const bool ok = rc::check([] {
    const Generated p = ProgramGen(GenOptions{true}).make();
    RC_PRE(evaluate(p.ir, p.ir.entry(), p.input, limited()).ok());
    auto optimized = optimize(p.ir);
    RC_ASSERT(optimized.ok());
    CategoryIr bad = std::move(optimized).value();
    bool planted = false;
    for (const Object& o : bad.objects())
      if (o.kind == ObjectKind::Constant && o.ty.is_int() && !o.is_volatile) {
        GraphSurgery::object(bad, o.id).value = Value::integer(o.ty.kind(), o.value->bits() ^ 1);
        planted = true;
      }
    RC_ASSERT(violations_text(bad).empty());
    const bool seen = !check_result(p.ir, bad, p.input, limited()).empty();
    RC_ASSERT(planted || !seen);  // nothing planted, nothing reported
    RC_CLASSIFY(seen, "corrupted constants reported");
    corrupted += planted;
    corrupted_seen += seen;

    bool applied = false;
    auto misfold = wrong_fold(p.ir, &applied);
    RC_ASSERT(misfold.ok());
    RC_ASSERT(violations_text(*misfold).empty());
    const bool misfold_seen = !check_result(p.ir, *misfold, p.input, limited()).empty();
    RC_ASSERT(applied || !misfold_seen);
    RC_CLASSIFY(misfold_seen, "wrong fold reported");
    misfolded += applied;
    misfolded_seen += misfold_seen;
  });
  CHECK(ok);
  MESSAGE("corrupted constants: planted in " << corrupted.load() << " programs, reported in " << corrupted_seen.load()
                                            << "; wrong fold: planted in " << misfolded.load() << ", reported in "
                                            << misfolded_seen.load());
  CHECK(corrupted_seen.load() > 0);
}
