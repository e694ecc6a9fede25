#include "hls/div_var_pass.h"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

DivVarOptions div_var_options(DesignKind kind) {
  DivVarOptions o;
  o.max_array_luts = kind == DesignKind::Pipeline ? 1500 : 300;
  return o;
}

namespace {

struct QuotientRemainder {
  ValueId q, r;
};

class DivVar : public DfgRewriter {
 public:
  DivVar(const Dfg& g, const DivVarOptions& o) : DfgRewriter(g), options_(o) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if ((n.op != Op::Div && n.op != Op::Mod) || n.param == 1) return copy(v);
    const auto x = mapped_operands(v);
    if (b_.is_constant(x[1])) return copy(v);  // divmod_const_pass's
    const auto key = std::make_tuple(x[0], x[1], n.sgn);
    auto it = built_.find(key);
    if (it == built_.end()) it = built_.emplace(key, n.sgn ? signed_divmod(x[0], x[1]) : unsigned_divmod(x[0], x[1])).first;
    return n.op == Op::Div ? it->second.q : it->second.r;
  }

 private:
  // Through magnitudes: the quotient negative when the signs differ, the
  // remainder with the dividend's sign; x / 0 all ones.
  QuotientRemainder signed_divmod(ValueId a, ValueId c) {
    const unsigned w = b_.width(a);
    const ValueId sa = b_.bit(a, w - 1), sc = b_.bit(c, w - 1);
    const ValueId ma = b_.mux(sa, b_.neg(a), a), mc = b_.mux(sc, b_.neg(c), c);
    const QuotientRemainder u = unsigned_divmod(ma, mc);
    const ValueId zero = b_.compare(Op::Eq, c, b_.constant(w, 0));
    const ValueId q = b_.mux(zero, b_.constant(w, width_mask(w)), b_.mux(b_.bxor(sa, sc), b_.neg(u.q), u.q));
    return {q, b_.mux(sa, b_.neg(u.r), u.r)};
  }

  // The bits of v below which everything is known zero from its structure.
  unsigned significant_bits(ValueId v) const {
    const Node& n = b_.node(v);
    if (n.kind == NodeKind::Constant) return std::max(1u, 64 - static_cast<unsigned>(std::countl_zero(n.constant)));
    if (n.is_op() && n.op == Op::ZExt) return b_.width(n.operands[0]);
    return n.width;
  }

  // LUT4s of the array: per row a comparison, a subtraction and a mux of the row's width.
  static double array_luts(unsigned dividend_bits, unsigned divisor_bits) {
    double luts = 0;
    for (unsigned k = 1; k <= dividend_bits; ++k) luts += 4.0 * std::min(k, divisor_bits + 1);
    return luts + divisor_bits;
  }

  QuotientRemainder unsigned_divmod(ValueId a, ValueId c) {
    const unsigned w = b_.width(a);
    const unsigned n = significant_bits(a), m = significant_bits(c);
    if (array_luts(n, m) > options_.max_array_luts)
      return {b_.op(Op::Div, w, {a, c}, false, 1), b_.op(Op::Mod, w, {a, c}, false, 1)};
    return restoring_array(a, c, n, m);
  }

  // Rows from the dividend's top bit: r = (r << 1) | a[k]; where r >= c, r -= c
  // and quotient bit k is 1. With c != 0, r < c always: r keeps at most m bits.
  QuotientRemainder restoring_array(ValueId a, ValueId c, unsigned n, unsigned m) {
    const unsigned w = b_.width(a);
    std::vector<ValueId> quotient;  // most significant first
    ValueId r = kNoValue;
    for (unsigned k = n; k-- > 0;) {
      const ValueId shifted = r == kNoValue ? b_.bit(a, k) : b_.concat({r, b_.bit(a, k)});
      const unsigned ws = b_.width(shifted);
      // shifted >= c needs c's bits above ws to be zero, and the low ones to compare.
      ValueId fits = b_.constant(1, 1);
      if (m > ws) fits = b_.bnot(b_.op(Op::OrReduce, 1, {b_.slice(c, ws, m - ws)}));
      const ValueId c_low = b_.resize(c, ws);
      const ValueId ge = b_.band(fits, b_.compare(Op::Ge, shifted, c_low));
      const ValueId next = b_.mux(ge, b_.sub(shifted, c_low), shifted);
      r = b_.slice(next, 0, std::min(ws, m));
      quotient.push_back(ge);
    }
    const ValueId zero = b_.compare(Op::Eq, c, b_.constant(w, 0));
    const ValueId q = b_.mux(zero, b_.constant(w, width_mask(w)), b_.resize(b_.concat(quotient), w));
    return {q, b_.mux(zero, a, b_.resize(r, w))};
  }

  static constexpr ValueId kNoValue = ~ValueId{0};
  DivVarOptions options_;
  std::map<std::tuple<ValueId, ValueId, bool>, QuotientRemainder> built_;
};

}  // namespace

Dfg div_var_pass(const Dfg& g, const DivVarOptions& options) { return DivVar(g, options).run(); }

}  // namespace polydat::hls
