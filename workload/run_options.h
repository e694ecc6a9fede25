// What a run of a workload is given (RunOptions) and what it reports
// (RunSummary): shared by `polydat run` (runner.h) and the hardware plan
// (plan.h), so that neither of those headers includes the other.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "workload/op_sequence.h"
#include "workload/render.h"
#include "workload/tag_filter.h"

namespace polydat::workload {

// Where a run is, for its progress line: the whole run's counts and the phase run going.
struct RunProgress {
  uint64_t cycles = 0, ops = 0;     // the run's so far
  uint64_t phase_runs = 0;          // phase runs started
  uint64_t phase_done = 0;          // the phase run going: its cycles done ...
  uint64_t phase_cycles = 0;        // ... of its cycles
};

struct RunOptions {
  std::string scenario;                                        // empty: `default`, else every phase in order
  std::vector<std::pair<std::string, std::string>> overrides;  // name=value from the command line
  bool native = false;                                         // the LLVM engine (else the interpreter)
  RenderOptions render;                                        // format=, separator=, header=, fields=
  Sequencer sequencer = Sequencer::Bucket;                     // seq=: how a stanza lays out its ops' ratios
  std::optional<TagFilter> tags;                               // tags=: which top-level ops run
  std::vector<std::string> lib_paths;                          // -L folders for the kernels' calls
  uint64_t max_loop_iterations = 1000000;                      // a do_while/do_until past this is an error
  // Called about every 64K ops (the progress line).
  std::function<void(const RunProgress&)> progress;
  // Called as each phase run starts (in scenario order) with the bytes of
  // output and the ops rendered before it: where its lines begin.
  std::function<void(uint64_t bytes, uint64_t ops)> phase_run_starts;
};

struct RunSummary {
  uint64_t phases = 0;   // phase runs (a phase in a loop counts once per iteration)
  uint64_t cycles = 0;
  uint64_t ops = 0;      // lines rendered
  uint64_t skipped = 0;  // ops whose `if:` was false
  uint64_t compiles = 0; // scope kernels compiled (a structural variable recompiles per iteration)
  std::vector<std::string> warnings;  // ignored keys, unused imports
};

}  // namespace polydat::workload
