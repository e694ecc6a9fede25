// A kernel's SystemVerilog co-simulated in SystemC: verilated with --sc,
// wrapped (wrapper.h), driven by a generated SystemC testbench whose
// reference model runs the interpreter inside the simulation
// (sc_testbench.h). Built once per distinct design, cached like the
// Verilator engine's models. Its EngineRun is the Verilator engine's, so
// sim::compare() checks it unchanged; the testbench's own in-simulation
// check is reported besides (reference_check()).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hls/design.h"
#include "sim/engine.h"
#include "sim/rtl_engine.h"
#include "sim/verilator/verilator_engine.h"

namespace polydat::sim {

struct SystemCOptions {
  double stall = 0;     // probability that in_valid and out_ready are each low in a cycle
  uint64_t seed = 1;    // for the stalls and the random initial register values
  std::string trace;    // a waveform to write, when not empty: .vcd, else FST
  std::optional<std::string> sv;  // SystemVerilog to simulate instead of the design's (planted faults)
  std::filesystem::path cache;    // default: default_cache_dir() (sim/verilator/verilator_engine.h)
  uint64_t max_idle = 1'000'000;  // cycles without a result before the run is called a hang
  // The kernel the reference model compiles inside the simulation, with its
  // -L folders; empty: no reference model (only the host-side comparison).
  std::string kernel_file;
  std::vector<std::string> lib_paths;
  ProgressHook progress;          // results so far, while the model runs (none: no polling)
};

// What the testbench's monitor found, comparing each result with the reference model's.
struct ReferenceCheck {
  bool ran = false;  // a reference model was present and the run completed
  uint64_t compared = 0, mismatches = 0;
  std::optional<uint64_t> first_mismatch;  // the evaluation
  bool ok() const { return ran && mismatches == 0; }
};

// As prebuild_verilator_models, for SystemC engines: one SystemC program for many designs.
ir::Expected<bool, std::string> prebuild_systemc_models(const std::vector<ModelRequest>& requests,
                                                        std::filesystem::path cache = {});

class SystemCEngine final : public RtlEngine {
 public:
  SystemCEngine(const hls::Design& design, const rtl::Module& module, SystemCOptions options);
  std::string name() const override { return "systemc"; }

  // Verilates and builds the model with its testbench (or finds it in the cache).
  ir::Expected<std::filesystem::path, std::string> prepare() override;
  ir::Expected<EngineRun, std::string> run(const Batch& batch) override;

  const ReferenceCheck& reference_check() const { return reference_check_; }
  std::optional<SelfCheck> self_check() const override;
  // The reusable wrapper header (<module>_sc.h), also written next to the built model.
  const std::string& wrapper() const { return wrapper_; }
  std::filesystem::path wrapper_path() const;  // after prepare()

 private:
  void write_wrapper() const;  // next to the model, for the user's own platform

  SystemCOptions options_;
  std::string tb_, wrapper_;
  std::filesystem::path binary_;
  std::string member_;  // the model's name in a program built for a set, else empty
  ReferenceCheck reference_check_;
};

}  // namespace polydat::sim
