#include "hls/bit_facts.h"

#include <algorithm>
#include <bit>

#include "hls/dfg_eval.h"

namespace polydat::hls {

namespace {

using Wide = unsigned __int128;

uint64_t mask(unsigned w) { return width_mask(w); }
uint64_t bit_at(unsigned i) { return uint64_t{1} << i; }
unsigned bit_width64(uint64_t x) { return static_cast<unsigned>(std::bit_width(x)); }

ValueFacts bits_facts(unsigned w, uint64_t zeros, uint64_t ones) { return normalized(ValueFacts{w, zeros, ones, 0, mask(w)}); }

// The range [lo, hi] taken modulo 2^w: exact when no multiple of 2^w lies
// strictly inside, else nothing is known.
ValueFacts range_facts(unsigned w, Wide lo, Wide hi) {
  if (lo > hi || (lo >> w) != (hi >> w)) return unknown_facts(w);
  return normalized(ValueFacts{w, 0, 0, static_cast<uint64_t>(lo) & mask(w), static_cast<uint64_t>(hi) & mask(w)});
}

// Both facts hold (each is sound): the union of what they know.
ValueFacts both(const ValueFacts& a, const ValueFacts& b) {
  return normalized(ValueFacts{a.width, a.zeros | b.zeros, a.ones | b.ones, std::max(a.lo, b.lo), std::min(a.hi, b.hi)});
}

ValueFacts bit_not(const ValueFacts& a) {
  const uint64_t m = mask(a.width);
  return normalized(ValueFacts{a.width, a.ones, a.zeros, m - a.hi, m - a.lo});
}

// Operand facts widened to w bits with zeros (Mul and ZExt read them so).
ValueFacts zero_extended(const ValueFacts& a, unsigned w) {
  return normalized(ValueFacts{w, a.zeros | (mask(w) & ~mask(a.width)), a.ones, a.lo, a.hi});
}

// Known bits of a + b + carry (the carry-save argument of LLVM's KnownBits):
// the sums with every unknown bit 1 and every unknown bit 0 bound the carries.
ValueFacts add_bits(const ValueFacts& a, const ValueFacts& b, bool carry_zero, bool carry_one) {
  const unsigned w = a.width;
  const uint64_t m = mask(w);
  const uint64_t sum_max = ((~a.zeros & m) + (~b.zeros & m) + (carry_zero ? 0 : 1)) & m;
  const uint64_t sum_min = (a.ones + b.ones + (carry_one ? 1 : 0)) & m;
  const uint64_t carry_known_zero = ~(sum_max ^ a.zeros ^ b.zeros);
  const uint64_t carry_known_one = sum_min ^ a.ones ^ b.ones;
  const uint64_t known = a.known() & b.known() & (carry_known_zero | carry_known_one) & m;
  return bits_facts(w, ~sum_max & known, sum_min & known);
}

ValueFacts add_facts(const std::vector<ValueFacts>& x) {
  const unsigned w = x[0].width;
  const bool has_carry = x.size() > 2;
  const bool carry_zero = !has_carry || (x[2].zeros & 1);
  const bool carry_one = has_carry && (x[2].ones & 1);
  const Wide lo = Wide{x[0].lo} + x[1].lo + (has_carry ? x[2].lo : 0);
  const Wide hi = Wide{x[0].hi} + x[1].hi + (has_carry ? x[2].hi : 0);
  return both(add_bits(x[0], x[1], carry_zero, carry_one), range_facts(w, lo, hi));
}

// a - b = a + ~b + 1; the range shifted by 2^w to stay non-negative.
ValueFacts sub_facts(const ValueFacts& a, const ValueFacts& b) {
  const unsigned w = a.width;
  const Wide wrap = Wide{1} << w;
  return both(add_bits(a, bit_not(b), false, true), range_facts(w, a.lo + wrap - b.hi, a.hi + wrap - b.lo));
}

ValueFacts neg_facts(const ValueFacts& a) { return sub_facts(constant_facts(a.width, 0), a); }

// The low bits of a product follow from the operands' known low bits; the
// range from the operands' ranges.
ValueFacts mul_facts(unsigned w, const ValueFacts& a0, const ValueFacts& b0) {
  const ValueFacts a = zero_extended(a0, w), b = zero_extended(b0, w);
  const unsigned ta = a.low_zeros(), tb = b.low_zeros(), ka = a.low_known(), kb = b.low_known();
  const unsigned k = std::min({ka + tb, ta + kb, w});
  const uint64_t low = (a.ones & mask(ka)) * (b.ones & mask(kb));
  const ValueFacts bits = bits_facts(w, ~low & mask(k), low & mask(k));
  return both(bits, range_facts(w, Wide{a.lo} * b.lo, Wide{a.hi} * b.hi));
}

bool sign_known_zero(const ValueFacts& f) { return f.zeros & bit_at(f.width - 1); }

ValueFacts divmod_facts(const Node& n, const ValueFacts& a, const ValueFacts& b) {
  const unsigned w = n.width;
  if (a.is_constant() && b.is_constant()) return constant_facts(w, eval_node(n, {a.lo, b.lo}, {w, w}));
  if (n.sgn && !(sign_known_zero(a) && sign_known_zero(b))) return unknown_facts(w);
  if (n.op == Op::Div) {
    if (b.hi == 0) return constant_facts(w, mask(w));  // x / 0 is all ones
    const ValueFacts q = range_facts(w, a.lo / b.hi, a.hi / std::max<uint64_t>(b.lo, 1));
    return b.lo == 0 ? join(q, constant_facts(w, mask(w))) : q;
  }
  if (b.hi == 0 || a.hi < b.lo) return a;  // x % 0 = x, and x % y = x for x < y
  if (b.is_constant() && std::has_single_bit(b.lo)) {
    const unsigned k = static_cast<unsigned>(std::countr_zero(b.lo));
    return bits_facts(w, a.zeros | ~mask(k), a.ones & mask(k));
  }
  return range_facts(w, 0, b.lo >= 1 ? std::min(a.hi, b.hi - 1) : a.hi);
}

ValueFacts shl_facts(unsigned w, const ValueFacts& a, const ValueFacts& s) {
  if (s.lo >= w) return constant_facts(w, 0);
  if (s.is_constant()) {
    const unsigned c = static_cast<unsigned>(s.lo);
    const ValueFacts bits = bits_facts(w, (a.zeros << c) | mask(c), a.ones << c);
    if (bit_width64(a.hi) + c > w) return bits;
    return both(bits, range_facts(w, a.lo << c, a.hi << c));
  }
  const unsigned low = std::min(w, a.low_zeros() + static_cast<unsigned>(s.lo));
  const ValueFacts bits = bits_facts(w, mask(low), 0);
  if (s.hi >= w || bit_width64(a.hi) + s.hi > w) return bits;
  return both(bits, range_facts(w, a.lo << s.lo, a.hi << s.hi));
}

ValueFacts shr_facts(const Node& n, const ValueFacts& a, const ValueFacts& s) {
  const unsigned w = n.width;
  const uint64_t m = mask(w), sign = bit_at(w - 1);
  const bool arithmetic = n.sgn && !sign_known_zero(a);
  if (!arithmetic) {
    if (s.lo >= w) return constant_facts(w, 0);
    if (s.is_constant()) {
      const unsigned c = static_cast<unsigned>(s.lo);
      return both(bits_facts(w, (a.zeros >> c) | (m & ~mask(w - c)), a.ones >> c),
                  range_facts(w, a.lo >> c, a.hi >> c));
    }
    return range_facts(w, s.hi >= w ? 0 : a.lo >> s.hi, a.hi >> s.lo);
  }
  const bool negative = a.ones & sign;
  if (s.is_constant()) {
    const unsigned c = static_cast<unsigned>(std::min<uint64_t>(s.lo, w - 1));
    const uint64_t fill = m & ~mask(w - c);
    return bits_facts(w, a.zeros >> c, (a.ones >> c) | (negative ? fill : 0));
  }
  return bits_facts(w, 0, negative ? sign : 0);
}

uint64_t rotl_bits(uint64_t x, unsigned k, unsigned w) {
  return k == 0 ? x : ((x << k) | (x >> (w - k))) & mask(w);
}

ValueFacts rotate_facts(const Node& n, const ValueFacts& a, const ValueFacts& s) {
  const unsigned w = n.width;
  if (s.is_constant()) {
    unsigned k = static_cast<unsigned>(s.lo % w);
    if (n.op == Op::Rotr) k = (w - k) % w;
    return bits_facts(w, rotl_bits(a.zeros, k, w), rotl_bits(a.ones, k, w));
  }
  if (a.is_constant() && (a.lo == 0 || a.lo == mask(w))) return a;
  return unknown_facts(w);
}

ValueFacts count_facts(const Node& n, const ValueFacts& a) {
  const unsigned ow = a.width;
  const uint64_t maybe_one = ~a.zeros & mask(ow);
  Wide lo = 0, hi = 0;
  switch (n.op) {
    case Op::Popcount:
      lo = static_cast<unsigned>(std::popcount(a.ones));
      hi = static_cast<unsigned>(std::popcount(maybe_one));
      break;
    case Op::Clz:
      lo = ow - bit_width64(maybe_one);
      hi = a.ones ? ow - bit_width64(a.ones) : ow;
      break;
    default:  // Ctz
      lo = std::min<unsigned>(ow, static_cast<unsigned>(std::countr_one(a.zeros)));
      hi = a.ones ? static_cast<unsigned>(std::countr_zero(a.ones)) : ow;
      break;
  }
  return range_facts(n.width, lo, hi);
}

// The entries the index can select: their common bits and their range.
ValueFacts rom_facts(const Node& n, const ValueFacts& index) {
  const uint64_t m = mask(n.width);
  uint64_t all_ones = m, any_one = 0, lo = m, hi = 0;
  bool any = false;
  for (uint64_t i = 0; i < n.table.size(); ++i) {
    if (!admits(index, i)) continue;
    const uint64_t e = n.table[i] & m;
    all_ones &= e;
    any_one |= e;
    lo = std::min(lo, e);
    hi = std::max(hi, e);
    any = true;
  }
  if (!any) return unknown_facts(n.width);
  return both(bits_facts(n.width, ~any_one & m, all_ones), range_facts(n.width, lo, hi));
}

// Signed order is the unsigned order with the sign bit inverted.
ValueFacts sign_flipped(const ValueFacts& a) {
  const uint64_t s = bit_at(a.width - 1);
  const uint64_t zeros = (a.zeros & ~s) | (a.ones & s), ones = (a.ones & ~s) | (a.zeros & s);
  if (a.known() & s) {
    const bool neg = a.ones & s;
    return normalized(ValueFacts{a.width, zeros, ones, neg ? a.lo - s : a.lo + s, neg ? a.hi - s : a.hi + s});
  }
  return bits_facts(a.width, zeros, ones);
}

// 1 when a < b surely (or a <= b with `or_equal`), 0 when surely not, -1 else.
int less(const ValueFacts& a, const ValueFacts& b, bool or_equal) {
  if (or_equal ? a.hi <= b.lo : a.hi < b.lo) return 1;
  if (or_equal ? a.lo > b.hi : a.lo >= b.hi) return 0;
  return -1;
}

ValueFacts compare_facts(const Node& n, const ValueFacts& a0, const ValueFacts& b0) {
  auto result = [](int r) { return r < 0 ? unknown_facts(1) : constant_facts(1, static_cast<uint64_t>(r)); };
  if (n.op == Op::Eq || n.op == Op::Ne) {
    int equal = -1;
    if ((a0.zeros & b0.ones) || (a0.ones & b0.zeros) || a0.hi < b0.lo || b0.hi < a0.lo) equal = 0;
    else if (a0.is_constant() && b0.is_constant()) equal = a0.lo == b0.lo;
    return result(equal < 0 ? -1 : n.op == Op::Eq ? equal : 1 - equal);
  }
  const ValueFacts a = n.sgn ? sign_flipped(a0) : a0, b = n.sgn ? sign_flipped(b0) : b0;
  switch (n.op) {
    case Op::Lt: return result(less(a, b, false));
    case Op::Le: return result(less(a, b, true));
    case Op::Gt: return result(less(b, a, false));
    default: return result(less(b, a, true));  // Ge
  }
}

ValueFacts reduce_facts(Op op, const ValueFacts& a) {
  const uint64_t m = mask(a.width);
  switch (op) {
    case Op::AndReduce:
      if (a.ones == m) return constant_facts(1, 1);
      if (a.zeros) return constant_facts(1, 0);
      return unknown_facts(1);
    case Op::OrReduce:
      if (a.ones) return constant_facts(1, 1);
      if (a.hi == 0) return constant_facts(1, 0);
      return unknown_facts(1);
    default:  // XorReduce
      if (a.is_constant()) return constant_facts(1, static_cast<uint64_t>(std::popcount(a.lo) & 1));
      return unknown_facts(1);
  }
}

ValueFacts logic_facts(Op op, const std::vector<ValueFacts>& x) {
  const unsigned w = x[0].width;
  const uint64_t m = mask(w);
  ValueFacts r = x[0];
  Wide sum_hi = x[0].hi;
  for (size_t i = 1; i < x.size(); ++i) {
    const ValueFacts& b = x[i];
    sum_hi += b.hi;
    switch (op) {
      case Op::And: r = both(bits_facts(w, r.zeros | b.zeros, r.ones & b.ones), range_facts(w, 0, std::min(r.hi, b.hi))); break;
      case Op::Or: r = both(bits_facts(w, r.zeros & b.zeros, r.ones | b.ones), range_facts(w, std::max(r.lo, b.lo), m)); break;
      default:  // Xor: a bit is known where both are
        r = bits_facts(w, (r.zeros & b.zeros) | (r.ones & b.ones), (r.zeros & b.ones) | (r.ones & b.zeros));
        break;
    }
  }
  // x | y and x ^ y never exceed x + y.
  if (op != Op::And && sum_hi <= m) r = both(r, range_facts(w, 0, static_cast<uint64_t>(sum_hi)));
  return r;
}

ValueFacts slice_facts(const Node& n, const ValueFacts& a) {
  const unsigned lo = n.param, w = n.width;
  const ValueFacts bits = bits_facts(w, a.zeros >> lo, a.ones >> lo);
  if ((a.hi >> lo) > mask(w)) return bits;
  return both(bits, range_facts(w, a.lo >> lo, a.hi >> lo));
}

ValueFacts concat_facts(const std::vector<ValueFacts>& x) {
  ValueFacts acc = x[0];
  for (size_t i = 1; i < x.size(); ++i) {
    const ValueFacts& p = x[i];
    const unsigned s = p.width;
    acc = normalized(ValueFacts{acc.width + s, (acc.zeros << s) | p.zeros, (acc.ones << s) | p.ones,
                                (acc.lo << s) | p.lo, (acc.hi << s) | p.hi});
  }
  return acc;
}

ValueFacts sext_facts(unsigned w, const ValueFacts& a) {
  const uint64_t sign = bit_at(a.width - 1), high = mask(w) & ~mask(a.width);
  if (a.zeros & sign) return zero_extended(a, w);
  if (a.ones & sign) return normalized(ValueFacts{w, a.zeros, a.ones | high, a.lo + high, a.hi + high});
  return bits_facts(w, a.zeros, a.ones);
}

}  // namespace

bool ValueFacts::is_constant() const { return known() == mask(width); }
unsigned ValueFacts::significant_bits() const { return bit_width64(hi); }
unsigned ValueFacts::low_zeros() const { return std::min<unsigned>(width, static_cast<unsigned>(std::countr_one(zeros))); }
unsigned ValueFacts::low_known() const { return std::min<unsigned>(width, static_cast<unsigned>(std::countr_one(known()))); }

ValueFacts unknown_facts(unsigned width) { return ValueFacts{width, 0, 0, 0, mask(width)}; }

ValueFacts constant_facts(unsigned width, uint64_t value) {
  const uint64_t v = value & mask(width);
  return ValueFacts{width, ~v & mask(width), v, v, v};
}

ValueFacts normalized(ValueFacts f) {
  const uint64_t m = mask(f.width);
  f.zeros &= m;
  f.ones &= m & ~f.zeros;
  f.hi = std::min({f.hi, m, ~f.zeros & m});
  f.lo = std::max(f.lo, f.ones);
  if (f.lo > f.hi) {  // only where facts contradict (an unreachable value): keep the bits
    f.lo = f.ones;
    f.hi = ~f.zeros & m;
  }
  // Every value in [lo, hi] shares the bits above the highest one where lo and hi differ.
  const uint64_t prefix = m & ~mask(bit_width64(f.lo ^ f.hi));
  f.zeros |= ~f.lo & prefix;
  f.ones |= f.lo & prefix;
  return f;
}

ValueFacts join(const ValueFacts& a, const ValueFacts& b) {
  return normalized(ValueFacts{a.width, a.zeros & b.zeros, a.ones & b.ones, std::min(a.lo, b.lo), std::max(a.hi, b.hi)});
}

bool admits(const ValueFacts& f, uint64_t x) {
  return (x & f.zeros) == 0 && (x & f.ones) == f.ones && f.lo <= x && x <= f.hi;
}

ValueFacts forward_facts(const Node& n, const std::vector<ValueFacts>& x) {
  const unsigned w = n.width;
  switch (n.op) {
    case Op::Slice: return slice_facts(n, x[0]);
    case Op::Concat: return concat_facts(x);
    case Op::ZExt: return zero_extended(x[0], w);
    case Op::SExt: return sext_facts(w, x[0]);
    case Op::Not: return bit_not(x[0]);
    case Op::And: case Op::Or: case Op::Xor: return logic_facts(n.op, x);
    case Op::Mux:
      if (x[0].ones & 1) return x[1];
      if (x[0].zeros & 1) return x[2];
      return join(x[1], x[2]);
    case Op::AndReduce: case Op::OrReduce: case Op::XorReduce: return reduce_facts(n.op, x[0]);
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return compare_facts(n, x[0], x[1]);
    case Op::Add: return add_facts(x);
    case Op::Sub: return sub_facts(x[0], x[1]);
    case Op::Neg: return neg_facts(x[0]);
    case Op::Mul: return mul_facts(w, x[0], x[1]);
    case Op::Div: case Op::Mod: return divmod_facts(n, x[0], x[1]);
    case Op::Shl: return shl_facts(w, x[0], x[1]);
    case Op::Shr: return shr_facts(n, x[0], x[1]);
    case Op::Rotl: case Op::Rotr: return rotate_facts(n, x[0], x[1]);
    case Op::Popcount: case Op::Clz: case Op::Ctz: return count_facts(n, x[0]);
    case Op::Rom: return rom_facts(n, x[0]);
  }
  return unknown_facts(w);
}

unsigned span_lo(uint64_t needed) { return needed ? static_cast<unsigned>(std::countr_zero(needed)) : 0; }
unsigned span_hi(uint64_t needed) { return bit_width64(needed); }

unsigned BitFacts::computed_lo(ValueId v) const { return span_lo(needed(v)); }
unsigned BitFacts::computed_hi(ValueId v) const { return span_hi(needed(v)); }

namespace {

// Ascending rounds before a changing state's range is widened to its known
// bits, and (three times as many) before it is given up entirely.
constexpr unsigned kWidenAfter = 8;
// Rounds applied after the ascent: each keeps the facts sound and may tighten them.
constexpr unsigned kDescents = 3;

bool is_compare(Op op) {
  return op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
}

// The comparison that holds when `op` does not.
Op negated(Op op) {
  switch (op) {
    case Op::Eq: return Op::Ne;
    case Op::Ne: return Op::Eq;
    case Op::Lt: return Op::Ge;
    case Op::Le: return Op::Gt;
    case Op::Gt: return Op::Le;
    default: return Op::Lt;  // Ge
  }
}

// The comparison with its operands swapped (a < b is b > a).
Op mirrored(Op op) {
  switch (op) {
    case Op::Lt: return Op::Gt;
    case Op::Le: return Op::Ge;
    case Op::Gt: return Op::Lt;
    case Op::Ge: return Op::Le;
    default: return op;
  }
}

// Facts that grew in this round of the ascent, widened so that it ends: the
// range dropped to what the bits say after a few rounds, everything later.
ValueFacts widened(const ValueFacts& f, unsigned round) {
  if (round >= 3 * kWidenAfter) return unknown_facts(f.width);
  if (round >= kWidenAfter) return normalized(ValueFacts{f.width, f.zeros, f.ones, 0, mask(f.width)});
  return f;
}

// x's facts given that `x op y` holds, y's facts known.
ValueFacts bounded(const ValueFacts& x, Op op, const ValueFacts& y) {
  ValueFacts r = x;
  switch (op) {
    case Op::Lt: if (y.hi > 0) r.hi = std::min(r.hi, y.hi - 1); break;
    case Op::Le: r.hi = std::min(r.hi, y.hi); break;
    case Op::Gt: if (y.lo < mask(x.width)) r.lo = std::max(r.lo, y.lo + 1); break;
    case Op::Ge: r.lo = std::max(r.lo, y.lo); break;
    case Op::Eq: r.lo = std::max(r.lo, y.lo); r.hi = std::min(r.hi, y.hi); break;
    default:  // Ne: only an end of the range that y surely is
      if (y.is_constant() && r.hi == y.lo && r.hi > r.lo) --r.hi;
      else if (y.is_constant() && r.lo == y.lo && r.lo < r.hi) ++r.lo;
      break;
  }
  if (r.lo > r.hi) return x;  // the guard never holds: keep what was known
  return normalized(r);
}

}  // namespace

BitFacts::BitFacts(const Dfg& g, BitFactsHooks hooks) : g_(g), hooks_(std::move(hooks)) {
  const size_t n = g.nodes.size();
  live_ = g.live();
  on_state_.assign(n, false);
  state_slot_.assign(n, -1);
  if (g.loop)
    for (size_t i = 0; i < g.loop->state.size(); ++i) state_slot_[g.loop->state[i]] = static_cast<int>(i);
  for (ValueId v = 0; v < n; ++v) {
    on_state_[v] = g.nodes[v].kind == NodeKind::State;
    for (ValueId o : g.nodes[v].operands) on_state_[v] = on_state_[v] || on_state_[o];
  }
  facts_.resize(n);
  std::vector<ValueFacts> no_state;
  if (g.loop)
    for (ValueId s : g.loop->state) no_state.push_back(unknown_facts(g.nodes[s].width));
  forward_pass(no_state, facts_, true);
  if (g.loop) loop_fixpoint();
  backward_pass();
}

ValueFacts BitFacts::node_facts(ValueId v, const std::vector<ValueFacts>& known) const {
  const Node& node = g_.nodes[v];
  switch (node.kind) {
    case NodeKind::Input: case NodeKind::Config: case NodeKind::State: return unknown_facts(node.width);
    case NodeKind::Constant: return constant_facts(node.width, node.constant);
    case NodeKind::Op: break;
  }
  if (!live_[v]) return unknown_facts(node.width);
  std::vector<ValueFacts> operands;
  for (ValueId o : node.operands) operands.push_back(known[o]);
  ValueFacts f = forward_facts(node, operands);
  if (hooks_.forward) hooks_.forward(g_, v, f);
  return f;
}

// Facts of every value (or, unless `all`, of those that depend on the loop
// state) given the state's facts.
void BitFacts::forward_pass(const std::vector<ValueFacts>& state, std::vector<ValueFacts>& out, bool all) const {
  for (ValueId v = 0; v < g_.nodes.size(); ++v) {
    if (!all && !on_state_[v]) continue;
    out[v] = state_slot_[v] >= 0 ? state[static_cast<size_t>(state_slot_[v])] : node_facts(v, out);
  }
}

// The state's facts in the iteration after one with `state`: its initial
// value or the next value computed while the guard held.
std::vector<ValueFacts> BitFacts::step_state(const std::vector<ValueFacts>& state) {
  std::vector<ValueFacts> f = facts_;
  forward_pass(state, f, false);
  forward_pass(refined_by_guard(state, f), f, false);
  std::vector<ValueFacts> out;
  for (size_t i = 0; i < state.size(); ++i) out.push_back(join(facts_[g_.loop->init[i]], f[g_.loop->next[i]]));
  return out;
}

std::vector<ValueFacts> BitFacts::refined_by_guard(const std::vector<ValueFacts>& state,
                                                   const std::vector<ValueFacts>& f) const {
  std::vector<ValueFacts> out = state;
  refine(g_.loop->cond, true, f, out);
  return out;
}

// Narrows the state's facts by what `cond == holds` implies: comparisons of
// a state register (or its zero extension) with anything of known range,
// through And, Or and Not.
void BitFacts::refine(ValueId cond, bool holds, const std::vector<ValueFacts>& f, std::vector<ValueFacts>& state) const {
  const Node& n = g_.nodes[cond];
  if (!n.is_op()) return;
  if (n.op == Op::Not) return refine(n.operands[0], !holds, f, state);
  if ((n.op == Op::And && holds) || (n.op == Op::Or && !holds)) {
    for (ValueId o : n.operands) refine(o, holds, f, state);
    return;
  }
  if (!is_compare(n.op) || n.width != 1) return;
  const ValueFacts& a = f[n.operands[0]];
  const ValueFacts& b = f[n.operands[1]];
  if (n.sgn && n.op != Op::Eq && n.op != Op::Ne && !(sign_known_zero(a) && sign_known_zero(b))) return;
  const Op op = holds ? n.op : negated(n.op);
  for (int side = 0; side < 2; ++side) {
    ValueId x = n.operands[static_cast<size_t>(side)];
    while (g_.is_op(x) && g_.nodes[x].op == Op::ZExt) x = g_.nodes[x].operands[0];
    if (state_slot_[x] < 0) continue;
    ValueFacts& s = state[static_cast<size_t>(state_slot_[x])];
    const ValueFacts& other = side == 0 ? b : a;
    ValueFacts bound = bounded(zero_extended(s, a.width), side == 0 ? op : mirrored(op), other);
    s = both(s, normalized(ValueFacts{s.width, 0, 0, bound.lo, std::min(bound.hi, mask(s.width))}));
  }
}

// Ascends from the initial values (widening what keeps changing), then
// applies a few more rounds, each sound, keeping what all of them know.
void BitFacts::loop_fixpoint() {
  std::vector<ValueFacts> state;
  for (ValueId v : g_.loop->init) state.push_back(facts_[v]);
  for (unsigned round = 0;; ++round) {
    ++forward_rounds_;
    const std::vector<ValueFacts> next = step_state(state);
    bool changed = false;
    for (size_t i = 0; i < state.size(); ++i) {
      const ValueFacts j = join(state[i], next[i]);
      if (j == state[i]) continue;
      state[i] = widened(j, round);
      changed = true;
    }
    if (!changed) break;
  }
  for (unsigned k = 0; k < kDescents; ++k) {
    ++forward_rounds_;
    const std::vector<ValueFacts> next = step_state(state);
    for (size_t i = 0; i < state.size(); ++i) state[i] = both(state[i], next[i]);
  }
  forward_pass(state, facts_, false);
}

// Demands from the roots down, in reverse order; a loop state's demand
// (what its register must hold) feeds its initial and next values, until it
// no longer grows.
void BitFacts::backward_pass() {
  const size_t n = g_.nodes.size();
  std::vector<uint64_t> held;  // per state: the bits its register holds
  if (g_.loop) held.assign(g_.loop->state.size(), 0);
  for (;;) {
    ++backward_rounds_;
    demanded_.assign(n, 0);
    for (const DfgPort& p : g_.outputs) demanded_[p.value] |= mask(g_.nodes[p.value].width);
    if (g_.loop) {
      demanded_[g_.loop->cond] |= 1;
      for (size_t i = 0; i < held.size(); ++i) {
        demanded_[g_.loop->init[i]] |= held[i];
        demanded_[g_.loop->next[i]] |= held[i];
      }
    }
    for (ValueId v = static_cast<ValueId>(n); v-- > 0;)
      if (live_[v] && g_.is_op(v)) demand_operands(v);
    if (!g_.loop) return;
    bool grew = false;
    for (size_t i = 0; i < held.size(); ++i) {
      const ValueId s = g_.loop->state[i];
      const uint64_t span = mask(computed_hi(s)) & ~mask(computed_lo(s));
      const uint64_t now = held[i] | (demanded_[s] & span);
      grew = grew || now != held[i];
      held[i] = now;
    }
    if (!grew) return;
  }
}

// What operation v reads of its operands to compute its demanded bits the
// way the narrowing pass does: nothing when they are all known; wiring maps
// the demand; logic and Mux data read the bits of the computed span;
// carries read every bit below the span's top; the rest read everything.
void BitFacts::demand_operands(ValueId v) {
  const Node& node = g_.nodes[v];
  const uint64_t need = needed(v);
  if (need == 0) return;
  const uint64_t d = demanded_[v];
  const uint64_t span = mask(span_hi(need)) & ~mask(span_lo(need));
  const uint64_t below_top = mask(span_hi(need));
  const size_t k = node.operands.size();
  auto width = [&](size_t i) { return g_.nodes[node.operands[i]].width; };
  auto constant = [&](size_t i, uint64_t& c) {
    const ValueFacts& f = facts_[node.operands[i]];
    c = f.ones;
    return g_.is_constant(node.operands[i]);
  };
  std::vector<uint64_t> x(k, 0);
  switch (node.op) {
    case Op::Slice: x[0] = d << node.param; break;
    case Op::Concat: {
      unsigned at = 0;
      for (size_t i = k; i-- > 0;) {
        x[i] = (d >> at) & mask(width(i));
        at += width(i);
      }
      break;
    }
    case Op::ZExt: x[0] = d; break;
    case Op::SExt: x[0] = d | ((d & ~mask(width(0))) ? bit_at(width(0) - 1) : 0); break;
    case Op::Not: case Op::Xor: x.assign(k, d & span); break;
    case Op::And: case Op::Or:
      // A constant operand decides the bits where it is 0 (And) or 1 (Or): the others are not read there.
      for (size_t i = 0; i < k; ++i) {
        x[i] = d & span;
        for (size_t j = 0; j < k; ++j) {
          uint64_t c = 0;
          if (j != i && constant(j, c)) x[i] &= node.op == Op::And ? c : ~c;
        }
      }
      break;
    case Op::Mux: {
      const ValueFacts& c = facts_[node.operands[0]];
      if (c.ones & 1) x[1] = d & span;
      else if (c.zeros & 1) x[2] = d & span;
      else x = {1, d & span, d & span};
      break;
    }
    case Op::Add: case Op::Sub: case Op::Neg: case Op::Mul: case Op::Shl:
      for (size_t i = 0; i < k; ++i) x[i] = below_top;
      if (node.op == Op::Shl) x[1] = mask(width(1));  // the amount, whole
      break;
    default:  // comparisons, reductions, Div, Mod, Shr, rotations, counts, Rom: whole operands
      for (size_t i = 0; i < k; ++i) x[i] = mask(width(i));
      break;
  }
  if (hooks_.backward) hooks_.backward(g_, v, x);
  for (size_t i = 0; i < k; ++i) demanded_[node.operands[i]] |= x[i] & mask(width(i));
}

}  // namespace polydat::hls
