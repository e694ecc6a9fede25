#include "hls/mul_iterative_pass.h"

#include <algorithm>
#include <bit>

#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

class MulIterative : public DfgRewriter {
 public:
  MulIterative(const Dfg& g, const MulIterativeOptions& o) : DfgRewriter(g), options_(o) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if (n.op != Op::Mul || n.param != 0 || n.width < options_.min_width) return copy(v);
    b_.set_origin(n);
    return b_.op(Op::Mul, n.width, mapped_operands(v), false, kMulIterative);
  }

 private:
  MulIterativeOptions options_;
};

}  // namespace

Dfg mul_iterative_pass(const Dfg& g, const MulIterativeOptions& options) { return MulIterative(g, options).run(); }

IterativeOperands iterative_operands(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  if (g.is_constant(n.operands[0]) && !g.is_constant(n.operands[1])) return {n.operands[1], n.operands[0]};
  return {n.operands[0], n.operands[1]};
}

bool constant_multiplier(const Dfg& g, ValueId v) { return g.is_constant(iterative_operands(g, v).multiplier); }

unsigned iterative_steps(const Dfg& g, ValueId v) {
  const unsigned w = g.nodes[v].width;
  const Node& y = g.nodes[iterative_operands(g, v).multiplier];
  if (y.kind != NodeKind::Constant) return std::min(w, y.width);
  const uint64_t bits = y.constant & width_mask(w);
  return std::max(1u, 64 - static_cast<unsigned>(std::countl_zero(bits)));
}

}  // namespace polydat::hls
