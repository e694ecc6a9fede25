// `make test-slow`: `synth --close-timing` with the real tools, and the issue's
// board target: mod(hash(cycle), 1000) on the iCEBreaker at 48 MHz. (The QoR
// table of every corpus kernel on every board is tests/qor's: `make qor`.)
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/support/process.h"

using namespace polydat;
namespace fs = std::filesystem;

TEST_CASE("close timing: a schedule that misses on the part is redone against a tighter period, and then meets") {
  // Scheduled against 200 ns, the loop body chains a 32-bit multiply and an xor
  // in one state, which misses 100 MHz on the HX8K (measured 86.7 MHz); a retry
  // at the period scaled by the model's error gives more states and meets
  // (112 MHz). The report is the best attempt's.
  testing::TempDir tmp("polydat-close-timing");
  tmp.write("fsm32.gk",
            "input cycle: u32\nh := loop (s = cycle, i = 0) while i < 8 {\n    s = (s * 0x9E3779B9) ^ (s >> 15)\n"
            "    i = i + 1\n} yield s\n");
  const std::string exe = POLYDAT_EXE;
  const testing::ProcessResult r =
      testing::run_process(exe, {exe, "synth", "fsm32.gk", "--device", "hx8k", "--freq", "100", "--clock-ns", "200",
                                 "--close-timing", "-o", "out"},
                           tmp.path(), std::chrono::seconds(1800));
  INFO(r.out);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("scheduling again") != std::string::npos);
  CHECK(r.out.find("MHz requested: meets") != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(testing::read_file(tmp.path() / "out" / "report.json"));
  CHECK(j["meets_timing"] == true);
  CHECK(j["attempt"].get<int>() >= 2);
  CHECK(r.out.find("best: attempt " + std::to_string(j["attempt"].get<int>())) != std::string::npos);
}

TEST_CASE("mod(hash(cycle), 1000) on the iCEBreaker at 48 MHz: fits, meets 48 MHz, and its UART lines are right") {
  testing::TempDir tmp("polydat-ids-48");
  const std::string kernel = std::string(POLYDAT_SOURCE_ROOT) + "/tests/qor/kernels/mod_hash.gk";
  const std::string exe = POLYDAT_EXE;
  const testing::ProcessResult s = testing::run_process(
      exe, {exe, "synth", kernel, "--board", "icebreaker", "--freq", "48", "-o", "out"}, tmp.path(),
      std::chrono::seconds(1800));
  INFO(s.out);
  INFO(s.err);
  CHECK(s.status == 0);
  const nlohmann::json j = nlohmann::json::parse(testing::read_file(tmp.path() / "out" / "report.json"));
  CHECK(j["fits"] == true);
  CHECK(j["requested_mhz"] == 48.0);
  CHECK(j["meets_timing"] == true);
  // The board-level simulation: the board top through its PLL model, the UART pin decoded, every line
  // against the interpreter.
  const testing::ProcessResult c = testing::run_process(
      exe, {exe, "cosim", kernel, "--board", "icebreaker", "--freq", "48", "--cycles", "100"}, tmp.path(),
      std::chrono::seconds(1800));
  INFO(c.out);
  INFO(c.err);
  CHECK(c.status == 0);
  CHECK(c.out.find("decoded: 100 of 100 lines, 0 framing errors; 0 mismatches") != std::string::npos);
}
