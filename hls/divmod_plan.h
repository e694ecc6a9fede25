// Internal to hls/: the number theory and the plans of divmod_const_pass, with
// no graph: bounds, widths and estimated areas, which hls/divmod_lowering.h builds.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "hls/divmod_cost.h"

namespace polydat::hls::divmod {

using u128 = unsigned __int128;
inline constexpr uint64_t kAllOnes = ~uint64_t{0};

// ---------------------------------------------------------------- numbers

inline unsigned width_for(uint64_t max) { return std::max(1u, static_cast<unsigned>(std::bit_width(max))); }
inline bool is_pow2(uint64_t v) { return std::has_single_bit(v); }
inline unsigned log2_exact(uint64_t pow2) { return static_cast<unsigned>(std::countr_zero(pow2)); }

// |c| of a w-bit two's complement c.
uint64_t as_signed_magnitude(uint64_t c, unsigned w);

// ---------------------------------------------------------------- sums and steps

// One adder of a sum: its operands by index (the addends first, then each
// adder's sum in order), at `width` bits.
struct SumStep {
  size_t x = 0, y = 0;
  std::optional<size_t> carry;  // a one-bit addend as the carry in
  unsigned width = 1;
};

struct SumPlan {
  std::vector<SumStep> steps;
  std::optional<size_t> result;  // none when every addend is 0
  uint64_t max = 0;              // the sum's bound
};

// Sums addends (by their bounds) smallest first, so the adders stay as narrow
// as the partial sums; one-bit addends ride along as carries in. Adds the
// adders' area to `area`.
SumPlan plan_sum(const std::vector<uint64_t>& maxes, double& area);

// s >= t ? s - t : s for s up to smax, through one carry chain whose borrow
// out is the test: the result's bound. Adds its area to `area`.
uint64_t plan_subtract_step(uint64_t smax, uint64_t t, double& area);

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
  explicit ResiduePlanner(uint64_t m);

  uint64_t modulus() const { return m_; }
  unsigned residue_width() const { return rw_; }

  // Never without a way: below 16m the steps apply, and from 16m up the
  // layout with the low rw bits free brings the sum below 3m.
  const ResiduePlan& plan(uint64_t vmax);

  // The floor residue (in [0, m)) of an n-bit two's complement value: its
  // sign bit weighs -2^(n-1), which modulo m is a constant gated by the bit.
  const ResiduePlan& plan_signed(unsigned n);

  // The addend for bits [pos, pos + len) of values up to vmax: wiring when
  // its weight is a power of two, else a table (at most 4 index bits).
  std::optional<Term> term(uint64_t vmax, unsigned pos, unsigned len) const;

  // A table term's entry for chunk value d.
  uint64_t entry(const Term& t, uint64_t d) const;

  double fix_area(uint64_t vmax, Fix fix) const;

 private:
  // best becomes `fold` (of this area) and then the plan for its sum, when that costs less.
  void take_if_cheaper(const Fold& fold, double area, ResiduePlan& best);
  // The adder tree's area and the sum's bound; false when it would pass 64 bits.
  bool sum_of(Fold& fold, double& area) const;
  std::vector<std::vector<Term>> layouts(uint64_t vmax) const;

  uint64_t m_;
  unsigned rw_, order_;
  std::map<uint64_t, ResiduePlan> memo_;
  std::map<unsigned, ResiduePlan> signed_memo_;
};

// ---------------------------------------------------------------- the quotient

// An exact quotient z / m (m odd) modulo 2^n: (+-z) times these factors,
// whose product is m's inverse (or its negation); sparse factors where m or
// its divisors are 2^a +- 1, else the inverse's own digits.
struct InversePlan {
  std::vector<uint64_t> factors;
  bool minus_z = false;  // multiply -z (the factors' product is then the inverse's negation, or the result is)
};

// The factors for (z / m) * (negated ? -1 : 1) mod 2^n; z_area[1]: what
// computing -z instead of z costs (z_area[0]), so a negation lands where it is cheapest.
InversePlan plan_inverse(uint64_t m, unsigned n, const double (&z_area)[2], bool negated);

// floor(y / m) = floor(y * M / 2^shift) for every y up to its bound, with the product in 64 bits.
struct Reciprocal {
  uint64_t multiplier = 0;
  unsigned shift = 0, product_width = 0;
};

std::optional<Reciprocal> plan_reciprocal(uint64_t ymax, uint64_t m);

}  // namespace polydat::hls::divmod
