// Every engine by name: the interpreter (the oracle), the LLVM backend, and the
// RTL simulators (Verilator, SystemC, Icarus). Commands list and make engines
// from here, with one options type; nothing else names an engine's class.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flow/pipeline.h"
#include "hls/design.h"
#include "ir/expected.h"
#include "ir/graph.h"
#include "sim/engine.h"

namespace polydat::flow {

enum class EngineKind { Software, Rtl };  // runs the IR, or simulates the design's SystemVerilog

struct EngineOptions {
  double stall = 0;   // RTL: the chance that in_valid and out_ready are each low in a cycle
  uint64_t seed = 1;  // RTL: for the stalls and the random initial register values
  std::string trace;  // RTL: a waveform to write (.vcd, else FST), when the engine traces
  std::optional<std::string> sv;  // RTL: SystemVerilog to simulate instead of the design's (a planted fault)
  std::filesystem::path cache;    // RTL: where built models are kept (default: sim::default_cache_dir())
  std::string kernel_file;        // SystemC: the kernel its reference model compiles inside the simulation
  std::vector<std::string> lib_paths;
  std::optional<uint64_t> max_idle;  // RTL: cycles without a result before a hang (default: the engine's, 1,000,000)
  sim::ProgressHook progress;        // RTL: results so far while the model runs (the progress line)
  // interp: back edges one execution of one loop may take before it is reported (default: the language's limit).
  std::optional<uint64_t> max_iterations;
};

// What an engine runs: the optimised IR and its config fields for every engine; for RTL engines the
// design and the module the flow emitted for it (simulated as emitted, never emitted again).
struct EngineSubject {
  const ir::CategoryIr* ir = nullptr;
  std::vector<bool> config_fields;
  const hls::Design* design = nullptr;
  const rtl::Module* module = nullptr;
};
EngineSubject subject_of(const Optimized& kernel);  // for software engines
EngineSubject subject_of(const Emitted& kernel);    // for every engine

struct EngineInfo {
  std::string name;
  EngineKind kind;
  std::string summary;  // for usage text
  bool traces = false;  // writes a waveform with EngineOptions::trace
  bool counts_iterations = false;  // takes EngineOptions::max_iterations (counts each loop's back edges)
  // Builds many designs' models into one program in `cache` (empty: the default) before engines are made
  // (nullptr: each engine builds its own).
  ir::Expected<bool, std::string> (*prebuild)(const std::vector<sim::ModelRequest>&, const std::filesystem::path& cache) =
      nullptr;
  std::unique_ptr<sim::Engine> (*make)(const EngineSubject&, const EngineOptions&) = nullptr;  // after make_engine's checks
};

// In the order usage text lists them.
const std::vector<EngineInfo>& engines();
const EngineInfo* find_engine(std::string_view name);
std::vector<std::string> engine_names(std::optional<EngineKind> kind = std::nullopt);

// The engine, or why not: the name is unknown, the subject lacks what the engine needs, or an option does not apply.
ir::Expected<std::unique_ptr<sim::Engine>, std::string> make_engine(std::string_view name, const EngineSubject& subject,
                                                                   const EngineOptions& options = {});

}  // namespace polydat::flow
