// `polydat run`: a workload's scenario on a software engine, one line per
// rendered op, streamed. Counting is nb-rs's: a phase (each iteration of a
// loop around it in order) runs `cycles` rounds with `cycle` from 0, each
// round rendering every op in the order written and skipping an op whose
// `if:` is false; top-level ops without phases run `cycles` single ops in
// turn. Scopes, shared cells and the subcontext contract are in frame.h and
// subcontext.h; docs/workloads.md describes the whole model.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frontend/embed.h"
#include "ir/expected.h"
#include "workload/model.h"
#include "workload/op_sequence.h"
#include "workload/render.h"
#include "workload/tag_filter.h"

namespace polydat::workload {


struct RunOptions {
  std::string scenario;                                        // empty: `default`, else every phase in order
  std::vector<std::pair<std::string, std::string>> overrides;  // name=value from the command line
  bool native = false;                                         // the LLVM engine (else the interpreter)
  RenderOptions render;                                        // format=, separator=, header=, fields=
  Sequencer sequencer = Sequencer::Bucket;                     // seq=: how a stanza lays out its ops' ratios
  std::optional<TagFilter> tags;                               // tags=: which top-level ops run
  std::vector<std::string> lib_paths;                          // -L folders for the kernels' calls
  uint64_t max_loop_iterations = 1000000;                      // a do_while/do_until past this is an error
  // Called about every 64K ops with the cycles and ops so far (the progress line).
  std::function<void(uint64_t cycles, uint64_t ops)> progress;
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

// Runs the workload, handing the output to `sink` in pieces of whole lines
// (it returns false when the reader has gone: the run then stops quietly).
// An error is rendered (file:line:col, the line, a caret, a kind); the lines
// before it have been handed over.
ir::Expected<RunSummary, std::string> run_workload(const Workload& w, const RunOptions& options,
                                                   const std::function<bool(const std::string&)>& sink);

// The scope tree the scenario builds, for `--explain`: each scope, its
// kernel's imports (once, per cycle), its cells and outputs, and each loop
// variable with its class (structural: in some bindings text inside the loop,
// so its scopes recompile per iteration; parametric: only read, the kernel is
// reused and the variable set as an input).
struct Explanation {
  std::string tree;
};
ir::Expected<Explanation, std::string> explain_workload(const Workload& w, const RunOptions& options);

}  // namespace polydat::workload
