#include "fpga/pll.h"

#include <fmt/format.h>

#include <cmath>

namespace polydat::fpga {

namespace {
// The limits icepll checks (the iCE40 sysCLOCK PLL design guide).
constexpr double kInMin = 10, kInMax = 133, kPfdMin = 10, kPfdMax = 133, kVcoMin = 533, kVcoMax = 1066,
                 kOutMin = 16, kOutMax = 275;

std::string bits(unsigned v, int n) {
  std::string s;
  for (int i = n - 1; i >= 0; --i) s += ((v >> i) & 1) ? '1' : '0';
  return s;
}
}  // namespace

ir::Expected<PllConfig, std::string> ice40_pll(double in_mhz, double out_mhz) {
  if (!(in_mhz >= kInMin && in_mhz <= kInMax))
    return fmt::format("the PLL's input, {} MHz, is outside {} .. {} MHz", in_mhz, kInMin, kInMax);
  if (!(out_mhz >= kOutMin && out_mhz <= kOutMax))
    return fmt::format("the iCE40 PLL gives {} .. {} MHz, not {} MHz", kOutMin, kOutMax, out_mhz);
  bool found = false;
  PllConfig best;
  for (unsigned divr = 0; divr <= 15; ++divr) {
    const double pfd = in_mhz / (divr + 1);
    if (pfd < kPfdMin || pfd > kPfdMax) continue;
    for (unsigned divf = 0; divf <= 127; ++divf) {  // SIMPLE feedback: DIVF up to 127
      const double vco = pfd * (divf + 1);
      if (vco < kVcoMin || vco > kVcoMax) continue;
      for (unsigned divq = 1; divq <= 6; ++divq) {
        const double out = vco * std::exp2(-static_cast<double>(divq));
        if (!found || std::fabs(out - out_mhz) < std::fabs(best.out_mhz - out_mhz)) {
          found = true;
          best.out_mhz = out;
          best.divr = divr;
          best.divf = divf;
          best.divq = divq;
        }
      }
    }
  }
  if (!found) return fmt::format("no iCE40 PLL setting gives {} MHz from {} MHz", out_mhz, in_mhz);
  best.in_mhz = in_mhz;
  best.requested_mhz = out_mhz;
  best.pfd_mhz = in_mhz / (best.divr + 1);
  best.vco_mhz = best.pfd_mhz * (best.divf + 1);
  const double f = best.pfd_mhz;
  best.filter_range = f < 17 ? 1 : f < 26 ? 2 : f < 44 ? 3 : f < 66 ? 4 : f < 101 ? 5 : 6;
  return best;
}

std::string pll_instance(const PllConfig& c, bool pad, const std::string& name, const std::string& in,
                         const std::string& out, const std::string& lock) {
  return fmt::format(
      "  // {req} MHz asked, {got:.3f} MHz given: {in_mhz} MHz / (DIVR + 1) * (DIVF + 1) / 2^DIVQ, "
      "VCO {vco:.3f} MHz (settings as icepll -i {in_mhz} -o {req}).\n"
      "  {prim} #(\n"
      "      .FEEDBACK_PATH(\"SIMPLE\"),\n"
      "      .DIVR(4'b{divr}),  // {r}\n"
      "      .DIVF(7'b{divf}),  // {f}\n"
      "      .DIVQ(3'b{divq}),  // {q}\n"
      "      .FILTER_RANGE(3'b{fr})  // {frn}\n"
      "  ) {name} (\n"
      "      .{inport}({in}),\n"
      "      .PLLOUTGLOBAL({out}),\n"
      "      .LOCK({lock}),\n"
      "      .RESETB(1'b1),\n"
      "      .BYPASS(1'b0)\n"
      "  );\n",
      fmt::arg("req", c.requested_mhz), fmt::arg("got", c.out_mhz), fmt::arg("in_mhz", c.in_mhz),
      fmt::arg("vco", c.vco_mhz), fmt::arg("prim", pad ? "SB_PLL40_PAD" : "SB_PLL40_CORE"),
      fmt::arg("divr", bits(c.divr, 4)), fmt::arg("r", c.divr), fmt::arg("divf", bits(c.divf, 7)),
      fmt::arg("f", c.divf), fmt::arg("divq", bits(c.divq, 3)), fmt::arg("q", c.divq),
      fmt::arg("fr", bits(c.filter_range, 3)), fmt::arg("frn", c.filter_range), fmt::arg("name", name),
      fmt::arg("inport", pad ? "PACKAGEPIN" : "REFERENCECLK"), fmt::arg("in", in), fmt::arg("out", out),
      fmt::arg("lock", lock));
}

}  // namespace polydat::fpga
