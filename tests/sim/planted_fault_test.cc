// The harness can fail: faults planted in the SystemVerilog (or in the
// design's cycle claims) must each be caught, by the field that names them.
#include <doctest/doctest.h>

#include "rtl/emit_sv.h"
#include "tests/sim/cosim_support.h"

using namespace polydat;
using simtest::CosimRun;
using simtest::SimKernel;

namespace {

constexpr size_t kEvaluations = 500;

struct Fixture {
  std::unique_ptr<SimKernel> kernel;
  sim::Batch batch;
  sim::EngineRun expected;
};

Fixture fixture(const std::string& key, uint64_t seed, const hls::HlsOptions& options = {}) {
  simtest::Loaded loaded = simtest::load_kernel(key, options);
  REQUIRE_MESSAGE(loaded.kernel, loaded.why);
  Fixture f{std::move(loaded.kernel), {}, {}};
  f.batch = simtest::draw_batch(*f.kernel, simtest::default_configs(*f.kernel), kEvaluations, seed);
  auto expected = simtest::run_oracle(*f.kernel, f.batch);
  REQUIRE_MESSAGE(expected.ok(), (expected.ok() ? "" : expected.error()));
  f.expected = std::move(*expected);
  return f;
}

// The design's own SystemVerilog with one planted change (which must apply).
std::string planted(const SimKernel& k, const std::string& on_line, const std::string& from, const std::string& to) {
  const std::optional<std::string> sv = simtest::replace_first(k.module.text, on_line, from, to);
  REQUIRE_MESSAGE(sv.has_value(), ("nothing to plant: no `" + from + "` on a line with `" + on_line + "`"));
  return *sv;
}

CosimRun run_mutant(const Fixture& f, const std::string& sv, double stall, uint64_t seed) {
  flow::EngineOptions o = simtest::test_options(stall, seed);
  o.sv = sv;
  return simtest::cosimulate(*f.kernel, f.batch, f.expected, o);
}

// A wrong operator shows as mismatches, and the first names the evaluation
// where the model first disagrees with the oracle, with its inputs.
void check_caught_as_mismatch(const Fixture& f, const CosimRun& r) {
  REQUIRE_MESSAGE(r.error.empty(), r.error);
  INFO(sim::render(r.report, f.kernel->design));
  CHECK_FALSE(r.report.ok());
  REQUIRE(r.report.mismatches > 0);
  REQUIRE(r.report.first.has_value());
  size_t differing = 0, first_differing = f.batch.inputs.size();
  for (size_t i = 0; i < r.run.outputs.size(); ++i)
    if (r.run.outputs[i] != f.expected.outputs[i] && differing++ == 0) first_differing = i;
  CHECK(r.report.mismatches == differing);
  const sim::Mismatch& m = *r.report.first;
  CHECK(m.evaluation == first_differing);
  CHECK(m.inputs == f.batch.inputs[m.evaluation]);
  CHECK(m.expected == f.expected.outputs[m.evaluation]);
  CHECK(m.actual == r.run.outputs[m.evaluation]);
  CHECK(m.expected != m.actual);
}

}  // namespace

TEST_CASE("faults: a swapped operator in a pipeline is a mismatch") {
  const Fixture f = fixture("rtl/ids_hash", 11);
  REQUIRE_FALSE(f.kernel->is_fsm());
  const CosimRun r = run_mutant(f, planted(*f.kernel, "assign ", " ^ ", " | "), 0.0, 1);
  check_caught_as_mismatch(f, r);
}

TEST_CASE("faults: a swapped operator in an FSM is a mismatch") {
  const Fixture f = fixture("corpus/sum_to_n", 12);
  REQUIRE(f.kernel->is_fsm());
  const CosimRun r = run_mutant(f, planted(*f.kernel, "assign ", " + ", " - "), 0.0, 1);
  check_caught_as_mismatch(f, r);
}

TEST_CASE("faults: an input taken while the pipeline is stalled is lost") {
  const Fixture f = fixture("rtl/ids_hash", 13);
  const std::string sv = planted(*f.kernel, "assign in_ready", "!stall", "1'b1");
  // Under free flow the output is always taken, so the pipeline never stalls: the fault is invisible...
  const CosimRun free_flow = run_mutant(f, sv, 0.0, 1);
  REQUIRE_MESSAGE(free_flow.error.empty(), free_flow.error);
  CHECK(free_flow.report.ok());
  // ...under stalls the inputs accepted while stalled never come out: the run hangs short of its results.
  flow::EngineOptions o = simtest::test_options(0.3, 2);
  o.sv = sv;
  o.max_idle = 10'000;
  const CosimRun stalled = simtest::cosimulate(*f.kernel, f.batch, f.expected, o);
  INFO(stalled.error);
  INFO(sim::render(stalled.report, f.kernel->design));
  CHECK((!stalled.error.empty() || !stalled.report.ok()));
  CHECK(stalled.error.find("hangs") != std::string::npos);
}

