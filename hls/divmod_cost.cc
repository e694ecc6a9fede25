#include "hls/divmod_cost.h"

#include <algorithm>
#include <bit>

#include "hls/csd.h"
#include "hls/divmod_const_pass.h"

namespace polydat::hls {

namespace divmod {

double area_of(Op op, unsigned width, bool constant_rhs) { return op_cost(kTarget, op, width, constant_rhs).area; }

double rom_area(unsigned out_width, unsigned index_width) {
  OpShape s;
  s.op = Op::Rom;
  s.width = out_width;
  s.operand_width = index_width;
  s.operands = 1;
  return op_cost(kTarget, s).area;
}

}  // namespace divmod

namespace {

struct NodeEstimate {
  double area = 0, delay_ns = 0;
  unsigned adders = 0;
};

NodeEstimate node_estimate(const Dfg& g, ValueId v, Target t) {
  const Node& n = g.nodes[v];
  if (n.op == Op::Mul && n.param != 1) {
    for (ValueId o : n.operands) {
      if (!g.is_constant(o)) continue;
      const unsigned adders = csd_adders(g.nodes[o].constant, n.width);
      const OpCost add = op_cost(t, Op::Add, n.width, false);
      const unsigned levels = static_cast<unsigned>(std::bit_width(adders));  // ceil(log2(terms))
      return {adders * add.area, levels * add.delay_ns, levels};
    }
  }
  const OpCost c = op_cost(t, shape_of(g, v, n.op == Op::Mul && n.param == 1));
  unsigned adders = 0;
  if (c.unit == UnitClass::Adder) adders = 1;
  if (c.unit == UnitClass::Div) adders = n.width;  // a row of subtractors per quotient bit
  if (c.unit == UnitClass::Mul) adders = static_cast<unsigned>(std::bit_width(n.width));
  return {c.area, c.delay_ns, adders};
}

}  // namespace

unsigned csd_adders(uint64_t c, unsigned width) {
  const auto digits = shift_add_digits(c, width);
  if (digits.empty()) return 0;
  bool positive = false;
  for (const auto& [i, d] : digits) positive = positive || d > 0;
  return static_cast<unsigned>(digits.size()) - 1 + (positive ? 0 : 1);  // all terms negative: one negation more
}

ArithmeticEstimate estimate_arithmetic(const Dfg& g, const std::vector<ValueId>& roots, Target t) {
  std::vector<bool> needed(g.nodes.size(), false);
  std::vector<ValueId> work(roots.begin(), roots.end());
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    if (needed[v]) continue;
    needed[v] = true;
    for (ValueId o : g.nodes[v].operands) work.push_back(o);
  }
  ArithmeticEstimate total;
  std::vector<double> arrival(g.nodes.size(), 0);
  std::vector<unsigned> depth(g.nodes.size(), 0);
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!needed[v] || !g.is_op(v)) continue;
    double in_arrival = 0;
    unsigned in_depth = 0;
    for (ValueId o : g.nodes[v].operands) {
      in_arrival = std::max(in_arrival, arrival[o]);
      in_depth = std::max(in_depth, depth[o]);
    }
    const NodeEstimate e = g.is_logic(v) ? node_estimate(g, v, t) : NodeEstimate{};
    total.area += e.area;
    arrival[v] = in_arrival + e.delay_ns;
    depth[v] = in_depth + e.adders;
    total.delay_ns = std::max(total.delay_ns, arrival[v]);
    total.adder_depth = std::max(total.adder_depth, depth[v]);
  }
  return total;
}

ArithmeticEstimate estimate_arithmetic(const Dfg& g, Target t) {
  std::vector<ValueId> roots;
  for (const DfgPort& p : g.outputs) roots.push_back(p.value);
  if (g.loop) {
    roots.insert(roots.end(), g.loop->next.begin(), g.loop->next.end());
    roots.insert(roots.end(), g.loop->init.begin(), g.loop->init.end());
    roots.push_back(g.loop->cond);
  }
  return estimate_arithmetic(g, roots, t);
}

}  // namespace polydat::hls
