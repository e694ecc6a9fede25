// mul_const_pass: a multiplication by a constant becomes shift-and-add over the
// constant's digits. Checked against C++'s own wrapping multiplication (not the
// DFG's Mul): every 8-bit constant times every 8-bit value, with and without
// carry cuts; the generators' 64-bit constants against edge and random values.
// The digit choice (binary when no longer than signed digits) and the way
// negative digits are summed (~x terms when few, P - N apart when many) are
// worked out by hand.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <random>

#include "hls/carry_cuts.h"
#include "hls/csd.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"
#include "hls/mul_const_pass.h"
#include "hls/narrow_pass.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

Dfg lowered(const std::string& text, const CarryCuts& cuts) { return mul_const_pass(cleanup(dfg_from(text)), cuts); }

uint64_t output(const Dfg& g, uint64_t x) {
  const auto out = eval_outputs(g, {x}, {});
  REQUIRE(out.has_value());
  return out->at(0);
}

// The bits of the input port that Not nodes invert (operands that are the input, through wiring).
size_t inverted_input_bits(const Dfg& g) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!live[v] || !g.nodes[v].is_op() || g.nodes[v].op != Op::Not) continue;
    const auto from = through_wiring(g, g.nodes[v].operands[0]);
    if (from.size() == 1 && g.nodes[from[0]].kind == NodeKind::Input) n += g.nodes[v].width;
  }
  return n;
}

}  // namespace

