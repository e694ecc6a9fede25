#include "hls/dfg_eval.h"

#include <bit>

namespace polydat::hls {

namespace {

// The value's bits read as a signed number of width w.
int64_t as_signed(uint64_t x, unsigned w) {
  if (w >= 64) return static_cast<int64_t>(x);
  const uint64_t sign = uint64_t{1} << (w - 1);
  return static_cast<int64_t>((x ^ sign) - sign);
}

uint64_t sext(uint64_t x, unsigned from, unsigned to) { return static_cast<uint64_t>(as_signed(x, from)) & width_mask(to); }

uint64_t divide(const Node& n, uint64_t a, uint64_t b) {
  const unsigned w = n.width;
  const bool div = n.op == Op::Div;
  if (b == 0) return div ? width_mask(w) : a;
  if (!n.sgn) return div ? a / b : a % b;
  const int64_t sa = as_signed(a, w), sb = as_signed(b, w);
  if (sb == -1) return div ? (uint64_t{0} - a) & width_mask(w) : 0;  // MIN / -1 wraps to MIN
  return static_cast<uint64_t>(div ? sa / sb : sa % sb) & width_mask(w);
}

bool ordered(Op op, bool sgn, unsigned w, uint64_t a, uint64_t b) {
  const bool lt = sgn ? as_signed(a, w) < as_signed(b, w) : a < b;
  const bool eq = a == b;
  switch (op) {
    case Op::Lt: return lt;
    case Op::Le: return lt || eq;
    case Op::Gt: return !lt && !eq;
    default: return !lt;  // Ge
  }
}

}  // namespace

uint64_t eval_node(const Node& n, const std::vector<uint64_t>& x, const std::vector<unsigned>& xw) {
  const unsigned w = n.width;
  const uint64_t m = width_mask(w);
  switch (n.op) {
    case Op::Slice: return (x[0] >> n.param) & m;
    case Op::Concat: {
      uint64_t r = 0;
      for (size_t i = 0; i < x.size(); ++i) r = (xw[i] >= 64 ? 0 : r << xw[i]) | x[i];
      return r & m;
    }
    case Op::ZExt: return x[0];
    case Op::SExt: return sext(x[0], xw[0], w);
    case Op::Not: return ~x[0] & m;
    case Op::And: {
      uint64_t r = m;
      for (uint64_t v : x) r &= v;
      return r;
    }
    case Op::Or: {
      uint64_t r = 0;
      for (uint64_t v : x) r |= v;
      return r;
    }
    case Op::Xor: {
      uint64_t r = 0;
      for (uint64_t v : x) r ^= v;
      return r;
    }
    case Op::Mux: return x[0] ? x[1] : x[2];
    case Op::AndReduce: return x[0] == width_mask(xw[0]) ? 1 : 0;
    case Op::OrReduce: return x[0] != 0 ? 1 : 0;
    case Op::XorReduce: return static_cast<uint64_t>(std::popcount(x[0]) & 1);
    case Op::Eq: return x[0] == x[1] ? 1 : 0;
    case Op::Ne: return x[0] != x[1] ? 1 : 0;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return ordered(n.op, n.sgn, xw[0], x[0], x[1]) ? 1 : 0;
    case Op::Add: return (x[0] + x[1] + (x.size() > 2 ? x[2] : 0)) & m;
    case Op::Sub: return (x[0] - x[1]) & m;
    case Op::Neg: return (uint64_t{0} - x[0]) & m;
    case Op::Mul: return (x[0] * x[1]) & m;
    case Op::Div: case Op::Mod: return divide(n, x[0], x[1]);
    case Op::Shl: return x[1] >= w ? 0 : (x[0] << x[1]) & m;
    case Op::Shr:
      if (n.sgn) return x[1] >= w ? sext(x[0] >> (w - 1), 1, w) : sext(x[0] >> x[1], w - static_cast<unsigned>(x[1]), w);
      return x[1] >= w ? 0 : x[0] >> x[1];
    case Op::Rotl: case Op::Rotr: {
      unsigned k = static_cast<unsigned>(x[1] % w);
      if (n.op == Op::Rotr) k = (w - k) % w;
      return k == 0 ? x[0] : ((x[0] << k) | (x[0] >> (w - k))) & m;
    }
    case Op::Popcount: return static_cast<uint64_t>(std::popcount(x[0])) & m;
    case Op::Clz: {
      const unsigned ow = xw[0];
      const uint64_t c = x[0] == 0 ? ow : static_cast<uint64_t>(std::countl_zero(x[0])) - (64 - ow);
      return c & m;
    }
    case Op::Ctz: return (x[0] == 0 ? xw[0] : static_cast<uint64_t>(std::countr_zero(x[0]))) & m;
    case Op::Rom: return x[0] < n.table.size() ? n.table[x[0]] & m : 0;
  }
  return 0;
}

std::optional<std::vector<uint64_t>> eval_values(const Dfg& g, const std::vector<uint64_t>& inputs,
                                                 const std::vector<uint64_t>& configs, uint64_t max_iterations,
                                                 uint64_t* iterations) {
  const size_t n = g.nodes.size();
  std::vector<uint64_t> val(n, 0);
  std::vector<uint64_t> ops;
  std::vector<unsigned> widths;
  auto pass = [&] {
    for (ValueId v = 0; v < n; ++v) {
      const Node& node = g.nodes[v];
      switch (node.kind) {
        case NodeKind::Input: val[v] = inputs.at(node.index) & width_mask(node.width); break;
        case NodeKind::Config: val[v] = configs.at(node.index) & width_mask(node.width); break;
        case NodeKind::Constant: val[v] = node.constant & width_mask(node.width); break;
        case NodeKind::State: break;  // set by the loop
        case NodeKind::Op:
          ops.clear();
          widths.clear();
          for (ValueId o : node.operands) {
            ops.push_back(val[o]);
            widths.push_back(g.nodes[o].width);
          }
          val[v] = eval_node(node, ops, widths);
          break;
      }
    }
  };
  uint64_t taken = 0;
  if (g.loop) {
    // The pre-loop values first (they do not read the state), then the loop.
    pass();
    for (size_t i = 0; i < g.loop->state.size(); ++i) val[g.loop->state[i]] = val[g.loop->init[i]];
    for (;;) {
      pass();
      if (!val[g.loop->cond]) break;
      if (taken++ >= max_iterations) return std::nullopt;
      std::vector<uint64_t> next;
      for (ValueId v : g.loop->next) next.push_back(val[v]);
      for (size_t i = 0; i < g.loop->state.size(); ++i) val[g.loop->state[i]] = next[i];
    }
  } else {
    pass();
  }
  if (iterations) *iterations = taken;
  return val;
}

std::optional<std::vector<uint64_t>> eval_outputs(const Dfg& g, const std::vector<uint64_t>& inputs,
                                                  const std::vector<uint64_t>& configs, uint64_t max_iterations) {
  auto val = eval_values(g, inputs, configs, max_iterations);
  if (!val) return std::nullopt;
  std::vector<uint64_t> out;
  for (const DfgPort& p : g.outputs) out.push_back((*val)[p.value]);
  return out;
}

}  // namespace polydat::hls
