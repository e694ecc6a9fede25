#include "hls/divmod_const_pass.h"

#include "hls/csd.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

using u128 = unsigned __int128;
constexpr uint64_t kAllOnes = ~uint64_t{0};
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// The pass weighs its choices with the iCE40 model (the target it was written for).
constexpr Target kTarget = Target::Ice40;

// ---------------------------------------------------------------- numbers

unsigned width_for(uint64_t max) { return std::max(1u, static_cast<unsigned>(std::bit_width(max))); }
bool is_pow2(uint64_t v) { return std::has_single_bit(v); }
unsigned log2_exact(uint64_t pow2) { return static_cast<unsigned>(std::countr_zero(pow2)); }

// 2^p mod m.
uint64_t pow2_mod(unsigned p, uint64_t m) {
  u128 r = 1 % m;
  for (unsigned i = 0; i < p; ++i) r = (r * 2) % m;
  return static_cast<uint64_t>(r);
}

// The smallest e > 0 with 2^e = 1 (mod m), m odd; 0 when it is above `limit`.
unsigned order_of_two(uint64_t m, unsigned limit) {
  u128 r = 1;
  for (unsigned e = 1; e <= limit; ++e) {
    r = (r * 2) % m;
    if (r == 1) return e;
  }
  return 0;
}

uint64_t as_signed_magnitude(uint64_t c, unsigned w) {
  const uint64_t sign = uint64_t{1} << (w - 1);
  return (c & sign) ? (uint64_t{0} - c) & width_mask(w) : c;
}

// ---------------------------------------------------------------- costs


double area_of(Op op, unsigned width, bool constant_rhs = false) {
  return op_cost(kTarget, op, width, constant_rhs).area;
}

double rom_area(unsigned out_width, unsigned index_width) {
  OpShape s;
  s.op = Op::Rom;
  s.width = out_width;
  s.operand_width = index_width;
  s.operands = 1;
  return op_cost(kTarget, s).area;
}

struct NodeEstimate {
  double area = 0, delay_ns = 0;
  unsigned adders = 0;
};

NodeEstimate node_estimate(const Dfg& g, ValueId v, Target t) {
  const Node& n = g.nodes[v];
  if (n.op == Op::Mul && n.param != 1) {
    for (ValueId o : n.operands) {
      if (!g.is_constant(o)) continue;
      const unsigned adders = csd_adders(g.nodes[o].constant, n.width);
      const OpCost add = op_cost(t, Op::Add, n.width, false);
      const unsigned levels = static_cast<unsigned>(std::bit_width(adders));  // ceil(log2(terms))
      return {adders * add.area, levels * add.delay_ns, levels};
    }
  }
  const OpCost c = op_cost(t, shape_of(g, v, n.op == Op::Mul && n.param == 1));
  unsigned adders = 0;
  if (c.unit == UnitClass::Adder) adders = 1;
  if (c.unit == UnitClass::Div) adders = n.width;  // a row of subtractors per quotient bit
  if (c.unit == UnitClass::Mul) adders = static_cast<unsigned>(std::bit_width(n.width));
  return {c.area, c.delay_ns, adders};
}

// ---------------------------------------------------------------- building blocks

struct Addend {
  uint64_t max = 0;  // the largest value it takes
  ValueId v = 0;     // at width_for(max) bits (unused when only costing)
};

// Sums addends smallest first, so the adders stay as narrow as the partial
// sums; one-bit addends ride along as carries in. b null: only counts area.
Addend sum_addends(DfgBuilder* b, std::vector<Addend> xs, double& area) {
  std::vector<Addend> wide, carries;
  for (const Addend& x : xs) {
    if (x.max == 1) carries.push_back(x);
    else if (x.max > 1) wide.push_back(x);
  }
  auto take_smallest = [&] {
    auto it = std::min_element(wide.begin(), wide.end(), [](const Addend& a, const Addend& c) { return a.max < c.max; });
    const Addend a = *it;
    wide.erase(it);
    return a;
  };
  while (wide.size() + carries.size() > 1) {
    if (wide.size() < 2) {
      wide.push_back(carries.back());
      carries.pop_back();
      continue;
    }
    const Addend x = take_smallest(), y = take_smallest();
    std::optional<Addend> carry;
    if (!carries.empty()) {
      carry = carries.back();
      carries.pop_back();
    }
    const u128 max = u128{x.max} + y.max + (carry ? 1 : 0);
    if (max > kAllOnes) throw std::logic_error("divmod_const_pass: a sum wider than 64 bits");
    Addend s{static_cast<uint64_t>(max), 0};
    const unsigned w = width_for(s.max);
    area += area_of(Op::Add, w);
    if (b) {
      const ValueId xv = b->resize(x.v, w), yv = b->resize(y.v, w);
      s.v = carry ? b->add_carry(xv, yv, carry->v) : b->add(xv, yv);
    }
    wide.push_back(s);
  }
  if (!wide.empty()) return wide[0];
  if (!carries.empty()) return carries[0];
  return Addend{0, b ? b->constant(1, 0) : 0};
}

