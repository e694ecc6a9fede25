// A pipeline and an FSM through the SystemC engine: every result equal to the
// interpreter's on the host and in the testbench's own reference model, the
// defined post-reset state, and the model built once then found in the cache.
#include <doctest/doctest.h>

#include "tests/systemc/systemc_support.h"

using namespace polydat;

TEST_CASE("systemc smoke: a pipeline and an FSM agree with the interpreter, inside and outside the simulation") {
  for (const char* key : {"rtl/ids_hash", "corpus/sum_to_n"}) {
    CAPTURE(key);
    const simtest::Loaded loaded = simtest::load_kernel(key);
    REQUIRE_MESSAGE(loaded.kernel, loaded.why);
    const simtest::SimKernel& k = *loaded.kernel;
    const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), 300, 7);
    auto expected = simtest::run_oracle(k, batch);
    REQUIRE(expected.ok());
    for (double stall : {0.0, 0.3}) {
      CAPTURE(stall);
      const sctest::ScRun r = sctest::cosimulate(k, batch, *expected, sctest::test_options(k, stall, 3));
      REQUIRE_MESSAGE(r.cosim.error.empty(), r.cosim.error);
      INFO(sim::render(r.cosim.report, k.design));
      CHECK(r.cosim.report.ok());
      CHECK(r.cosim.report.compared == batch.inputs.size());
      CHECK(r.reference.ran);
      CHECK(r.reference.compared == batch.inputs.size());
      CHECK(r.reference.mismatches == 0);
      CHECK(r.cosim.post_reset == sim::expected_post_reset(k.design));
    }
  }
}
