#include "fpga/device.h"

#include <array>

namespace polydat::fpga {

namespace {

// Totals as nextpnr-ice40 0.4's --report "utilization" states them
// (ICESTORM_LC, ICESTORM_DSP, ICESTORM_RAM "available"). Each logic cell is a
// LUT4, a flip-flop and a carry, so the three totals are the same number.
Device make(const char* name, const char* package, uint32_t lcs, uint32_t dsps, uint32_t brams, bool use_dsp) {
  Device d;
  d.name = name;
  d.nextpnr_flag = std::string("--") + name;
  d.default_package = package;
  d.luts = d.ffs = d.carries = lcs;
  d.dsps = dsps;
  d.brams = brams;
  d.use_dsp = use_dsp;
  return d;
}

const std::array<Device, 4>& devices() {
  static const std::array<Device, 4> all = {
      make("up5k", "sg48", 5280, 8, 30, true),
      make("hx8k", "ct256", 7680, 0, 32, false),
      make("lp8k", "cm81", 7680, 0, 32, false),
      make("hx1k", "tq144", 1280, 0, 16, false),
  };
  return all;
}

}  // namespace

const Device* find_device(std::string_view name) {
  for (const Device& d : devices())
    if (d.name == name) return &d;
  return nullptr;
}

std::vector<std::string> device_names() {
  std::vector<std::string> names;
  for (const Device& d : devices()) names.push_back(d.name);
  return names;
}

}  // namespace polydat::fpga
