#include "hls/carry_cuts.h"

#include <algorithm>
#include <cmath>

#include "hls/design.h"

namespace polydat::hls {

std::vector<unsigned> CarryCuts::points(unsigned width) const {
  std::vector<unsigned> cuts;
  for (unsigned at = carry_bits; width > at && width - (at - carry_bits) > top_bits; at += carry_bits) cuts.push_back(at);
  return cuts;
}

CarryCuts carry_cuts(Target t, double clock_ns) {
  if (t != Target::Ice40) return {};
  const double budget = schedule_period_ns(t, clock_ns);
  // A piece is read from registers. A carry out leaves the chain through a
  // logic cell and general routing: measured 3 ns beyond op_cost's Add in the
  // hash pipeline, where a sum bit enters its own cell's flip-flop.
  constexpr double kCarryExitNs = 3.0;
  // The widest chain of this operator whose delay fits the room (op_cost is linear in the width).
  auto widest = [&](Op op, double room) {
    const double per_bit = op_cost(t, op, 64, false).delay_ns - op_cost(t, op, 63, false).delay_ns;
    const double base = op_cost(t, op, 1, false).delay_ns - per_bit;
    return static_cast<unsigned>(std::clamp(std::floor((room - base) / per_bit), 4.0, static_cast<double>(kMaxWidth)));
  };
  return CarryCuts{widest(Op::Add, budget - kCarryExitNs), widest(Op::Add, budget), widest(Op::Sub, budget)};
}

}  // namespace polydat::hls
