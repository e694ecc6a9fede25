// One interface for every engine: a batch of input tuples in, output tuples
// out, with cycle stamps for the engines that have cycles.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/value.h"

namespace polydat::hls {
struct Design;
}
namespace polydat::rtl {
struct Module;
}

namespace polydat::sim {

// A design to build a model of: its module as the flow emitted it, and the SystemVerilog to simulate
// instead of that module's text when set.
struct ModelRequest {
  const hls::Design* design = nullptr;
  const rtl::Module* module = nullptr;
  std::optional<std::string> sv;
};

// Called from another thread while a model runs: the batch's results so far, of its evaluations.
using ProgressHook = std::function<void(uint64_t done, uint64_t total)>;

// A batch: each evaluation's streamed inputs (in_* ports, in order), and the
// effectively-const inputs (cfg_* ports), held for the whole batch.
struct Batch {
  std::vector<std::vector<ir::Value>> inputs;
  std::vector<ir::Value> configs;
};

struct EngineRun {
  std::vector<std::vector<ir::Value>> outputs;  // per evaluation, the out_* values in order
  // Cycle-accurate engines: when each input was accepted and each result taken.
  std::vector<uint64_t> accepted_at, delivered_at;
  uint64_t cycles = 0;
  // The interpreter: loop iterations per evaluation (the FSM latency depends on them).
  std::vector<uint64_t> iterations;
  double seconds = 0;  // wall time of the run itself (not of building the engine)
};

// What an engine that checks its own results (SystemC's reference model) found in its last run.
struct SelfCheck {
  bool ok = true;
  std::string summary;
};

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Builds what a run needs (a model, native code), so that its time is not the run's; run() builds when
  // it was not called. Nothing to build by default.
  virtual ir::Expected<void, std::string> build() { return {}; }
  // Whether build() made it now rather than finding it in a cache.
  virtual bool built_now() const { return false; }
  virtual ir::Expected<EngineRun, std::string> run(const Batch& batch) = 0;
  // Cycle-accurate engines: in_ready, out_valid and the outputs right after reset, as
  // sim::expected_post_reset writes them; empty for the others.
  virtual std::string post_reset() const { return {}; }
  virtual std::optional<SelfCheck> self_check() const { return std::nullopt; }
};

}  // namespace polydat::sim
