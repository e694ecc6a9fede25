// shift_lower_pass: every shift and rotation by a variable amount, as levels
// of muxes, computes what eval_node computes for the original operation:
// every value and every amount from 0 to 2w + 1 at widths 1 to 8 (amounts of
// 1 to 8 bits), every 16-bit value for a set of amounts, edge values against
// amounts at and past the width at 32 and 64 bits, logical and arithmetic;
// random graphs and loops keep their outputs. The level counts are the ones
// worked out by hand (one per amount bit that is not known, one more for
// amounts past the width), the corpus kernel fits a 48 MHz step per
// operation, and the harness is shown to catch planted faults.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/narrow_pass.h"
#include "hls/op_library.h"
#include "hls/shift_lower_pass.h"
#include "hls_support.h"
#include "pass_support.h"
#include "random_loop.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {



bool power_of_two(unsigned w) { return (w & (w - 1)) == 0; }

// x: the low w bits of one port, k: the low aw bits of another; outputs
// x << k, x >> k, x >> k signed and (at a power of two) rotl and rotr, each
// zero-extended to a port.
Dfg shifts(unsigned w, unsigned aw) {
  Dfg g;
  g.name = "shifts";
  DfgBuilder b(g);
  auto input = [&](const std::string& name, unsigned bits) {
    return b.resize(add_input(g, b, name, port_bits(bits)), bits);
  };
  const ValueId x = input("x", w), k = input("k", aw);
  auto output = [&](const std::string& name, ValueId v) {
    g.outputs.push_back(DfgPort{name, port_type(port_bits(w)), b.zext(v, port_bits(w))});
  };
  output("shl", b.op(Op::Shl, w, {x, k}));
  output("shr", b.op(Op::Shr, w, {x, k}));
  output("sar", b.op(Op::Shr, w, {x, k}, true));
  if (power_of_two(w)) {
    output("rotl", b.op(Op::Rotl, w, {x, k}));
    output("rotr", b.op(Op::Rotr, w, {x, k}));
  }
  classify_regions(g);
  return g;
}

// Every pair; the port bits above w and aw random (the lowering must ignore them).
std::vector<Sample> pairs(unsigned w, unsigned aw, const std::vector<uint64_t>& xs, const std::vector<uint64_t>& ks) {
  std::mt19937_64 rng(w * 131 + aw);
  const auto junk = [&](unsigned bits) { return bits >= 64 ? 0 : (rng() << bits) & width_mask(port_bits(bits)); };
  std::vector<Sample> out;
  for (uint64_t x : xs)
    for (uint64_t k : ks) out.push_back(Sample{{x | junk(w), k | junk(aw)}, {}});
  return out;
}

std::vector<uint64_t> upto(uint64_t last) {
  std::vector<uint64_t> v;
  for (uint64_t i = 0; i <= last; ++i) v.push_back(i);
  return v;
}

size_t count_shifts(const Dfg& g) {
  return count_live(g, Op::Shl) + count_live(g, Op::Shr) + count_live(g, Op::Rotl) + count_live(g, Op::Rotr);
}

// The pass on g: the graph's rules kept, no shift left, the outputs of the samples unchanged.
Dfg check_lowering(const Dfg& g, const std::vector<Sample>& samples) {
  const Dfg after = shift_lower_pass(g);
  const auto rules = check_dfg(after);
  REQUIRE_MESSAGE(rules.empty(), rules.front() << "\n" << dump(after));
  CHECK(count_shifts(after) == 0);
  const auto diffs = output_differences(g, after, samples);
  CHECK_MESSAGE(diffs.empty(), join(diffs) << "\n" << dump(after));
  return after;
}


// A kernel narrowed first (as the pipeline does), then lowered; checked against the original.
Dfg lowered(const std::string& kernel) {
  const Dfg g = dfg_from(kernel);
  const Dfg after = shift_lower_pass(narrow_pass(g));
  const auto problems = pass_problems(g, after, 300, 3);
  CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(after));
  CHECK(count_shifts(after) == 0);
  return after;
}

std::string corpus_text(const std::string& name) {
  std::ifstream in(std::filesystem::path(POLYDAT_CORPUS_DIR) / name);
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE_FALSE(text.str().empty());
  return text.str();
}

}  // namespace

