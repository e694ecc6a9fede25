// single_loop_fsm on real kernels compiled from GK text and optimised (every
// call inlined), as `polydat hls` runs it. The expected lines are counted in
// the kernel texts below (line 1 is the first line of each string).
#include <doctest/doctest.h>

#include <string>

#include "hls/design.h"
#include "hls/predicate.h"
#include "hls_support.h"

using namespace polydat;
using namespace polydat::hls;
using hls::testing::compile_kernel;

namespace {

ir::Expected<DesignKind, HlsError> predicate(const std::string& text) {
  auto k = compile_kernel(text);
  INFO(k.error);
  REQUIRE(k.ok());
  return single_loop_fsm(*k.ir, k.ir->entry());
}

void check_refusal(const ir::Expected<DesignKind, HlsError>& r, const std::string& kind, uint32_t line) {
  REQUIRE_FALSE(r.ok());
  INFO(r.error().kind << ": " << r.error().message);
  CHECK(r.error().kind == kind);
  CHECK(r.error().loc.line == line);
  CHECK(r.error().loc.file == 0);  // the kernel's own file, not a library module
  CHECK_FALSE(r.error().message.empty());
}

}  // namespace

TEST_SUITE("single_loop_fsm") {

TEST_CASE("loop-free kernels become pipelines") {
  CHECK(*predicate("input cycle: u64\nid := mod(hash(cycle), 1000)\n") == DesignKind::Pipeline);
  CHECK(*predicate("input (a: u32, b: u32)\ns := a + b\nt := if(s > 7, s, b)\n") == DesignKind::Pipeline);
  CHECK(*predicate("input x: u8\nflag := x == 3\n") == DesignKind::Pipeline);
  // Constants only (no input at all).
  CHECK(*predicate("k := 41 + 1\n") == DesignKind::Pipeline);
}

TEST_CASE("one loop becomes an FSM") {
  SUBCASE("sum_to_n") {
    CHECK(*predicate("input n: u64\n"
                     "total := loop (i = 1, acc = 0) while i <= n {\n"
                     "    acc = acc + i\n"
                     "    i = i + 1\n"
                     "} yield acc\n") == DesignKind::Fsm);
  }
  SUBCASE("pcg_stream(position, stream)") {
    CHECK(*predicate("input position: u64\ninput stream: u64\nout := pcg_stream(position, stream)\n") == DesignKind::Fsm);
  }
  SUBCASE("permute(position, 1000, 7)") {
    CHECK(*predicate("input position: u64\nout := permute(position, 1000, 7)\n") == DesignKind::Fsm);
  }
  SUBCASE("cycle_walk: constant keys fold, one Feistel loop") {
    CHECK(*predicate("input position: u64\nout := cycle_walk(position, 100000, 42, 5)\n") == DesignKind::Fsm);
  }
  SUBCASE("a loop with loop-free work beside it") {
    CHECK(*predicate("input n: u64\n"
                     "side := hash(n)\n"
                     "k := loop (j = 0) while j * j < n { j = j + 1 } yield j\n") == DesignKind::Fsm);
  }
}

TEST_CASE("two sequential loops are refused at the second loop") {
  SUBCASE("the second reads the first") {
    check_refusal(predicate("input n: u64\n"
                            "a := loop (i = 0, s = 0) while i < n {\n"
                            "    s = s + i\n"
                            "    i = i + 1\n"
                            "} yield s\n"
                            "b := loop (j = 0, t = a) while j < n {\n"  // line 6
                            "    t = t * 3\n"
                            "    j = j + 1\n"
                            "} yield t\n"),
                  "two-loops", 6);
  }
  SUBCASE("independent loops") {
    check_refusal(predicate("input n: u64\n"
                            "a := loop (i = 0, s = 0) while i < n {\n"
                            "    s = s + i\n"
                            "    i = i + 1\n"
                            "} yield s\n"
                            "b := loop (j = 0, t = 1) while j < n {\n"  // line 6
                            "    t = t * 3\n"
                            "    j = j + 1\n"
                            "} yield t\n"),
                  "two-loops", 6);
  }
  SUBCASE("two library loops: pcg then permute") {
    // Both loops are in library files; the refusal still names a loop.
    auto r = predicate("input (p: u64, s: u64)\n"
                       "a := pcg_stream(p, s)\n"
                       "b := permute(a, 1000, 3)\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == "two-loops");
    CHECK(r.error().loc.line > 0);
  }
}

TEST_CASE("nested loops are refused at the inner loop") {
  check_refusal(predicate("input n: u64\n"
                          "total := loop (i = 0, acc = 0) while i < n {\n"
                          "    inner := loop (j = 0, s = 0) while j <= i {\n"  // line 3
                          "        s = s + j * i\n"
                          "        j = j + 1\n"
                          "    } yield s\n"
                          "    acc = acc + inner\n"
                          "    i = i + 1\n"
                          "} yield acc\n"),
                "nested-loops", 3);
  // An inner loop written as an operand.
  check_refusal(predicate("input n: u64\n"
                          "total := loop (i = 0, acc = 0) while i < n {\n"
                          "    acc = acc + loop (j = 0, s = 0, top = i) while j <= top { s = s + j; j = j + 1 } yield s\n"
                          "    i = i + 1\n"
                          "} yield acc\n"),
                "nested-loops", 3);
}

TEST_CASE("a value without a hardware width is refused, naming its binding and line") {
  SUBCASE("f64") {
    auto r = predicate("input cycle: u64\n"
                       "half := (cycle as f64) * 0.5\n"  // line 2
                       "back := half as u64\n");
    check_refusal(r, "no-hardware-width", 2);
    CHECK(r.error().message.find("'half'") != std::string::npos);
    CHECK(r.error().message.find("f64") != std::string::npos);
  }
  SUBCASE("f32 input") {
    auto r = predicate("input (n: u64, ratio: f32)\n"
                       "m := n + 1\n"
                       "scaled := ratio * 2.0\n");  // line 3
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == "no-hardware-width");
    CHECK(r.error().message.find("f32") != std::string::npos);
  }
  SUBCASE("str: the bundled example kernel") {
    auto r = predicate("// The bundled example: an id in [0, 1000) per cycle, and a few derived fields.\n"
                       "input cycle: u64\n"
                       "id := mod(hash(cycle), 1000)\n"
                       "bucket := id / 100\n"
                       "label := \"user-{id}\"\n"  // line 5
                       "output id\n");
    check_refusal(r, "no-hardware-width", 5);
    CHECK(r.error().message.find("'label'") != std::string::npos);
    CHECK(r.error().message.find("str") != std::string::npos);
  }
  SUBCASE("a loop carrying an f64") {
    auto r = predicate("input n: u64\n"
                       "x := loop (i = 0, f = 1.0) while i < n {\n"  // line 2
                       "    f = f * 0.5\n"
                       "    i = i + 1\n"
                       "} yield i\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == "no-hardware-width");
    CHECK(r.error().loc.line >= 2);
    CHECK(r.error().loc.line <= 3);
  }
}

TEST_CASE("a variable exponent and a constant one both synthesize") {
  // (in a child process: the constant-power bug of dfg_test.cc)
  const auto problems = hls::testing::isolated([] {
    std::vector<std::string> out;
    for (const char* text : {"input cycle: u64\nbase := cycle + 1\np := 3 ** base\n", "input cycle: u64\np := cycle ** 3\n"}) {
      auto k = compile_kernel(text);
      if (!k.ok()) return std::vector<std::string>{"does not compile"};
      auto d = synthesize(*k.ir, k.ir->entry(), k.config, HlsOptions{});
      if (!d) out.push_back("refused: " + d.error().kind + ": " + d.error().message);
    }
    return out;
  });
  CHECK_MESSAGE(problems.empty(), hls::testing::join(problems));
}

TEST_CASE("synthesize reports the predicate's refusals") {
  auto d = hls::testing::synth("input n: u64\n"
                               "a := loop (i = 0) while i < n { i = i + 1 } yield i\n"
                               "b := loop (j = 0) while j < a { j = j + 2 } yield j\n");  // line 3
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().kind == "two-loops");
  CHECK(d.error().loc.line == 3);
}

TEST_CASE("a call that was not inlined is refused") {
  // The graph as lowered, before the optimiser inlines hash.
  auto k = compile_kernel("input cycle: u64\nh := hash(cycle)\n");
  REQUIRE(k.raw.has_value());
  auto r = single_loop_fsm(*k.raw, k.raw->entry());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == "not-inlined");
  CHECK(r.error().loc.line == 2);
  // After optimisation the same kernel is a pipeline.
  CHECK(*single_loop_fsm(*k.ir, k.ir->entry()) == DesignKind::Pipeline);
}

}  // TEST_SUITE
