#include "hls/mul_const_pass.h"

#include <algorithm>

#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

// A partial sum: value v (width w) with known-zero bits below tz, plus 2^tz still owed when `owed`.
struct Term {
  ValueId v;
  unsigned tz;
  bool owed;
};

// a + b + cin over bits [lo, w) of the product, cut at the product's cut points.
ValueId aligned_add(DfgBuilder& b, ValueId a, ValueId c, ValueId cin, unsigned lo, unsigned w, const CarryCuts& cuts) {
  std::vector<ValueId> pieces;  // least significant first
  ValueId carry = cin;
  std::vector<unsigned> bounds = cuts.points(w);
  bounds.push_back(w);
  for (unsigned from = lo; from < w;) {
    const unsigned to = *std::upper_bound(bounds.begin(), bounds.end(), from);
    const unsigned pw = to - from;
    const ValueId pa = b.slice(a, from - lo, pw), pc = b.slice(c, from - lo, pw);
    if (to == w) {
      pieces.push_back(b.add_carry(pa, pc, carry));
    } else {
      const ValueId s = b.add_carry(b.zext(pa, pw + 1), b.zext(pc, pw + 1), carry);
      pieces.push_back(b.slice(s, 0, pw));
      carry = b.slice(s, pw, 1);
    }
    from = to;
  }
  std::reverse(pieces.begin(), pieces.end());
  return b.concat(pieces);
}

// L + H, H the term with more known-zero low bits: below H.tz the sum is L's
// bits (nothing to add), above it one adder whose carry in pays what H owes.
Term add_terms(DfgBuilder& b, const Term& l, const Term& h, unsigned w, const CarryCuts& cuts) {
  const unsigned lo = h.tz;
  if (lo >= w) return l;
  const ValueId cin = b.constant(1, h.owed ? 1 : 0);
  const ValueId hi = aligned_add(b, b.slice(h.v, lo, w - lo), b.slice(l.v, lo, w - lo), cin, lo, w, cuts);
  const ValueId v = lo == 0 ? hi : b.concat({hi, b.slice(l.v, 0, lo)});
  return Term{v, l.tz, l.owed};
}

ValueId sum_tree(DfgBuilder& b, std::vector<Term> terms, unsigned w, const CarryCuts& cuts) {
  while (terms.size() > 1) {
    std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& c) { return a.tz < c.tz; });
    std::vector<Term> next;
    for (size_t i = 0; i + 1 < terms.size(); i += 2) next.push_back(add_terms(b, terms[i], terms[i + 1], w, cuts));
    if (terms.size() % 2) next.push_back(terms.back());
    terms = std::move(next);
  }
  Term root = terms.front();
  if (root.owed && root.tz < w) {  // 2^tz still owed: one more adder over the bits from tz up
    const unsigned lo = root.tz;
    const ValueId hi = aligned_add(b, b.slice(root.v, lo, w - lo), b.constant(w - lo, 1), b.constant(1, 0), lo, w, cuts);
    root.v = lo == 0 ? hi : b.concat({hi, b.slice(root.v, 0, lo)});
  }
  return root.v;
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
  const auto digits = csd_digits(c, w);
  if (digits.size() == 1 && digits[0].second > 0) return b.shl_const(b.resize(x, w), digits[0].first);
  if (wx <= 4 && digits.size() >= 2) {  // a table: one LUT level per product bit
    std::vector<uint64_t> table;
    for (uint64_t d = 0; d < (uint64_t{1} << wx); ++d) table.push_back((d * c) & width_mask(w));
    return b.op(Op::Rom, w, {x}, false, 0, table);
  }
  // The positive and the negative digits' terms summed apart, then P - N as
  // P + ~N + 1: the inversion lands in the sum LUTs of N's last adders (an
  // inverted sum is one LUT as well), where ~x on every negative term would
  // be a LUT level and a register of its own carried through the tree's steps.
  const ValueId xw = b.resize(x, w);
  std::vector<Term> positive, negative;
  for (const auto& [i, d] : digits) (d > 0 ? positive : negative).push_back(Term{b.shl_const(xw, i), i, false});
  if (negative.empty()) return sum_tree(b, std::move(positive), w, cuts);
  const unsigned lo = std::min_element(negative.begin(), negative.end(), [](const Term& a, const Term& c) {
                        return a.tz < c.tz;
                      })->tz;  // -N is zero below N's lowest term
  const ValueId n = sum_tree(b, std::move(negative), w, cuts);
  const ValueId p = positive.empty() ? b.constant(w, 0) : sum_tree(b, std::move(positive), w, cuts);
  const ValueId not_n = b.bnot(b.slice(n, lo, w - lo));
  const ValueId hi = aligned_add(b, b.slice(p, lo, w - lo), not_n, b.constant(1, 1), lo, w, cuts);
  return lo == 0 ? hi : b.concat({hi, b.slice(p, 0, lo)});
}

namespace {

class MulConstPass : public DfgRewriter {
 public:
  MulConstPass(const Dfg& g, const CarryCuts& cuts) : DfgRewriter(g), cuts_(cuts) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if (n.op != Op::Mul || n.param == 1) return copy(v);
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
