#include "hls/narrow_pass.h"

#include <algorithm>
#include <bit>
#include <map>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

// What a loop state register keeps: bits [lo, hi) of the state; when no bit
// is needed, one constant bit nobody reads.
struct StatePlan {
  unsigned lo = 0, hi = 0;
  bool held() const { return hi > lo; }
  unsigned width() const { return held() ? hi - lo : 1; }
};

std::vector<StatePlan> plan_states(const Dfg& g, const BitFacts& f) {
  std::vector<StatePlan> plans;
  if (!g.loop) return plans;
  for (ValueId s : g.loop->state) plans.push_back(StatePlan{f.computed_lo(s), f.computed_hi(s)});
  return plans;
}

bool sign_known_zero(const ValueFacts& f) { return f.zeros & (uint64_t{1} << (f.width - 1)); }

// The rewriting: reads the input graph `staged` (the original with its state
// registers at their new widths) and the analysis of the original.
class Narrower : public DfgRewriter {
 public:
  Narrower(const Dfg& original, const Dfg& staged, const BitFacts& facts, std::vector<StatePlan> plans,
           const NarrowOptions& options)
      : DfgRewriter(staged), g_(original), f_(facts), plans_(std::move(plans)), options_(options), builder_(&b_) {
    if (g_.loop)
      for (size_t i = 0; i < g_.loop->state.size(); ++i) slot_[g_.loop->state[i]] = i;
  }

