// The Verilator engine's own promises: waveforms on request, and runs that
// depend on nothing but the batch, the seed and the design (built once).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/sim/cosim_support.h"

using namespace polydat;
using simtest::CosimRun;

namespace {

namespace fs = std::filesystem;

constexpr size_t kEvaluations = 200;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder for this test's waveforms inside the per-build cache.
fs::path trace_dir() {
  const fs::path dir = fs::path(POLYDAT_TEST_CACHE) / "traces";
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("engine: a trace run writes a VCD or an FST waveform and still agrees") {
  const simtest::Loaded loaded = simtest::load_kernel("rtl/two_ops");
  REQUIRE_MESSAGE(loaded.kernel, loaded.why);
  const simtest::SimKernel& k = *loaded.kernel;
  const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, 21);
  auto expected = simtest::run_oracle(k, batch);
  REQUIRE(expected.ok());
  const fs::path dir = trace_dir();

  flow::EngineOptions vcd_options = simtest::test_options(0.3, 1);
  vcd_options.trace = (dir / "x.vcd").string();
  const CosimRun vcd = simtest::cosimulate(k, batch, *expected, vcd_options);
  REQUIRE_MESSAGE(vcd.error.empty(), vcd.error);
  CHECK(vcd.report.ok());
  const std::string text = read_text(vcd_options.trace);
  // A VCD opens with its `$` declarations: the date or the timescale, then the signals.
  REQUIRE(!text.empty());
  CHECK(text.front() == '$');
  CHECK((text.find("$timescale") != std::string::npos || text.find("$date") != std::string::npos));
  CHECK(text.find("$var") != std::string::npos);
  CHECK(text.find(" in_valid ") != std::string::npos);
  CHECK(text.find(" out_ready ") != std::string::npos);

  flow::EngineOptions fst_options = simtest::test_options(0.3, 1);
  fst_options.trace = (dir / "x.fst").string();
  const CosimRun fst = simtest::cosimulate(k, batch, *expected, fst_options);
  REQUIRE_MESSAGE(fst.error.empty(), fst.error);
  CHECK(fst.report.ok());
  REQUIRE(fs::exists(fst_options.trace));
  CHECK(fs::file_size(fst_options.trace) > 0);
  // Tracing does not change what is simulated.
  CHECK(fst.run.outputs == vcd.run.outputs);
  CHECK(fst.run.accepted_at == vcd.run.accepted_at);
}

TEST_CASE("engine: the same batch and seed give the same run, and the model is built once") {
  // An FSM under stalls: the stall pattern and the random initial registers both come from the seed.
  const simtest::Loaded loaded = simtest::load_kernel("corpus/sum_to_n");
  REQUIRE_MESSAGE(loaded.kernel, loaded.why);
  const simtest::SimKernel& k = *loaded.kernel;
  const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, 22);
  auto expected = simtest::run_oracle(k, batch);
  REQUIRE(expected.ok());

  const CosimRun first = simtest::cosimulate(k, batch, *expected, simtest::test_options(0.3, 7));
  const CosimRun second = simtest::cosimulate(k, batch, *expected, simtest::test_options(0.3, 7));
  REQUIRE_MESSAGE(first.error.empty(), first.error);
  REQUIRE_MESSAGE(second.error.empty(), second.error);
  CHECK(first.report.ok());
  CHECK(second.run.outputs == first.run.outputs);
  CHECK(second.run.accepted_at == first.run.accepted_at);
  CHECK(second.run.delivered_at == first.run.delivered_at);
  CHECK(second.run.cycles == first.run.cycles);
  CHECK(second.post_reset == first.post_reset);
  // The second engine found the model the first one built (or found) in the cache.
  CHECK_FALSE(second.built_now);

  // Another seed stalls at other cycles: the same results, at other times.
  const CosimRun other = simtest::cosimulate(k, batch, *expected, simtest::test_options(0.3, 8));
  REQUIRE_MESSAGE(other.error.empty(), other.error);
  CHECK(other.run.outputs == first.run.outputs);
  CHECK(other.run.accepted_at != first.run.accepted_at);
}
