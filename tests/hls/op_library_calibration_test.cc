// The iCE40 operator library against its calibration: every delay recorded in
// docs/ice40-calibration.csv (polydat-calibrate-ice40, `make calibrate`) that
// the tools timed must be within max(25 %, 1 ns) of op_cost(Target::Ice40,
// ...). Rows that calibrate nothing are skipped: the baselines (reg, lut2),
// the chains, designs that do not fit, and designs with an SB_MAC16 (nextpnr
// treats every DSP port as a register, so the multiplier is never timed).
// docs/ice40-calibration.md describes the method.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hls/op_library.h"

#ifndef POLYDAT_ICE40_CALIBRATION_CSV
#error "POLYDAT_ICE40_CALIBRATION_CSV must name docs/ice40-calibration.csv"
#endif

using namespace polydat;
using namespace polydat::hls;

namespace {

struct Measured {
  std::string op;
  unsigned width = 0;
  bool fits = false;
  double period_ns = 0, delay_ns = 0;
  unsigned luts = 0, carries = 0, dsps = 0;
};

std::vector<Measured> read_csv() {
  std::ifstream in(POLYDAT_ICE40_CALIBRATION_CSV);
  REQUIRE_MESSAGE(in.good(), "cannot read " POLYDAT_ICE40_CALIBRATION_CSV);
  std::vector<Measured> rows;
  std::string line;
  std::getline(in, line);
  REQUIRE(line == "op,width,fmax_mhz,period_ns,delay_ns,luts,carries,dsps");
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) f.push_back(cell);
    while (f.size() < 8) f.emplace_back();
    CAPTURE(line);
    Measured m;
    m.op = f[0];
    m.width = static_cast<unsigned>(std::stoul(f[1]));
    m.fits = f[2] != "nofit";
    if (m.fits) {
      m.period_ns = std::stod(f[3]);
      m.delay_ns = std::stod(f[4]);
    }
    m.luts = static_cast<unsigned>(std::stoul(f[5]));
    m.carries = static_cast<unsigned>(std::stoul(f[6]));
    m.dsps = static_cast<unsigned>(std::stoul(f[7]));
    rows.push_back(m);
  }
  return rows;
}

struct Probe {
  Op op;
  bool constant_rhs;
};

// The probes of tests/calibration/calibrate_ice40.cc that measure one operator.
const std::map<std::string, Probe>& operators() {
  using K = Op;
  static const std::map<std::string, Probe> all = {
      {"xor", {K::Xor, false}},       {"mux", {K::Mux, false}},      {"add", {K::Add, false}},
      {"sub", {K::Sub, false}},       {"lt", {K::Lt, false}},        {"eq", {K::Eq, false}},
      {"shl", {K::Shl, false}},       {"popcount", {K::Popcount, false}}, {"mulc", {K::Mul, true}},
      {"mul", {K::Mul, false}},       {"div", {K::Div, false}},      {"mod", {K::Mod, false}},
      {"modc", {K::Mod, true}},       {"mulc_lut", {K::Mul, true}},  {"mul_lut", {K::Mul, false}},
  };
  return all;
}

double tolerance(double measured) { return std::max(0.25 * std::abs(measured), 1.0); }

}  // namespace

TEST_SUITE("op library") {

TEST_CASE("iCE40 delays are within max(25 %, 1 ns) of every timed calibration row") {
  const std::vector<Measured> rows = read_csv();
  std::set<std::string> seen;
  size_t checked = 0;
  for (const Measured& m : rows) {
    const auto it = operators().find(m.op);
    if (it == operators().end() || !m.fits || m.dsps > 0) continue;
    const OpCost c = op_cost(Target::Ice40, it->second.op, m.width, it->second.constant_rhs);
    CAPTURE(m.op);
    CAPTURE(m.width);
    CAPTURE(m.delay_ns);
    CAPTURE(c.delay_ns);
    CHECK(std::abs(c.delay_ns - m.delay_ns) <= tolerance(m.delay_ns));
    seen.insert(m.op);
    ++checked;
  }
  // A truncated or empty file must not pass: every operator has timed rows.
  for (const auto& [name, probe] : operators()) {
    CAPTURE(name);
    CHECK(seen.count(name) == 1);
  }
  CHECK(checked >= 40);
}

TEST_CASE("the iCE40 register overhead is the measured register-to-register period") {
  size_t baselines = 0;
  for (const Measured& m : read_csv())
    if (m.op == "reg" && m.fits) {
      CAPTURE(m.width);
      CHECK(std::abs(register_overhead_ns(Target::Ice40) - m.period_ns) <= 0.1 * m.period_ns);
      ++baselines;
    }
  CHECK(baselines >= 4);
}

}  // TEST_SUITE
