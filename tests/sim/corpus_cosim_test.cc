// Every kernel the hardware flow accepts (tests/corpus and tests/rtl/kernels)
// co-simulates against the interpreter with no mismatch, under free flow and
// under random stalls, and meets the report's cycle claims for every evaluation.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <algorithm>

#include "rtl/emit_sv.h"
#include "tests/sim/cosim_support.h"

using namespace polydat;
using simtest::CosimRun;
using simtest::SimKernel;

namespace {

constexpr size_t kEvaluations = 10'000;

// A seed of its own for each kernel, stable when kernels are added (FNV-1a of the key).
uint64_t seed_of(const std::string& key) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

// The checks every run must pass, whatever the flow: all results, right, in order.
// False when the engine could not run at all (the caller goes on to the next run).
// The state right after reset is checked by a test case below, on the same models and seeds.
bool check_run(const SimKernel& k, const CosimRun& r, size_t n) {
  CHECK_MESSAGE(r.error.empty(), r.error);
  if (!r.error.empty()) return false;
  INFO(sim::render(r.report, k.design));
  CHECK(r.report.ok());
  CHECK(r.report.compared == n);
  CHECK(r.report.mismatches == 0);
  CHECK(r.report.missing.empty());
  return true;
}

// Under free flow the measured cycles are the report's, evaluation by evaluation.
void check_cycle_claims(const SimKernel& k, const CosimRun& r) {
  INFO(sim::render(r.report, k.design));
  CHECK(r.report.latency_checked == r.report.compared);
  CHECK(r.report.latency_wrong == 0);
  if (!k.is_fsm()) {
    CHECK(r.report.min_ii == k.design.ii);
    CHECK(r.report.max_ii == k.design.ii);
    CHECK(r.report.min_latency == k.design.stages);
    CHECK(r.report.max_latency == k.design.stages);
  }
}

// The batch through the oracle, then through the model free-flowing and stalled.
void cosimulate_both_ways(const SimKernel& k, const sim::Batch& batch, uint64_t seed) {
  auto expected = simtest::run_oracle(k, batch);
  REQUIRE_MESSAGE(expected.ok(), (expected.ok() ? "" : expected.error()));
  const CosimRun free_flow = simtest::cosimulate(k, batch, *expected, simtest::test_options(0.0, seed));
  if (check_run(k, free_flow, batch.inputs.size())) check_cycle_claims(k, free_flow);
  const CosimRun stalled = simtest::cosimulate(k, batch, *expected, simtest::test_options(0.3, seed + 1));
  check_run(k, stalled, batch.inputs.size());
  const auto [fewest, most] = std::minmax_element(expected->iterations.begin(), expected->iterations.end());
  MESSAGE(fmt::format("{}: {} {} evaluations (loop trips {}..{}); free flow {} cycles, latency {}..{}, II {}..{}; "
                      "stall 0.3 {} cycles",
                      k.source.key, k.is_fsm() ? "FSM" : "pipeline", batch.inputs.size(), *fewest, *most,
                      free_flow.report.cycles, free_flow.report.min_latency, free_flow.report.max_latency, free_flow.report.min_ii,
                      free_flow.report.max_ii, stalled.report.cycles));
}

// Every kernel loaded once, and the accepted ones' models built as one program.
const std::vector<simtest::Loaded>& corpus_with_models() {
  static const std::vector<simtest::Loaded> all =
      simtest::load_all_with_models("verilator", POLYDAT_TEST_CACHE);
  return all;
}

}  // namespace

TEST_CASE("corpus: every accepted kernel co-simulates with the interpreter, free-flowing and stalled") {
  std::vector<std::string> accepted;
  const std::vector<rtltest::Kernel> sources = rtltest::all_kernels();
  for (size_t i = 0; i < sources.size(); ++i) {
    const rtltest::Kernel& source = sources[i];
    CAPTURE(source.key);
    const simtest::Loaded& loaded = corpus_with_models()[i];
    // This flow keeps the optimised IR; it must build what `polydat hls` builds.
    const rtltest::Flow flow = rtltest::run_flow(source);
    REQUIRE(loaded.kernel.operator bool() == flow.design.has_value());
    if (!loaded.kernel) continue;
    const SimKernel& k = *loaded.kernel;
    REQUIRE(k.module.text == flow.module->text);
    accepted.push_back(source.key);
    const uint64_t seed = seed_of(source.key);
    cosimulate_both_ways(k, simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, seed), seed);
  }
  MESSAGE(fmt::format("{} kernels accepted by the hardware flow and co-simulated", accepted.size()));
  // The loops and the pipelines the issue names are among them (the suite cannot pass by skipping).
  for (const char* key : {"rtl/pcg_fsm", "rtl/permute_fsm", "corpus/sum_to_n", "corpus/lfsr", "corpus/long_loop",
                          "rtl/ids_hash", "rtl/two_ops", "rtl/with_cfg"})
    CHECK_MESSAGE(std::find(accepted.begin(), accepted.end(), key) != accepted.end(), key);
}

TEST_CASE("corpus: externs other than their defaults reach the datapath") {
  const simtest::Loaded loaded = simtest::load_kernel("rtl/with_cfg");
  REQUIRE_MESSAGE(loaded.kernel, loaded.why);
  const SimKernel& k = *loaded.kernel;
  // Every extern away from its default: bools flipped, integers a random pattern.
  std::vector<ir::Value> configs = simtest::default_configs(k);
  REQUIRE(!configs.empty());
  for (ir::Value& c : configs)
    c = c.ty().is_bool() ? ir::Value::boolean(!c.as_bool()) : simtest::value_of(c.ty(), c.bits() ^ 0x9e3779b97f4a7c15ull);
  CHECK(configs != simtest::default_configs(k));
  const uint64_t seed = seed_of("rtl/with_cfg non-default");
  cosimulate_both_ways(k, simtest::draw_batch(k, configs, kEvaluations, seed), seed);
}

// Registers start random: after reset every output reads 0, except a pipeline's
// constant output (corpus/outputs: `d := 5` is `assign out_d = 64'h5;`).
TEST_CASE("corpus: every accepted kernel's model shows the defined post-reset state") {
  const std::vector<rtltest::Kernel> sources = rtltest::all_kernels();
  for (size_t i = 0; i < sources.size(); ++i) {
    const rtltest::Kernel& source = sources[i];
    CAPTURE(source.key);
    const simtest::Loaded& loaded = corpus_with_models()[i];
    if (!loaded.kernel) continue;
    const SimKernel& k = *loaded.kernel;
    // The seeds of the co-simulation runs above (the same cached models): no
    // evaluation is needed, the state is printed before the first one.
    const sim::Batch empty{{}, simtest::default_configs(k)};
    const sim::EngineRun nothing;
    for (const uint64_t seed : {seed_of(source.key), seed_of(source.key) + 1}) {
      const CosimRun r = simtest::cosimulate(k, empty, nothing, simtest::test_options(0.0, seed));
      REQUIRE_MESSAGE(r.error.empty(), r.error);
      CHECK(r.post_reset == sim::expected_post_reset(k.design));
    }
  }
}