// s >= t ? s - t : s, through one carry chain whose borrow out is the test.
struct Step {
  Addend rest;
  ValueId below = 0;  // 1 bit: s < t
};

Step subtract_step(DfgBuilder* b, const Addend& s, uint64_t t, double& area) {
  const unsigned w = width_for(s.max);
  Step out;
  out.rest.max = std::max(std::min(s.max, t - 1), s.max - t);
  const unsigned rw = width_for(out.rest.max);
  area += area_of(Op::Mux, rw);
  if (w < 64) {
    area += area_of(Op::Sub, w + 1, true);
    if (b) {
      const ValueId d = b->sub(b->zext(s.v, w + 1), b->constant(w + 1, t));
      out.below = b->bit(d, w);
      out.rest.v = b->mux(out.below, b->resize(s.v, rw), b->slice(d, 0, rw));
    }
  } else {  // no room for the borrow bit: a comparison beside the subtraction
    area += area_of(Op::Sub, 64, true) + area_of(Op::Lt, 64, true);
    if (b) {
      out.below = b->compare(Op::Lt, s.v, b->constant(64, t));
      out.rest.v = b->mux(out.below, b->resize(s.v, rw), b->slice(b->sub(s.v, b->constant(64, t)), 0, rw));
    }
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

// ---------------------------------------------------------------- the residue modulo an odd m

// One addend of a fold: bits [pos, pos + len) of the value, of weight 2^pos mod m.
struct Term {
  unsigned pos = 0, len = 0;
  uint64_t weight = 1;
  bool table = false;  // a Rom of (d * weight) mod m; else wiring: the bits shifted left by `shift`
  bool sign = false;   // a two's complement sign bit: wiring, the bit gating the bits of its weight -2^pos mod m
  unsigned shift = 0;
  uint64_t chunk_max = 0;
  uint64_t max = 0;
};

// Replaces a value by the sum of its terms (congruent modulo m, smaller).
struct Fold {
  std::vector<Term> terms;
  uint64_t out_max = 0;
};

// After the folds: how the last sum is brought below m.
enum class Fix : uint8_t { None, Table, Steps };

struct ResiduePlan {
  std::vector<Fold> folds;
  Fix fix = Fix::None;
  double area = kInfinity;
};

// Plans v mod m for values up to vmax: folds while they pay, then a fix,
// choosing among layouts (a free low part and 4-bit tables, or segments of
// the period of 2 modulo m, which need no tables) by estimated area.
class ResiduePlanner {
 public:
  explicit ResiduePlanner(uint64_t m) : m_(m), rw_(width_for(m - 1)), order_(order_of_two(m, 64)) {}

  uint64_t modulus() const { return m_; }
  unsigned residue_width() const { return rw_; }

  // Never without a way: below 16m the steps apply, and from 16m up the
  // layout with the low rw bits free brings the sum below 3m.
  const ResiduePlan& plan(uint64_t vmax) {
    if (auto it = memo_.find(vmax); it != memo_.end()) return it->second;
    ResiduePlan best;
    for (Fix fix : {Fix::None, Fix::Table, Fix::Steps}) {
      const double a = fix_area(vmax, fix);
      if (a < best.area) best = ResiduePlan{{}, fix, a};
    }
    for (const std::vector<Term>& terms : layouts(vmax)) {
      Fold fold{terms, 0};
      double area = 0;
      if (!sum_of(fold, area) || fold.out_max >= vmax) continue;
      const ResiduePlan& rest = plan(fold.out_max);
      if (area + rest.area < best.area - 1e-9) {
        best.folds = {fold};
        best.folds.insert(best.folds.end(), rest.folds.begin(), rest.folds.end());
        best.fix = rest.fix;
        best.area = area + rest.area;
      }
    }
    return memo_[vmax] = best;
  }

  // The floor residue (in [0, m)) of an n-bit two's complement value: its
  // sign bit weighs -2^(n-1), which modulo m is a constant gated by the bit.
  const ResiduePlan& plan_signed(unsigned n) {
    if (auto it = signed_memo_.find(n); it != signed_memo_.end()) return it->second;
    ResiduePlan best;
    if (n <= 8) best = ResiduePlan{{}, Fix::Table, rom_area(rw_, n)};
    const uint64_t low_max = width_mask(n - 1);
    std::vector<std::vector<Term>> low_layouts = layouts(low_max);
    low_layouts.push_back({*term(low_max, 0, n - 1)});  // the low bits whole (weight 1, wiring)
    Term sign;
    sign.pos = n - 1;
    sign.len = 1;
    sign.sign = true;
    sign.chunk_max = 1;
    sign.weight = (m_ - pow2_mod(n - 1, m_)) % m_;
    sign.max = sign.weight;
    for (std::vector<Term> terms : low_layouts) {
      if (sign.max) terms.push_back(sign);
      Fold fold{terms, 0};
      double area = 0;
      if (!sum_of(fold, area)) continue;
      const ResiduePlan& rest = plan(fold.out_max);
      if (area + rest.area < best.area - 1e-9) {
        best.folds = {fold};
        best.folds.insert(best.folds.end(), rest.folds.begin(), rest.folds.end());
        best.fix = rest.fix;
        best.area = area + rest.area;
      }
    }
    return signed_memo_[n] = best;
  }

  // The addend for bits [pos, pos + len) of values up to vmax: wiring when
  // its weight is a power of two, else a table (at most 4 index bits).
  std::optional<Term> term(uint64_t vmax, unsigned pos, unsigned len) const {
    Term t;
    t.pos = pos;
    t.len = len;
    t.chunk_max = std::min(width_mask(len), vmax >> pos);
    t.weight = pow2_mod(pos, m_);
    if (is_pow2(t.weight)) {
      t.shift = log2_exact(t.weight);
      const u128 max = u128{t.chunk_max} << t.shift;
      if (max <= kAllOnes && len + t.shift <= kMaxWidth) {
        t.max = static_cast<uint64_t>(max);
        return t;
      }
    }
    if (len > 4) return std::nullopt;
    t.table = true;
    for (uint64_t d = 0; d <= t.chunk_max; ++d) t.max = std::max(t.max, entry(t, d));
    return t;
  }

  uint64_t entry(const Term& t, uint64_t d) const {
    return d > t.chunk_max ? 0 : static_cast<uint64_t>((u128{d} * t.weight) % m_);
  }

  double fix_area(uint64_t vmax, Fix fix) const {
    switch (fix) {
      case Fix::None: return vmax < m_ ? 0 : kInfinity;
      case Fix::Table: return width_for(vmax) <= 8 ? rom_area(rw_, width_for(vmax)) : kInfinity;
      case Fix::Steps: {
        const uint64_t k = vmax / m_;
        if (k == 0 || k > 15) return kInfinity;
        double area = 0;
        Addend s{vmax, 0};
        for (unsigned i = static_cast<unsigned>(std::bit_width(k)); i-- > 0;)
          if ((m_ << i) <= s.max) s = subtract_step(nullptr, s, m_ << i, area).rest;
        return area;
      }
    }
    return kInfinity;
  }

 private:
  // The adder tree's area and the sum's bound; false when it would pass 64 bits.
  bool sum_of(Fold& fold, double& area) const {
    u128 total = 0;
    std::vector<Addend> xs;
    for (const Term& t : fold.terms) {
      total += t.max;
      xs.push_back(Addend{t.max, 0});
      if (t.table) area += rom_area(width_for(t.max), t.len);
    }
    if (total > kAllOnes) return false;
    fold.out_max = static_cast<uint64_t>(total);
    sum_addends(nullptr, xs, area);
    return true;
  }

  std::vector<std::vector<Term>> layouts(uint64_t vmax) const {
    const unsigned n = width_for(vmax);
    std::vector<std::vector<std::pair<unsigned, unsigned>>> splits;
    for (unsigned lo : {4u, rw_ - 1, rw_, rw_ + 1, rw_ + 2}) {
      if (lo < 1 || lo >= n) continue;
      std::vector<std::pair<unsigned, unsigned>> s = {{0, lo}};
      for (unsigned p = lo; p < n; p += 4) s.emplace_back(p, std::min(4u, n - p));
      splits.push_back(s);
    }
    for (unsigned g = order_; order_ != 0 && g <= 32 && g < n; g += order_) {
      std::vector<std::pair<unsigned, unsigned>> s;
      for (unsigned p = 0; p < n; p += g) s.emplace_back(p, std::min(g, n - p));
      splits.push_back(s);
    }
    std::sort(splits.begin(), splits.end());
    splits.erase(std::unique(splits.begin(), splits.end()), splits.end());
    std::vector<std::vector<Term>> out;
    for (const auto& s : splits) {
      std::vector<Term> terms;
      bool ok = true;
      for (auto [pos, len] : s) {
        const auto t = term(vmax, pos, len);
        ok = ok && t.has_value();
        if (t && t->max > 0) terms.push_back(*t);
      }
      if (ok) out.push_back(std::move(terms));
    }
    return out;
  }

  uint64_t m_;
  unsigned rw_, order_;
  std::map<uint64_t, ResiduePlan> memo_;
  std::map<unsigned, ResiduePlan> signed_memo_;
};

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
  double area = 0;
  return sum_addends(&b, xs, area);
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
    double area = 0;
    const uint64_t k = cur.max / m;
    for (unsigned i = static_cast<unsigned>(std::bit_width(k)); i-- > 0;)
      if ((m << i) <= cur.max) cur = subtract_step(&b, cur, m << i, area).rest;
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

// ---------------------------------------------------------------- the quotient

// An exact quotient z / m (m odd) modulo 2^n: (+-z) times these factors,
// whose product is m's inverse (or its negation); sparse factors where m or
// its divisors are 2^a +- 1, else the inverse's own digits.
struct InversePlan {
  std::vector<uint64_t> factors;
  bool minus_z = false;  // multiply -z (the factors' product is then the inverse's negation, or the result is)
};

std::vector<uint64_t> divisors_of(uint64_t m, size_t limit) {
  std::vector<std::pair<uint64_t, unsigned>> primes;
  uint64_t rest = m;
  for (uint64_t p = 3; p < 65536 && p * p <= rest; p += 2) {
    unsigned k = 0;
    while (rest % p == 0) {
      rest /= p;
      ++k;
    }
    if (k) primes.emplace_back(p, k);
  }
  if (rest > 1) primes.emplace_back(rest, 1);
  std::vector<uint64_t> ds = {1};
  for (auto [p, k] : primes) {
    const size_t before = ds.size();
    uint64_t power = 1;
    for (unsigned i = 1; i <= k; ++i) {
      power *= p;
      for (size_t j = 0; j < before; ++j) ds.push_back(ds[j] * power);
    }
    if (ds.size() > limit) return {1, m};
  }
  std::sort(ds.begin(), ds.end());
  return ds;
}

struct FactorChain {
  std::vector<uint64_t> factors;
  unsigned adders = std::numeric_limits<unsigned>::max();
};

unsigned chain_adders(const std::vector<uint64_t>& fs, unsigned n) {
  unsigned a = 0;
  for (uint64_t f : fs) a += csd_adders(f, n);
  return a;
}

// 2^a + 1: (1 - 2^a)(1 + 2^2a)(1 + 2^4a)... is its inverse; 2^a - 1:
// (1 + 2^a)(1 + 2^2a)... its inverse's negation (each factor one adder).
std::optional<std::pair<FactorChain, bool>> sparse_chain(uint64_t d, unsigned n) {
  const uint64_t mask = width_mask(n);
  FactorChain c;
  bool negated = false;
  if (d > 2 && is_pow2(d - 1)) {
    const unsigned a = log2_exact(d - 1);
    if (a < n) c.factors.push_back((uint64_t{1} - (uint64_t{1} << a)) & mask);
    for (unsigned s = 2 * a; s < n; s *= 2) c.factors.push_back((uint64_t{1} + (uint64_t{1} << s)) & mask);
  } else if (d > 2 && d < kAllOnes && is_pow2(d + 1)) {
    negated = true;
    for (unsigned s = log2_exact(d + 1); s < n; s *= 2) c.factors.push_back((uint64_t{1} + (uint64_t{1} << s)) & mask);
  } else {
    return std::nullopt;
  }
  c.adders = chain_adders(c.factors, n);
  return std::make_pair(c, negated);
}

// The factors for (z / m) * (negated ? -1 : 1) mod 2^n; z_area[1]: what
// computing -z instead of z costs (z_area[0]), so a negation lands where it is cheapest.
InversePlan plan_inverse(uint64_t m, unsigned n, const double (&z_area)[2], bool negated) {
  const uint64_t mask = width_mask(n);
  const std::vector<uint64_t> ds = divisors_of(m, 256);
  std::map<uint64_t, FactorChain> best[2];  // [negated]
  auto offer = [&](uint64_t d, bool negated, FactorChain c) {
    c.factors.erase(std::remove(c.factors.begin(), c.factors.end(), uint64_t{1}), c.factors.end());
    c.adders = chain_adders(c.factors, n);
    if (c.adders < best[negated][d].adders) best[negated][d] = std::move(c);
  };
  for (uint64_t d : ds) {
    const uint64_t inv = inverse_mod_pow2(d, n);
    offer(d, false, FactorChain{{inv}, 0});
    offer(d, true, FactorChain{{(uint64_t{0} - inv) & mask}, 0});
    if (auto c = sparse_chain(d, n)) offer(d, c->second, c->first);
    for (uint64_t f : ds) {
      if (f <= 1 || f >= d || d % f != 0 || f > d / f) continue;
      for (int s1 = 0; s1 < 2; ++s1)
        for (int s2 = 0; s2 < 2; ++s2) {
          const FactorChain& a = best[s1][f];
          const FactorChain& c = best[s2][d / f];
          if (a.adders == std::numeric_limits<unsigned>::max() || c.adders == std::numeric_limits<unsigned>::max())
            continue;  // not reachable with that sign
          FactorChain both;
          both.factors = a.factors;
          both.factors.insert(both.factors.end(), c.factors.begin(), c.factors.end());
          offer(d, s1 != s2, both);
        }
    }
  }
  InversePlan plan;
  double best_area = kInfinity;
  for (int s = 0; s < 2; ++s) {
    const bool minus_z = (s == 1) != negated;
    const double a = best[s][m].adders * area_of(Op::Add, n) + z_area[minus_z];
    if (a < best_area) {
      best_area = a;
      plan = InversePlan{best[s][m].factors, minus_z};
    }
  }
  return plan;
}

// floor(y / m) = floor(y * M / 2^shift) for every y up to its bound, with the product in 64 bits.
struct Reciprocal {
  uint64_t multiplier = 0;
  unsigned shift = 0, product_width = 0;
};

std::optional<Reciprocal> plan_reciprocal(uint64_t ymax, uint64_t m) {
  std::optional<Reciprocal> best;
  double best_area = kInfinity;
  for (unsigned s = 0; s < 127; ++s) {
    const u128 two_s = u128{1} << s;
    const u128 mult = (two_s + m - 1) / m;
    if (mult > kAllOnes) break;
    const u128 product_max = u128{ymax} * mult;  // grows with s
    if (product_max > kAllOnes) break;
    const u128 excess = mult * m - two_s;  // in [0, m): exact while y * excess < 2^s
    if (u128{ymax} * excess >= two_s) continue;
    const unsigned pw = width_for(static_cast<uint64_t>(product_max));
    const double area = csd_adders(static_cast<uint64_t>(mult), pw) * area_of(Op::Add, pw);
    if (area < best_area) {
      best_area = area;
      best = Reciprocal{static_cast<uint64_t>(mult), s, pw};
    }
  }
  return best;
}

// ---------------------------------------------------------------- x / c and x % c

struct Needs {
  bool q = false, r = false;
};

// Narrow results: q at width_for(its bound), r at width_for(its bound).
struct Parts {
  ValueId q = 0, r = 0;
};

using Method = DivmodMethod;

constexpr Method kMethods[] = {Method::Table, Method::Restoring, Method::ResidueInverse, Method::Reciprocal,
                               Method::ReciprocalResidue, Method::SignedTable, Method::FloorResidue};

// What a Div or Mod by a constant is, and which of the two are live.
struct Division {
  uint64_t c = 0;
  unsigned w = 1;
  bool sgn = false;
  uint64_t xmax = 0;  // a bound on the dividend
  Needs needs;
};

class Lowering {
 public:
  ResiduePlanner& residue_planner(uint64_t m) {
    auto it = planners_.find(m);
    if (it == planners_.end()) it = planners_.emplace(m, ResiduePlanner(m)).first;
    return it->second;
  }

  // Whether the method can build x / c and x % c for x up to xmax (unsigned; for a
  // signed division, x and c are the magnitudes' bounds except for the signed methods).
  bool applicable(Method method, const Division& d, uint64_t xmax, uint64_t c) {
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

  // x (up to xmax) divided by c >= 1, unsigned.
  Parts unsigned_divmod(DfgBuilder& b, ValueId x, uint64_t xmax, uint64_t c, Needs needs, Method method) {
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

  // Signed x / c and x % c from the floor residue of x's two's complement by
  // a = |c| (no |x|): r = rm, less a when x < 0 and rm != 0; q = (x - r) / c exactly.
  Parts floor_residue(DfgBuilder& b, ValueId x, const Division& d) {
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

 private:
  // An unsigned division by c = m * 2^k (m odd, c neither 1 nor a power of
  // two, c <= xmax); y = x >> k; q and r at widths qw and rw.
  struct Split {
    ValueId x = 0, y = 0;
    uint64_t xmax = 0, c = 0, m = 0, ymax = 0;
    unsigned k = 0, qw = 0, rw = 0;
  };

  Parts by_table(DfgBuilder& b, const Split& s, Needs needs) {
    Parts out;
    if (needs.q) out.q = table(b, s.x, s.qw, [&](uint64_t d) { return d <= s.xmax ? d / s.c : 0; });
    if (needs.r) out.r = table(b, s.x, s.rw, [&](uint64_t d) { return d <= s.xmax ? d % s.c : 0; });
    return out;
  }

  // y mod m by folding, and x mod c = {that, x's low k bits}.
  std::pair<ValueId, ValueId> residues(DfgBuilder& b, const Split& s) {
    const ValueId ry = build_residue(b, s.y, s.ymax, residue_planner(s.m));
    return {ry, s.k ? b.concat({ry, b.slice(s.x, 0, s.k)}) : ry};
  }

  Parts by_residue_inverse(DfgBuilder& b, const Split& s, Needs needs) {
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

  Parts by_reciprocal(DfgBuilder& b, const Split& s, Needs needs, bool r_by_folding) {
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

  static ValueId multiply_all(DfgBuilder& b, ValueId z, const std::vector<uint64_t>& factors) {
    for (uint64_t f : factors) z = b.op(Op::Mul, b.width(z), {z, b.constant(b.width(z), f)});
    return z;
  }

  Parts restoring(DfgBuilder& b, ValueId x, uint64_t xmax, uint64_t c) {
    const unsigned qw = width_for(xmax / c);
    Addend s{xmax, x};
    std::vector<ValueId> bits;  // most significant first
    double area = 0;
    for (unsigned i = qw; i-- > 0;) {
      const u128 t = u128{c} << i;
      if (t > s.max) {
        bits.push_back(b.constant(1, 0));
        continue;
      }
      const Step step = subtract_step(&b, s, static_cast<uint64_t>(t), area);
      bits.push_back(b.bnot(step.below));
      s = step.rest;
    }
    return {b.concat(bits), b.resize(s.v, width_for(c - 1))};
  }

  std::map<uint64_t, ResiduePlanner> planners_;
};

// Full-width results of the general case (c not 0, 1, -1, MIN or a power of two).
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

// The cheapest way (estimated area, then delay) among those that apply, or
// the one asked for when it applies.
Method choose(Lowering& low, const Division& d, Method asked) {
  const uint64_t half = uint64_t{1} << (d.w - 1);
  const uint64_t xmax = d.sgn && d.xmax >= half ? half : d.xmax;
  const uint64_t c = d.sgn ? as_signed_magnitude(d.c, d.w) : d.c;
  std::vector<Method> methods;
  for (Method m : kMethods)
    if (low.applicable(m, d, xmax, c)) methods.push_back(m);
  if (std::find(methods.begin(), methods.end(), asked) != methods.end()) return asked;
  Method best = methods.front();
  ArithmeticEstimate best_cost{kInfinity, 0, kInfinity};
  for (Method method : methods) {
    Dfg scratch;
    DfgBuilder b(scratch);
    Node in;
    in.kind = NodeKind::Input;
    in.width = d.w;
    const ValueId x = b.raw(in);
    const Parts p = build_general(low, b, x, d, method);
    std::vector<ValueId> roots;
    if (d.needs.q) roots.push_back(p.q);
    if (d.needs.r) roots.push_back(p.r);
    const ArithmeticEstimate e = estimate_arithmetic(scratch, roots, kTarget);
    if (std::tie(e.area, e.delay_ns) < std::tie(best_cost.area, best_cost.delay_ns)) {
      best = method;
      best_cost = e;
    }
  }
  return best;
}

// Divisors with a rule of their own: 0, 1, -1, MIN and powers of two.
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

// A bound on v's value from its structure (zero-extended, sliced, masked ...).
class Bounds {
 public:
  explicit Bounds(const Dfg& g) : g_(g) {}

  uint64_t max(ValueId v, unsigned depth = 0) {
    if (auto it = memo_.find(v); it != memo_.end()) return it->second;
    // A bound cut short by the depth limit is looser, still sound: memoised all the same.
    return memo_[v] = compute(v, depth);
  }

 private:
  uint64_t compute(ValueId v, unsigned depth) {
    const Node& n = g_.nodes[v];
    const uint64_t all = width_mask(n.width);
    if (n.kind == NodeKind::Constant) return n.constant & all;
    if (!n.is_op() || depth > 16) return all;
    auto sub = [&](size_t i) { return max(n.operands[i], depth + 1); };
    auto capped = [&](u128 x) { return x > all ? all : static_cast<uint64_t>(x); };
    switch (n.op) {
      case Op::ZExt: return sub(0);
      case Op::Slice: return std::min(all, sub(0) >> n.param);
      case Op::Concat: {
        u128 total = 0;
        for (size_t i = 0; i < n.operands.size(); ++i) total = (total << g_.nodes[n.operands[i]].width) | sub(i);
        return capped(total);
      }
      case Op::And: {
        uint64_t m = all;
        for (size_t i = 0; i < n.operands.size(); ++i) m = std::min(m, sub(i));
        return m;
      }
      case Op::Or: case Op::Xor: {
        uint64_t m = 0;
        for (size_t i = 0; i < n.operands.size(); ++i) m = std::max(m, sub(i));
        return width_mask(width_for(m)) & all;
      }
      case Op::Mux: return std::max(sub(1), sub(2));
      case Op::Rom: {
        uint64_t m = 0;
        for (uint64_t e : n.table) m = std::max(m, e & all);
        return m;
      }
      case Op::Popcount: case Op::Clz: case Op::Ctz: return std::min<uint64_t>(all, g_.nodes[n.operands[0]].width);
      case Op::Add: {
        u128 total = u128{sub(0)} + sub(1) + (n.operands.size() > 2 ? sub(2) : 0);
        return total > all ? all : static_cast<uint64_t>(total);
      }
      case Op::Mul: return capped(u128{sub(0)} * sub(1));
      default: return all;
    }
  }

  const Dfg& g_;
  std::map<ValueId, uint64_t> memo_;
};

class DivmodConstRewriter : public DfgRewriter {
 public:
  DivmodConstRewriter(const Dfg& g, Method method) : DfgRewriter(g), method_(method), bounds_(out_) {}

 protected:
  using Key = std::tuple<ValueId, ValueId, unsigned, bool>;  // dividend, divisor, width, signed (input nodes)

  // A Div or Mod whose divisor is constant or an operation of constants (the
  // builder folds those); others may still fold to a constant (x ^ x): rewrite() looks again.
  bool is_target(ValueId v) const {
    const Node& n = in_.nodes[v];
    return n.is_op() && (n.op == Op::Div || n.op == Op::Mod) && constant_valued_[n.operands[1]];
  }

  Key key_of(ValueId v) const {
    const Node& n = in_.nodes[v];
    return {n.operands[0], n.operands[1], n.width, n.sgn};
  }

  void prepare() override {
    // The builder folds every operation of constants: these map to Constant nodes.
    constant_valued_.assign(in_.nodes.size(), false);
    for (ValueId v = 0; v < in_.nodes.size(); ++v) {
      const Node& n = in_.nodes[v];
      bool all = n.kind == NodeKind::Constant || (n.is_op() && !n.operands.empty());
      for (ValueId o : n.operands) all = all && constant_valued_[o];
      constant_valued_[v] = all && n.kind != NodeKind::Input && n.kind != NodeKind::Config && n.kind != NodeKind::State;
    }
    for (ValueId v = 0; v < in_.nodes.size(); ++v) {
      if (!live_[v] || !is_target(v)) continue;
      Needs& needs = needs_[key_of(v)];
      (in_.nodes[v].op == Op::Div ? needs.q : needs.r) = true;
    }
  }

  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if (!(n.is_op() && (n.op == Op::Div || n.op == Op::Mod) && out_.is_constant(map(n.operands[1])))) return copy(v);
    const Key key = key_of(v);
    const bool div = n.op == Op::Div;
    Built& built = built_[key];
    std::optional<ValueId>& result = div ? built.q : built.r;
    if (!result) {  // both of a pair at the first, or this one alone when the divisor folded unforeseen
      Needs needs = needs_[key];
      (div ? needs.q : needs.r) = true;
      needs.q = needs.q && !built.q;
      needs.r = needs.r && !built.r;
      const Parts p = lower(key, needs);
      if (needs.q) built.q = p.q;
      if (needs.r) built.r = p.r;
    }
    return *result;
  }

 private:
  struct Built {
    std::optional<ValueId> q, r;
  };

  Parts lower(const Key& key, Needs needs) {
    const auto [x_in, c_in, w, sgn] = key;
    const ValueId x = map(x_in), c = map(c_in);
    Division d{out_.nodes[c].constant & width_mask(w), w, sgn, bounds_.max(x), needs};
    if (auto p = build_special(b_, x, d)) return *p;
    return build_general(lowering_, b_, x, d, choose(lowering_, d, method_));
  }

  Method method_;
  Bounds bounds_;
  Lowering lowering_;
  std::vector<bool> constant_valued_;
  std::map<Key, Needs> needs_;
  std::map<Key, Built> built_;
};

}  // namespace

unsigned csd_adders(uint64_t c, unsigned width) {
  const auto digits = shift_add_digits(c, width);
  if (digits.empty()) return 0;
  bool positive = false;
  for (const auto& [i, d] : digits) positive = positive || d > 0;
  return static_cast<unsigned>(digits.size()) - 1 + (positive ? 0 : 1);  // all terms negative: one negation more
}

uint64_t inverse_mod_pow2(uint64_t odd, unsigned width) {
  uint64_t x = odd;  // right to 3 bits; each Newton step doubles that
  for (int i = 0; i < 5; ++i) x *= 2 - odd * x;
  return x & width_mask(width);
}

ArithmeticEstimate estimate_arithmetic(const Dfg& g, const std::vector<ValueId>& roots, Target t) {
  std::vector<bool> needed(g.nodes.size(), false);
  std::vector<ValueId> work(roots.begin(), roots.end());
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    if (needed[v]) continue;
    needed[v] = true;
    for (ValueId o : g.nodes[v].operands) work.push_back(o);
  }
  ArithmeticEstimate total;
  std::vector<double> arrival(g.nodes.size(), 0);
  std::vector<unsigned> depth(g.nodes.size(), 0);
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!needed[v] || !g.is_op(v)) continue;
    double in_arrival = 0;
    unsigned in_depth = 0;
    for (ValueId o : g.nodes[v].operands) {
      in_arrival = std::max(in_arrival, arrival[o]);
      in_depth = std::max(in_depth, depth[o]);
    }
    const NodeEstimate e = g.is_logic(v) ? node_estimate(g, v, t) : NodeEstimate{};
    total.area += e.area;
    arrival[v] = in_arrival + e.delay_ns;
    depth[v] = in_depth + e.adders;
    total.delay_ns = std::max(total.delay_ns, arrival[v]);
    total.adder_depth = std::max(total.adder_depth, depth[v]);
  }
  return total;
}

ArithmeticEstimate estimate_arithmetic(const Dfg& g, Target t) {
  std::vector<ValueId> roots;
  for (const DfgPort& p : g.outputs) roots.push_back(p.value);
  if (g.loop) {
    roots.insert(roots.end(), g.loop->next.begin(), g.loop->next.end());
    roots.insert(roots.end(), g.loop->init.begin(), g.loop->init.end());
    roots.push_back(g.loop->cond);
  }
  return estimate_arithmetic(g, roots, t);
}

Dfg divmod_const_pass(const Dfg& g, DivmodMethod method) { return cleanup(DivmodConstRewriter(g, method).run()); }

Dfg divmod_const_pass(const Dfg& g) { return divmod_const_pass(g, DivmodMethod::Cheapest); }

}  // namespace polydat::hls
