// Resource estimates for families polydat does not place and route: Yosys
// synth_ecp5 and synth_xilinx (7-series) followed by `stat`, no P&R.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "ir/expected.h"

namespace polydat::fpga {

struct Estimate {
  std::string family;                    // ecp5 | xilinx
  std::map<std::string, uint64_t> cells;  // cell type -> count, from `stat -json`
  uint64_t luts = 0;                      // LUT cells of any size
  uint64_t ffs = 0;                       // flip-flops
  uint64_t dsps = 0;                      // MULT18X18D / DSP48E1
  uint64_t brams = 0;                     // DP16KD / RAMB18E1 / RAMB36E1
  uint64_t carries = 0;                   // CCU2C / CARRY4
};

// Runs Yosys on `sv` (top `top`) in `dir`; the script and log stay there.
ir::Expected<Estimate, std::string> estimate(std::string_view family, const std::string& top, const std::string& sv,
                                             const std::filesystem::path& dir);

std::string render_text(const Estimate& e);

}  // namespace polydat::fpga
