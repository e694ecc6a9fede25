// Icarus Verilog as a third RTL simulator, independent of Verilator: the
// kernel's SystemVerilog and a SystemVerilog testbench of its own, written
// from the interface contract (DESIGN.md), compiled with `iverilog -g2012`
// and run with `vvp`. It drives the handshakes with random stalls from its
// own generator and writes the file protocol of sim/verilator/testbench_io.h,
// so sim::compare checks it like the others. Registers start as X, so a reset
// that leaves one undefined shows as an `x` after reset.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "hls/design.h"
#include "sim/engine.h"
#include "sim/rtl_engine.h"

namespace polydat::sim {

struct IverilogOptions {
  double stall = 0;               // probability that in_valid and out_ready are each low in a cycle
  uint64_t seed = 1;              // the testbench's own generator (stalls, inputs while not offered)
  std::optional<std::string> sv;  // SystemVerilog to simulate instead of the design's (planted faults)
  std::filesystem::path cache;    // default: default_cache_dir() (sim/verilator/verilator_engine.h)
  uint64_t max_idle = 1'000'000;  // cycles without a result before the run is called a hang
  ProgressHook progress;          // results so far, while the model runs (none: no polling)
};

// The testbench module `polydat_tb` for the design's module `module`.
std::string iverilog_testbench(const hls::Design& d, const std::string& module);

class IverilogEngine final : public RtlEngine {
 public:
  IverilogEngine(const hls::Design& design, const rtl::Module& module, IverilogOptions options);
  std::string name() const override { return "iverilog"; }
  // Compiles the design and the testbench (or finds them in the cache).
  ir::Expected<std::filesystem::path, std::string> prepare() override;
  ir::Expected<EngineRun, std::string> run(const Batch& batch) override;

 private:
  IverilogOptions options_;
  std::string tb_;
  std::filesystem::path vvp_;
};

}  // namespace polydat::sim
