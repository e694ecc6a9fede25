// divmod_const_pass: every Div and Mod by a constant, unsigned and signed, at
// widths 1 to 64, computes what the original graph computes (eval_node's
// RISC-V semantics): exhaustively up to 16 bits, on edge values, values next
// to multiples of the divisor and random values above; no Div or Mod by a
// constant is left and every multiplication made has a constant operand. The
// kernels that divide by constants keep their outputs, values worked out by
// hand come out, the estimates are reported, and the harness is shown to
// catch planted faults.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <random>
#include <set>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/csd.h"
#include "hls/divmod_const_pass.h"
#include "hls_support.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {



struct Wanted {
  bool div = true, mod = true;
};

// x: the low w bits of a port; outputs x / c and/or x % c at width w, zero-extended to the port's width.
Dfg division(unsigned w, uint64_t c, bool sgn, Wanted want = {}) {
  Dfg g;
  g.name = "division";
  DfgBuilder b(g);
  const unsigned pb = port_bits(w);
  const ValueId port = add_input(g, b, "x", pb);
  const ValueId x = b.resize(port, w), k = b.constant(w, c);
  if (want.div) g.outputs.push_back(DfgPort{"q", port_type(pb), b.zext(b.op(Op::Div, w, {x, k}, sgn), pb)});
  if (want.mod) g.outputs.push_back(DfgPort{"r", port_type(pb), b.zext(b.op(Op::Mod, w, {x, k}, sgn), pb)});
  classify_regions(g);
  return g;
}

// Every value up to 16 bits; else edge values, values next to multiples of c
// (and of -c), and random ones. The bits above w are random: the pass must ignore them.
std::vector<Sample> values_for(unsigned w, uint64_t c, size_t random, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint64_t m = width_mask(w);
  std::vector<uint64_t> xs;
  if (w <= 16) {
    for (uint64_t x = 0; x <= m; ++x) xs.push_back(x);
  } else {
    xs = edge_values(w, random, seed);
    const uint64_t magnitude = c == 0 ? 1 : std::min(c, (uint64_t{0} - c) & m);
    for (uint64_t k : {uint64_t{1}, uint64_t{2}, uint64_t{3}, m / std::max<uint64_t>(magnitude, 1), rng() & m, rng() & m})
      for (uint64_t d : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) {
        xs.push_back((k * c + d) & m);
        xs.push_back((uint64_t{0} - k * c + d) & m);
      }
  }
  std::vector<Sample> out;
  for (uint64_t x : xs) {
    const uint64_t above = w >= 64 ? 0 : (rng() << w) & width_mask(port_bits(w));
    out.push_back(Sample{{x | above}, {}});
  }
  return out;
}

size_t count_const_divisions(const Dfg& g) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    n += live[v] && g.is_op(v) && (g.nodes[v].op == Op::Div || g.nodes[v].op == Op::Mod) && g.constant_rhs(v);
  return n;
}

// A multiplication whose operands are both variables.
size_t count_variable_products(const Dfg& g) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    const Node& node = g.nodes[v];
    if (live[v] && g.is_op(v) && node.op == Op::Mul && !g.is_constant(node.operands[0]) && !g.is_constant(node.operands[1]))
      ++n;
  }
  return n;
}

const std::initializer_list<DivmodMethod> kCheapest = {DivmodMethod::Cheapest};
const std::initializer_list<DivmodMethod> kEveryMethod = {
    DivmodMethod::Cheapest,   DivmodMethod::Table,         DivmodMethod::Restoring,   DivmodMethod::ResidueInverse,
    DivmodMethod::Reciprocal, DivmodMethod::ReciprocalResidue, DivmodMethod::SignedTable, DivmodMethod::FloorResidue};

