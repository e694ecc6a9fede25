// The report's text and JSON on hand-built reports: exact, deterministic,
// and the exit statuses a command derives from them.
#include "fpga/report.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

using namespace polydat::fpga;

namespace {

SynthReport counter_report() {
  SynthReport r;
  r.top = "counter";
  r.device = "up5k";
  r.package = "sg48";
  r.luts = {8, 5280};
  r.ffs = {8, 5280};
  r.carries = {6, 5280};
  r.dsps = {0, 8};
  r.brams = {0, 30};
  r.logic_cells = 11;
  r.requested_mhz = 12;
  r.achieved_mhz = 143.30754089355469;
  r.fits = true;
  r.meets_timing = true;
  r.critical_from = "q_SB_LUT4_I3_LC.O";
  r.critical_to = "q_SB_LUT4_I2_1_LC.I3";
  r.bitstream = "counter.bin";
  return r;
}

SynthReport big_report() {
  SynthReport r;
  r.top = "big";
  r.device = "hx1k";
  r.package = "tq144";
  r.luts = {0, 1280};
  r.ffs = {1600, 1280};
  r.carries = {0, 1280};
  r.dsps = {0, 0};
  r.brams = {0, 16};
  r.requested_mhz = 12;
  r.fits = false;
  r.problem = "FFs over: 1600 used, 1280 on hx1k";
  return r;
}

}  // namespace

TEST_CASE("report: a hand-built report renders to the expected text") {
  const std::string expected =
      "top            counter\n"
      "device         up5k, package sg48\n"
      "LUTs               8 / 5280    0.2%\n"
      "FFs                8 / 5280    0.2%\n"
      "carry              6 / 5280    0.1%\n"
      "DSP                0 / 8       0.0%\n"
      "BRAM               0 / 30      0.0%\n"
      "logic cells       11 / 5280    0.2%  after placement\n"
      "Fmax           143.31 MHz achieved, 12.00 MHz requested: meets\n"
      "critical path  q_SB_LUT4_I3_LC.O -> q_SB_LUT4_I2_1_LC.I3\n"
      "bitstream      counter.bin\n";
  CHECK(render_text(counter_report()) == expected);
}

TEST_CASE("report: misses timing, and does not fit") {
  SynthReport slow = counter_report();
  slow.requested_mhz = 1000;
  slow.meets_timing = false;
  CHECK(render_text(slow).find("Fmax           143.31 MHz achieved, 1000.00 MHz requested: MISSES timing\n") !=
        std::string::npos);
  CHECK(exit_status(slow) == 3);

  const std::string expected =
      "top            big\n"
      "device         hx1k, package tq144\n"
      "LUTs               0 / 1280    0.0%\n"
      "FFs             1600 / 1280  125.0%  OVER\n"
      "carry              0 / 1280    0.0%\n"
      "DSP                0 / 0          -\n"
      "BRAM               0 / 16      0.0%\n"
      "Fmax           not measured (not placed), 12.00 MHz requested\n"
      "does not fit: FFs over: 1600 used, 1280 on hx1k\n"
      "bitstream      none\n";
  CHECK(render_text(big_report()) == expected);
  CHECK(exit_status(big_report()) == 3);

  SynthReport comb = counter_report();
  comb.achieved_mhz.reset();
  comb.critical_from.clear();
  comb.critical_to.clear();
  CHECK(render_text(comb).find("Fmax           none: no clock-to-clock path (combinational), 12.00 MHz requested\n") !=
        std::string::npos);
  CHECK(render_text(comb).find("critical path") == std::string::npos);
  CHECK(exit_status(comb) == 0);
}

TEST_CASE("report: JSON holds every field, deterministically") {
  const SynthReport r = counter_report();
  const nlohmann::json j = to_json(r);
  CHECK(j["top"] == "counter");
  CHECK(j["device"] == "up5k");
  CHECK(j["package"] == "sg48");
  CHECK(j["luts"]["used"] == 8);
  CHECK(j["luts"]["total"] == 5280);
  CHECK(j["ffs"]["used"] == 8);
  CHECK(j["carries"]["used"] == 6);
  CHECK(j["dsps"]["total"] == 8);
  CHECK(j["brams"]["total"] == 30);
  CHECK(j["logic_cells"] == 11);
  CHECK(j["requested_mhz"] == 12.0);
  CHECK(j["achieved_mhz"] == 143.30754089355469);
  CHECK(j["fits"] == true);
  CHECK(j["meets_timing"] == true);
  CHECK(j["critical_from"] == "q_SB_LUT4_I3_LC.O");
  CHECK(j["critical_to"] == "q_SB_LUT4_I2_1_LC.I3");
  CHECK(j["bitstream"] == "counter.bin");
  CHECK(j["problem"] == "");
  CHECK(j["exit_status"] == 0);
  CHECK(j.size() == 18);

  // Rendered twice, the same bytes; keys in a fixed order.
  CHECK(to_json(r).dump(2) == to_json(counter_report()).dump(2));
  CHECK(render_text(r) == render_text(counter_report()));
  const std::string dump = to_json(r).dump();
  CHECK(dump.find("\"achieved_mhz\"") < dump.find("\"bitstream\""));
  CHECK(dump.find("\"bitstream\"") < dump.find("\"top\""));

  const nlohmann::json b = to_json(big_report());
  CHECK(b["logic_cells"].is_null());
  CHECK(b["achieved_mhz"].is_null());
  CHECK(b["fits"] == false);
  CHECK(b["exit_status"] == 3);
  CHECK(b["problem"] == "FFs over: 1600 used, 1280 on hx1k");
}

TEST_CASE("report: exit statuses") {
  SynthReport r = counter_report();
  CHECK(exit_status(r) == 0);
  r.meets_timing = false;
  CHECK(exit_status(r) == 3);
  r.fits = false;
  CHECK(exit_status(r) == 3);
  r.meets_timing = true;  // not fitting wins
  CHECK(exit_status(r) == 3);
}
