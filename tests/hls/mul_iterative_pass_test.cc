// Multiplications as iterative units: which ones the pass marks, the steps and
// operands the unit takes (worked out by hand), outputs unchanged, and the
// fallback synthesize() takes when the II-1 design does not fit the part: the
// design it picks, its estimate against the pipeline's, and its invariants.
#include <doctest/doctest.h>

#include "hls/design.h"
#include "hls/mul_iterative_pass.h"
#include "hls/narrow_pass.h"
#include "hls/report.h"
#include "hls_support.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

size_t marked(const Dfg& g) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    n += live[v] && g.is_op(v) && g.nodes[v].op == Op::Mul && g.nodes[v].param == kMulIterative;
  return n;
}

// The one live multiplication of g.
ValueId the_mul(const Dfg& g) {
  const auto live = g.live();
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_op(v) && g.nodes[v].op == Op::Mul) return v;
  FAIL("no multiplication");
  return 0;
}

HlsOptions on_part(uint32_t luts) {
  HlsOptions o;
  o.capacity = Capacity{"test", luts, luts, luts, 0};
  return o;
}

constexpr const char* kTwoHashes = "input cycle: u64\nh := hash(cycle)\nhh := hash(hash(cycle) ^ 5)\n";

}  // namespace

TEST_SUITE("mul iterative") {

TEST_CASE("the pass marks the wide multiplications only, and the outputs stay") {
  const Dfg g = dfg_from("input (a: u64, b: u16, c: u8)\nw := a * 0x9E3779B97F4A7C15\nv := a * (b as u64)\n"
                         "n := (c as u16) * (b & 0xFF)\n");
  const Dfg it = mul_iterative_pass(g);
  // w and v (64 bits) iterate; n (16 bits) stays a combinational product.
  CHECK(marked(it) == 2);
  CHECK(count_live(it, Op::Mul) == 3);
  const auto problems = pass_problems(g, it);
  CHECK_MESSAGE(problems.empty(), join(problems));
  MulIterativeOptions all;
  all.min_width = 1;
  CHECK(marked(mul_iterative_pass(g, all)) == 3);
}

TEST_CASE("random graphs keep their outputs") {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    MulIterativeOptions all;
    all.min_width = 1;
    const auto problems = pass_problems(g, mul_iterative_pass(g, all));
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
}

TEST_CASE("steps and operands: a constant is the multiplier, stepped to its highest one") {
  MulIterativeOptions all;
  all.min_width = 1;
  // 0x9E37... has bit 63 set: 64 steps. 5 = 101b: 3 steps, on either side.
  for (const auto& [text, steps] : std::vector<std::pair<std::string, unsigned>>{
           {"input a: u64\ny := a * 0x9E3779B97F4A7C15\n", 64},
           {"input a: u32\ny := a * 5\n", 3},
           {"input a: u32\ny := 5 * a\n", 3},
           // A 20-bit variable multiplier into a 64-bit product: its 20 bits.
           {"input (a: u64, b: u32)\ny := a * ((b & 0xFFFFF) as u64)\n", 20},
           // Both variable at 32 bits: the second operand's 32 bits.
           {"input (a: u32, b: u32)\ny := a * b\n", 32}}) {
    CAPTURE(text);
    const Dfg g = mul_iterative_pass(narrow_pass(dfg_from(text)), all);  // as optimize_dfg runs it: narrowed first
    const ValueId m = the_mul(g);
    CHECK(iterative_steps(g, m) == steps);
    const IterativeOperands o = iterative_operands(g, m);
    CHECK(o.multiplicand != o.multiplier);
    CHECK_FALSE(g.is_constant(o.multiplicand));
  }
}

TEST_CASE("a design that does not fit falls back to iterative multiplications, and says why") {
  const Design pipeline = must_synth(kTwoHashes, on_part(100000));
  REQUIRE(pipeline.kind == DesignKind::Pipeline);
  CHECK(pipeline.fallback.empty());
  const Resources big = pipeline.resources();
  // A part with half the pipeline's cells: the FSM.
  const Design fsm = must_synth(kTwoHashes, on_part(static_cast<uint32_t>(big.cells() / 2)));
  REQUIRE(fsm.kind == DesignKind::Fsm);
  CHECK_FALSE(fsm.dfg.loop.has_value());
  CHECK(fsm.fallback.find("the II-1 pipeline needs about") == 0);
  CHECK(fsm.fallback.find("test") != std::string::npos);
  const Resources small = fsm.resources();
  CHECK(small.cells() < big.cells() / 2);
  // Four 64-bit multiplications by constants (two per hash), one unit each,
  // every one a constant multiplier stepping through its bits.
  size_t units = 0;
  for (const FunctionalUnit& u : fsm.units)
    if (!u.ops.empty() && fsm.is_iterative(u.ops[0])) {
      ++units;
      CHECK(u.width == 64);
      CHECK(constant_multiplier(fsm.dfg, u.ops[0]));
      CHECK(fsm.multi_cycles(u.ops[0]) == iterative_steps(fsm.dfg, u.ops[0]) + 1);
    }
  CHECK(units == 4);
  const auto problems = design_problems(fsm);
  CHECK_MESSAGE(problems.empty(), join(problems));
  CHECK(report_text(fsm).find("not II 1: the II-1 pipeline") != std::string::npos);
  // Loop-free, so the latency is one count: no formula in t of a loop it does not have (issue 34).
  const std::string report = report_text(fsm);
  CHECK(report.find("  latency: " + std::to_string(fsm.latency(0)) + " cycles\n") != std::string::npos);
  CHECK(report.find("  states: " + std::to_string(fsm.states.size()) + " (idle, " + std::to_string(fsm.pre_steps) +
                    " computing, done)\n") != std::string::npos);
  CHECK(report.find("(t+1)") == std::string::npos);
  CHECK(report.find("initiation interval: latency + 1") != std::string::npos);
  CHECK(latency_formula(fsm) == std::to_string(fsm.latency(0)));
  // The outputs read the last unit's product: the design lasts one state past its last step.
  for (ValueId v = 0; v < fsm.dfg.nodes.size(); ++v)
    if (fsm.live[v] && fsm.is_iterative(v)) CHECK(fsm.place[v].step + fsm.multi_cycles(v) <= fsm.finish_state());
}

TEST_CASE("a kernel without a wide multiplication keeps a pipeline, fitting or not") {
  const Design fits = must_synth("input x: u64\ny := (x ^ (x >> 7)) + (x << 3)\n", on_part(100000));
  CHECK(fits.kind == DesignKind::Pipeline);
  CHECK(fits.fallback.empty());
  // On 10 LUTs nothing fits: no multiplication to iterate, so the smallest II tried (its registers held longer).
  const Design d = must_synth("input x: u64\ny := (x ^ (x >> 7)) + (x << 3)\n", on_part(10));
  CHECK(d.kind == DesignKind::Pipeline);
  REQUIRE_FALSE(d.ii_search.empty());
  CHECK(d.fallback.find("no II up to") != std::string::npos);
  for (const IiTrial& t : d.ii_search) CHECK(d.resources().cells() <= t.cells);
}

TEST_CASE("the estimate: an adder's LUTs and carries, its registers") {
  // y := x + 0x1234 at u32, 48 MHz: one adder by a constant (LUT4 and carry a
  // bit) in one stage; the stage's register holds y's 32 bits, plus its valid bit.
  const Design d = must_synth("input x: u32\ny := x + 0x1234\n", {});
  REQUIRE(d.kind == DesignKind::Pipeline);
  REQUIRE(d.stages == 1);
  const Resources r = d.resources();
  CHECK(r.luts == doctest::Approx(30));  // bits 0 .. 1 of 0x1234 are zero: x's own bits, no adder
  CHECK(r.carries == doctest::Approx(30));
  CHECK(r.ffs == doctest::Approx(33));
  CHECK(r.dsps == 0);
  CHECK(d.capacity.has_value());
  CHECK(d.capacity->device == "up5k");
}

}
