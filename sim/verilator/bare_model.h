// The same Verilated model the co-simulation runs (same SystemVerilog, same
// verilator flags), driven by a minimal loop: the ceiling the harness's
// throughput is measured against. Built once per design, cached like the engine's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hls/design.h"
#include "rtl/emit_sv.h"
#include "ir/expected.h"

namespace polydat::sim {

struct BareRun {
  uint64_t cycles = 0;
  double seconds = 0;     // the clocked loop only, timed inside the model's process
  uint64_t results = 0;   // cycles with out_valid high
  uint64_t checksum = 0;  // of every output delivered, so the loop cannot be optimised away
};

// Inputs the driver holds for the whole run: every cfg_* port, and every in_*
// port after the first (the first takes the cycle number). Missing values are 0.
struct BareHeld {
  std::vector<uint64_t> configs;
  std::vector<uint64_t> inputs;  // for in_* ports 1, 2, ...
};

class BareModel {
 public:
  BareModel(const hls::Design& design, const rtl::Module& module, std::filesystem::path cache);

  // Verilates and builds the model with the bare driver (or finds it in the cache).
  ir::Expected<std::filesystem::path, std::string> prepare();
  // Resets for 3 cycles, then holds in_valid and out_ready high for `cycles` cycles.
  ir::Expected<BareRun, std::string> run(uint64_t cycles, const BareHeld& held = {});

  bool built_now() const { return built_now_; }  // false when the cache had the model

 private:
  const hls::Design& design_;
  std::filesystem::path cache_;
  std::string module_, sv_, driver_;
  std::filesystem::path binary_;
  bool built_now_ = false;
};

// The driver's C++ source for a design whose module is `module_name`.
//   usage: bare CYCLES [CONFIG...] [INPUT...]   (prints "cycles N seconds S results R checksum C")
std::string bare_driver_cpp(const hls::Design& design, const std::string& module_name);

}  // namespace polydat::sim
