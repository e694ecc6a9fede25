// Yosys estimates for ECP5 and Xilinx 7-series on the 8-bit counter: 8
// flip-flops exactly, the increment on the carry chain.
#include "fpga/estimate.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/fpga/designs.h"
#include "tests/support/process.h"

namespace fs = std::filesystem;
using namespace polydat::fpga;
namespace designs = polydat::fpga::test_designs;
using polydat::testing::read_file;
using polydat::testing::TempDir;

namespace {
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("estimate: ecp5 counter") {
  TempDir tmp("polydat-fpga");
  const auto e = estimate("ecp5", "counter", designs::kCounter, tmp.path() / "ecp5");
  REQUIRE_MESSAGE(e.ok(), e.error());
  CHECK(e->family == "ecp5");
  CHECK(e->ffs == 8);
  CHECK(e->cells.at("TRELLIS_FF") == 8);
  CHECK(e->carries > 0);  // CCU2C, two bits each
  CHECK(e->carries <= 5);
  CHECK(e->dsps == 0);
  CHECK(e->brams == 0);
  CHECK(e->luts + e->carries > 0);
  CHECK(read_file(tmp.path() / "ecp5" / "estimate.ys") ==
        "read_verilog -sv counter.sv\nsynth_ecp5 -top counter\ntee -q -o stat.json stat -json\n");
  CHECK(fs::exists(tmp.path() / "ecp5" / "stat.json"));
  CHECK(fs::exists(tmp.path() / "ecp5" / "estimate.log"));
  const std::string text = render_text(*e);
  CHECK(contains(text, "family    ecp5"));
  CHECK(contains(text, "FFs            8\n"));
  CHECK(contains(text, "TRELLIS_FF 8"));
  CHECK(text == render_text(*e));
}

TEST_CASE("estimate: xilinx (7-series) counter") {
  TempDir tmp("polydat-fpga");
  const auto e = estimate("xilinx", "counter", designs::kCounter, tmp.path());
  REQUIRE_MESSAGE(e.ok(), e.error());
  CHECK(e->family == "xilinx");
  CHECK(e->ffs == 8);
  CHECK(e->carries > 0);  // CARRY4, four bits each
  CHECK(e->carries <= 2);
  CHECK(e->dsps == 0);
  CHECK(e->luts + e->carries > 0);
  CHECK(contains(read_file(tmp.path() / "estimate.ys"), "synth_xilinx -flatten -family xc7 -top counter\n"));
}

TEST_CASE("estimate: a multiply lands on a DSP in both families") {
  TempDir tmp("polydat-fpga");
  const auto e = estimate("ecp5", "mul", designs::kMul, tmp.path());
  REQUIRE_MESSAGE(e.ok(), e.error());
  CHECK(e->dsps >= 1);
  CHECK(e->cells.count("MULT18X18D") == 1);
}

TEST_CASE("estimate: unknown family, bad top and bad source are errors") {
  TempDir tmp("polydat-fpga");
  const auto unknown = estimate("gowin", "counter", designs::kCounter, tmp.path());
  REQUIRE_FALSE(unknown.ok());
  CHECK(contains(unknown.error(), "unknown family \"gowin\""));
  CHECK(fs::is_empty(tmp.path()));
  CHECK_FALSE(estimate("ecp5", "a b", designs::kCounter, tmp.path()).ok());
  const auto bad = estimate("ecp5", "counter", "module counter(;\n", tmp.path());
  REQUIRE_FALSE(bad.ok());
  CHECK(contains(bad.error(), "estimate.log"));
  CHECK(contains(bad.error(), "ERROR"));
}
