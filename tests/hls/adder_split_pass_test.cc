// adder_split_pass and carry_cuts: where chains are cut at 48 MHz on iCE40
// (worked out from op_library's delays), that every split addition,
// subtraction, negation and comparison computes what the original does
// (exhaustively at 8 bits with narrow cuts, edge and random values at 64), and
// that the harness catches a wrong carry.
#include <doctest/doctest.h>

#include "hls/adder_split_pass.h"
#include "hls/carry_cuts.h"
#include "hls/dfg_rewrite.h"
#include "hls/narrow_pass.h"
#include "hls/op_library.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

Dfg split(const std::string& text, const CarryCuts& cuts) { return adder_split_pass(cleanup(dfg_from(text)), cuts); }

}  // namespace

TEST_SUITE("adder split") {

TEST_CASE("the cuts at 48 MHz, worked out from the delays") {
  // A step has 20.8 - 4.4 - 3.0 = 13.4 ns. An adder takes 0.8 + 0.34 w: a piece whose carry leaves
  // the chain (3.0 ns more) spans floor((13.4 - 3.0 - 0.8) / 0.34) = 28 bits, the top piece
  // floor((13.4 - 0.8) / 0.34) = 37. A subtraction takes 2.75 + 0.35 w (b inverted first): whole
  // up to floor((13.4 - 2.75) / 0.35) = 30 bits.
  const CarryCuts c = carry_cuts(Target::Ice40, 20.8);
  CHECK(c.carry_bits == 28);
  CHECK(c.top_bits == 37);
  CHECK(c.sub_bits == 30);
  // 64 bits: cut at 28 (36 would be left, within 37); 65 would need a second cut.
  CHECK(c.points(64) == std::vector<unsigned>{28});
  CHECK(c.points(37).empty());
  // The generic target cuts nothing.
  CHECK(carry_cuts(Target::Generic, 1.0).points(64).empty());
  CHECK(carry_cuts(Target::Generic, 1.0).sub_bits == 64);
}

TEST_CASE("a subtraction too long for a step is a + ~b + 1; one that fits stays whole") {
  const CarryCuts c = carry_cuts(Target::Ice40, 20.8);
  // 30 bits (narrowed to the bits the mask keeps): 2.75 + 0.35 * 30 = 13.25 <= 13.4.
  Dfg g = adder_split_pass(narrow_pass(cleanup(dfg_from("input (a: u32, b: u32)\nd := (a - b) & 0x3FFFFFFF\n"))), c);
  CHECK(count_live(g, Op::Sub) == 1);
  // 32 bits: 13.95 > 13.4, no cut point below 37 bits: the inversion and one 32-bit adder.
  g = split("input (a: u32, b: u32)\nd := a - b\n", c);
  CHECK(count_live(g, Op::Sub) == 0);
  CHECK(count_live(g, Op::Not) == 1);
  CHECK(count_live(g, Op::Add) == 1);
  CHECK(pass_problems(dfg_from("input (a: u32, b: u32)\nd := a - b\n"), g).empty());
  // 64 bits: cut at 28, two pieces.
  g = split("input (a: u64, b: u64)\nd := a - b\ne := -a\n", c);
  CHECK(count_live(g, Op::Sub) == 0);
  CHECK(count_live(g, Op::Neg) == 0);
  CHECK(count_live(g, Op::Add) == 4);
}

TEST_CASE("split chains compute what the original does") {
  const char* kernels[] = {
      "input (a: u8, b: u8)\ns := a + b\nd := a - b\nn := -a\nlt := a < b\nge := a >= b\n",
      "input (a: i8, b: i8)\nlt := a < b\nle := a <= b\ngt := a > b\nge := a >= b\nd := a - b\n",
      "input (a: u64, b: u64)\ns := a + b\nd := a - b\nn := -b\nlt := a < b\ngt := a > b\n",
      "input (a: i64, b: i64)\nlt := a < b\nle := a <= b\nd := b - a\n",
  };
  for (const char* text : kernels) {
    CAPTURE(text);
    const Dfg before = dfg_from(text);
    // 8-bit kernels with 3-bit pieces (exhaustive: 16 bits of inputs), 64-bit ones at 48 MHz.
    for (const CarryCuts& c : {CarryCuts{3, 4, 4}, carry_cuts(Target::Ice40, 20.8), CarryCuts{5, 9, 9}}) {
      const Dfg after = adder_split_pass(cleanup(before), c);
      const auto problems = pass_problems(before, after, 300, c.carry_bits);
      CHECK_MESSAGE(problems.empty(), problems.front());
    }
  }
}

TEST_CASE("the harness catches a split whose carry is dropped") {
  // The low piece's carry replaced by 0 in a 64-bit sum: the outputs differ.
  const Dfg before = dfg_from("input (a: u64, b: u64)\ns := a + b\n");
  Dfg after = adder_split_pass(cleanup(before), carry_cuts(Target::Ice40, 20.8));
  bool planted = false;
  for (Node& n : after.nodes)
    if (!planted && n.is_op() && n.op == Op::Add && n.operands.size() == 3 && after.nodes[n.operands[2]].kind != NodeKind::Constant) {
      for (ValueId v = 0; v < after.nodes.size() && !planted; ++v)
        if (after.nodes[v].kind == NodeKind::Constant && after.nodes[v].width == 1 && after.nodes[v].constant == 0) {
          n.operands[2] = v;
          planted = true;
        }
    }
  REQUIRE(planted);
  CHECK_FALSE(pass_problems(before, after).empty());
}

}  // TEST_SUITE
