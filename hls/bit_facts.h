// What the bits of each DFG value are known to be, and which of them anyone
// reads. Forward: known-zero and known-one masks plus an unsigned range per
// value, true in every evaluation (loop state by a widening fixpoint that
// uses the guard). Backward: a demanded mask per value, the bits some
// consumer reads (loop state by a fixpoint over its readers). The narrowing
// pass computes each operation at the width these allow; the analysis
// demands exactly what that pass's rewrites read, or more.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "hls/dfg.h"

namespace polydat::hls {

// Facts about a value of `width` bits that hold in every evaluation.
struct ValueFacts {
  unsigned width = 64;
  uint64_t zeros = 0;  // bits known to be 0
  uint64_t ones = 0;   // bits known to be 1
  uint64_t lo = 0;     // the value, unsigned, lies in [lo, hi]
  uint64_t hi = ~uint64_t{0};

  uint64_t known() const { return zeros | ones; }
  bool is_constant() const;
  // The bits up to the highest one that may be set (bits above are zero).
  unsigned significant_bits() const;
  // How many of the lowest bits are known to be 0.
  unsigned low_zeros() const;
  // How many of the lowest bits are known (0 or 1).
  unsigned low_known() const;
  bool operator==(const ValueFacts&) const = default;
};

// Nothing known but the width.
ValueFacts unknown_facts(unsigned width);
ValueFacts constant_facts(unsigned width, uint64_t value);
// Bits and range brought into agreement: the range from the known bits and
// the known bits from the range's common high prefix.
ValueFacts normalized(ValueFacts f);
// What is known of a value that is either a or b (a Mux, a loop state).
ValueFacts join(const ValueFacts& a, const ValueFacts& b);
// Whether value x (within f.width) is consistent with f.
bool admits(const ValueFacts& f, uint64_t x);

// The facts of operation n's result from its operands' facts (in order).
ValueFacts forward_facts(const Node& n, const std::vector<ValueFacts>& operands);

// Test seams: alter what the analysis computes for a node (plant a fault).
struct BitFactsHooks {
  std::function<void(const Dfg&, ValueId, ValueFacts&)> forward;
  // Called with the demands the node places on each of its operands.
  std::function<void(const Dfg&, ValueId, std::vector<uint64_t>&)> backward;
};

class BitFacts {
 public:
  explicit BitFacts(const Dfg& g, BitFactsHooks hooks = {});

  const ValueFacts& facts(ValueId v) const { return facts_[v]; }
  // The bits of v some consumer reads (outputs, the guard, the next state included).
  uint64_t demanded(ValueId v) const { return demanded_[v]; }
  // Demanded bits that are not known: what must be computed.
  uint64_t needed(ValueId v) const { return demanded_[v] & ~facts_[v].known(); }
  // The bits [lo, hi) of v the narrowing pass computes (the rest are known
  // constants or unread); lo = hi = 0 when v is a constant to its readers.
  unsigned computed_lo(ValueId v) const;
  unsigned computed_hi(ValueId v) const;
  // Rounds the loop fixpoints took (forward, backward).
  unsigned forward_rounds() const { return forward_rounds_; }
  unsigned backward_rounds() const { return backward_rounds_; }

 private:
  void forward_pass(const std::vector<ValueFacts>& state, std::vector<ValueFacts>& out, bool all) const;
  ValueFacts node_facts(ValueId v, const std::vector<ValueFacts>& known) const;
  void loop_fixpoint();
  std::vector<ValueFacts> step_state(const std::vector<ValueFacts>& state);
  std::vector<ValueFacts> refined_by_guard(const std::vector<ValueFacts>& state, const std::vector<ValueFacts>& f) const;
  void refine(ValueId cond, bool holds, const std::vector<ValueFacts>& f, std::vector<ValueFacts>& state) const;
  void backward_pass();
  void demand_operands(ValueId v);

  const Dfg& g_;
  BitFactsHooks hooks_;
  std::vector<bool> live_, on_state_;
  std::vector<int> state_slot_;  // node -> its position in the loop state, or -1
  std::vector<ValueFacts> facts_;
  std::vector<uint64_t> demanded_;
  unsigned forward_rounds_ = 0, backward_rounds_ = 0;
};

// The bits [lo, hi) the narrowing pass computes of a value with these facts
// and this demand: the needed bits' span; (0, 0) when none is needed.
unsigned span_lo(uint64_t needed);
unsigned span_hi(uint64_t needed);

}  // namespace polydat::hls