TEST_CASE("faults: a cycle claim off by one is caught under free flow") {
  for (const char* key : {"rtl/ids_hash", "corpus/sum_to_n"}) {
    CAPTURE(key);
    const Fixture f = fixture(key, 14);
    const CosimRun r = simtest::cosimulate(*f.kernel, f.batch, f.expected, simtest::test_options(0.0, 1));
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    REQUIRE(r.report.ok());
    // The same model and results, judged against a design that claims one cycle more.
    hls::Design claims_more = f.kernel->design;
    if (claims_more.kind == hls::DesignKind::Pipeline)
      ++claims_more.stages;
    else
      ++claims_more.post_steps;
    const sim::CosimReport rep = sim::compare(claims_more, f.batch, f.expected, r.run, true);
    INFO(sim::render(rep, claims_more));
    CHECK_FALSE(rep.ok());
    CHECK(rep.mismatches == 0);
    // Every evaluation's latency is one short of the claim.
    CHECK(rep.latency_wrong >= rep.compared);
    CHECK(rep.latency_first_wrong.find("evaluation 0:") == 0);
    // Stalls make the latency unpredictable: no claim is checked then.
    const sim::CosimReport stalled = sim::compare(claims_more, f.batch, f.expected, r.run, false);
    CHECK(stalled.latency_checked == 0);
  }
}

TEST_CASE("faults: an output register left out of reset shows right after reset") {
  const Fixture f = fixture("corpus/sum_to_n", 15);
  REQUIRE(f.kernel->is_fsm());
  const std::string out = rtl::port_names(f.kernel->design).outputs.at(0);
  const std::string sv = planted(*f.kernel, out + " <= '0;", "      " + out + " <= '0;", "");
  // Registers start random: each seed gives the unreset output another value.
  for (const uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    const CosimRun r = run_mutant(f, sv, 0.0, seed);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    CHECK(r.post_reset != sim::expected_post_reset(f.kernel->design));
    // The results alone do not show it: the output is written before it is first valid.
    CHECK(r.report.ok());
  }
}

// A part too small for any pipeline of splitmix64 (an HX1K's logic, no DSP blocks): the iterative FSM.
hls::HlsOptions on_hx1k() {
  hls::HlsOptions o;
  o.capacity = hls::Capacity{"hx1k", 1280, 1280, 1280, 0};
  return o;
}

TEST_CASE("faults: an iterative multiplier that adds without carries is a mismatch") {
  const Fixture f = fixture("corpus/stdlib_splitmix64", 16, on_hx1k());
  REQUIRE(f.kernel->is_fsm());
  REQUIRE_FALSE(f.kernel->design.fallback.empty());
  const CosimRun r = run_mutant(f, planted(*f.kernel, "_bit) ", " + ", " ^ "), 0.0, 1);
  check_caught_as_mismatch(f, r);
}

// ---- a pipeline at an II above 1 (hls/synthesize.cc's II search; rtl/emit_pipeline.cc) ----

hls::HlsOptions at_ii(uint32_t ii) {
  hls::HlsOptions o;
  o.ii = ii;
  return o;
}

TEST_CASE("faults: a register of an II-3 pipeline loading in every slot, not only its own, is a mismatch") {
  const Fixture f = fixture("corpus/stdlib_splitmix64", 17, at_ii(3));
  REQUIRE(f.kernel->design.ii == 3);
  // The first slot's registers load every cycle: a reader two or three stages on sees the next cycle's value.
  const CosimRun r = run_mutant(f, planted(*f.kernel, "if (phase == ", "if (phase == ", "if (1'b1 || phase == "), 0.0, 1);
  check_caught_as_mismatch(f, r);
}

TEST_CASE("faults: an II-3 pipeline taking an input in every slot loses inputs") {
  const Fixture f = fixture("corpus/stdlib_splitmix64", 18, at_ii(3));
  REQUIRE(f.kernel->design.ii == 3);
  const CosimRun r = run_mutant(f, planted(*f.kernel, "assign in_ready", " && phase == ", " || phase == "), 0.0, 1);
  INFO(r.error);
  INFO(sim::render(r.report, f.kernel->design));
  CHECK((!r.error.empty() || !r.report.ok()));
}

TEST_CASE("faults: a shared DSP block's operands chosen by the wrong slot are a mismatch") {
  const Fixture f = fixture("corpus/stdlib_splitmix64", 19, at_ii(3));
  REQUIRE(f.kernel->design.ii == 3);
  const CosimRun r = run_mutant(f, planted(*f.kernel, "_a = phase == ", "_a = phase == ", "_a = phase != "), 0.0, 1);
  check_caught_as_mismatch(f, r);
}
