// The PLL settings against icestorm's own `icepll` for many frequencies, and
// the requests it refuses. A planted fault (a setting one off) must be told
// apart by the same comparison.
#include "fpga/pll.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "tests/support/process.h"

using namespace polydat;

namespace {

// The frequency as a short decimal for a command line.
std::string fmt_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

struct Icepll {
  double achieved = 0;
  int divr = -1, divf = -1, divq = -1, filter = -1;
};

// `icepll -i IN -o OUT`, parsed.
Icepll icepll(double in, double out) {
  const auto r = testing::run_process("/usr/bin/icepll", {"icepll", "-i", fmt_number(in), "-o", fmt_number(out)}, ".");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  Icepll p;
  std::istringstream s(r.out);
  for (std::string line; std::getline(s, line);) {
    double v = 0;
    int n = 0;
    if (std::sscanf(line.c_str(), "F_PLLOUT: %lf MHz (achieved)", &v) == 1 && line.find("achieved") != std::string::npos)
      p.achieved = v;
    else if (std::sscanf(line.c_str(), "DIVR: %d", &n) == 1)
      p.divr = n;
    else if (std::sscanf(line.c_str(), "DIVF: %d", &n) == 1)
      p.divf = n;
    else if (std::sscanf(line.c_str(), "DIVQ: %d", &n) == 1)
      p.divq = n;
    else if (std::sscanf(line.c_str(), "FILTER_RANGE: %d", &n) == 1)
      p.filter = n;
  }
  return p;
}

// Empty when ours and icepll's agree, else what differs.
std::string differences(const fpga::PllConfig& c, const Icepll& p) {
  std::string d;
  if (std::abs(c.out_mhz - p.achieved) > 0.000501) d += " achieved";  // icepll prints 3 decimals, rounded
  if (int(c.divr) != p.divr) d += " DIVR";
  if (int(c.divf) != p.divf) d += " DIVF";
  if (int(c.divq) != p.divq) d += " DIVQ";
  if (int(c.filter_range) != p.filter) d += " FILTER_RANGE";
  return d;
}

}  // namespace

TEST_CASE("pll: the settings are icepll's, for many input and output frequencies") {
  const std::vector<std::pair<double, double>> cases = {
      {12, 16},  {12, 17.3}, {12, 24}, {12, 30},   {12, 36},  {12, 48},  {12, 50},  {12, 60},
      {12, 64.5}, {12, 75},  {12, 100}, {12, 133}, {12, 200}, {12, 275}, {16, 48},  {16, 64},
      {16, 100}, {25, 48},   {10, 16},  {100, 33}, {133, 250}, {12, 12.5 * 4}};
  for (const auto& [in, out] : cases) {
    CAPTURE(in);
    CAPTURE(out);
    const auto ours = fpga::ice40_pll(in, out);
    REQUIRE_MESSAGE(ours.ok(), ours.error());
    const Icepll theirs = icepll(in, out);
    CHECK(differences(*ours, theirs) == "");
    // The relations the settings must satisfy, independently of icepll.
    CHECK(ours->pfd_mhz == doctest::Approx(in / (ours->divr + 1)));
    CHECK(ours->vco_mhz == doctest::Approx(ours->pfd_mhz * (ours->divf + 1)));
    CHECK(ours->out_mhz == doctest::Approx(ours->vco_mhz / (1u << ours->divq)));
    CHECK(ours->vco_mhz >= 533);
    CHECK(ours->vco_mhz <= 1066);
  }
  // 48 from 12 is exact: 12 * 64 / 16.
  const auto c48 = fpga::ice40_pll(12, 48);
  REQUIRE(c48.ok());
  CHECK(c48->out_mhz == 48);
  CHECK(c48->divr == 0);
  CHECK(c48->divf == 63);
  CHECK(c48->divq == 4);
  CHECK(c48->filter_range == 1);
}

TEST_CASE("pll planted fault: a setting one off does not pass for icepll's") {
  auto c = fpga::ice40_pll(12, 48);
  REQUIRE(c.ok());
  fpga::PllConfig wrong = *c;
  wrong.divf += 1;
  wrong.out_mhz = 12.0 * (wrong.divf + 1) / 16;
  CHECK(differences(wrong, icepll(12, 48)) == " achieved DIVF");
  wrong = *c;
  wrong.filter_range = 2;
  CHECK(differences(wrong, icepll(12, 48)) == " FILTER_RANGE");
}

TEST_CASE("pll: frequencies out of the PLL's range are errors that say the range") {
  auto low = fpga::ice40_pll(12, 10);
  REQUIRE_FALSE(low.ok());
  CHECK(low.error().find("16 .. 275 MHz") != std::string::npos);
  auto high = fpga::ice40_pll(12, 300);
  REQUIRE_FALSE(high.ok());
  auto in = fpga::ice40_pll(8, 48);
  REQUIRE_FALSE(in.ok());
  CHECK(in.error().find("10 .. 133 MHz") != std::string::npos);
}

TEST_CASE("pll: the instance names the primitive, its input port and the settings") {
  auto c = fpga::ice40_pll(12, 48);
  REQUIRE(c.ok());
  const std::string pad = fpga::pll_instance(*c, true, "u_pll", "clk", "pll_clk", "pll_lock");
  CHECK(pad.find("SB_PLL40_PAD #(") != std::string::npos);
  CHECK(pad.find(".PACKAGEPIN(clk)") != std::string::npos);
  CHECK(pad.find(".DIVF(7'b0111111)") != std::string::npos);
  CHECK(pad.find(".DIVQ(3'b100)") != std::string::npos);
  const std::string core = fpga::pll_instance(*c, false, "u_pll", "clk", "pll_clk", "pll_lock");
  CHECK(core.find("SB_PLL40_CORE #(") != std::string::npos);
  CHECK(core.find(".REFERENCECLK(clk)") != std::string::npos);
}
