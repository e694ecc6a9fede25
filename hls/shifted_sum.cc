#include "hls/shifted_sum.h"

#include <algorithm>

namespace polydat::hls {

namespace {

// A partial sum at the sum's width: value v, known zero below bit tz and from
// bit top up, plus 2^tz still owed when `owed`.
struct Term {
  ValueId v;
  unsigned tz;
  unsigned top;
  bool owed;
};

// a + c + cin over bits [lo, top) of the sum, cut at the sum's cut points.
ValueId aligned_add(DfgBuilder& b, ValueId a, ValueId c, ValueId cin, unsigned lo, unsigned top, const CarryCuts& cuts) {
  std::vector<ValueId> pieces;  // least significant first
  ValueId carry = cin;
  std::vector<unsigned> bounds = cuts.points(top);
  bounds.push_back(top);
  for (unsigned from = lo; from < top;) {
    const unsigned to = *std::upper_bound(bounds.begin(), bounds.end(), from);
    const unsigned pw = to - from;
    const ValueId pa = b.slice(a, from - lo, pw), pc = b.slice(c, from - lo, pw);
    if (to == top) {
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

// Bits [lo, w) computed as `hi` (bits [lo, top) of it), bits below lo taken
// from `low`, zeros from top up.
ValueId assemble(DfgBuilder& b, ValueId hi, ValueId low, unsigned lo, unsigned top, unsigned w) {
  std::vector<ValueId> parts;
  if (top < w) parts.push_back(b.constant(w - top, 0));
  parts.push_back(hi);
  if (lo > 0) parts.push_back(b.slice(low, 0, lo));
  return parts.size() == 1 ? parts[0] : b.concat(parts);
}

// L and H with H's nonzero bits all at or above L's top: wiring.
Term join(DfgBuilder& b, const Term& l, const Term& h, unsigned w) {
  return Term{assemble(b, b.slice(h.v, l.top, h.top - l.top), l.v, l.top, h.top, w), l.tz, h.top, l.owed};
}

// L + H, H the term with more known-zero low bits: below H.tz the sum is L's
// bits (nothing to add), above it one adder up to the wider top and its
// carry, whose carry in pays what H owes. With `pay_low` (L owes, H does not)
// the adder starts at L's lowest bit instead (H is zero below its own) and its
// carry in pays L's debt, so the debt does not reach the root as an adder
// level of its own.
Term add_terms(DfgBuilder& b, const Term& l, const Term& h, unsigned w, const CarryCuts& cuts, bool pay_low = false) {
  const unsigned lo = pay_low ? l.tz : h.tz;
  if (lo >= w) return l;
  if (!pay_low && !h.owed && lo >= l.top) return join(b, l, h, w);
  const unsigned top = std::min(w, std::max(l.top, h.top) + 1);
  const ValueId cin = b.constant(1, pay_low || h.owed ? 1 : 0);
  const ValueId hi = aligned_add(b, b.slice(h.v, lo, top - lo), b.slice(l.v, lo, top - lo), cin, lo, top, cuts);
  return Term{assemble(b, hi, l.v, lo, top, w), l.tz, top, !pay_low && l.owed};
}

// Terms that do not overlap share one term (first fit by position): fewer adders, no logic.
std::vector<Term> join_disjoint(DfgBuilder& b, std::vector<Term> terms, unsigned w) {
  std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& c) { return a.tz < c.tz; });
  std::vector<Term> joined;
  for (const Term& t : terms) {
    auto fits = [&](const Term& j) { return !t.owed && j.top <= t.tz; };
    auto it = std::find_if(joined.begin(), joined.end(), fits);
    if (it == joined.end()) joined.push_back(t);
    else *it = join(b, *it, t, w);
  }
  return joined;
}

ValueId sum_tree(DfgBuilder& b, std::vector<Term> terms, unsigned w, const CarryCuts& cuts) {
  while (terms.size() > 1) {
    std::stable_sort(terms.begin(), terms.end(), [](const Term& a, const Term& c) { return a.tz < c.tz; });
    std::vector<Term> next;
    for (size_t i = 0; i + 1 < terms.size(); i += 2) {
      const Term &l = terms[i], &h = terms[i + 1];
      // The lowest term is never the higher one of a pair, so only an adder can pay its debt.
      const bool lowest_owes = i == 0 && l.owed && !h.owed && h.tz < w;
      next.push_back(add_terms(b, l, h, w, cuts, lowest_owes));
    }
    if (terms.size() % 2) next.push_back(terms.back());
    terms = std::move(next);
  }
  Term root = terms.front();
  if (root.owed && root.tz < w) {  // 2^tz still owed: one more adder over the bits from tz up
    const unsigned lo = root.tz, top = std::min(w, root.top + 1);
    const ValueId hi =
        aligned_add(b, b.slice(root.v, lo, top - lo), b.constant(top - lo, 1), b.constant(1, 0), lo, top, cuts);
    root.v = assemble(b, hi, root.v, lo, top, w);
  }
  return root.v;
}

}  // namespace

ValueId sum_shifted_terms(DfgBuilder& b, const std::vector<ShiftedTerm>& terms, unsigned w, const CarryCuts& cuts) {
  std::vector<Term> placed;
  for (const ShiftedTerm& t : terms) {
    if (t.shift >= w) continue;  // wholly above the sum's bits
    const unsigned top = t.shift + std::min(b.width(t.v), w - t.shift);
    placed.push_back(Term{b.shl_const(b.resize(t.v, w), t.shift), t.shift, top, t.owed});
  }
  if (placed.empty()) return b.constant(w, 0);
  return sum_tree(b, join_disjoint(b, std::move(placed), w), w, cuts);
}

}  // namespace polydat::hls