// The pass on x / c and x % c (both, either) at width w, by each method
// asked for: same outputs, no division left. The cheapest way is tried with
// the quotient alone, the remainder alone and both, the others with both
// (the same code, less of it built). A method that does not apply gives the
// cheapest one's graph again: each distinct graph is evaluated once.
void check_division(unsigned w, uint64_t c, bool sgn, std::initializer_list<DivmodMethod> methods = {DivmodMethod::Cheapest},
                    size_t random = 300, uint64_t seed = 1) {
  for (Wanted want : {Wanted{true, true}, Wanted{true, false}, Wanted{false, true}}) {
    const Dfg g = division(w, c, sgn, want);
    const std::vector<Sample> samples = values_for(w, c, random, seed + c);
    std::set<std::string> seen;
    for (DivmodMethod method : methods) {
      if (method != DivmodMethod::Cheapest && !(want.div && want.mod)) continue;
      CAPTURE(w);
      CAPTURE(c);
      CAPTURE(sgn);
      CAPTURE(static_cast<int>(method));
      CAPTURE(want.div);
      CAPTURE(want.mod);
      const Dfg after = divmod_const_pass(g, method);
      if (!seen.insert(dump(after)).second) continue;
      const auto rules = check_dfg(after);
      REQUIRE_MESSAGE(rules.empty(), rules.front() << "\n" << dump(after));
      CHECK(count_const_divisions(after) == 0);
      CHECK(count_variable_products(after) == 0);
      const auto diffs = output_differences(g, after, samples);
      CHECK_MESSAGE(diffs.empty(), join(diffs) << "\n" << dump(after));
    }
  }
}

double area_of_div(unsigned w) { return op_cost(Target::Ice40, Op::Mod, w, true).area; }

ArithmeticEstimate estimate_after(unsigned w, uint64_t c, bool sgn, Wanted want) {
  return estimate_arithmetic(divmod_const_pass(division(w, c, sgn, want)));
}

}  // namespace

TEST_SUITE("divmod const") {

TEST_CASE("the number helpers against their definitions") {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t odd = rng() | 1;
    const unsigned w = 1 + static_cast<unsigned>(rng() % 64);
    CHECK(((odd * inverse_mod_pow2(odd, w)) & width_mask(w)) == 1);
  }
  // Canonical signed digits by hand: 7 = 8 - 1, 0xF0F = 0x1000 - 0x100 + 0x10 - 1, 2^n - 1 at n bits is -1.
  CHECK(csd_digits(7, 8).size() == 2);
  CHECK(csd_digits(0xF0F, 16).size() == 4);
  CHECK(csd_digits(0xFF, 8).size() == 1);
  CHECK(csd_adders(0xFF, 8) == 1);  // x * -1: a negation
  CHECK(csd_digits(0, 8).size() == 0);
  CHECK(csd_adders(64, 8) == 0);  // a shift
  CHECK(csd_adders(5, 8) == 1);
  // 1/3 mod 2^64 = 0xAAAA...AB = 2^64 - (1 + 4 + ... + 4^31): 32 negative digits (2^64 drops), 31 adders and a negation.
  CHECK(csd_digits(0xAAAAAAAAAAAAAAABull, 64).size() == 32);
  CHECK(csd_adders(0xAAAAAAAAAAAAAAABull, 64) == 32);
  // Against the fewest signed digits found by brute force over every signed-digit string (8 bits, digits -1, 0, 1).
  std::vector<unsigned> fewest(256, 99);
  for (int code = 0; code < 6561 * 3; ++code) {  // 3^9: nine digits, the top one may carry out of 8 bits
    int64_t value = 0;
    unsigned digits = 0;
    int rest = code;
    for (int i = 0; i < 9; ++i, rest /= 3) {
      const int d = rest % 3 - 1;
      value += d * (int64_t{1} << i);
      digits += d != 0;
    }
    if (value < 0 || value > 255) continue;
    fewest[static_cast<size_t>(value)] = std::min(fewest[static_cast<size_t>(value)], digits);
  }
  for (uint64_t c = 0; c < 256; ++c) {
    CAPTURE(c);
    // Modulo 2^8 a digit at 2^8 drops: c or c - 256 (its negative form), whichever is fewer.
    const unsigned as_negative = c == 0 ? 0 : fewest[256 - c];
    CHECK(csd_digits(c, 8).size() == std::min(fewest[c], as_negative));
  }
}

TEST_CASE("8 bits: every divisor, signed and unsigned, by every method, exhaustively") {
  for (bool sgn : {false, true})
    for (uint64_t c = 0; c < 256; ++c) check_division(8, c, sgn, kEveryMethod);
}

