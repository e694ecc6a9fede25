// A kernel's SystemVerilog as an engine: verilated with a generated testbench,
// built once per distinct design (cached by a hash of the sources and flags),
// run on a batch.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hls/design.h"
#include "sim/engine.h"
#include "sim/rtl_engine.h"

namespace polydat::sim {

struct VerilatorOptions {
  double stall = 0;             // probability that in_valid and out_ready are each low in a cycle
  uint64_t seed = 1;            // for the stalls and the random initial register values
  std::string trace;            // a waveform to write, when not empty: .vcd, else FST
  // The SystemVerilog to simulate instead of the design's own emission (the
  // ports must be the design's): how tests plant a fault the harness must catch.
  std::optional<std::string> sv;
  std::filesystem::path cache;  // where built models are kept (default: default_cache_dir())
  uint64_t max_idle = 1'000'000;  // cycles without a result before the run is called a hang
  ProgressHook progress;          // results so far, while the model runs (none: no polling)
};

// $POLYDAT_CACHE, else $XDG_CACHE_HOME/polydat, else ~/.cache/polydat.
std::filesystem::path default_cache_dir();

// Builds the models of many designs into one program (sim/verilator/model_set.h)
// in `cache` (default: default_cache_dir()), so that every engine made later in
// this process for one of them (the same design and SystemVerilog, no trace)
// runs its part of that program instead of building a model of its own.
// Returns whether it built now (false: the cache had the set).
ir::Expected<bool, std::string> prebuild_verilator_models(const std::vector<ModelRequest>& requests,
                                                          std::filesystem::path cache = {});

class VerilatorEngine final : public RtlEngine {
 public:
  VerilatorEngine(const hls::Design& design, const rtl::Module& module, VerilatorOptions options);
  std::string name() const override { return "verilator"; }

  // Verilates and builds the model (or finds it in the cache).
  ir::Expected<std::filesystem::path, std::string> prepare() override;
  ir::Expected<EngineRun, std::string> run(const Batch& batch) override;


 private:
  VerilatorOptions options_;
  std::string tb_;
  std::filesystem::path binary_;
  std::string member_;  // the model's name in a program built for a set, else empty
};

}  // namespace polydat::sim
