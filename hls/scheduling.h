// Scheduling as a stated problem: operations with delays, dependences and
// resource limits under a clock period. check() validates a problem;
// verify() validates any schedule of it, whichever algorithm produced it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace polydat::hls {

// Some bits of a value an operation reads: an operation of the problem
// (source < ops.size()) or a value present from the first step on, such as an
// input (source ops.size() + k, k < fixed_sources). A bit read k steps after
// its source's step is held in k register bits (register-aware scheduling).
struct BitRead {
  uint32_t source = 0;
  uint64_t bits = 0;
};

struct SchedOp {
  std::vector<uint32_t> preds;  // operations of this problem it reads (each < its own index)
  std::vector<BitRead> reads;   // optional: the bits it reads, for register-aware scheduling
  double delay_ns = 0;          // combinational delay through it
  double chain_ns = 0;          // added before it when it reads a result of its own step (routing between chained operators)
  double out_ns = 0;            // added after it for an operation of its own step that reads it (routing out of it)
  bool merges = false;          // folds into its predecessors' logic: chained with no routing (chain_ns and out_ns do not apply)
  int resource = -1;            // index into the problem's limits, or -1 for unlimited
  // A multi-cycle operation (cycles > 0): it samples its operands at the end
  // of its step (so it may chain after them, taking no time there) and its
  // result can be read from step + cycles on, from the step's start; it holds
  // its resource in each of steps step .. step + cycles - 1.
  uint32_t cycles = 0;
};

struct SchedulingProblem {
  std::vector<SchedOp> ops;  // in a topological order: predecessors first
  double period_ns = 1;
  std::vector<uint32_t> limits;  // per resource: at most this many operations in one step (modulo ii)
  // The initiation interval: a new input every `ii` steps, so the operations
  // of steps k, k + ii, k + 2 ii, ... run at once and share a resource's limit
  // (a modulo reservation table; 1: every step is its own).
  uint32_t ii = 1;
  uint32_t fixed_sources = 0;    // values read from the first step on (BitRead sources past the operations)
  std::vector<BitRead> final_reads;  // bits read after the last step (a pipeline's outputs)

  // Why the problem is malformed (empty when it is well-formed).
  std::vector<std::string> check() const;
};

// A control step per operation and its start time within the step. Values
// crossing a step boundary are registered; within a step, operations chain.
struct Schedule {
  std::vector<uint32_t> step;
  std::vector<double> start_ns;
  uint32_t length = 0;  // steps used (0 when there are no operations)

  double finish(const SchedulingProblem& p, uint32_t op) const { return start_ns[op] + p.ops[op].delay_ns; }
};

// Why the schedule does not solve the problem (empty when it does):
// dependences respected (a predecessor in an earlier step, or in the same
// step finishing, plus its out_ns and the operation's chain_ns, before the start; a
// multi-cycle predecessor `cycles` steps or more before), every chain within the period (an
// operation longer than the period starts a step and nothing chains after
// it), resource limits respected in every step (in every slot step mod ii).
std::vector<std::string> verify(const SchedulingProblem& p, const Schedule& s);

// Where operation i starts if it runs in `step`, given where its predecessors
// are: after each one of that step (its finish and the routing out of it and
// into i), at 0 when none is there (`chained` says which).
double start_in_step(const SchedulingProblem& p, const Schedule& s, uint32_t i, uint32_t step, bool* chained = nullptr);

// As soon as possible, with chaining, ignoring resource limits.
Schedule asap(const SchedulingProblem& p);
// As late as possible within `length` steps (at least the ASAP length), with chaining.
std::vector<uint32_t> alap_steps(const SchedulingProblem& p, uint32_t length);
// Resource-constrained list scheduling with chaining; priority: the ALAP step.
// With ii > 1 the limits hold per slot (step mod ii): a modulo list schedule
// (the graph has no recurrence, so no operation ever waits on a later one).
Schedule list_schedule(const SchedulingProblem& p);

}  // namespace polydat::hls
