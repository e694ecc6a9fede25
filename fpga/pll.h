// The iCE40 PLL (SB_PLL40_CORE / SB_PLL40_PAD, SIMPLE feedback): the divider
// settings for a wanted output clock, found as icestorm's `icepll` finds them.
#pragma once

#include <string>

#include "ir/expected.h"

namespace polydat::fpga {

struct PllConfig {
  double in_mhz = 0;         // the reference (the board's oscillator)
  double requested_mhz = 0;  // what was asked
  double out_mhz = 0;        // what the dividers give: in / (DIVR + 1) * (DIVF + 1) / 2^DIVQ
  double pfd_mhz = 0;        // in / (DIVR + 1), 10 .. 133 MHz
  double vco_mhz = 0;        // pfd * (DIVF + 1), 533 .. 1066 MHz
  unsigned divr = 0;         // 0 .. 15
  unsigned divf = 0;         // 0 .. 127
  unsigned divq = 0;         // 1 .. 6
  unsigned filter_range = 0; // 1 .. 6, from the PFD frequency
};

// The settings whose output is nearest `out_mhz` (the first found on a tie,
// searching DIVR, then DIVF, then DIVQ upwards), as `icepll -i IN -o OUT`
// prints them. An error when IN is outside 10 .. 133 MHz, OUT outside
// 16 .. 275 MHz, or nothing fits.
ir::Expected<PllConfig, std::string> ice40_pll(double in_mhz, double out_mhz);

// The primitive's instance with these settings, e.g. for pad:
//   SB_PLL40_PAD #(.FEEDBACK_PATH("SIMPLE"), .DIVR(4'b0000), ...) NAME (.PACKAGEPIN(IN), .PLLOUTGLOBAL(OUT), ...)
std::string pll_instance(const PllConfig& c, bool pad, const std::string& name, const std::string& in,
                         const std::string& out, const std::string& lock);

}  // namespace polydat::fpga
