#include "hls/divmod_plan.h"

#include <limits>
#include <stdexcept>
#include <utility>

#include "hls/dfg_eval.h"
#include "hls/divmod_const_pass.h"

namespace polydat::hls {

uint64_t inverse_mod_pow2(uint64_t odd, unsigned width) {
  uint64_t x = odd;  // right to 3 bits; each Newton step doubles that
  for (int i = 0; i < 5; ++i) x *= 2 - odd * x;
  return x & width_mask(width);
}

namespace divmod {

namespace {

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

}  // namespace

uint64_t as_signed_magnitude(uint64_t c, unsigned w) {
  const uint64_t sign = uint64_t{1} << (w - 1);
  return (c & sign) ? (uint64_t{0} - c) & width_mask(w) : c;
}

SumPlan plan_sum(const std::vector<uint64_t>& maxes, double& area) {
  struct Slot {
    uint64_t max = 0;
    size_t index = 0;
  };
  std::vector<Slot> wide, carries;
  for (size_t i = 0; i < maxes.size(); ++i) {
    if (maxes[i] == 1) carries.push_back(Slot{1, i});
    else if (maxes[i] > 1) wide.push_back(Slot{maxes[i], i});
  }
  auto take_smallest = [&] {
    auto it = std::min_element(wide.begin(), wide.end(), [](const Slot& a, const Slot& c) { return a.max < c.max; });
    const Slot a = *it;
    wide.erase(it);
    return a;
  };
  SumPlan plan;
  while (wide.size() + carries.size() > 1) {
    if (wide.size() < 2) {
      wide.push_back(carries.back());
      carries.pop_back();
      continue;
    }
    const Slot x = take_smallest(), y = take_smallest();
    std::optional<Slot> carry;
    if (!carries.empty()) {
      carry = carries.back();
      carries.pop_back();
    }
    const u128 max = u128{x.max} + y.max + (carry ? 1 : 0);
    if (max > kAllOnes) throw std::logic_error("divmod_const_pass: a sum wider than 64 bits");
    const Slot s{static_cast<uint64_t>(max), maxes.size() + plan.steps.size()};
    const unsigned w = width_for(s.max);
    area += area_of(Op::Add, w);
    SumStep step{x.index, y.index, std::nullopt, w};
    if (carry) step.carry = carry->index;
    plan.steps.push_back(step);
    wide.push_back(s);
  }
  const std::vector<Slot>& last = wide.empty() ? carries : wide;
  if (!last.empty()) {
    plan.result = last[0].index;
    plan.max = last[0].max;
  }
  return plan;
}

uint64_t plan_subtract_step(uint64_t smax, uint64_t t, double& area) {
  const unsigned w = width_for(smax);
  const uint64_t rest = std::max(std::min(smax, t - 1), smax - t);
  area += area_of(Op::Mux, width_for(rest));
  if (w < 64) area += area_of(Op::Sub, w + 1, true);
  else area += area_of(Op::Sub, 64, true) + area_of(Op::Lt, 64, true);  // a comparison beside the subtraction
  return rest;
}

// ---------------------------------------------------------------- the residue modulo an odd m

ResiduePlanner::ResiduePlanner(uint64_t m) : m_(m), rw_(width_for(m - 1)), order_(order_of_two(m, 64)) {}

const ResiduePlan& ResiduePlanner::plan(uint64_t vmax) {
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
    take_if_cheaper(fold, area, best);
  }
  return memo_[vmax] = best;
}

const ResiduePlan& ResiduePlanner::plan_signed(unsigned n) {
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
    take_if_cheaper(fold, area, best);
  }
  return signed_memo_[n] = best;
}

void ResiduePlanner::take_if_cheaper(const Fold& fold, double area, ResiduePlan& best) {
  const ResiduePlan& rest = plan(fold.out_max);
  if (area + rest.area < best.area - 1e-9) {
    best.folds = {fold};
    best.folds.insert(best.folds.end(), rest.folds.begin(), rest.folds.end());
    best.fix = rest.fix;
    best.area = area + rest.area;
  }
}

std::optional<Term> ResiduePlanner::term(uint64_t vmax, unsigned pos, unsigned len) const {
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

uint64_t ResiduePlanner::entry(const Term& t, uint64_t d) const {
  return d > t.chunk_max ? 0 : static_cast<uint64_t>((u128{d} * t.weight) % m_);
}

double ResiduePlanner::fix_area(uint64_t vmax, Fix fix) const {
  switch (fix) {
    case Fix::None: return vmax < m_ ? 0 : kInfinity;
    case Fix::Table: return width_for(vmax) <= 8 ? rom_area(rw_, width_for(vmax)) : kInfinity;
    case Fix::Steps: {
      const uint64_t k = vmax / m_;
      if (k == 0 || k > 15) return kInfinity;
      double area = 0;
      uint64_t smax = vmax;
      for (unsigned i = static_cast<unsigned>(std::bit_width(k)); i-- > 0;)
        if ((m_ << i) <= smax) smax = plan_subtract_step(smax, m_ << i, area);
      return area;
    }
  }
  return kInfinity;
}

bool ResiduePlanner::sum_of(Fold& fold, double& area) const {
  u128 total = 0;
  std::vector<uint64_t> maxes;
  for (const Term& t : fold.terms) {
    total += t.max;
    maxes.push_back(t.max);
    if (t.table) area += rom_area(width_for(t.max), t.len);
  }
  if (total > kAllOnes) return false;
  fold.out_max = static_cast<uint64_t>(total);
  plan_sum(maxes, area);
  return true;
}

std::vector<std::vector<Term>> ResiduePlanner::layouts(uint64_t vmax) const {
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

// ---------------------------------------------------------------- the quotient

namespace {

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

}  // namespace

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

}  // namespace divmod

}  // namespace polydat::hls
