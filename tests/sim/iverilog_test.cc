// Icarus Verilog, the third RTL simulator: every kernel the hardware flow
// accepts, through its own SystemVerilog testbench, against the interpreter,
// free-flowing (every cycle claim of the report checked) and under stalls;
// reset defines every output (registers start as X here); planted faults in
// the SystemVerilog are caught.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include "rtl/emit_sv.h"
#include "sim/cosim.h"
#include "tests/sim/cosim_support.h"

using namespace polydat;
using simtest::SimKernel;

namespace {

constexpr size_t kEvaluations = 200;

// One batch through the registry's Icarus engine, compared with the interpreter's run.
simtest::CosimRun simulate(const SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                           const flow::EngineOptions& o) {
  return simtest::cosimulate(k, batch, expected, o, "iverilog");
}

}  // namespace

TEST_CASE("iverilog: every accepted kernel agrees with the interpreter, with the report's cycles, and resets") {
  size_t accepted = 0;
  for (const rtltest::Kernel& source : rtltest::all_kernels()) {
    CAPTURE(source.key);
    const simtest::Loaded loaded = simtest::load_kernel(source);
    if (!loaded.kernel) continue;
    const SimKernel& k = *loaded.kernel;
    ++accepted;
    const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, 77);
    auto expected = simtest::run_oracle(k, batch);
    REQUIRE_MESSAGE(expected.ok(), (expected.ok() ? "" : expected.error()));
    for (double stall : {0.0, 0.3}) {
      CAPTURE(stall);
      const simtest::CosimRun r = simulate(k, batch, *expected, simtest::test_options(stall, 5));
      REQUIRE_MESSAGE(r.error.empty(), r.error);
      INFO(sim::render(r.report, k.design));
      CHECK(r.report.ok());
      CHECK(r.report.compared == batch.inputs.size());
      if (stall == 0) CHECK(r.report.latency_checked == r.report.compared);
      CHECK(r.post_reset == sim::expected_post_reset(k.design));
    }
  }
  MESSAGE(fmt::format("{} kernels simulated in Icarus Verilog", accepted));
  CHECK(accepted >= 40);
}

TEST_CASE("iverilog: planted faults are caught: a wrong operator, a register reset deleted") {
  auto fixture = [](const std::string& key, const simtest::Loaded& loaded) {
    REQUIRE_MESSAGE(loaded.kernel, key << ": " << loaded.why);
    const SimKernel& k = *loaded.kernel;
    sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), 200, 3);
    auto expected = simtest::run_oracle(k, batch);
    REQUIRE(expected.ok());
    return std::make_pair(std::move(batch), std::move(*expected));
  };
  // An operator: an XOR of the hash pipeline becomes an OR.
  const simtest::Loaded hash = simtest::load_kernel("rtl/ids_hash");
  const auto [hash_batch, hash_expected] = fixture("rtl/ids_hash", hash);
  const auto wrong_op = simtest::replace_first(hash.kernel->module.text, "assign ", " ^ ", " | ");
  REQUIRE(wrong_op.has_value());
  flow::EngineOptions o = simtest::test_options(0.0, 9);
  o.sv = *wrong_op;
  const simtest::CosimRun op = simulate(*hash.kernel, hash_batch, hash_expected, o);
  REQUIRE_MESSAGE(op.error.empty(), op.error);
  CHECK(op.report.mismatches > 0);
  // A reset: an FSM's output registers lose their reset lines, so they stay X after reset.
  const simtest::Loaded pcg = simtest::load_kernel("rtl/pcg_fsm");
  const auto [pcg_batch, pcg_expected] = fixture("rtl/pcg_fsm", pcg);
  const std::string sv = pcg.kernel->module.text;
  std::string no_reset;
  for (size_t at = 0, next; at < sv.size(); at = next + 1) {
    next = sv.find('\n', at);
    if (next == std::string::npos) next = sv.size();
    const std::string line = sv.substr(at, next - at);
    if (line.find("out_") != std::string::npos && line.find("<= '0;") != std::string::npos) continue;
    no_reset += line + "\n";
  }
  REQUIRE(no_reset != sv);
  o.sv = no_reset;
  const simtest::CosimRun reset = simulate(*pcg.kernel, pcg_batch, pcg_expected, o);
  REQUIRE_MESSAGE(reset.error.empty(), reset.error);
  CHECK(reset.post_reset != sim::expected_post_reset(pcg.kernel->design));
  CHECK(reset.post_reset.find('x') != std::string::npos);
}
