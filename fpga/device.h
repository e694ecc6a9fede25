// The iCE40 parts polydat places and routes for, with the resources a report
// measures against.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace polydat::fpga {

struct Device {
  std::string name;             // up5k, hx8k, lp8k, hx1k
  std::string nextpnr_flag;     // --up5k
  std::string default_package;  // the package --device alone means
  uint32_t luts = 0;            // logic cells (each a LUT4, a flip-flop and a carry)
  uint32_t ffs = 0;
  uint32_t carries = 0;
  uint32_t dsps = 0;            // SB_MAC16
  uint32_t brams = 0;           // SB_RAM40_4K
  bool use_dsp = false;         // synth_ice40 -dsp
};

// nullptr when `name` is not one of ours.
const Device* find_device(std::string_view name);
std::vector<std::string> device_names();

}  // namespace polydat::fpga