TEST_CASE("widths 1 to 16: a spread of divisors, exhaustively") {
  for (unsigned w = 1; w <= 16; ++w) {
    const uint64_t m = width_mask(w), min = uint64_t{1} << (w - 1);
    std::vector<uint64_t> cs = {0, 1, 2, 3, 5, 6, 7, 10, 12, m, m - 1, min, min + 1, min - 1, m / 3};
    for (uint64_t c : cs)
      for (bool sgn : {false, true}) check_division(w, c & m, sgn, w <= 12 ? kEveryMethod : kCheapest);
  }
}

TEST_CASE("16 bits: the divisors that matter, exhaustively") {
  std::vector<uint64_t> cs = {3, 5, 7, 9, 10, 11, 13, 15, 17, 24, 25, 51, 60, 100, 125, 127, 255, 257, 641, 1000,
                              1001, 3600, 10000, 12345, 0x5555, 0x7FFF, 0x8000, 0x8001, 0xAAAA, 0xFFFE, 0xFFFF};
  for (unsigned k = 1; k < 16; k += 2) {
    cs.push_back(uint64_t{1} << k);
    cs.push_back((uint64_t{1} << k) - 1);
    cs.push_back((uint64_t{1} << k) + 1);
  }
  for (uint64_t c : cs)
    for (bool sgn : {false, true}) check_division(16, c, sgn);
  // Each method on its own (where it applies), on a few of them.
  for (uint64_t c : {3, 10, 125, 641, 1000, 0x7FFF, 0xAAAA, 0xFFF9})
    for (bool sgn : {false, true}) check_division(16, c, sgn, kEveryMethod);
}

TEST_CASE("32 and 64 bits: edge, near-multiple and random values") {
  const std::vector<uint64_t> cs = {1000, 10, 7, 3, 5, 100, 125, 641, 1000000007, 0xFFFFFFFF, 0x100000001,
                                    0x9E3779B97F4A7C15ull, uint64_t{1} << 63, uint64_t{1} << 31, (uint64_t{1} << 32) - 5,
                                    0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFC18ull /* -1000 */,
                                    0xFFFFFFFFFFFFFFF9ull /* -7 */, 0x8000000000000001ull, 6700417, 274177};
  for (unsigned w : {32u, 64u})
    for (uint64_t c : cs)
      for (bool sgn : {false, true}) check_division(w, c & width_mask(w), sgn, kEveryMethod, 400, w);
}

TEST_CASE("every width from 17 to 63, a spread of divisors") {
  std::mt19937_64 rng(17);
  for (unsigned w = 17; w < 64; ++w) {
    const uint64_t m = width_mask(w), min = uint64_t{1} << (w - 1);
    for (uint64_t c : {uint64_t{3}, uint64_t{7}, uint64_t{10}, uint64_t{1000}, m, min, min + 1, m / 3, rng() & m, (rng() & m) | 1})
      for (bool sgn : {false, true})
        check_division(w, c & m, sgn, {DivmodMethod::Cheapest, DivmodMethod::ResidueInverse, DivmodMethod::FloorResidue},
                       100, w);
  }
}

TEST_CASE("values worked out by hand") {
  // u64: 12345678901234567890 / 1000 and % 1000.
  const Dfg u = divmod_const_pass(division(64, 1000, false));
  auto out = *eval_outputs(u, {12345678901234567890ull}, {});
  CHECK(out[0] == 12345678901234567ull);
  CHECK(out[1] == 890);
  out = *eval_outputs(divmod_const_pass(division(64, 10, false)), {0xFFFFFFFFFFFFFFFFull}, {});
  CHECK(out[0] == 1844674407370955161ull);
  CHECK(out[1] == 5);
  // i64: -1234567 / 1000 = -1234 (toward zero), % 1000 = -567 (the dividend's sign).
  const Dfg s = divmod_const_pass(division(64, 1000, true));
  out = *eval_outputs(s, {static_cast<uint64_t>(int64_t{-1234567})}, {});
  CHECK(static_cast<int64_t>(out[0]) == -1234);
  CHECK(static_cast<int64_t>(out[1]) == -567);
  // i32: MIN / 7 = -306783378, MIN % 7 = -2; MIN / -1 = MIN, MIN % -1 = 0; MIN / MIN = 1.
  auto i32 = [](uint64_t c, uint64_t x) {
    auto r = *eval_outputs(divmod_const_pass(division(32, c, true)), {x}, {});
    return std::make_pair(static_cast<int32_t>(r[0]), static_cast<int32_t>(r[1]));
  };
  CHECK(i32(7, 0x80000000) == std::make_pair(-306783378, -2));
  CHECK(i32(0xFFFFFFFF, 0x80000000) == std::make_pair(INT32_MIN, 0));
  CHECK(i32(0x80000000, 0x80000000) == std::make_pair(1, 0));
  CHECK(i32(0x80000000, 0x80000001) == std::make_pair(0, INT32_MIN + 1));
  CHECK(i32(0xFFFFFFF8, 0xFFFFFFF9) == std::make_pair(0, -7));  // -7 / -8
  CHECK(i32(4, 0xFFFFFFF9) == std::make_pair(-1, -3));          // -7 / 4
  // x / 0 = all ones, x % 0 = x.
  out = *eval_outputs(divmod_const_pass(division(16, 0, true)), {1234}, {});
  CHECK(out[0] == 0xFFFF);
  CHECK(out[1] == 1234);
}

