// The bound design: the scheduled DFG with its datapath units, registers and
// controller. rtl/ prints it; tests inspect it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hls/dfg.h"
#include "hls/op_library.h"
#include "hls/predicate.h"
#include "hls/scheduling.h"

namespace polydat::hls {

// What the device offers: the report compares the model's estimate with it,
// and binding keeps the DSPs within it.
struct Capacity {
  std::string device;  // up5k, hx8k, ... (empty: unknown)
  uint32_t luts = 0, ffs = 0, carries = 0, dsps = 0;
};

// The model's estimate of what a design uses (iCE40: LUT4s, flip-flops, carry
// cells, DSP blocks). A logic cell holds a LUT and the flip-flop it feeds, so
// cells are about the larger of LUTs and flip-flops, except for the LUTs that
// feed a DSP block (the slot multiplexers of a shared block): no flip-flop
// shares their cells (measured after place and route: docs/hls.md).
struct Resources {
  double luts = 0, ffs = 0, carries = 0;
  uint32_t dsps = 0;
  double unpaired_luts = 0;  // of `luts`: those no flip-flop can share a cell with
  double cells() const {
    const double paired = luts - unpaired_luts;
    return (paired > ffs ? paired : ffs) + unpaired_luts;
  }
};

// The part a target's designs are for when none is named (iCE40: the UP5K of the iCEBreaker).
std::optional<Capacity> default_capacity(Target t);

struct HlsOptions {
  Target target = Target::Ice40;
  std::optional<double> clock_ns;     // the target's default when empty
  std::optional<uint32_t> max_mul;    // FSM designs: multipliers shared across states
  std::optional<uint32_t> dsp_limit;  // at most this many DSP blocks (0: LUTs only); default: the capacity's
  std::optional<Capacity> capacity;   // the device the design is for; default: the target's usual part
  // Loop-free kernels: a new input every `ii` cycles, the pipeline's units shared across the ii
  // slots (empty: the smallest II whose design fits the device, searched from 1).
  std::optional<uint32_t> ii;
};

// The longest initiation interval (--ii, and the search's bound: past it the iterative FSM is the design).
constexpr uint32_t kMaxIi = 16;

// One initiation interval the search tried: the model's estimate of its design.
struct IiTrial {
  uint32_t ii = 1;
  double cells = 0;
  uint32_t dsps = 0;
  bool fits = false;
};

// Where an operation runs: its control step (pipeline stage, or FSM state
// index) and its start and finish within the step; its functional unit.
struct Placement {
  uint32_t step = 0;
  double start_ns = 0;
  double finish_ns = 0;
  int unit = -1;
};

struct FunctionalUnit {
  UnitClass cls = UnitClass::Logic;
  Op op = Op::Add;
  unsigned width = 0;
  double area = 0;
  double carries = 0;
  std::vector<ValueId> ops;  // bound to it; several only when shared across states
};

// A register holding values whose lifetimes do not overlap (FSM), or one
// value across one stage boundary (pipeline).
struct Register {
  std::string name;
  unsigned width = 0;
  std::vector<ValueId> values;
  std::vector<std::pair<uint32_t, uint32_t>> lifetimes;  // FSM: [written at the end of, last read in] state
  uint32_t stage = 0;                                     // pipeline: the stage it ends
  uint64_t bits = 0;                                      // pipeline: the value's bits it holds (in order; 0: all)
};

enum class Cond : uint8_t { Always, InValid, OutReady, LoopContinue, LoopDone };

struct FsmState {
  std::string name;
  Region block = Region::Pre;
  bool idle = false, done = false;
};

struct FsmTransition {
  uint32_t from = 0, to = 0;
  Cond cond = Cond::Always;
};

struct Design {
  DesignKind kind = DesignKind::Pipeline;
  Target target = Target::Ice40;
  double clock_ns = 0;
  Dfg dfg;
  std::vector<bool> live;          // per value: needed by an output or by the loop
  std::vector<Placement> place;    // per value (operations only)
  std::vector<FunctionalUnit> units;
  std::vector<Register> registers;
  std::vector<int> reg_of;         // FSM: per value, its register (-1: none)
  double critical_path_ns = 0;     // the slowest step's chain plus the register overhead: the period it needs
  std::optional<Capacity> capacity;  // the device it is for
  // Why the design is not the II-1 one the kernel would get (empty: it is):
  // that design's estimate did not fit the device.
  std::string fallback;
  std::vector<IiTrial> ii_search;  // the IIs tried, in order (empty: none was searched)

