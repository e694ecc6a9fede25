#include "hls/slot_mux.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <tuple>

namespace polydat::hls {

namespace {

// A bit a unit reads: a value's bit and what carries it to the reading step (the value's own
// wire in its step, else the register of carrying_stage); config bits are the same everywhere.
using SourceBit = std::tuple<ValueId, unsigned, uint32_t>;

SourceBit carried(const Design& d, BitSource s, uint32_t at) {
  const Node& n = d.dfg.nodes[s.value];
  const uint32_t from = n.is_op() ? d.place[s.value].step : 0;
  if (n.kind == NodeKind::Config || n.kind == NodeKind::State || at == from) return {s.value, s.bit, UINT32_MAX};
  return {s.value, s.bit, d.carrying_stage(s.value, at)};
}

double position_luts(const Design& d, const std::vector<ValueId>& ops, size_t k) {
  const Dfg& g = d.dfg;
  std::vector<std::vector<BitSource>> bits;  // per op: its operand's bits
  size_t width = 1;
  for (ValueId v : ops) {
    bits.push_back(bit_sources(g, g.nodes[v].operands[k]));
    width = std::max(width, bits.back().size());
  }
  double luts = 0;
  for (size_t b = 0; b < width; ++b) {
    std::set<SourceBit> vars;
    bool zero = false, one = false;  // constant inputs at this bit, zero extension included
    for (size_t i = 0; i < ops.size(); ++i) {
      const BitSource s = b < bits[i].size() ? bits[i][b] : BitSource{kConstantBit, 0};
      if (s.value == kConstantBit) (s.bit ? one : zero) = true;
      else vars.insert(carried(d, s, d.place[ops[i]].step));
    }
    const bool constants = zero || one, differ = zero && one;
    const size_t inputs = vars.size() + (constants ? 1 : 0);
    if (inputs >= 2) luts += static_cast<double>(inputs - 1) + (differ ? 1 : 0);
    else if (vars.empty() && differ) luts += 1;
  }
  return luts;
}

}  // namespace

double slot_mux_luts(const Design& d, const std::vector<ValueId>& ops) {
  if (d.kind != DesignKind::Pipeline || ops.size() < 2) return 0;
  double luts = 0;
  for (size_t k = 0; k < d.dfg.nodes[ops[0]].operands.size(); ++k) luts += position_luts(d, ops, k);
  return luts;
}

}  // namespace polydat::hls
