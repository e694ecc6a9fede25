// Co-simulation: one batch through the oracle and through a cycle-accurate
// engine; every result compared, the report's cycle claims checked.
#pragma once

#include <optional>
#include <string>

#include "hls/design.h"
#include "sim/engine.h"

namespace polydat::sim {

struct Mismatch {
  size_t evaluation = 0;
  std::vector<ir::Value> inputs, expected, actual;
  uint64_t cycle = 0;  // when the engine delivered the result
};

struct CosimReport {
  size_t compared = 0;
  size_t mismatches = 0;
  std::optional<Mismatch> first;
  std::string missing;  // results missing, extra or out of order (empty: none)
  // Cycle claims (checked under free flow only): the measured latency and
  // initiation interval against the report's, per evaluation.
  bool free_flow = false;
  size_t latency_checked = 0;
  size_t latency_wrong = 0;
  std::string latency_first_wrong;  // the first disagreement, in words
  uint64_t min_latency = 0, max_latency = 0;  // measured
  uint64_t min_ii = 0, max_ii = 0;            // measured, between accepted inputs
  uint64_t cycles = 0;
  double engine_seconds = 0;
  double oracle_seconds = 0;

  bool ok() const { return mismatches == 0 && missing.empty() && latency_wrong == 0; }
};

// Runs `batch` on both engines and compares. `free_flow` says the engine ran
// with no stalls, so latency and initiation interval must match the design's.
CosimReport compare(const hls::Design& d, const Batch& batch, const EngineRun& oracle, const EngineRun& engine,
                    bool free_flow);

std::string render(const CosimReport& r, const hls::Design& d);

// What a model must show right after reset, as the Verilator testbench prints
// it (in_ready, out_valid, then each output): " 1 0 0 ... 0" (a pipeline
// masks its constant and cfg_* output bits with out_valid). Registers
// start random, so anything else means reset leaves state undefined.
std::string expected_post_reset(const hls::Design& d);

}  // namespace polydat::sim