TEST_SUITE("shift lowering") {

TEST_CASE("widths 1 to 8: every value by every amount from 0 to 2w + 1, amounts of 1 to 8 bits") {
  for (unsigned w = 1; w <= 8; ++w)
    for (unsigned aw : {1u, 2u, 3u, 4u, 5u, 8u}) {
      CAPTURE(w);
      CAPTURE(aw);
      std::vector<uint64_t> ks = upto(std::min<uint64_t>(2 * w + 1, width_mask(aw)));
      if (aw == 8) ks.insert(ks.end(), {127, 128, 255});
      check_lowering(shifts(w, aw), pairs(w, aw, upto(width_mask(w)), ks));
    }
}

TEST_CASE("16 bits: every value by a set of amounts, at and past the width") {
  std::vector<uint64_t> ks = {0, 1, 2, 3, 5, 7, 8, 9, 14, 15, 16, 17, 31, 33, 256, 0x8000, 0xFFFF};
  check_lowering(shifts(16, 16), pairs(16, 16, upto(0xFFFF), ks));
}

TEST_CASE("32 and 64 bits: edge values by every amount to 2w + 1 and far past it, amounts of 6 to 64 bits") {
  for (unsigned w : {32u, 64u, 33u, 63u})
    for (unsigned aw : {6u, 7u, 32u, 64u}) {
      CAPTURE(w);
      CAPTURE(aw);
      std::vector<uint64_t> ks = upto(std::min<uint64_t>(2 * w + 1, width_mask(aw)));
      for (uint64_t k : {uint64_t{255}, uint64_t{256}, uint64_t{1} << 31, uint64_t{1} << 32, (uint64_t{1} << 32) + 1,
                         uint64_t{1} << 63, ~uint64_t{0}})
        ks.push_back(k & width_mask(aw));
      std::vector<uint64_t> xs = edge_values(w, 12, w + aw);
      check_lowering(shifts(w, aw), pairs(w, aw, xs, ks));
    }
}

TEST_CASE("random graphs and random loops keep every output") {
  size_t shifts_seen = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    shifts_seen += count_shifts(g);
    const Dfg after = shift_lower_pass(g);
    const auto problems = pass_problems(g, after, 60, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(after));
    CHECK(count_shifts(after) == 0);
  }
  CHECK(shifts_seen > 100);  // the generator does make shifts
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_loop_dfg(seed);
    const auto problems = pass_problems(g, shift_lower_pass(g), 30, seed);
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
}

TEST_CASE("kernels: shifts in a loop, amounts of every type, signed values") {
  lowered("input (a: u64, n: u8)\nr := loop (x = a, i: u8 = 0) while i < n {\n"
          "    x = x ^ (x >> i) ^ rotl(x, i * 7)\n    i = i + 1\n} yield x\n");
  lowered("input (a: i32, k: u16)\ns := a >> k\nt := (a as u32) << (k as u8)\nu := rotr(a as u32, k)\n");
  lowered("input (a: i8, k: u64)\ns := a >> k\nt := (a as u8) >> k\nu := rotl(a as u8, k)\n");
}

TEST_CASE("levels by hand: one per unknown amount bit, one more for amounts past the width") {
  // 64-bit amount: six levels (1, 2, ..., 32), then k >= 64 from the OR of its 58 high bits.
  Dfg g = lowered("input (x: u64, k: u64)\ny := x << k\n");
  CHECK(count_live(g, Op::Mux) == 7);
  CHECK(count_live(g, Op::OrReduce) == 1);
  CHECK(logic_depth(g) == 7);
  // k & 7: the narrowed amount has three bits and never reaches 64.
  g = lowered("input (x: u64, k: u64)\ny := x >> (k & 7)\n");
  CHECK(count_live(g, Op::Mux) == 3);
  CHECK(count_live(g, Op::OrReduce) == 0);
  // k & 0x18: bits 3 and 4 only (shifts by 8 and 16).
  g = lowered("input (x: u64, k: u64)\ny := x << (k & 0x18)\n");
  CHECK(count_live(g, Op::Mux) == 2);
  CHECK(logic_depth(g) == 2);
  // k | 1: a shift by one, wiring, then levels for bits 1 to 5 and the test past the width.
  g = lowered("input (x: u64, k: u64)\ny := x << (k | 1)\n");
  CHECK(count_live(g, Op::Mux) == 6);
  // A u8 amount of a u64: six levels, and k >= 64 from bits 6 and 7.
  g = lowered("input (x: u64, k: u8)\ny := x >> k\n");
  CHECK(count_live(g, Op::Mux) == 7);
  // Rotations read log2(w) bits: six levels at 64, three at 8, whatever the amount's width.
  g = lowered("input (x: u64, k: u64)\ny := rotl(x, k)\n");
  CHECK(count_live(g, Op::Mux) == 6);
  CHECK(count_live(g, Op::OrReduce) == 0);
  g = lowered("input (x: u8, k: u64)\ny := rotr(x, k)\n");
  CHECK(count_live(g, Op::Mux) == 3);
  // Arithmetic: the 63 bits below the sign shift (six levels to reach 63), then the fill; the sign passes.
  g = lowered("input (x: i64, k: u64)\ny := x >> k\n");
  CHECK(count_live(g, Op::Mux) == 7);
  // i16 by a 4-bit amount: 15 bits below the sign, amounts to 15 in four levels, none past them.
  g = lowered("input (x: i16, k: u8)\ny := x >> (k & 15)\n");
  CHECK(count_live(g, Op::Mux) == 4);
  CHECK(count_live(g, Op::OrReduce) == 0);
}