  // Ports and the loop, which the frame mapped as they were, read the
  // narrowed values (and the state registers their new widths).
  void finish(Dfg& out) {
    DfgBuilder after(out);
    builder_ = &after;
    for (size_t k = 0; k < g_.outputs.size(); ++k) out.outputs[k].value = value_of(g_.outputs[k].value);
    if (g_.loop) {
      for (size_t i = 0; i < plans_.size(); ++i) {
        out.loop->init[i] = register_input(i, g_.loop->init[i]);
        out.loop->next[i] = register_input(i, g_.loop->next[i]);
      }
      out.loop->cond = value_of(g_.loop->cond);
    }
    builder_ = nullptr;
    classify_regions(out);
  }

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = g_.nodes[v];
    const uint64_t need = f_.needed(v);
    if (need == 0) return presented(v, b().constant(n.width, f_.facts(v).ones));
    if (is_wiring(n.op)) return presented(v, rewired(v));
    const unsigned lo = span_lo(need), hi = span_hi(need);
    ValueId part = compute(v, lo, hi);
    if (b().width(part) < hi) part = b().zext(part, hi);
    return presented(v, assemble(v, b().slice(part, lo, hi - lo), lo, hi));
  }

 private:
  DfgBuilder& b() { return *builder_; }
  const Node& node(ValueId v) const { return g_.nodes[v]; }
  const ValueFacts& facts_of(ValueId v, size_t i) const { return f_.facts(node(v).operands[i]); }
  ValueId in(ValueId v, size_t i) { return value_of(node(v).operands[i]); }
  ValueId low(ValueId x, unsigned width) { return b().resize(x, width); }
  ValueId bits(ValueId x, unsigned from, unsigned count) { return b().slice(x, from, count); }
  // `r` (bits [0, k) of a result) placed at bit lo, the bits below it zero.
  ValueId at(ValueId r, unsigned lo) { return lo ? b().concat({r, b().constant(lo, 0)}) : r; }

  // The value readers of `old` see: the rewritten operation, or a port or
  // state register with its known bits around the bits it holds.
  ValueId value_of(ValueId old) {
    const Node& n = node(old);
    if (n.kind == NodeKind::Op || n.kind == NodeKind::Constant) return map(old);
    if (auto it = port_values_.find(old); it != port_values_.end()) return it->second;
    ValueId r = map(old);
    if (n.kind == NodeKind::State) {
      const StatePlan& p = plans_[slot_.at(old)];
      r = p.held() ? assemble(old, r, p.lo, p.hi) : b().constant(n.width, f_.facts(old).ones);
    }
    r = presented(old, r);
    port_values_[old] = r;
    return r;
  }

  // What state register i is loaded with: the bits of `source` it holds.
  ValueId register_input(size_t i, ValueId source) {
    const StatePlan& p = plans_[i];
    if (!p.held()) return b().constant(1, 0);
    return bits(value_of(source), p.lo, p.hi - p.lo);
  }

  // Value v from the bits [lo, hi) it computes: the known bits above and below.
  ValueId assemble(ValueId v, ValueId computed, unsigned lo, unsigned hi) {
    const unsigned w = node(v).width;
    const uint64_t ones = f_.facts(v).ones;
    std::vector<ValueId> parts;
    if (hi < w) parts.push_back(b().constant(w - hi, ones >> hi));
    parts.push_back(computed);
    if (lo > 0) parts.push_back(b().constant(lo, ones & width_mask(lo)));
    return b().concat(std::move(parts));
  }

  // Tests: the bits nobody demanded, inverted.
  ValueId presented(ValueId v, ValueId value) {
    if (!options_.invert_undemanded) return value;
    const unsigned w = node(v).width;
    const uint64_t unread = ~f_.demanded(v) & width_mask(w);
    return unread ? b().bxor(value, b().constant(w, unread)) : value;
  }

  ValueId rewired(ValueId v) {
    const Node& n = node(v);
    std::vector<ValueId> ops;
    for (size_t i = 0; i < n.operands.size(); ++i) ops.push_back(in(v, i));
    return b().op(n.op, n.width, std::move(ops), n.sgn, n.param, n.table);
  }

  // A value whose bits [lo, hi) are those of v (where demanded).
  ValueId compute(ValueId v, unsigned lo, unsigned hi) {
    switch (node(v).op) {
      case Op::Not: case Op::And: case Op::Or: case Op::Xor: return logic(v, lo, hi);
      case Op::Mux: return mux(v, lo, hi);
      case Op::AndReduce: case Op::OrReduce: case Op::XorReduce: return reduce(v);
      case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return compare(v);
      case Op::Add: return add(v, hi);
      case Op::Sub: return sub(v, hi);
      case Op::Neg: return neg(v, hi);
      case Op::Mul: return mul(v, hi);
      case Op::Div: case Op::Mod: return divide(v);
      case Op::Shl: return b().op(Op::Shl, hi, {low(in(v, 0), hi), amount(v)});
      case Op::Shr: return shift_right(v);
      case Op::Rotl: case Op::Rotr: return b().op(node(v).op, node(v).width, {in(v, 0), amount(v)});
      case Op::Popcount: return popcount(v, lo, hi);
      case Op::Clz: case Op::Ctz: return b().op(node(v).op, hi, {in(v, 0)});  // the count's low bits
      case Op::Rom: return rom(v, lo, hi);
      default: return rewired(v);
    }
  }

  // Bit i of the result reads bit i of each operand: compute the span only,
  // in runs of bits that read the same operands.
  ValueId logic(ValueId v, unsigned lo, unsigned hi) {
    if (node(v).op == Op::Not) return at(b().bnot(bits(in(v, 0), lo, hi - lo)), lo);
    std::vector<ValueId> runs;  // most significant first
    for (unsigned to = hi; to > lo;) {
      bool absorbed = false;
      const std::vector<size_t> reads = logic_reads(v, to - 1, absorbed);
      unsigned from = to - 1;
      while (from > lo) {
        bool a = false;
        if (logic_reads(v, from - 1, a) != reads || a != absorbed) break;
        --from;
      }
      runs.push_back(logic_run(v, reads, absorbed, from, to - from));
      to = from;
    }
    return at(b().concat(std::move(runs)), lo);
  }

  // The operands bit j of And/Or/Xor v reads: not one whose bit is known to
  // be the identity (And: 1, else 0); none when one's is known to decide the
  // bit (And: 0, Or: 1). Constants are always read (the builder folds them).
  std::vector<size_t> logic_reads(ValueId v, unsigned j, bool& absorbed) const {
    const Op op = node(v).op;
    std::vector<size_t> reads;
    absorbed = false;
    for (size_t i = 0; i < node(v).operands.size(); ++i) {
      const ValueFacts& f = facts_of(v, i);
      const bool zero = (f.zeros >> j) & 1, one = (f.ones >> j) & 1;
      if (g_.is_constant(node(v).operands[i]) || !(op == Op::And ? one : zero)) reads.push_back(i);
      if (!g_.is_constant(node(v).operands[i]) && ((op == Op::And && zero) || (op == Op::Or && one))) absorbed = true;
    }
    return absorbed ? std::vector<size_t>{} : reads;
  }

  ValueId logic_run(ValueId v, const std::vector<size_t>& reads, bool absorbed, unsigned from, unsigned count) {
    const Op op = node(v).op;
    if (absorbed || reads.empty()) {
      const bool ones = absorbed ? op == Op::Or : op == Op::And;
      return b().constant(count, ones ? width_mask(count) : 0);
    }
    std::vector<ValueId> ops;
    for (size_t i : reads) ops.push_back(bits(in(v, i), from, count));
    return ops.size() == 1 ? ops[0] : b().op(op, count, std::move(ops));
  }

  ValueId mux(ValueId v, unsigned lo, unsigned hi) {
    const ValueFacts& c = facts_of(v, 0);
    if (c.ones & 1) return in(v, 1);
    if (c.zeros & 1) return in(v, 2);
    const unsigned k = hi - lo;
    return at(b().mux(in(v, 0), bits(in(v, 1), lo, k), bits(in(v, 2), lo, k)), lo);
  }

  // Bits known to be the reduction's identity at either end are left out.
  ValueId reduce(ValueId v) {
    const Op op = node(v).op;
    const ValueFacts& a = facts_of(v, 0);
    unsigned from = a.low_zeros(), to = a.significant_bits();
    if (op == Op::AndReduce) {
      from = std::min<unsigned>(a.width, static_cast<unsigned>(std::countr_one(a.ones)));
      to = a.width - static_cast<unsigned>(std::countl_one(a.ones << (64 - a.width)));
    }
    if (to <= from) return b().constant(1, op == Op::AndReduce ? 1 : 0);  // only the identity: known already
    return b().op(op, 1, {bits(in(v, 0), from, to - from)});
  }

  // Bits both operands are known to share, at the top or the bottom, do not
  // change the order: compare the rest (unsigned once the sign is shared).
  ValueId compare(ValueId v) {
    const Node& n = node(v);
    const ValueFacts& a = facts_of(v, 0);
    const ValueFacts& c = facts_of(v, 1);
    const unsigned w = a.width;
    const uint64_t same = a.known() & c.known() & ~(a.ones ^ c.ones) & width_mask(w);
    const unsigned top = std::min<unsigned>(w, static_cast<unsigned>(std::countl_one(same << (64 - w))));
    const unsigned bottom = std::min<unsigned>(w - top, static_cast<unsigned>(std::countr_one(same)));
    const unsigned m = w - top - bottom;
    if (m == 0) return b().constant(1, n.op == Op::Eq || n.op == Op::Le || n.op == Op::Ge ? 1 : 0);
    return b().compare(n.op, bits(in(v, 0), bottom, m), bits(in(v, 1), bottom, m), n.sgn && top == 0);
  }

  // Low bits known zero in one addend are the other's, with no carry out of
  // them: only the bits above are added. A 0/1 addend is a carry in.
  ValueId add(ValueId v, unsigned hi) {
    const Node& n = node(v);
    if (n.operands.size() > 2 && !(facts_of(v, 2).zeros & 1))
      return b().add_carry(low(in(v, 0), hi), low(in(v, 1), hi), in(v, 2));
    ValueId a = in(v, 0), c = in(v, 1);
    unsigned ka = std::min(facts_of(v, 0).low_zeros(), hi), kc = std::min(facts_of(v, 1).low_zeros(), hi);
    if (ka > kc) {
      std::swap(a, c);
      std::swap(ka, kc);
    }
    if (kc > 0) {
      const ValueId kept = bits(a, 0, kc);
      if (kc == hi) return kept;
      return b().concat({b().add(bits(a, kc, hi - kc), bits(c, kc, hi - kc)), kept});
    }
    for (size_t i = 0; i < 2; ++i) {
      const ValueId bit = node(v).operands[i];
      if (f_.facts(bit).hi <= 1 && !g_.is_constant(bit))
        return b().add_carry(low(in(v, 1 - i), hi), b().constant(hi, 0), b().bit(in(v, i), 0));
    }
    return b().add(low(a, hi), low(c, hi));
  }

  // a - b where b's low bits are zero: they are a's, and no borrow leaves them.
  ValueId sub(ValueId v, unsigned hi) {
    const ValueId a = in(v, 0), c = in(v, 1);
    const unsigned k = std::min(facts_of(v, 1).low_zeros(), hi);
    if (k == 0) return b().sub(low(a, hi), low(c, hi));
    const ValueId kept = bits(a, 0, k);
    if (k == hi) return kept;
    return b().concat({b().sub(bits(a, k, hi - k), bits(c, k, hi - k)), kept});
  }

  ValueId neg(ValueId v, unsigned hi) {
    const ValueId a = in(v, 0);
    const unsigned k = std::min(facts_of(v, 0).low_zeros(), hi);
    if (k == 0) return b().neg(low(a, hi));
    if (k == hi) return b().constant(hi, 0);
    return at(b().neg(bits(a, k, hi - k)), k);
  }

  // (a' 2^ta)(b' 2^tb) = a' b' 2^(ta + tb): multiply the significant bits
  // above the known low zeros, no wider than the product bits needed.
  ValueId mul(ValueId v, unsigned hi) {
    const ValueFacts& fa = facts_of(v, 0);
    const ValueFacts& fc = facts_of(v, 1);
    const unsigned ta = fa.low_zeros(), tc = fc.low_zeros();
    if (ta >= fa.width || tc >= fc.width || ta + tc >= hi) return b().constant(hi, 0);  // known already
    const unsigned r = hi - ta - tc;
    const unsigned wa = std::min(fa.significant_bits() - ta, r), wc = std::min(fc.significant_bits() - tc, r);
    const ValueId product =
        b().op(Op::Mul, r, {bits(in(v, 0), ta, wa), bits(in(v, 1), tc, wc)}, false, node(v).param);
    return at(product, ta + tc);
  }

  // Unsigned (or signed with both signs known zero) at the operands'
  // significant width; a quotient only when the divisor cannot be zero
  // (x / 0 is all ones at the full width).
  ValueId divide(ValueId v) {
    const Node& n = node(v);
    const ValueFacts& fa = facts_of(v, 0);
    const ValueFacts& fc = facts_of(v, 1);
    if (!n.sgn || (sign_known_zero(fa) && sign_known_zero(fc))) {
      const unsigned m = std::max({fa.significant_bits(), fc.significant_bits(), 1u});
      if (m < n.width && (n.op == Op::Mod || fc.lo >= 1)) return b().op(n.op, m, {low(in(v, 0), m), low(in(v, 1), m)}, false, n.param);
    }
    return b().op(n.op, n.width, {in(v, 0), in(v, 1)}, n.sgn, n.param);
  }

  // A logical shift right of a value known below 2^m is one at m bits.
  ValueId shift_right(ValueId v) {
    const Node& n = node(v);
    const ValueFacts& fa = facts_of(v, 0);
    if (n.sgn && !sign_known_zero(fa)) return b().op(Op::Shr, n.width, {in(v, 0), amount(v)}, true);
    const unsigned m = std::max(1u, fa.significant_bits());
    return b().op(Op::Shr, m, {low(in(v, 0), m), amount(v)});
  }

  // A shift or rotation amount at its significant bits (the same number).
  ValueId amount(ValueId v) {
    const ValueFacts& f = facts_of(v, 1);
    return low(in(v, 1), std::max(1u, f.significant_bits()));
  }

  // Of the operand, only its span between known-zero ends; bit 0 alone is its parity.
  ValueId popcount(ValueId v, unsigned lo, unsigned hi) {
    const ValueFacts& a = facts_of(v, 0);
    const unsigned from = a.low_zeros(), to = a.significant_bits();
    if (to <= from) return b().constant(hi, 0);  // a zero operand: known already
    const ValueId x = bits(in(v, 0), from, to - from);
    if (lo == 0 && hi == 1) return b().op(Op::XorReduce, 1, {x});
    return b().op(Op::Popcount, hi, {x});
  }

  // The table indexed by the index's significant bits, each entry cut to the span.
  ValueId rom(ValueId v, unsigned lo, unsigned hi) {
    const Node& n = node(v);
    const unsigned m = std::max(1u, facts_of(v, 0).significant_bits()), k = hi - lo;
    std::vector<uint64_t> table;
    for (size_t i = 0; i < (size_t{1} << m); ++i) table.push_back((n.table[i] >> lo) & width_mask(k));
    return at(b().op(Op::Rom, k, {low(in(v, 0), m)}, false, 0, std::move(table)), lo);
  }

  const Dfg& g_;
  const BitFacts& f_;
  std::vector<StatePlan> plans_;
  const NarrowOptions& options_;
  DfgBuilder* builder_;
  std::map<ValueId, size_t> slot_;             // state node -> its place in the loop state
  std::map<ValueId, ValueId> port_values_;     // inputs, configs and states as readers see them
};

}  // namespace

Dfg narrow_pass(const Dfg& g) { return narrow_pass(g, NarrowOptions{}); }

Dfg narrow_pass(const Dfg& g, const NarrowOptions& options) {
  const BitFacts facts(g, options.hooks);
  std::vector<StatePlan> plans = plan_states(g, facts);
  Dfg staged = g;
  for (size_t i = 0; i < plans.size(); ++i) staged.nodes[g.loop->state[i]].width = plans[i].width();
  Narrower narrower(g, staged, facts, std::move(plans), options);
  Dfg out = narrower.run();
  narrower.finish(out);
  return cleanup(out);
}

}  // namespace polydat::hls