TEST_CASE("random graphs keep their outputs and lose every division by a constant") {
  size_t divisions = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    divisions += count_const_divisions(g);
    const Dfg after = divmod_const_pass(g);
    const auto problems = pass_problems(g, after, 100, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << dump(g));
    CHECK_MESSAGE(count_const_divisions(after) == 0, dump(g) << dump(after));
  }
  CHECK(divisions > 100);  // the graphs did divide by constants
}

TEST_CASE("kernels that divide by constants keep their outputs") {
  for (const char* text : {"input x: u64\n(a, b, c) := mixed_radix(x, 10, 100, 0)\n",
                           "input x: u64\n(a, b, c, d) := mixed_radix(x, 1000, 60, 24, 0)\n",
                           "input x: u64\nr := hash_range(x, 1000)\n",
                           "input x: u64\nr := hash(x) % 10\n",
                           "input x: u32\nq := x / 7\nr := x % 7\n",
                           "input x: i64\nq := x / 1000\nr := x % -10\n",
                           "input x: u8\ny := (x as u64) / 1000 + (x as u64) % 7\n"}) {
    const std::string kernel = text;
    CAPTURE(kernel);
    const Dfg g = dfg_from(text);
    CHECK(count_const_divisions(g) > 0);
    const Dfg after = divmod_const_pass(g);
    const auto problems = pass_problems(g, after, 2000, 3);
    CHECK_MESSAGE(problems.empty(), join(problems));
    CHECK(count_const_divisions(after) == 0);
    const ArithmeticEstimate b = estimate_arithmetic(g), a = estimate_arithmetic(after);
    MESSAGE(fmt::format("{}-> {:.0f} LUT4, {} adder levels (before: {:.0f} LUT4, {} levels)", text, a.area,
                        a.adder_depth, b.area, b.adder_depth));
  }
}

TEST_CASE("a quotient and a remainder of one dividend share the work") {
  for (auto [w, c] : {std::pair{64u, uint64_t{10}}, std::pair{64u, uint64_t{1000}}, std::pair{32u, uint64_t{7}}}) {
    CAPTURE(c);
    const double both = estimate_after(w, c, false, {true, true}).area;
    const double q = estimate_after(w, c, false, {true, false}).area;
    const double r = estimate_after(w, c, false, {false, true}).area;
    CHECK(both < q + r);
    CHECK(both <= q + r - 0.5 * std::min(q, r));  // at least half the smaller one is shared
  }
}

TEST_CASE("a dividend known to be narrow gets a narrow circuit") {
  const Dfg wide = dfg_from("input x: u64\ny := x % 1000\n");
  const Dfg narrow = dfg_from("input x: u16\ny := (x as u64) % 1000\n");
  const Dfg a = divmod_const_pass(wide), b = divmod_const_pass(narrow);
  CHECK(pass_problems(narrow, b).empty());
  CHECK(estimate_arithmetic(b).area < estimate_arithmetic(a).area / 2);
}

