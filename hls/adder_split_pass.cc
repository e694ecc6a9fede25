#include "hls/adder_split_pass.h"

#include <algorithm>
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

class AdderSplit : public DfgRewriter {
 public:
  AdderSplit(const Dfg& g, const CarryCuts& cuts) : DfgRewriter(g), cuts_(cuts) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    const auto x = mapped_operands(v);
    switch (n.op) {
      case Op::Add:
        if (cuts_.points(n.width).empty() || fits_with_carry_out(v)) return copy(v);
        return chain(x[0], x[1], x.size() > 2 ? x[2] : b_.constant(1, 0), false).sum;
      case Op::Sub:  // whole while it fits a step; else a + ~b + 1, the inversion a step of its own if need be
        if (n.width <= cuts_.sub_bits && cuts_.points(n.width).empty()) return copy(v);
        return chain(x[0], b_.bnot(x[1]), b_.constant(1, 1), false).sum;
      case Op::Neg:
        if (n.width <= cuts_.sub_bits && cuts_.points(n.width).empty()) return copy(v);
        return chain(b_.constant(n.width, 0), b_.bnot(x[0]), b_.constant(1, 1), false).sum;
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
        if (b_.width(x[0]) <= cuts_.carry_bits) return copy(v);  // the answer is the chain's carry out
        // a >= b (unsigned) is the carry out of a + ~b + 1; signed compares with the sign bits flipped.
        ValueId a = x[0], c = x[1];
        if (n.op == Op::Gt || n.op == Op::Le) std::swap(a, c);  // a > b is b < a; a <= b is b >= a
        if (n.sgn) {
          const unsigned w = b_.width(a);
          const ValueId sign = b_.constant(w, uint64_t{1} << (w - 1));
          a = b_.bxor(a, sign);
          c = b_.bxor(c, sign);
        }
        const ValueId ge = chain(a, b_.bnot(c), b_.constant(1, 1), true).carry;
        return n.op == Op::Ge || n.op == Op::Le ? ge : b_.bnot(ge);
      }
      default: return copy(v);
    }
  }

 private:
  struct Chain {
    ValueId sum, carry;
  };

  // A piece an earlier split made: an addition whose top bit is its carry out
  // (its operands zero-extended by one bit), within the carry limit.
  bool fits_with_carry_out(ValueId v) const {
    const Node& n = in_.nodes[v];
    for (size_t i = 0; i < 2; ++i) {
      const Node& o = in_.nodes[n.operands[i]];
      if (!(o.is_op() && o.op == Op::ZExt && o.width == in_.nodes[o.operands[0]].width + 1)) return false;
    }
    return n.width - 1 <= cuts_.carry_bits;
  }

  // a + b + cin cut into pieces at the cut points, least significant first.
  Chain chain(ValueId a, ValueId b, ValueId cin, bool want_carry) {
    const unsigned w = b_.width(a);
    std::vector<unsigned> bounds = cuts_.points(want_carry ? w + 1 : w);
    bounds.push_back(w);
    // A piece with a carry out is one bit wider than its span: none may span all 64 bits.
    if (want_carry && w == kMaxWidth && bounds.front() == kMaxWidth) bounds.insert(bounds.begin(), kMaxWidth - 1);
    std::vector<ValueId> pieces;  // least significant first
    ValueId carry = cin;
    unsigned lo = 0;
    for (unsigned to : bounds) {
      if (to > w) to = w;
      if (to <= lo) continue;
      const unsigned pw = to - lo;
      const bool last = to == w;
      const ValueId pa = b_.slice(a, lo, pw), pb = b_.slice(b, lo, pw);
      if (last && !want_carry) {
        pieces.push_back(b_.add_carry(pa, pb, carry));
        break;
      }
      const ValueId s = b_.add_carry(b_.zext(pa, pw + 1), b_.zext(pb, pw + 1), carry);
      pieces.push_back(b_.slice(s, 0, pw));
      carry = b_.slice(s, pw, 1);
      lo = to;
    }
    std::reverse(pieces.begin(), pieces.end());
    return Chain{b_.concat(pieces), carry};
  }

  CarryCuts cuts_;
};

}  // namespace

Dfg adder_split_pass(const Dfg& g, const CarryCuts& cuts) { return AdderSplit(g, cuts).run(); }

}  // namespace polydat::hls
