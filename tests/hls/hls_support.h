// Shared by the HLS suites: kernels from GK text through the same steps as
// `polydat hls` (compile, optimise, synthesize), and independent checks of a
// bound design's invariants. Each check returns what it found wrong, one line
// per problem, so a failing CHECK prints the reason.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hls/design.h"
#include "ir/graph.h"

namespace polydat::hls::testing {

// A kernel compiled from GK text and optimised (every call inlined).
struct Kernel {
  std::optional<ir::CategoryIr> raw;  // as lowered, before optimisation
  std::optional<ir::CategoryIr> ir;   // optimised
  std::vector<bool> config;           // per input field: an extern (cfg_NAME)
  std::string error;                  // diagnostics when compilation failed

  bool ok() const { return ir.has_value(); }
};

// Issue 35's kernel (tests/rtl/kernels/ii_mixed.gk): splitmix64, hash, mixed_radix and a rotate,
// about 7,800 cells at II 1 on a UP5K.
inline constexpr const char* kMixedKernel = R"(input cycle: u64
extern salt: u64
s := splitmix64(cycle ^ salt)
h := hash(cycle)
(d, q) := mixed_radix(h, 1000, 0)
r := (s << 13) | (s >> 51)
out := r ^ d ^ q
)";

// The text is compiled as "kernel.gk", so the kernel is named "kernel".
Kernel compile_kernel(const std::string& text);

// compile_kernel + synthesize with the given options; a compile failure fails the test.
ir::Expected<Design, HlsError> synth(const std::string& text, const HlsOptions& options = {});
// Same, and the synthesis must succeed (checked with REQUIRE).
Design must_synth(const std::string& text, const HlsOptions& options = {});

HlsOptions opts(Target t, std::optional<double> clock_ns = std::nullopt, std::optional<uint32_t> max_mul = std::nullopt);

// The live operation values of a design, in value order.
std::vector<ValueId> live_ops(const Design& d);
// The width an operator is built at: the widest of its result and operands.
unsigned operator_width(const Design& d, ValueId v);
// The library's cost of operation v as the design's target builds it (a
// multiplication by a constant on either side is shift-and-add, one marked
// for a DSP block a DSP).
OpCost library_cost(const Design& d, ValueId v);
// A multiplication of two variables: what --max-mul limits and shares.
bool general_multiplication(const Design& d, ValueId v);
// The units that carry general multiplications.
uint32_t general_multiplier_units(const Design& d);

// Every live value has a hardware width (bool or an integer of at least one
// bit). Every live operation's operands are live and come first: in an earlier
// step, or in the same step finishing no later than the user starts.
std::vector<std::string> dependence_problems(const Design& d);
// Every operation takes its library delay; every chain ends within the clock
// period, except an operation longer than the period, which starts its step
// with nothing of its step before or after it. The critical path is the
// latest finish.
std::vector<std::string> timing_problems(const Design& d);
// Pipelines: steps below `stages`, latency = stages, II = the design's ii. FSMs: the state
// list idle, pre, loop, post, done; the controller's transitions; each
// region's operations in its own states; latency(t) = 1 + pre + loop*(t+1) + post.
std::vector<std::string> shape_problems(const Design& d);
// Every non-wire operation on a unit of its class, wide enough, pointing back
// at it; no unit used twice in one step; without a multiplier limit one
// operation per unit; with max_mul N at most N multiplications per step and
// at most N multiplier units.
std::vector<std::string> unit_problems(const Design& d, std::optional<uint32_t> max_mul);
// FSM: lifetimes sharing a register do not overlap; every value read in a
// later state than its own has a register whose lifetime covers the read;
// and no path through the controller from a value's write to one of its reads
// passes a state that writes another value into the same register.
// Pipeline: exactly one register per stage boundary a value crosses.
std::vector<std::string> register_problems(const Design& d);
// All of the above.
std::vector<std::string> design_problems(const Design& d, std::optional<uint32_t> max_mul = std::nullopt);

std::string join(const std::vector<std::string>& lines);

// Runs `probe` in a forked child process and returns the problems it reports,
// plus a line saying how the child died if it did not finish. For code paths
// with a known memory error (the constant-power bug of hls/dfg.cc, see
// dfg_test.cc), which must not corrupt or crash the rest of the suite. The
// probe must not use doctest's assertion macros.
std::vector<std::string> isolated(const std::function<std::vector<std::string>()>& probe);

}  // namespace polydat::hls::testing
