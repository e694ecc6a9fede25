// A workload as hardware: each scope kernel a run needs per cycle becomes a
// module (HLS), and the scenario, unrolled by workload/plan.h, becomes the
// program a generated top steps through. The top's records leave on one
// valid/ready stream, tagged with the entry (a phase in one iteration of the
// loops around it), the op and the cycle, carrying the values the op reads
// that only the hardware knows; the host renders the lines (decode.h). Each
// cycle of an entry renders one op, the next of the phase's stanza.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hls/design.h"
#include "ir/expected.h"
#include "workload/plan.h"

namespace polydat::hwtop {

struct HwOptions {
  hls::HlsOptions hls;
  size_t max_entries = 4096;  // phase runs the sequencer's program may hold
  // A phase run the hardware cannot take (a float or string value, two loops)
  // stays on the host instead of refusing the workload, when it touches no
  // shared cell; the sequencer skips it and the decoder puts its lines in place.
  bool partition = false;
};

// One scope kernel as a module; entries whose stages run the same compiled
// scope share it (a parametric loop variable drives its cfg_ port per entry).
struct HwModule {
  std::string name;  // the SystemVerilog module
  std::shared_ptr<const workload::CompiledScope> scope;
  hls::Design design;
  std::string sv;
  std::vector<std::string> cfg_ports, in_ports, out_ports;  // the SystemVerilog port names, in the DFG's order
};

// A value a record carries: where it comes from and its bits in the payload.
struct HwField {
  std::string name;
  workload::ValueSource source;
  unsigned offset = 0, width = 0;
};

struct HwOp {
  std::vector<HwField> payload;
  std::optional<workload::ValueSource> gate;  // the `if:` when only the hardware knows it
  bool never = false;                         // an `if:` the host knows is false
};

struct HwStage {
  size_t module = 0;
  const workload::PlanStage* plan = nullptr;
};

struct HwEntry {
  const workload::PlanEntry* plan = nullptr;
  std::vector<HwStage> stages;  // outermost first
  std::vector<HwOp> ops;
  uint32_t first_new = 0;       // the shallowest frame of its chain that begins with it
  bool host = false;            // --partition: it runs on the host (no stages, no ops in hardware)
  // One stage that reads no cell: its cycles are independent, so the sequencer
  // issues cycle after cycle into the module's pipeline while it writes and
  // emits the results in order (else one cycle is in flight at a time).
  bool streamed = false;
};

// A shared cell as registers: its view in each frame from its owner inward.
struct HwCell {
  std::string name;
  ir::Ty ty;
  frontend::Combine combine = frontend::Combine::Last;
  ir::Value initial;
  uint32_t owner_depth = 0;
  std::string owner;  // the scope that declares it
};

struct HwWorkload {
  std::unique_ptr<workload::WorkloadPlan> plan;  // the entries point into it
  std::vector<HwModule> modules;
  std::vector<HwEntry> entries;
  std::vector<HwCell> cells;
  uint32_t max_depth = 0;       // the deepest frame any entry has
  unsigned payload_width = 1;   // rec_data's width
  unsigned entry_width = 1, op_width = 1;  // rec_entry's and rec_op's widths
  std::string top = "workload_top";
  std::vector<std::string> partitioned;  // --partition: each phase run left on the host, and why
};

// Refusals (a float or string value the hardware would carry, two loops in a
// kernel, a loop the host cannot unroll) name the scope, the binding and the
// workload file's line; their kind is hw-refused or hw-scenario.
ir::Expected<HwWorkload, std::string> lower_workload(const workload::Workload& w, const workload::RunOptions& run,
                                                     const HwOptions& options);

// The same from a plan already made (`w` is the workload it was planned from, for locations).
ir::Expected<HwWorkload, std::string> lower_plan(const workload::Workload& w, workload::WorkloadPlan plan,
                                                 const HwOptions& options);

// The longest stanza the sequencer's case table takes.
inline constexpr size_t kMaxStanza = 4096;

// A value's bits as the hardware holds it (two's complement at the type's width).
uint64_t value_bits(const ir::Value& v);
// The value of type `ty` whose bits are `bits`.
ir::Value value_of_bits(const ir::Ty& ty, uint64_t bits);

}  // namespace polydat::hwtop