TEST_SUITE("mul const") {

TEST_CASE("the digits summed: binary when no longer than the signed digits, else canonical signed digits") {
  using Digits = std::vector<std::pair<unsigned, int>>;
  CHECK(shift_add_digits(3, 8) == Digits{{0, 1}, {1, 1}});   // 4 - 1 is no shorter: x + 2x
  CHECK(shift_add_digits(5, 8) == Digits{{0, 1}, {2, 1}});
  CHECK(shift_add_digits(7, 8) == Digits{{0, -1}, {3, 1}});  // 8 - 1: two terms, not three
  CHECK(shift_add_digits(0xF0, 8) == Digits{{4, -1}});       // 256 - 16 wraps to -16 at 8 bits
  CHECK(shift_add_digits(0, 8).empty());
}

TEST_CASE("every 8-bit constant times every 8-bit value, as C++ multiplies") {
  for (const CarryCuts& cuts : {CarryCuts{}, CarryCuts{3, 4, 4}}) {
    for (uint64_t c = 0; c < 256; ++c) {
      CAPTURE(c);
      const Dfg g = lowered(fmt::format("input x: u8\ny := x * {}\n", c), cuts);
      CHECK(count_live(g, Op::Mul) == 0);
      for (uint64_t x = 0; x < 256; ++x)
        if (output(g, x) != ((x * c) & 0xFF)) {
          FAIL_CHECK("x = " << x << ": " << output(g, x) << ", expected " << ((x * c) & 0xFF));
          break;
        }
    }
  }
}

TEST_CASE("the generators' 64-bit constants, at 48 MHz cuts, against edge and random values") {
  const uint64_t constants[] = {0x9E3779B185EBCA87ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                                0xBF58476D1CE4E5B9ull, 0x94D049BB133111EBull, 0x9FB21C651E98DF25ull,
                                1000,                  3,                     ~uint64_t{0},
                                uint64_t{1} << 63,     0x5555555555555555ull};
  const CarryCuts cuts = carry_cuts(Target::Ice40, 20.8);
  std::vector<uint64_t> xs = edge_values(64, 200, 7);
  for (uint64_t c : constants) {
    CAPTURE(fmt::format("{:#x}", c));
    const Dfg g = lowered(fmt::format("input x: u64\ny := x * {}\n", c), cuts);
    CHECK(count_live(g, Op::Mul) == 0);
    for (uint64_t x : xs) {
      CAPTURE(x);
      CHECK(output(g, x) == x * c);
    }
  }
}

TEST_CASE("negative digits: P - N apart unless that deepens the tree, else ~x terms") {
  // XXH3's 0x9FB21C651E98DF25 has 22 signed digits, 8 negative, the lowest at bit 8: trees of
  // 14 and 8 terms (4 and 3 levels) and the subtraction make 5 levels, as one tree of 22
  // would, so the negative terms are summed apart and N's sum is inverted; x itself is read
  // inverted only where N's bits are x's, bits [8, 13) of N: 5 bits. splitmix64's
  // 0xBF58476D1CE4E5B9, 13 of 22 negative at bits 3, 6, 9, ...: bits [3, 6): 3 bits.
  // 0x10F0F0F0F0F0F0F1 is +1 -2^4 +2^8 -2^12 ... -2^52 +2^56 +2^60: 16 digits (30 in binary),
  // 7 negative, at bits 4, 12, ..., 52; apart would take max(4, 3) + 1 = 5 levels against one
  // tree's 4, so one tree reads ~x shifted by 4 and up: 60 of its bits.
  const auto negatives = [](uint64_t c) {
    std::vector<unsigned> at;
    for (const auto& [i, d] : csd_digits(c, 64))
      if (d < 0) at.push_back(i);
    return std::pair<size_t, std::vector<unsigned>>{csd_digits(c, 64).size(), at};
  };
  CHECK(negatives(0x9FB21C651E98DF25ull).first == 22);
  CHECK(negatives(0x9FB21C651E98DF25ull).second == std::vector<unsigned>{8, 13, 19, 25, 37, 42, 52, 54});
  CHECK(negatives(0xBF58476D1CE4E5B9ull).first == 22);
  CHECK(negatives(0xBF58476D1CE4E5B9ull).second.size() == 13);
  CHECK(negatives(0xBF58476D1CE4E5B9ull).second[0] == 3);
  CHECK(negatives(0xBF58476D1CE4E5B9ull).second[1] == 6);
  CHECK(negatives(0x10F0F0F0F0F0F0F1ull).first == 16);
  CHECK(negatives(0x10F0F0F0F0F0F0F1ull).second == std::vector<unsigned>{4, 12, 20, 28, 36, 44, 52});
  const CarryCuts cuts = carry_cuts(Target::Ice40, 20.8);
  // (After narrowing, as the pass pipeline runs it: ~x << 8 reads only x's low 56 bits.)
  CHECK(inverted_input_bits(narrow_pass(lowered("input x: u64\ny := x * 0x9FB21C651E98DF25\n", cuts))) == 5);
  CHECK(inverted_input_bits(narrow_pass(lowered("input x: u64\ny := x * 0xBF58476D1CE4E5B9\n", cuts))) == 3);
  CHECK(inverted_input_bits(narrow_pass(lowered("input x: u64\ny := x * 0x10F0F0F0F0F0F0F1\n", cuts))) == 60);
  // x * 3 = x + (x << 1): one adder over bits [1, 64), no inversion; uncut, one Add.
  const Dfg three = lowered("input x: u64\ny := x * 3\n", CarryCuts{});
  CHECK(count_live(three, Op::Add) == 1);
  CHECK(count_live(three, Op::Not) == 0);
}

TEST_CASE("a negative lowest digit is paid on the first adder's carry in, not by an adder at the root") {
  // x * 295 = (x << 8) + (x << 5) + (x << 3) - x: one negative digit of four, so ~x is a
  // term, and it owes 1. It is the lowest term, the lower operand of every adder it meets,
  // so no other term's carry in can pay it: the first adder starts at bit 0 with carry in
  // 1, and the sum takes three adders. An increment after the sum would be a fourth, and a
  // level more.
  // (splitmix64's 0x94D049BB133111EB: its lowest digit is -1.)
  CHECK(csd_digits(295, 16) == std::vector<std::pair<unsigned, int>>{{0, -1}, {3, 1}, {5, 1}, {8, 1}});
  const Dfg g = lowered("input x: u16\ny := x * 295\n", CarryCuts{});
  CHECK(count_live(g, Op::Add) == 3);
  CHECK(count_live(g, Op::Not) == 1);
  for (uint64_t x = 0; x < 65536; ++x) REQUIRE(output(g, x) == ((x * 295) & 0xFFFF));
  const Dfg sm = narrow_pass(lowered("input x: u64\ny := x * 0x94D049BB133111EB\n", carry_cuts(Target::Ice40, 20.8)));
  CHECK(csd_digits(0x94D049BB133111EBull, 64).front() == std::pair<unsigned, int>{0, -1});
  for (uint64_t x : edge_values(64, 200, 7)) REQUIRE(output(sm, x) == x * 0x94D049BB133111EBull);
}

TEST_CASE("the harness catches a wrong term") {
  // x * 5 = x + (x << 2); planted: the adder reads its first operand twice. The comparison with
  // C++ must see it.
  Dfg g = lowered("input x: u8\ny := x * 5\n", CarryCuts{});
  const auto live = g.live();
  bool planted = false;
  for (ValueId v = 0; v < g.nodes.size() && !planted; ++v)
    if (live[v] && g.nodes[v].is_op() && g.nodes[v].op == Op::Add) {
      g.nodes[v].operands[1] = g.nodes[v].operands[0];
      planted = true;
    }
  REQUIRE(planted);
  bool differs = false;
  for (uint64_t x = 0; x < 256 && !differs; ++x) differs = output(g, x) != ((x * 5) & 0xFF);
  CHECK(differs);
}

}  // TEST_SUITE
