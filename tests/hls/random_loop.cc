#include "random_loop.h"

#include <random>
#include <vector>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "pass_support.h"

namespace polydat::hls::testing {

namespace {


class RandomLoop {
 public:
  explicit RandomLoop(uint64_t seed) : rng_(seed), b_(g_) {}

  Dfg make() {
    g_.name = "random_loop";
    const ValueId bound = port(NodeKind::Input, 8, "n");
    port(NodeKind::Input, pick({8, 16, 32, 64}), "x");
    port(NodeKind::Config, pick({1, 16, 64}), "c");
    DfgLoop loop;
    // The counter: 8 to 64 bits, compared with the bound zero-extended.
    const unsigned cw = pick({8, 16, 64});
    const ValueId counter = state(cw, "i");
    loop.state.push_back(counter);
    loop.init.push_back(b_.constant(cw, 0));
    const size_t extra = 1 + rng_() % 3;
    for (size_t k = 0; k < extra; ++k) {
      const unsigned w = pick({1, 4, 8, 13, 16, 32, 64});
      loop.state.push_back(state(w, "s" + std::to_string(k)));
      loop.init.push_back(operand(w));  // from the inputs and constants only: no state yet in the pool
    }
    for (size_t k = 1; k < loop.state.size(); ++k) pool_.push_back(loop.state[k]);
    pool_.push_back(counter);
    for (int k = 0; k < 12; ++k) pool_.push_back(random_op());
    loop.next.push_back(b_.add(counter, b_.constant(cw, 1)));
    for (size_t k = 1; k < loop.state.size(); ++k) loop.next.push_back(operand(g_.width(loop.state[k])));
    loop.cond = b_.compare(Op::Lt, counter, b_.zext(bound, cw));
    g_.loop = std::move(loop);
    g_.outputs.push_back(DfgPort{"st", port_type(64), fit(g_.loop->state[1], 64)});
    for (int k = 0; k < 2; ++k) {
      const unsigned w = pick({1, 8, 16, 64});
      g_.outputs.push_back(DfgPort{"y" + std::to_string(k), port_type(w), operand(w)});
    }
    classify_regions(g_);
    return std::move(g_);
  }

 private:
  unsigned pick(std::initializer_list<unsigned> options) {
    return *(options.begin() + static_cast<std::ptrdiff_t>(rng_() % options.size()));
  }

  ValueId port(NodeKind kind, unsigned w, const std::string& name) {
    Node n;
    n.kind = kind;
    n.width = w;
    n.name = name;
    auto& ports = kind == NodeKind::Input ? g_.inputs : g_.configs;
    n.index = static_cast<uint32_t>(ports.size());
    const ValueId v = b_.raw(n);
    ports.push_back(DfgPort{name, port_type(w), v});
    pool_.push_back(v);
    return v;
  }

  ValueId state(unsigned w, const std::string& name) {
    Node n;
    n.kind = NodeKind::State;
    n.width = w;
    n.name = name;
    n.index = static_cast<uint32_t>(g_.loop ? g_.loop->state.size() : states_++);
    return b_.raw(n);
  }

  ValueId fit(ValueId v, unsigned w) {
    const unsigned vw = g_.width(v);
    if (vw == w) return v;
    if (vw > w) return b_.slice(v, static_cast<unsigned>(rng_() % (vw - w + 1)), w);
    return rng_() % 3 ? b_.zext(v, w) : b_.sext(v, w);
  }

  uint64_t constant_value(unsigned w) {
    switch (rng_() % 5) {
      case 0: return 1;
      case 1: return width_mask(w);
      case 2: return (uint64_t{1} << (rng_() % w)) - 1;
      case 3: return 0xB400;
      default: return rng_();
    }
  }

  ValueId operand(unsigned w) {
    if (rng_() % 5 == 0) return b_.constant(w, constant_value(w));
    return fit(pool_[pool_.size() - 1 - rng_() % std::min<size_t>(pool_.size(), 10)], w);
  }

  ValueId random_op() {
    const unsigned w = pick({1, 4, 8, 13, 16, 32, 64});
    switch (rng_() % 12) {
      case 0: return b_.add(operand(w), operand(w));
      case 1: return b_.sub(operand(w), operand(w));
      case 2: return b_.op(Op::Mul, w, {operand(w), operand(w)});
      case 3: return b_.band(operand(w), b_.constant(w, constant_value(w)));
      case 4: return b_.bxor(operand(w), operand(w));
      case 5: return b_.bor(operand(w), operand(w));
      case 6: return b_.mux(operand(1), operand(w), operand(w));
      case 7: return b_.op(Op::Mod, w, {operand(w), b_.constant(w, 1 + rng_() % 1000)});
      case 8: return b_.compare(rng_() % 2 ? Op::Lt : Op::Eq, operand(w), operand(w), rng_() % 2);
      case 9: return b_.op(Op::Shr, w, {operand(w), operand(pick({3, 6}))}, rng_() % 2);
      case 10: return b_.op(Op::Popcount, pick({4, 7, 64}), {operand(w)});
      default: return b_.shr_const(operand(w), static_cast<unsigned>(rng_() % w));
    }
  }

  std::mt19937_64 rng_;
  Dfg g_;
  DfgBuilder b_;
  std::vector<ValueId> pool_;
  uint32_t states_ = 0;
};

}  // namespace

Dfg random_loop_dfg(uint64_t seed) { return RandomLoop(seed).make(); }

}  // namespace polydat::hls::testing
