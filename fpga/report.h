// What a synthesis run measured: resources against the device, achieved
// Fmax against the requested clock, the critical path's endpoints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace polydat::fpga {

struct Use {
  uint32_t used = 0;
  uint32_t total = 0;  // 0: the device has none
};

struct SynthReport {
  std::string top, device, package;
  Use luts, ffs, carries, dsps, brams;  // after Yosys (cells), against the device
  std::optional<uint32_t> logic_cells;  // after placement (ICESTORM_LC), when placement ran
  double requested_mhz = 0;
  std::optional<double> achieved_mhz;   // after routing
  bool fits = false;
  bool meets_timing = false;
  std::string critical_from, critical_to;  // the critical path's endpoints (cell/port)
  std::string bitstream;                   // the .bin's file name in the folder, when icepack ran
  std::string problem;                     // why it did not fit, when it did not
  // Wall time of each tool in seconds (not in the text or JSON, which stay deterministic).
  double yosys_s = 0, nextpnr_s = 0;
};

std::string render_text(const SynthReport& r);
nlohmann::json to_json(const SynthReport& r);

// Exit status a command reports (docs/guide.md "Exit codes"): 0 when it fits and meets timing,
// 3 when it does not fit or misses its clock (the report says which).
int exit_status(const SynthReport& r);

}  // namespace polydat::fpga
