// Hardware-accepted kernels co-simulated in SystemC: 10,000 evaluations each,
// free-flowing and under stall 0.3, with zero mismatches both on the host
// (sim::compare) and in the testbench's reference model, the report's
// latency and II under free flow, and the defined post-reset state.
// The representative kernels first, so a failure there is reported early, then
// the rest; every model is built into one SystemC program (a model set).
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <algorithm>

#include "tests/systemc/systemc_support.h"

using namespace polydat;

namespace {

constexpr size_t kEvaluations = 10'000;

void check_run(const simtest::SimKernel& k, const sctest::ScRun& r, size_t n, bool free_flow) {
  REQUIRE_MESSAGE(r.cosim.error.empty(), r.cosim.error);
  INFO(sim::render(r.cosim.report, k.design));
  CHECK(r.cosim.report.ok());
  CHECK(r.cosim.report.compared == n);
  CHECK(r.reference.ran);
  CHECK(r.reference.compared == n);
  CHECK(r.reference.mismatches == 0);
  CHECK(r.cosim.post_reset == sim::expected_post_reset(k.design));
  if (!free_flow) return;
  CHECK(r.cosim.report.latency_checked == n);
  CHECK(r.cosim.report.latency_wrong == 0);
  if (!k.is_fsm() && n > 1) {
    CHECK(r.cosim.report.min_ii == k.design.ii);
    CHECK(r.cosim.report.max_ii == k.design.ii);
    CHECK(r.cosim.report.min_latency == k.design.stages);
    CHECK(r.cosim.report.max_latency == k.design.stages);
  }
}

// Every kernel loaded once, and the accepted ones' SystemC models built as one program.
const std::vector<simtest::Loaded>& corpus_with_models() {
  static const std::vector<simtest::Loaded> all =
      simtest::load_all_with_models("systemc", POLYDAT_SC_TEST_CACHE);
  return all;
}

// One kernel, free-flowing and stalled. False when the hardware flow refuses it.
bool cosimulate_kernel(const rtltest::Kernel& source) {
  CAPTURE(source.key);
  const std::vector<rtltest::Kernel> sources = rtltest::all_kernels();
  const auto at = std::find_if(sources.begin(), sources.end(), [&](const rtltest::Kernel& k) { return k.key == source.key; });
  REQUIRE(at != sources.end());
  const simtest::Loaded& loaded = corpus_with_models()[static_cast<size_t>(at - sources.begin())];
  if (!loaded.kernel) return false;
  const simtest::SimKernel& k = *loaded.kernel;
  const uint64_t seed = sctest::seed_of(source.key);
  const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, seed);
  auto expected = simtest::run_oracle(k, batch);
  REQUIRE_MESSAGE(expected.ok(), (expected.ok() ? "" : expected.error()));
  const sctest::ScRun free_flow = sctest::cosimulate(k, batch, *expected, sctest::test_options(k, 0.0, seed));
  check_run(k, free_flow, batch.inputs.size(), true);
  const sctest::ScRun stalled = sctest::cosimulate(k, batch, *expected, sctest::test_options(k, 0.3, seed + 1));
  check_run(k, stalled, batch.inputs.size(), false);
  MESSAGE(fmt::format("{}: {} {} evaluations; free flow {} cycles in {:.2f} s, latency {}..{}, II {}..{}; "
                      "stall 0.3 {} cycles in {:.2f} s",
                      source.key, k.is_fsm() ? "FSM" : "pipeline", batch.inputs.size(), free_flow.cosim.report.cycles,
                      free_flow.cosim.run.seconds, free_flow.cosim.report.min_latency,
                      free_flow.cosim.report.max_latency, free_flow.cosim.report.min_ii,
                      free_flow.cosim.report.max_ii, stalled.cosim.report.cycles, stalled.cosim.run.seconds));
  return true;
}

// Both FSMs the issue names, the loops, and pipelines of several shapes (externs, booleans, widths).
const std::vector<std::string> kRepresentative = {
    "rtl/pcg_fsm",  "rtl/permute_fsm", "corpus/sum_to_n", "corpus/long_loop", "rtl/ids_hash",
    "rtl/two_ops",  "rtl/with_cfg",    "corpus/lfsr",     "rtl/cfg_extern",
};

}  // namespace

TEST_CASE("systemc corpus: representative kernels co-simulate with zero mismatches") {
  for (const std::string& key : kRepresentative) {
    const std::optional<rtltest::Kernel> source = rtltest::find_kernel(key);
    REQUIRE_MESSAGE(source.has_value(), key);
    const bool accepted = cosimulate_kernel(*source);
    CHECK_MESSAGE(accepted, key);
  }
}

TEST_CASE("systemc corpus all: every hardware-accepted kernel co-simulates with zero mismatches") {
  size_t accepted = kRepresentative.size();  // co-simulated by the test case above
  for (const rtltest::Kernel& source : rtltest::all_kernels())
    if (std::find(kRepresentative.begin(), kRepresentative.end(), source.key) == kRepresentative.end())
      accepted += cosimulate_kernel(source);
  MESSAGE(fmt::format("{} kernels accepted by the hardware flow and co-simulated in SystemC", accepted));
  CHECK(accepted >= kRepresentative.size());
}
