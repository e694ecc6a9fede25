// Comparisons are the u64 1 or 0 in hardware too: the kernels of
// tests/rtl/kernels/compare_u64*.gk co-simulated through Verilator against the
// interpreter (free flow and random stalls), and no register of their designs
// holds a 0 or 1 (a comparison) in more than one bit.
#include <doctest/doctest.h>

#include "hls/bit_facts.h"
#include "tests/sim/cosim_support.h"

using namespace polydat;

namespace {

// The widths of the registers that hold a value known to be 0 or 1 (a
// comparison, or the u64 1 or 0 it yields): each should be one bit.
std::vector<unsigned> zero_one_register_widths(const hls::Design& d) {
  const hls::BitFacts facts(d.dfg);
  std::vector<unsigned> widths;
  for (const hls::Register& r : d.registers)
    for (hls::ValueId v : r.values)
      if (facts.facts(v).hi <= 1 && !facts.facts(v).is_constant()) widths.push_back(r.width);
  return widths;
}

}  // namespace

TEST_CASE("comparisons in hardware: one bit wide, and the model agrees with the interpreter") {
  for (const char* key : {"rtl/compare_u64", "rtl/compare_u64_fsm"}) {
    CAPTURE(std::string(key));
    simtest::Loaded loaded = simtest::load_kernel(key);
    REQUIRE_MESSAGE(loaded.kernel, loaded.why);
    const simtest::SimKernel& k = *loaded.kernel;
    const std::vector<unsigned> widths = zero_one_register_widths(k.design);
    CHECK_FALSE(widths.empty());  // the kernels are written so that a comparison crosses a register
    for (unsigned w : widths) CHECK(w == 1);
    // The declared bools are one-bit ports.
    for (const hls::DfgPort& p : k.design.dfg.outputs)
      if (p.ty.is_bool()) CHECK(k.design.dfg.width(p.value) == 1);
    const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), 500, 0xC0DE);
    auto expected = simtest::run_oracle(k, batch);
    REQUIRE_MESSAGE(expected.ok(), (expected.ok() ? "" : expected.error()));
    for (double stall : {0.0, 0.3}) {
      const simtest::CosimRun run = simtest::cosimulate(k, batch, *expected, simtest::test_options(stall, 7));
      REQUIRE_MESSAGE(run.error.empty(), run.error);
      INFO(sim::render(run.report, k.design));
      CHECK(run.report.ok());
      CHECK(run.report.compared == batch.inputs.size());
    }
  }
}
