// Internal to hls/: the circuits of divmod_const_pass, built through a
// DfgBuilder by the plans of hls/divmod_plan.h: residues by folding, exact
// quotients by inverses, reciprocal multiplies, restoring steps and tables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "hls/dfg_builder.h"
#include "hls/divmod_const_pass.h"
#include "hls/divmod_plan.h"

namespace polydat::hls::divmod {

struct Needs {
  bool q = false, r = false;
};

// Narrow results: q at width_for(its bound), r at width_for(its bound).
struct Parts {
  ValueId q = 0, r = 0;
};

using Method = DivmodMethod;

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
  ResiduePlanner& residue_planner(uint64_t m);

  // Whether the method can build x / c and x % c for x up to xmax (unsigned; for a
  // signed division, x and c are the magnitudes' bounds except for the signed methods).
  bool applicable(Method method, const Division& d, uint64_t xmax, uint64_t c);

  // x (up to xmax) divided by c >= 1, unsigned.
  Parts unsigned_divmod(DfgBuilder& b, ValueId x, uint64_t xmax, uint64_t c, Needs needs, Method method);

  // Signed x / c and x % c from the floor residue of x's two's complement by
  // a = |c| (no |x|): r = rm, less a when x < 0 and rm != 0; q = (x - r) / c exactly.
  Parts floor_residue(DfgBuilder& b, ValueId x, const Division& d);

 private:
  // An unsigned division by c = m * 2^k (m odd, c neither 1 nor a power of
  // two, c <= xmax); y = x >> k; q and r at widths qw and rw.
  struct Split {
    ValueId x = 0, y = 0;
    uint64_t xmax = 0, c = 0, m = 0, ymax = 0;
    unsigned k = 0, qw = 0, rw = 0;
  };

  Parts by_table(DfgBuilder& b, const Split& s, Needs needs);
  // y mod m by folding, and x mod c = {that, x's low k bits}.
  std::pair<ValueId, ValueId> residues(DfgBuilder& b, const Split& s);
  Parts by_residue_inverse(DfgBuilder& b, const Split& s, Needs needs);
  Parts by_reciprocal(DfgBuilder& b, const Split& s, Needs needs, bool r_by_folding);
  static ValueId multiply_all(DfgBuilder& b, ValueId z, const std::vector<uint64_t>& factors);
  Parts restoring(DfgBuilder& b, ValueId x, uint64_t xmax, uint64_t c);

  std::map<uint64_t, ResiduePlanner> planners_;
};

// Full-width results of the general case (c not 0, 1, -1, MIN or a power of two).
Parts build_general(Lowering& low, DfgBuilder& b, ValueId x, const Division& d, Method method);

// Divisors with a rule of their own: 0, 1, -1, MIN and powers of two.
std::optional<Parts> build_special(DfgBuilder& b, ValueId x, const Division& d);

}  // namespace polydat::hls::divmod
