#include "hls/mul_const_pass.h"

#include <algorithm>

#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"
#include "hls/shifted_sum.h"

namespace polydat::hls {

namespace {

// Adder levels of a balanced tree over `terms` terms.
unsigned tree_levels(size_t terms) {
  unsigned levels = 0;
  while ((size_t{1} << levels) < terms) ++levels;
  return levels;
}

}  // namespace

ValueId lower_constant_multiply(DfgBuilder& b, ValueId x, uint64_t c, unsigned w, const CarryCuts& cuts) {
  c &= width_mask(w);
  if (b.width(x) > w) x = b.slice(x, 0, w);
  const unsigned wx = b.width(x);
  if (c == 0) return b.constant(w, 0);
  if (wx == 1) {  // each product bit is x or 0
    std::vector<ValueId> bits;
    for (unsigned i = w; i-- > 0;) bits.push_back((c >> i) & 1 ? x : b.constant(1, 0));
    return b.concat(bits);
  }
  const auto digits = shift_add_digits(c, w);
  if (digits.size() == 1 && digits[0].second > 0) return b.shl_const(b.resize(x, w), digits[0].first);
  if (wx <= 4 && digits.size() >= 2) {  // a table: one LUT level per product bit
    std::vector<uint64_t> table;
    for (uint64_t d = 0; d < (uint64_t{1} << wx); ++d) table.push_back((d * c) & width_mask(w));
    return b.op(Op::Rom, w, {x}, false, 0, table);
  }
  const ValueId xw = b.resize(x, w);
  size_t negative = 0;
  for (const auto& [i, d] : digits) negative += d < 0;
  const size_t positive_count = digits.size() - negative;
  // Summing the negative digits apart costs a subtraction level; worth it
  // unless the trees get deeper than one tree would be (measured with
  // register-aware scheduling on a UP5K: the hash's constant, 8 of 22 digits
  // negative, 2,646 -> 2,562 logic cells in its anchor, mod(hash, 1000) 2,872
  // -> 2,788).
  const bool apart = negative >= 2 && std::max(tree_levels(positive_count), tree_levels(negative)) + 1 <=
                                          tree_levels(digits.size());
  if (!apart) {
    // One tree, each negative term ~x << i, its +2^i on an adder's carry in.
    const ValueId nx = negative ? b.bnot(xw) : xw;
    std::vector<ShiftedTerm> terms;
    for (const auto& [i, d] : digits) terms.push_back(ShiftedTerm{d > 0 ? xw : nx, i, d < 0});
    return sum_shifted_terms(b, terms, w, cuts);
  }
  // The positive and the negative digits' terms summed apart, then
  // P - N as P + ~N + 1, the inversion folded into the sum LUTs of N's last
  // adders (~x would be a LUT level and a register carried through the tree).
  std::vector<ShiftedTerm> positive, negatives;
  unsigned lo = w;  // -N is zero below N's lowest term
  for (const auto& [i, d] : digits) {
    (d > 0 ? positive : negatives).push_back(ShiftedTerm{xw, i, false});
    if (d < 0) lo = std::min(lo, i);
  }
  const ValueId n = sum_shifted_terms(b, negatives, w, cuts);
  const ValueId p = sum_shifted_terms(b, positive, w, cuts);
  std::vector<ShiftedTerm> difference = {ShiftedTerm{b.slice(p, lo, w - lo), lo, false},
                                         ShiftedTerm{b.bnot(b.slice(n, lo, w - lo)), lo, true}};
  if (lo > 0) difference.push_back(ShiftedTerm{b.slice(p, 0, lo), 0, false});
  return sum_shifted_terms(b, difference, w, cuts);
}

namespace {

class MulConstPass : public DfgRewriter {
 public:
  MulConstPass(const Dfg& g, const CarryCuts& cuts) : DfgRewriter(g), cuts_(cuts) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if (n.op != Op::Mul || n.param != 0) return copy(v);  // a DSP block's or an iterative unit's
    for (int i = 0; i < 2; ++i)
      if (in_.is_constant(n.operands[i]))
        return lower_constant_multiply(b_, map(n.operands[1 - i]), in_.nodes[n.operands[i]].constant, n.width, cuts_);
    return copy(v);
  }

 private:
  CarryCuts cuts_;
};

}  // namespace

Dfg mul_const_pass(const Dfg& g, const CarryCuts& cuts) { return MulConstPass(g, cuts).run(); }

}  // namespace polydat::hls
