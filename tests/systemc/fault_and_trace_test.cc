// The SystemC harness can fail and can show why: an operator planted in the
// SystemVerilog is caught by the host comparison and by the testbench's own
// reference model at the same evaluation; --trace writes a waveform.
#include <doctest/doctest.h>

#include <filesystem>

#include "rtl/emit_sv.h"
#include "sim/build_support.h"
#include "tests/systemc/systemc_support.h"

using namespace polydat;

namespace {

struct Fixture {
  std::unique_ptr<simtest::SimKernel> kernel;
  sim::Batch batch;
  sim::EngineRun expected;
};

Fixture fixture(const std::string& key, size_t n, uint64_t seed) {
  simtest::Loaded loaded = simtest::load_kernel(key);
  REQUIRE_MESSAGE(loaded.kernel, loaded.why);
  Fixture f{std::move(loaded.kernel), {}, {}};
  f.batch = simtest::draw_batch(*f.kernel, simtest::default_configs(*f.kernel), n, seed);
  auto expected = simtest::run_oracle(*f.kernel, f.batch);
  REQUIRE(expected.ok());
  f.expected = std::move(*expected);
  return f;
}

void check_caught(const std::string& key, const std::string& from, const std::string& to) {
  CAPTURE(key);
  const Fixture f = fixture(key, 500, 11);
  const auto sv = simtest::replace_first(f.kernel->module.text, "assign ", from, to);
  REQUIRE(sv.has_value());
  flow::EngineOptions o = sctest::test_options(*f.kernel, 0.0, 1);
  o.sv = *sv;
  const sctest::ScRun r = sctest::cosimulate(*f.kernel, f.batch, f.expected, o);
  REQUIRE_MESSAGE(r.cosim.error.empty(), r.cosim.error);
  CHECK_FALSE(r.cosim.report.ok());
  REQUIRE(r.cosim.report.first.has_value());
  CHECK(r.reference.ran);
  CHECK(r.reference.mismatches == r.cosim.report.mismatches);
  REQUIRE(r.reference.first_mismatch.has_value());
  CHECK(*r.reference.first_mismatch == r.cosim.report.first->evaluation);
}

}  // namespace

TEST_CASE("systemc faults: a swapped operator is caught in a pipeline and in an FSM") {
  check_caught("rtl/ids_hash", " ^ ", " | ");
  check_caught("corpus/sum_to_n", " + ", " - ");
}

TEST_CASE("systemc trace: a VCD waveform is written and the run still agrees") {
  const Fixture f = fixture("rtl/two_ops", 50, 5);
  const std::filesystem::path vcd = std::filesystem::path(POLYDAT_SC_TEST_CACHE) / "two_ops_trace.vcd";
  std::filesystem::remove(vcd);
  flow::EngineOptions o = sctest::test_options(*f.kernel, 0.3, 2);
  o.trace = vcd.string();
  const sctest::ScRun r = sctest::cosimulate(*f.kernel, f.batch, f.expected, o);
  REQUIRE_MESSAGE(r.cosim.error.empty(), r.cosim.error);
  CHECK(r.cosim.report.ok());
  CHECK(r.reference.ok());
  REQUIRE(std::filesystem::exists(vcd));
  const std::string text = sim::read_text(vcd);
  CHECK(text.find("$enddefinitions") != std::string::npos);
  CHECK(text.find("in_valid") != std::string::npos);
}

TEST_CASE("systemc wrapper: ports named after the kernel's, written next to the model") {
  const simtest::Loaded loaded = simtest::load_kernel("rtl/cfg_extern");
  REQUIRE_MESSAGE(loaded.kernel, loaded.why);
  const auto engine = sctest::make_systemc(*loaded.kernel, sctest::test_options(*loaded.kernel, 0.0, 1));
  REQUIRE(engine->prepare().ok());
  const std::string& w = engine->wrapper();
  CHECK(w.find("SC_MODULE(cfg_extern_sc)") != std::string::npos);
  CHECK(w.find("sc_core::sc_in<uint32_t> cfg_limit;") != std::string::npos);
  CHECK(w.find("sc_core::sc_in<uint32_t> in_x;") != std::string::npos);
  CHECK(w.find("sc_core::sc_out<uint32_t> out_capped;") != std::string::npos);
  CHECK(w.find("sc_core::sc_out<bool> in_ready;") != std::string::npos);
  CHECK(sim::read_text(engine->wrapper_path()) == w);
}