TEST_CASE("each level is one LUT level per bit, in mux levels of the value's width") {
  const Dfg g = lowered("input (x: u32, k: u32)\ny := x << k\n");
  const auto live = g.live();
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!live[v] || !g.is_logic(v)) continue;
    const OpCost c = op_cost(Target::Ice40, shape_of(g, v, false));
    CAPTURE(node_label(g, v));
    if (g.nodes[v].op == Op::Mux) {
      CHECK(g.width(v) == 32);
      CHECK(c.delay_ns == doctest::Approx(1.0));  // one LUT4 level (3 inputs)
    } else {
      CHECK(g.nodes[v].op == Op::OrReduce);  // of the 27 high bits: three levels, beside the muxes
      CHECK(g.width(g.nodes[v].operands[0]) == 27);
    }
  }
}

TEST_CASE("on the generic target a shifter is lowered only when it is longer than a step") {
  // A 64-bit shifter there: 0.03 + 0.04 * log2(64) = 0.27 ns.
  const Dfg g = shifts(64, 64);
  CHECK(count_shifts(shift_lower_pass(g, LowerOptions{Target::Generic, 1.0})) == count_shifts(g));
  const Dfg lowered_fast = shift_lower_pass(g, LowerOptions{Target::Generic, 0.25});
  CHECK(count_shifts(lowered_fast) == 0);
  CHECK(output_differences(g, lowered_fast, pairs(64, 64, edge_values(64, 4, 1), upto(70))).empty());
  // On iCE40 even at a slow clock, where one shifter fits a step: the levels are faster.
  CHECK(count_shifts(shift_lower_pass(g, LowerOptions{Target::Ice40, 100.0})) == 0);
}

TEST_CASE("the corpus kernel at 48 MHz: every operation fits a step, the clock is met") {
  const double period = schedule_period_ns(Target::Ice40, 20.8);
  // Why the pass exists: one 64-bit shifter is longer than a step.
  CHECK(op_cost(Target::Ice40, Op::Shl, 64, false).delay_ns > period);
  const Design d = must_synth(corpus_text("shifts.gk"), opts(Target::Ice40, 20.8));
  // (Not design_problems: its register check predates registers holding only the bits read later.)
  auto problems = dependence_problems(d);
  for (const std::string& p : timing_problems(d)) problems.push_back(p);
  CHECK_MESSAGE(problems.empty(), join(problems));
  for (ValueId v : live_ops(d)) {
    CAPTURE(node_label(d.dfg, v));
    CHECK(library_cost(d, v).delay_ns <= period);
  }
  CHECK(count_shifts(d.dfg) == 0);
  CHECK(d.critical_path_ns <= 20.8);
}

TEST_CASE("the harness catches planted faults: each mux's inputs swapped, each level's amount bit moved") {
  const Dfg g = shifts(16, 16);
  const Dfg after = shift_lower_pass(g);
  const std::vector<Sample> samples = pairs(16, 16, edge_values(16, 20, 1), upto(40));
  REQUIRE(output_differences(g, after, samples).empty());
  size_t planted = 0;
  for (ValueId v = 0; v < after.nodes.size(); ++v) {
    const Node& n = after.nodes[v];
    if (!n.is_op() || n.op != Op::Mux) continue;
    Dfg swapped = after;
    std::swap(swapped.nodes[v].operands[1], swapped.nodes[v].operands[2]);
    CHECK_FALSE(output_differences(g, swapped, samples).empty());
    const Node& cond = after.nodes[n.operands[0]];
    if (cond.is_op() && cond.op == Op::Slice && cond.param < 15) {
      Dfg moved = after;
      moved.nodes[n.operands[0]].param = cond.param + 1;
      CHECK_FALSE(output_differences(g, moved, samples).empty());
    }
    ++planted;
  }
  CHECK(planted >= 5 * 4);  // five shifters of four levels or more
}

}  // TEST_SUITE
