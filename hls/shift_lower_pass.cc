#include "hls/shift_lower_pass.h"

#include <algorithm>
#include <bit>

#include "hls/design.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

bool is_shift(Op op) { return op == Op::Shl || op == Op::Shr || op == Op::Rotl || op == Op::Rotr; }

// The least k with 2^k >= n (n >= 1): levels that shift by 1, 2, ..., 2^(k-1) reach every amount below n.
unsigned levels_to_reach(unsigned n) { return static_cast<unsigned>(std::bit_width(n - 1)); }

// OrReduce of v's bits that are not known constants (a known 1 makes it 1).
ValueId any_bit_set(DfgBuilder& b, ValueId v) {
  const std::vector<BitSource> sources = bit_sources(b.graph(), v);
  std::vector<ValueId> runs;  // most significant first
  for (unsigned i = 0; i < sources.size();) {
    if (sources[i].value == kConstantBit) {
      if (sources[i].bit) return b.constant(1, 1);
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < sources.size() && sources[j].value != kConstantBit) ++j;
    runs.insert(runs.begin(), b.slice(v, i, j - i));
    i = j;
  }
  if (runs.empty()) return b.constant(1, 0);
  return b.op(Op::OrReduce, 1, {runs.size() == 1 ? runs[0] : b.concat(runs)});
}

// One mux level per amount bit below `levels`, the least significant first
// (an amount computed by a carry chain delivers its low bits first):
// `moved(y, d)` is y moved by d, as wiring.
template <typename Move>
ValueId mux_levels(DfgBuilder& b, ValueId y, ValueId amount, unsigned levels, Move moved) {
  const unsigned count = std::min(levels, b.width(amount));
  for (unsigned k = 0; k < count; ++k) y = b.mux(b.bit(amount, k), moved(y, 1u << k), y);
  return y;
}

// The amount's bits from `from` up, set: the amount is beyond what the levels shift.
ValueId beyond_levels(DfgBuilder& b, ValueId amount, unsigned from) {
  const unsigned aw = b.width(amount);
  if (aw <= from) return b.constant(1, 0);
  return any_bit_set(b, b.slice(amount, from, aw - from));
}

// y rotated left by d (0 < d < width), as wiring.
ValueId rotl_const(DfgBuilder& b, ValueId y, unsigned d) {
  const unsigned w = b.width(y);
  return b.concat({b.slice(y, 0, w - d), b.slice(y, w - d, d)});
}

// Rotations: by the amount modulo w (a power of two), its low log2(w) bits.
ValueId rotate(DfgBuilder& b, bool left, ValueId x, ValueId amount) {
  const unsigned w = b.width(x);
  return mux_levels(b, x, amount, levels_to_reach(w),
                    [&](ValueId y, unsigned d) { return rotl_const(b, y, left ? d : w - d); });
}

// Logical shifts: the levels reach amounts up to 2^L - 1 >= w - 1 (those
// from w on shift everything out by themselves); higher amount bits give 0.
ValueId shift_logical(DfgBuilder& b, bool left, ValueId x, ValueId amount) {
  const unsigned w = b.width(x), levels = levels_to_reach(w);
  const ValueId y = mux_levels(b, x, amount, levels, [&](ValueId v, unsigned d) {
    return left ? b.shl_const(v, d) : b.shr_const(v, d);
  });
  return b.mux(beyond_levels(b, amount, levels), b.constant(w, 0), y);
}

// Arithmetic right shift: the sign bit never changes, and the w - 1 bits
// below it shifted by w - 1 or more are all sign bits, so the levels shift
// those bits only, reaching w - 1.
ValueId shift_arithmetic(DfgBuilder& b, ValueId x, ValueId amount) {
  const unsigned w = b.width(x);
  if (w == 1) return x;
  const unsigned body = w - 1, levels = levels_to_reach(body);
  const ValueId sign = b.bit(x, w - 1);
  const ValueId y = mux_levels(b, b.slice(x, 0, body), amount, levels, [&](ValueId v, unsigned d) {
    return b.concat({b.sext(sign, d), b.slice(v, d, body - d)});
  });
  return b.concat({sign, b.mux(beyond_levels(b, amount, levels), b.sext(sign, body), y)});
}

class ShiftLowerPass : public DfgRewriter {
 public:
  ShiftLowerPass(const Dfg& g, const LowerOptions& options) : DfgRewriter(g), options_(options) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if (!is_shift(n.op) || !lowering_pays(in_, v, options_)) return copy(v);
    return lower_variable_shift(b_, n.op, n.sgn, map(n.operands[0]), map(n.operands[1]));
  }

 private:
  LowerOptions options_;
};

}  // namespace

ValueId lower_variable_shift(DfgBuilder& b, Op op, bool sgn, ValueId x, ValueId amount) {
  switch (op) {
    case Op::Rotl: case Op::Rotr: return rotate(b, op == Op::Rotl, x, amount);
    case Op::Shr: return sgn ? shift_arithmetic(b, x, amount) : shift_logical(b, false, x, amount);
    default: return shift_logical(b, true, x, amount);
  }
}

bool lowering_pays(const Dfg& g, ValueId v, const LowerOptions& options) {
  if (options.target == Target::Ice40) return true;
  return op_cost(options.target, shape_of(g, v, false)).delay_ns > schedule_period_ns(options.target, options.clock_ns);
}

Dfg shift_lower_pass(const Dfg& g, const LowerOptions& options) { return ShiftLowerPass(g, options).run(); }

}  // namespace polydat::hls
