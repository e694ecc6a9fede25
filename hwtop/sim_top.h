// The workload top simulated whole: verilated with a generated testbench
// (or, with `systemc`, as a SystemC module clocked by sc_clock), run from
// reset to `done` with seeded random stalls on rec_ready, its records
// collected. Models are cached like kernel models (sim/verilator).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hwtop/decode.h"
#include "hwtop/lower.h"
#include "ir/expected.h"

namespace polydat::hwtop {

struct TopSimOptions {
  bool systemc = false;
  double stall = 0;        // probability rec_ready is low in a cycle
  uint64_t seed = 1;       // stalls and random initial register values
  uint64_t max_cycles = 200'000'000;  // a run past this is a hang
  std::filesystem::path cache;        // default: sim::default_cache_dir()
  std::optional<std::string> sv;      // simulate this SystemVerilog instead of emit_all's (planted faults)
};

struct TopSimRun {
  std::vector<Record> records;
  uint64_t cycles = 0;  // clock cycles from reset to done
};

ir::Expected<TopSimRun, std::string> simulate_top(const HwWorkload& hw, const TopSimOptions& options);

}  // namespace polydat::hwtop
