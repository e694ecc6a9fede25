// A workload's scenario unrolled for hardware: every phase run (a phase in
// each iteration of the loops around it) as an entry, with the kernels that
// must run per cycle, where each of their inputs and each name an op reads
// comes from (a value the host knows, the cycle counter, a kernel's output,
// a shared cell's view), and how the cells are seeded when the entry begins.
// `plan_workload` walks the scenario as `polydat run` does, without running
// cycles; hwtop/ turns the plan into SystemVerilog.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/value.h"
#include "workload/frame.h"
#include "workload/op_template.h"
#include "workload/run_options.h"

namespace polydat::workload {

struct ValueSource {
  enum class Kind : uint8_t {
    Const,   // known to the host for the whole entry: a param, a loop variable, an outer per-scope binding
    Cycle,   // the phase's cycle counter
    Output,  // an output of the kernel of the frame at `depth`, evaluated per cycle
    Cell,    // the view of shared cell `name` the frame at `depth` has
  };
  Kind kind = Kind::Const;
  ir::Value value;   // Const
  std::string name;  // Output: the output; Cell: the cell
  uint32_t depth = 0;
  ir::Ty ty;         // the value's type
};

// A kernel run once per cycle of an entry (the phase's own, and outer ones whose per-cycle outputs it reads).
struct PlanStage {
  std::shared_ptr<const CompiledScope> scope;
  uint32_t depth = 0;  // its frame's place in the chain (0: the workload)
  std::vector<std::pair<std::string, ValueSource>> externs;  // cfg: per-scope imports and the cells it reads
  std::vector<std::pair<std::string, ValueSource>> inputs;   // streamed: cycle and per-cycle imports
  bool commits = false;  // the phase's kernel: its write-throughs go into the cells
};

struct PlanFrame {
  std::string label;
  uint64_t serial = 0;  // the activation (equal serials: the same frame in two entries)
  Seeding seeding = Seeding::Inherit;
  std::vector<OwnCell> cells;  // the cells it declares (seeded to their initial values when it begins)
  std::map<std::string, Mark> cell_at;  // where each is declared
};

struct PlanEntry {
  std::string phase;
  std::string iteration;          // the loop variables that make it, "" outside loops
  std::vector<PlanFrame> chain;   // the workload's frame first, the phase's last
  uint64_t cycles = 0;
  std::vector<PlanStage> stages;  // outermost first; the phase's own (when it has bindings) last
  std::vector<PreparedOp> ops;
  std::vector<size_t> stanza;     // nb-rs's stanza: cycle c renders ops[stanza[c % stanza.size()]] (when its `if:` holds)
  std::map<std::string, ValueSource> names;  // every name the ops read (fields and `if:`)
  Mark at;                        // the phase's definition
};

struct WorkloadPlan {
  std::vector<PlanEntry> entries;
  RunSummary summary;  // compiles, warnings
};

// Refusals that belong to the scenario, not to a kernel (a loop whose
// condition reads a cell, top-level ops) are errors with kind `hw-scenario`.
ir::Expected<WorkloadPlan, std::string> plan_workload(const Workload& w, const RunOptions& options);

// The entry of the phase run in frame `phase` (its kernel attached) with `ops` in `stanza`'s order.
ir::Expected<PlanEntry, std::string> plan_entry(const Workload& w, Frame& phase, const std::vector<PreparedOp>& ops,
                                                const std::vector<size_t>& stanza, uint64_t cycles);

}  // namespace polydat::workload