  // Pipeline: stages (the latency in cycles) and the initiation interval: a
  // new input every `ii` cycles, accepted in slot 0 of a counter of ii slots;
  // the operations of stages k, k + ii, ... run in slot k mod ii and may share
  // a unit, and a register holds its value for ii cycles.
  uint32_t stages = 0;
  uint32_t ii = 1;
  std::vector<uint32_t> last_use;  // pipeline: per value, the last stage reading it (stages for outputs)

  // FSM: control steps before the loop, per loop iteration, after it; states
  // and transitions. A loop-free FSM (a kernel with an iterative unit) has
  // pre steps only.
  uint32_t pre_steps = 0, loop_steps = 0, post_steps = 0;
  std::vector<FsmState> states;
  std::vector<FsmTransition> transitions;

  // FSM state indices.
  uint32_t idle_state() const { return 0; }
  uint32_t pre_state(uint32_t k) const { return 1 + k; }
  uint32_t loop_state(uint32_t k) const { return 1 + pre_steps + k; }
  uint32_t post_state(uint32_t k) const { return 1 + pre_steps + loop_steps + k; }
  uint32_t done_state() const { return 1 + pre_steps + loop_steps + post_steps; }
  // The state whose end loads the loop state (the last pre-loop state, or idle).
  uint32_t entry_state() const { return pre_steps ? pre_state(pre_steps - 1) : idle_state(); }
  // The state whose end latches the outputs (the last post-loop state, or the last loop state, or the last pre state).
  uint32_t finish_state() const {
    if (post_steps) return post_state(post_steps - 1);
    return loop_steps ? loop_state(loop_steps - 1) : pre_state(pre_steps - 1);
  }

  // Latency in cycles from accepting an input to its result: pipelines
  // `stages`; FSMs 1 + pre + loop * (iterations + 1) + post.
  uint64_t latency(uint64_t iterations = 0) const;
  // Cycles between accepted inputs when the output is always taken.
  uint64_t initiation_interval(uint64_t iterations = 0) const;
  uint64_t register_bits() const;
  // Pipeline: the stage whose end wrote the register carrying v into stage `at`
  // (one register holds a value for ii stages, so a reader ii stages or fewer
  // after v's stage reads the first).
  uint32_t carrying_stage(ValueId v, uint32_t at) const;
  // The slot (pipeline: stage mod ii; FSM: the state) in which step `step` runs.
  uint32_t slot(uint32_t step) const { return kind == DesignKind::Pipeline ? step % ii : step; }
  // The model's estimate of LUTs, flip-flops, carries and DSP blocks.
  Resources resources() const;

  // A multiplication bound to a DSP block.
  bool is_dsp(ValueId v) const;
  // A division or remainder computed by an iterative unit (one quotient bit per
  // cycle), or a multiplication (one multiplier bit per cycle): it takes
  // `multi_cycles(v)` steps from the step it starts in.
  bool is_iterative(ValueId v) const;
  uint32_t multi_cycles(ValueId v) const;
  // The library's cost of operation v as this design builds it.
  OpCost cost(ValueId v) const;
  // The values operation v reads, seen through wiring (the operations,
  // inputs, configs, constants and loop state feeding it).
  std::vector<ValueId> reads(ValueId v) const;
};


// Predicate, DFG, schedule, binding: the whole HLS step for function f.
// `config_fields[i]` marks field i of the input struct as effectively const.
ir::Expected<Design, HlsError> synthesize(const ir::CategoryIr& ir, ir::FuncId f, const std::vector<bool>& config_fields,
                                          const HlsOptions& options);

}  // namespace polydat::hls
