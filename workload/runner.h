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
#include "workload/run_options.h"  // RunOptions, RunSummary (plan.h shares them)

namespace polydat::workload {

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