TEST_CASE("the estimates: far below a divider array, reported") {
  struct Case {
    const char* what;
    unsigned w;
    uint64_t c;
    Wanted want;
  };
  for (const Case& k : {Case{"u64 x % 1000", 64, 1000, {false, true}}, Case{"u64 x / 1000", 64, 1000, {true, false}},
                        Case{"u64 x / 1000 and x % 1000", 64, 1000, {true, true}},
                        Case{"u64 x % 10", 64, 10, {false, true}}, Case{"u64 x / 10", 64, 10, {true, false}},
                        Case{"u32 x % 7", 32, 7, {false, true}}, Case{"u32 x / 7", 32, 7, {true, false}},
                        Case{"i64 x % 1000", 64, 1000, {false, true}}}) {
    const Dfg before = division(k.w, k.c, k.w == 64 && std::string(k.what).starts_with("i"), k.want);
    const Dfg after = divmod_const_pass(before);
    const ArithmeticEstimate b = estimate_arithmetic(before), a = estimate_arithmetic(after);
    MESSAGE(fmt::format("{}: {:.0f} LUT4, {} adder levels, {:.1f} ns (a divider: {:.0f} LUT4, {:.0f} ns); {} Roms, "
                        "{} adders, {} multiplications by constants",
                        k.what, a.area, a.adder_depth, a.delay_ns, b.area, b.delay_ns, count_live(after, Op::Rom),
                        count_live(after, Op::Add) + count_live(after, Op::Sub), count_live(after, Op::Mul)));
    CHECK(count_const_divisions(after) == 0);
    CHECK(a.area < 0.25 * area_of_div(k.w) * (k.want.div && k.want.mod ? 2 : 1));
  }
  // The expert's hand-built u64 x % 1000 is ~250 logic cells: within 20 % of it.
  const ArithmeticEstimate mod1000 = estimate_after(64, 1000, false, {false, true});
  CHECK(mod1000.area < 300);
}

TEST_CASE("the harness catches planted faults") {
  // A residue table entry off by one: exhaustive 16-bit samples find it.
  const Dfg g = division(16, 1000, false, {false, true});
  const Dfg good = divmod_const_pass(g);
  REQUIRE(pass_problems(g, good).empty());
  Dfg wrong_table = good;
  bool planted = false;
  for (Node& n : wrong_table.nodes)
    if (!planted && n.is_op() && n.op == Op::Rom) {
      n.table[3] ^= 1;
      planted = true;
    }
  REQUIRE(planted);
  CHECK_FALSE(pass_problems(g, wrong_table).empty());
  // A correction threshold off by one (125 -> 126 in the last step).
  Dfg wrong_step = good;
  planted = false;
  for (ValueId v = 0; v < wrong_step.nodes.size(); ++v) {
    Node& n = wrong_step.nodes[v];
    if (n.is_op() && n.op == Op::Sub && wrong_step.is_constant(n.operands[1])) {
      wrong_step.nodes[n.operands[1]].constant += 1;
      planted = true;
      break;
    }
  }
  REQUIRE(planted);
  CHECK_FALSE(pass_problems(g, wrong_step).empty());
  // A quotient whose inverse factor is wrong in one bit, at 64 bits (edge and random values).
  const Dfg q64 = division(64, 1000, false, {true, false});
  Dfg wrong_inverse = divmod_const_pass(q64);
  REQUIRE(pass_problems(q64, wrong_inverse).empty());
  planted = false;
  for (Node& n : wrong_inverse.nodes)
    if (!planted && n.is_op() && n.op == Op::Mul) {
      for (ValueId o : n.operands)
        if (wrong_inverse.is_constant(o)) wrong_inverse.nodes[o].constant ^= uint64_t{1} << 40;
      planted = true;
    }
  REQUIRE(planted);
  CHECK_FALSE(pass_problems(q64, wrong_inverse).empty());
  // A signed fix-up that forgets the remainder's sign: only negative dividends show it.
  const Dfg s = division(16, 7, true, {false, true});
  Dfg unsigned_instead = s;
  for (Node& n : unsigned_instead.nodes)
    if (n.is_op() && n.op == Op::Mod) n.sgn = false;
  CHECK_FALSE(pass_problems(s, divmod_const_pass(unsigned_instead)).empty());
}

}  // TEST_SUITE
