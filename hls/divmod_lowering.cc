#include "hls/divmod_lowering.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>

#include "hls/dfg_eval.h"

namespace polydat::hls::divmod {

namespace {

// ---------------------------------------------------------------- building blocks

struct Addend {
  uint64_t max = 0;  // the largest value it takes
  ValueId v = 0;     // at width_for(max) bits
};

// The sum of the addends in plan_sum()'s order.
Addend sum(DfgBuilder& b, const std::vector<Addend>& xs) {
  std::vector<uint64_t> maxes;
  std::vector<ValueId> values;  // the addends', then each adder's
  for (const Addend& x : xs) {
    maxes.push_back(x.max);
    values.push_back(x.v);
  }
  double area = 0;  // what the plan costs: not needed once built
  const SumPlan plan = plan_sum(maxes, area);
  for (const SumStep& s : plan.steps) {
    const ValueId xv = b.resize(values[s.x], s.width), yv = b.resize(values[s.y], s.width);
    values.push_back(s.carry ? b.add_carry(xv, yv, values[*s.carry]) : b.add(xv, yv));
  }
  if (plan.result) return Addend{plan.max, values[*plan.result]};
  return Addend{0, b.constant(1, 0)};
}

// s >= t ? s - t : s, through one carry chain whose borrow out is the test.
struct Step {
  Addend rest;
  ValueId below = 0;  // 1 bit: s < t
};

Step subtract_step(DfgBuilder& b, const Addend& s, uint64_t t) {
  double area = 0;  // what the plan costs: not needed once built
  Step out;
  out.rest.max = plan_subtract_step(s.max, t, area);
  const unsigned w = width_for(s.max), rw = width_for(out.rest.max);
  if (w < 64) {
    const ValueId d = b.sub(b.zext(s.v, w + 1), b.constant(w + 1, t));
    out.below = b.bit(d, w);
    out.rest.v = b.mux(out.below, b.resize(s.v, rw), b.slice(d, 0, rw));
  } else {  // no room for the borrow bit: a comparison beside the subtraction
    out.below = b.compare(Op::Lt, s.v, b.constant(64, t));
    out.rest.v = b.mux(out.below, b.resize(s.v, rw), b.slice(b.sub(s.v, b.constant(64, t)), 0, rw));
  }
  return out;
}

// a - s at a's width, where s's value has `s_bits` bits: as a + ~s + 1 with
// inverters on s's bits only when that is cheaper than a subtractor.
ValueId subtract(DfgBuilder& b, ValueId a, ValueId s, unsigned s_bits) {
  const unsigned w = b.width(a);
  s_bits = std::min({s_bits, w, b.width(s)});
  const double as_sub = area_of(Op::Sub, w), as_add = area_of(Op::Add, w) + area_of(Op::Not, s_bits);
  if (s_bits == w || as_sub <= as_add) return b.sub(a, b.resize(s, w));
  const ValueId inverted = b.concat({b.constant(w - s_bits, kAllOnes), b.bnot(b.resize(s, s_bits))});
  return b.add_carry(a, inverted, b.constant(1, 1));
}

// -v when `negate`, at v's width: (v ^ negate...) + negate.
ValueId negate_if(DfgBuilder& b, ValueId v, ValueId negate) {
  return b.add_carry(b.bxor(v, b.sext(negate, b.width(v))), b.constant(b.width(v), 0), negate);
}

// `bit` times the constant `value`, at `width` bits: wiring.
ValueId gated(DfgBuilder& b, ValueId bit, uint64_t value, unsigned width) {
  std::vector<ValueId> bits;  // most significant first
  for (unsigned i = width; i-- > 0;) bits.push_back((value >> i) & 1 ? bit : b.constant(1, 0));
  return b.concat(bits);
}

ValueId table(DfgBuilder& b, ValueId index, unsigned out_width, const std::function<uint64_t(uint64_t)>& entry) {
  std::vector<uint64_t> entries;
  for (uint64_t i = 0; i < (uint64_t{1} << b.width(index)); ++i) entries.push_back(entry(i) & width_mask(out_width));
  return b.op(Op::Rom, out_width, {index}, false, 0, std::move(entries));
}

// ---------------------------------------------------------------- residues

Addend build_fold(DfgBuilder& b, const Addend& v, const Fold& fold, const ResiduePlanner& p) {
  std::vector<Addend> xs;
  for (const Term& t : fold.terms) {
    const ValueId bits = b.slice(v.v, t.pos, t.len);
    ValueId x = 0;
    if (t.sign) {
      x = gated(b, bits, t.weight, width_for(t.weight));
    } else if (t.table) {
      x = table(b, bits, width_for(t.max), [&](uint64_t d) { return p.entry(t, d); });
    } else {
      x = t.shift ? b.concat({bits, b.constant(t.shift, 0)}) : bits;
    }
    xs.push_back(Addend{t.max, b.resize(x, width_for(t.max))});
  }
  return sum(b, xs);
}

// The residue of `cur` by the plan, at the residue's width; `table_entry`
// gives a table fix's entries (of the value as read, signed or not).
ValueId build_residue_by(DfgBuilder& b, Addend cur, const ResiduePlan& plan, const ResiduePlanner& p,
                         const std::function<uint64_t(uint64_t)>& table_entry) {
  const uint64_t m = p.modulus();
  if (plan.area == kInfinity) throw std::logic_error("divmod_const_pass: no residue plan");  // cannot happen: see plan()
  for (const Fold& f : plan.folds) cur = build_fold(b, cur, f, p);
  if (plan.fix == Fix::Table) {
    cur.v = table(b, cur.v, p.residue_width(), plan.folds.empty() ? table_entry : [&](uint64_t i) { return i % m; });
  } else if (plan.fix == Fix::Steps) {
    const uint64_t k = cur.max / m;
    for (unsigned i = static_cast<unsigned>(std::bit_width(k)); i-- > 0;)
      if ((m << i) <= cur.max) cur = subtract_step(b, cur, m << i).rest;
  }
  return b.resize(cur.v, p.residue_width());
}

// v mod m (m odd, > 1) for v up to vmax.
ValueId build_residue(DfgBuilder& b, ValueId v, uint64_t vmax, ResiduePlanner& p) {
  const uint64_t m = p.modulus();
  return build_residue_by(b, Addend{vmax, b.resize(v, width_for(vmax))}, p.plan(vmax), p,
                          [m](uint64_t i) { return i % m; });
}

// v mod m in [0, m) for v read as two's complement (v = m * floor(v / m) + residue).
ValueId build_signed_residue(DfgBuilder& b, ValueId v, ResiduePlanner& p) {
  const unsigned n = b.width(v);
  const uint64_t m = p.modulus();
  auto floor_mod = [n, m](uint64_t i) {
    const int64_t value = static_cast<int64_t>((i ^ (uint64_t{1} << (n - 1))) - (uint64_t{1} << (n - 1)));
    const int64_t r = value % static_cast<int64_t>(m);
    return static_cast<uint64_t>(r < 0 ? r + static_cast<int64_t>(m) : r);
  };
  // The sign bit's term reads v itself: the first fold gets v whole (its bound unused).
  return build_residue_by(b, Addend{width_mask(n), v}, p.plan_signed(n), p, floor_mod);
}

}  // namespace

// ---------------------------------------------------------------- x / c and x % c

ResiduePlanner& Lowering::residue_planner(uint64_t m) {
  auto it = planners_.find(m);
  if (it == planners_.end()) it = planners_.emplace(m, ResiduePlanner(m)).first;
  return it->second;
}

bool Lowering::applicable(Method method, const Division& d, uint64_t xmax, uint64_t c) {
  const uint64_t m = c >> std::countr_zero(c);
  const uint64_t ymax = xmax >> std::countr_zero(c);
  switch (method) {
    case Method::Cheapest: return false;
    case Method::Table: return width_for(xmax) <= 8;
    case Method::Restoring: return xmax / c <= 15;
    case Method::ResidueInverse: return true;
    case Method::Reciprocal: return plan_reciprocal(ymax, m).has_value();
    case Method::ReciprocalResidue: return d.needs.q && d.needs.r && plan_reciprocal(ymax, m).has_value();
    case Method::SignedTable: return d.sgn && d.w <= 8;
    case Method::FloorResidue: return d.sgn;
  }
  return false;
}

Parts Lowering::unsigned_divmod(DfgBuilder& b, ValueId x, uint64_t xmax, uint64_t c, Needs needs, Method method) {
  x = b.resize(x, width_for(xmax));
  if (c == 1) return {x, b.constant(1, 0)};
  if (c > xmax) return {b.constant(1, 0), x};
  const unsigned nx = b.width(x);
  if (is_pow2(c)) {
    const unsigned k = log2_exact(c);
    return {b.slice(x, k, nx - k), b.slice(x, 0, k)};
  }
  Split s;
  s.x = x;
  s.xmax = xmax;
  s.c = c;
  s.k = static_cast<unsigned>(std::countr_zero(c));
  s.m = c >> s.k;
  s.y = b.slice(x, s.k, nx - s.k);
  s.ymax = xmax >> s.k;
  s.qw = width_for(xmax / c);
  s.rw = width_for(c - 1);
  switch (method) {
    case Method::Table: return by_table(b, s, needs);
    case Method::Restoring: return restoring(b, x, xmax, c);
    case Method::Reciprocal: return by_reciprocal(b, s, needs, false);
    case Method::ReciprocalResidue: return by_reciprocal(b, s, needs, true);
    default: return by_residue_inverse(b, s, needs);
  }
}

Parts Lowering::floor_residue(DfgBuilder& b, ValueId x, const Division& d) {
  const unsigned w = d.w;
  const uint64_t a = as_signed_magnitude(d.c, w);
  const unsigned k = static_cast<unsigned>(std::countr_zero(a));
  const uint64_t m = a >> k;
  const unsigned mw = width_for(m - 1), rw = width_for(a - 1);
  const ValueId sign = b.bit(x, w - 1);
  const ValueId y = b.slice(x, k, w - k);  // floor(x / 2^k), two's complement
  const ValueId ry = build_signed_residue(b, y, residue_planner(m));
  const ValueId rm = k ? b.concat({ry, b.slice(x, 0, k)}) : ry;
  const ValueId adjust = b.band(sign, b.op(Op::OrReduce, 1, {rm}));
  Parts out;
  // r = rm - adjust * a, in rw + 1 bits: the multiple of -a gated by `adjust` is wiring.
  out.r = b.sext(b.add(b.zext(rm, rw + 1), gated(b, adjust, (uint64_t{0} - a) & width_mask(rw + 1), rw + 1)), w);
  if (!d.needs.q) return out;
  // (x - r) / 2^k = y - ry + adjust * m; its quotient by m fits n bits (two's complement).
  const unsigned n = width_for((uint64_t{1} << (w - 1)) / a) + 1;
  const double z_area[2] = {area_of(Op::Add, n), area_of(Op::Sub, n)};
  const bool c_negative = (d.c >> (w - 1)) & 1;
  const InversePlan plan = plan_inverse(m, n, z_area, c_negative);
  const ValueId yn = b.slice(y, 0, n);
  // t = adjust * m - ry (or its negation for -z), in mw + 1 bits.
  const ValueId gm = gated(b, adjust, m, mw + 1), ryw = b.zext(ry, mw + 1);
  const ValueId t = plan.minus_z ? b.sub(ryw, gm) : b.sub(gm, ryw);
  const ValueId tn = mw + 1 <= n ? b.sext(t, n) : b.slice(t, 0, n);
  const ValueId z = plan.minus_z ? b.sub(tn, yn) : b.add(yn, tn);
  out.q = b.sext(multiply_all(b, z, plan.factors), w);
  return out;
}

Parts Lowering::by_table(DfgBuilder& b, const Split& s, Needs needs) {
  Parts out;
  if (needs.q) out.q = table(b, s.x, s.qw, [&](uint64_t d) { return d <= s.xmax ? d / s.c : 0; });
  if (needs.r) out.r = table(b, s.x, s.rw, [&](uint64_t d) { return d <= s.xmax ? d % s.c : 0; });
  return out;
}

std::pair<ValueId, ValueId> Lowering::residues(DfgBuilder& b, const Split& s) {
  const ValueId ry = build_residue(b, s.y, s.ymax, residue_planner(s.m));
  return {ry, s.k ? b.concat({ry, b.slice(s.x, 0, s.k)}) : ry};
}

Parts Lowering::by_residue_inverse(DfgBuilder& b, const Split& s, Needs needs) {
  const auto [ry, r] = residues(b, s);
  if (!needs.q) return {0, r};
  // q = (y - ry) / m exactly: y - ry an adder and inverters on ry's bits, ry - y a subtractor.
  const unsigned n = s.qw, r_bits = std::min(b.width(ry), n);
  const double z_area[2] = {std::min(area_of(Op::Sub, n), area_of(Op::Add, n) + area_of(Op::Not, r_bits)),
                            area_of(Op::Sub, n)};
  const InversePlan plan = plan_inverse(s.m, n, z_area, false);
  const ValueId yn = b.resize(s.y, n);
  const ValueId z = plan.minus_z ? b.sub(b.resize(ry, n), yn) : subtract(b, yn, ry, r_bits);
  return {multiply_all(b, z, plan.factors), r};
}

Parts Lowering::by_reciprocal(DfgBuilder& b, const Split& s, Needs needs, bool r_by_folding) {
  const Reciprocal rc = *plan_reciprocal(s.ymax, s.m);
  const ValueId product = b.op(Op::Mul, rc.product_width, {s.y, b.constant(rc.product_width, rc.multiplier)});
  Parts out;
  out.q = b.resize(b.slice(product, rc.shift, std::min(s.qw, rc.product_width - rc.shift)), s.qw);
  if (!needs.r) return out;
  if (r_by_folding) {
    out.r = residues(b, s).second;
  } else {  // r = x - q * c, all modulo 2^rw
    const ValueId qc = b.op(Op::Mul, s.rw, {b.resize(out.q, std::min(s.qw, s.rw)), b.constant(s.rw, s.c)});
    out.r = b.sub(b.resize(s.x, s.rw), qc);
  }
  return out;
}

ValueId Lowering::multiply_all(DfgBuilder& b, ValueId z, const std::vector<uint64_t>& factors) {
  for (uint64_t f : factors) z = b.op(Op::Mul, b.width(z), {z, b.constant(b.width(z), f)});
  return z;
}

Parts Lowering::restoring(DfgBuilder& b, ValueId x, uint64_t xmax, uint64_t c) {
  const unsigned qw = width_for(xmax / c);
  Addend s{xmax, x};
  std::vector<ValueId> bits;  // most significant first
  for (unsigned i = qw; i-- > 0;) {
    const u128 t = u128{c} << i;
    if (t > s.max) {
      bits.push_back(b.constant(1, 0));
      continue;
    }
    const Step step = subtract_step(b, s, static_cast<uint64_t>(t));
    bits.push_back(b.bnot(step.below));
    s = step.rest;
  }
  return {b.concat(bits), b.resize(s.v, width_for(c - 1))};
}

Parts build_general(Lowering& low, DfgBuilder& b, ValueId x, const Division& d, Method method) {
  const unsigned w = d.w;
  if (!d.sgn) {
    const Parts p = low.unsigned_divmod(b, x, d.xmax, d.c, d.needs, method);
    return {d.needs.q ? b.zext(p.q, w) : 0, d.needs.r ? b.zext(p.r, w) : 0};
  }
  if (method == Method::FloorResidue) return low.floor_residue(b, x, d);
  if (method == Method::SignedTable) {
    Node op;
    op.width = w;
    op.sgn = true;
    auto value = [&](Op kind, uint64_t i) {
      op.op = kind;
      return eval_node(op, {i, d.c}, {w, w});
    };
    return {d.needs.q ? table(b, x, w, [&](uint64_t i) { return value(Op::Div, i); }) : 0,
            d.needs.r ? table(b, x, w, [&](uint64_t i) { return value(Op::Mod, i); }) : 0};
  }
  // Through the magnitudes: |x| / |c| and |x| % |c|, then the signs.
  const bool nonnegative = d.xmax < (uint64_t{1} << (w - 1));
  const ValueId sign = nonnegative ? b.constant(1, 0) : b.bit(x, w - 1);
  const ValueId ax = negate_if(b, x, sign);
  const uint64_t axmax = nonnegative ? d.xmax : uint64_t{1} << (w - 1);
  const bool c_negative = (d.c >> (w - 1)) & 1;
  const uint64_t ac = as_signed_magnitude(d.c, w);
  const Parts p = low.unsigned_divmod(b, ax, axmax, ac, d.needs, method);
  Parts out;
  if (d.needs.q) {
    const ValueId q = b.zext(p.q, b.width(p.q) + 1);
    out.q = b.sext(negate_if(b, q, c_negative ? b.bnot(sign) : sign), w);
  }
  if (d.needs.r) out.r = b.sext(negate_if(b, b.zext(p.r, b.width(p.r) + 1), sign), w);
  return out;
}

std::optional<Parts> build_special(DfgBuilder& b, ValueId x, const Division& d) {
  const unsigned w = d.w;
  const uint64_t all = width_mask(w), min = uint64_t{1} << (w - 1);
  if (d.c == 0) return Parts{b.constant(w, all), x};  // RISC-V: x / 0 all ones, x % 0 = x
  if (d.sgn && d.c == all) return Parts{b.neg(x), b.constant(w, 0)};  // MIN / -1 wraps to MIN
  if (d.c == 1) return Parts{x, b.constant(w, 0)};
  if (!d.sgn && is_pow2(d.c)) {
    const unsigned k = log2_exact(d.c);
    return Parts{b.zext(b.slice(x, k, w - k), w), b.zext(b.slice(x, 0, k), w)};
  }
  if (!d.sgn) return std::nullopt;
  if (d.c == min) {  // only MIN itself divides to a nonzero quotient
    const ValueId is_min = b.compare(Op::Eq, x, b.constant(w, min));
    return Parts{b.zext(is_min, w), b.mux(is_min, b.constant(w, 0), x)};
  }
  const uint64_t ac = as_signed_magnitude(d.c, w);
  if (!is_pow2(ac)) return std::nullopt;
  // Truncation toward zero: add 2^k - 1 to a negative x, then shift. The
  // low k bits' sum gives the carry into the high part and the remainder.
  const unsigned k = log2_exact(ac);
  const ValueId sign = b.bit(x, w - 1);
  const ValueId bias = b.sext(sign, k);
  const ValueId low = b.add(b.zext(b.slice(x, 0, k), k + 1), b.zext(bias, k + 1));
  Parts out;
  if (d.needs.q) {
    const ValueId high = b.add_carry(b.slice(x, k, w - k), b.constant(w - k, 0), b.bit(low, k));
    const ValueId q = b.sext(high, w);
    out.q = (d.c >> (w - 1)) & 1 ? b.neg(q) : q;
  }
  if (d.needs.r) {
    // (low - bias) in k + 1 bits: low + sign * (2^k + 1), then the sign.
    const ValueId r = b.add_carry(b.zext(b.slice(low, 0, k), k + 1), b.concat({sign, b.constant(k, 0)}), sign);
    out.r = b.sext(r, w);
  }
  return out;
}

}  // namespace polydat::hls::divmod
