// count_lower_pass: popcount, clz and ctz as trees of LUTs (Roms), muxes and
// narrow additions compute what eval_node computes (clz(0) = ctz(0) = the
// operand's width, results at any width): every value at operand widths 1 to
// 16, edge values, single bits and runs at 17 to 64 bits, signed bit patterns
// in kernels, random graphs and loops. lut_function against the function it
// tabulates, with known index bits. The node counts, depths and pipeline
// stages at 48 MHz are the ones worked out by hand from the cost model; the
// corpus kernel fits a step per operation; the harness catches planted faults.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "hls/count_lower_pass.h"
#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/narrow_pass.h"
#include "hls/op_library.h"
#include "hls_support.h"
#include "pass_support.h"
#include "random_loop.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {



// A graph on the low w bits of one port.
class Maker {
 public:
  explicit Maker(unsigned w) {
    g_.name = "counts";
    const ValueId port = add_input(g_, b_, "x", port_bits(w));
    x_ = b_.resize(port, w);
  }
  DfgBuilder& b() { return b_; }
  ValueId x() const { return x_; }
  void output(ValueId v) {
    const unsigned pb = port_bits(b_.width(v));
    g_.outputs.push_back(DfgPort{"y" + std::to_string(g_.outputs.size()), port_type(pb), b_.zext(v, pb)});
  }
  Dfg take() {
    classify_regions(g_);
    return std::move(g_);
  }

 private:
  Dfg g_;
  DfgBuilder b_{g_};
  ValueId x_ = 0;
};

// popcount, clz and ctz of a w-bit value, at widths that cut the count and that hold it.
Dfg counts(unsigned w) {
  Maker m(w);
  for (Op op : {Op::Popcount, Op::Clz, Op::Ctz})
    for (unsigned rw : {1u, 2u, 3u, 7u, 64u}) m.output(m.b().op(op, rw, {m.x()}));
  return m.take();
}

// The values given, with random bits above w in the port (the lowering must ignore them).
std::vector<Sample> values(unsigned w, const std::vector<uint64_t>& xs) {
  std::mt19937_64 rng(w);
  std::vector<Sample> out;
  for (uint64_t x : xs) out.push_back(Sample{{x | (w >= 64 ? 0 : (rng() << w) & width_mask(port_bits(w)))}, {}});
  return out;
}

size_t count_counts(const Dfg& g) {
  return count_live(g, Op::Popcount) + count_live(g, Op::Clz) + count_live(g, Op::Ctz);
}

Dfg check_lowering(const Dfg& g, const std::vector<Sample>& samples) {
  const Dfg after = count_lower_pass(g);
  const auto rules = check_dfg(after);
  REQUIRE_MESSAGE(rules.empty(), rules.front() << "\n" << dump(after));
  CHECK(count_counts(after) == 0);
  const auto diffs = output_differences(g, after, samples);
  CHECK_MESSAGE(diffs.empty(), join(diffs) << "\n" << dump(after));
  return after;
}


Dfg lowered(const std::string& kernel) {
  const Dfg g = dfg_from(kernel);
  const Dfg after = count_lower_pass(narrow_pass(g));
  const auto problems = pass_problems(g, after, 300, 3);
  CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(after));
  CHECK(count_counts(after) == 0);
  return after;
}

// Live operations of kind op, by width.
std::map<unsigned, size_t> widths_of(const Dfg& g, Op op) {
  const auto live = g.live();
  std::map<unsigned, size_t> out;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_op(v) && g.nodes[v].op == op) ++out[g.width(v)];
  return out;
}

std::string corpus_text(const std::string& name) {
  std::ifstream in(std::filesystem::path(POLYDAT_CORPUS_DIR) / name);
  std::stringstream text;
  text << in.rdbuf();
  REQUIRE_FALSE(text.str().empty());
  return text.str();
}

}  // namespace

TEST_SUITE("count lowering") {

TEST_CASE("lut_function tabulates f over the index bits that are not constant") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    const unsigned iw = 1 + static_cast<unsigned>(rng() % 5), rw = 1 + static_cast<unsigned>(rng() % 4);
    const uint64_t known = rng() & width_mask(iw), ones = rng() & known;
    std::vector<uint64_t> table;
    for (uint64_t i = 0; i < (uint64_t{1} << iw); ++i) table.push_back(rng());
    // Some result bits copy or invert an index bit, or are constant: those must be wiring or an inverter.
    const unsigned copied = static_cast<unsigned>(rng() % iw);
    for (uint64_t i = 0; i < table.size(); ++i) table[i] = (table[i] & ~uint64_t{3}) | ((i >> copied) & 1) | 2;
    Maker m(iw);
    // The index: x with the known bits replaced by constants.
    std::vector<ValueId> bits;
    for (unsigned k = iw; k-- > 0;)
      bits.push_back((known >> k) & 1 ? m.b().constant(1, (ones >> k) & 1) : m.b().bit(m.x(), k));
    const ValueId index = m.b().concat(bits);
    const ValueId r = lut_function(m.b(), index, rw, [&](uint64_t i) { return table[i]; });
    m.output(r);
    const Dfg g = m.take();
    CHECK(check_dfg(g).empty());
    for (uint64_t x = 0; x < (uint64_t{1} << iw); ++x) {
      const uint64_t i = (x & ~known) | ones;
      CHECK((*eval_outputs(g, {x}, {}))[0] == (table[i] & width_mask(rw)));
    }
    // At most one table, indexed by the free bits only; bit 0 (a copy) and bit 1 (constant) outside it.
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (g.is_op(v) && g.nodes[v].op == Op::Rom) {
        CHECK(g.width(g.nodes[v].operands[0]) == static_cast<unsigned>(iw - std::popcount(known)));
        CHECK(g.width(v) <= (rw > 2 ? rw - 2 : 0));
      }
  }
}

TEST_CASE("operand widths 1 to 16: every value, counts at widths that cut them and that hold them") {
  for (unsigned w = 1; w <= 16; ++w) {
    CAPTURE(w);
    std::vector<uint64_t> xs;
    for (uint64_t x = 0; x <= width_mask(w); ++x) xs.push_back(x);
    check_lowering(counts(w), values(w, xs));
  }
}

TEST_CASE("operand widths 17 to 64: edge values, single bits, runs of ones from either end, sparse random values") {
  std::mt19937_64 rng(3);
  for (unsigned w = 17; w <= 64; ++w) {
    CAPTURE(w);
    std::vector<uint64_t> xs = edge_values(w, 20, w);
    for (unsigned i = 0; i < w; ++i) {
      const uint64_t low = width_mask(i), bit = uint64_t{1} << i;
      for (uint64_t x : {bit, low, ~low, bit | 1, bit | (uint64_t{1} << (w - 1))}) xs.push_back(x & width_mask(w));
    }
    for (int i = 0; i < 40; ++i) xs.push_back(rng() & rng() & rng() & width_mask(w));
    check_lowering(counts(w), values(w, xs));
  }
}

TEST_CASE("random graphs and random loops keep every output") {
  size_t seen = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    seen += count_counts(g);
    const Dfg after = count_lower_pass(g);
    const auto problems = pass_problems(g, after, 60, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(after));
    CHECK(count_counts(after) == 0);
  }
  CHECK(seen > 50);  // the generator does make counts
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_loop_dfg(seed);
    const auto problems = pass_problems(g, count_lower_pass(g), 30, seed);
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
}

TEST_CASE("kernels: signed bit patterns, known bits, a count in a loop") {
  lowered("input (a: i8, b: i16, c: i32)\n"
          "p := popcount(a - 1)\nl := clz(b - 2)\nt := ctz(c)\nq := clz(c as i64)\n");
  lowered("input x: u64\n"
          "p := popcount(x | 0xF0F0)\nl := clz(x & 0x00FFFF0000000000)\nt := ctz(x * 8)\nu := ctz(x >> 40)\n");
  lowered("input (a: u64, n: u8)\nr := loop (x = a, i: u8 = 0) while i < n {\n"
          "    x = x + popcount(x) + (clz(x) << 8) + (ctz(x) << 16)\n    i = i + 1\n} yield x\n");
}

TEST_CASE("popcount by hand: 4-bit tables, a balanced tree of narrow additions, a lone bit as a carry in") {
  // 64 bits: 16 tables of 3 bits, then 8 + 4 + 2 + 1 additions of 4, 5, 6 and 7 bits: one LUT level
  // and four adders deep.
  Dfg g = lowered("input x: u64\ny := popcount(x)\n");
  CHECK(widths_of(g, Op::Rom) == std::map<unsigned, size_t>{{3, 16}});
  CHECK(widths_of(g, Op::Add) == std::map<unsigned, size_t>{{4, 8}, {5, 4}, {6, 2}, {7, 1}});
  CHECK(logic_depth(g) == 5);
  // 9 bits: two tables, one 4-bit addition, the ninth bit its carry in.
  g = lowered("input x: u16\ny := popcount(x & 0x1FF)\n");
  CHECK(count_live(g, Op::Rom) == 2);
  REQUIRE(count_live(g, Op::Add) == 1);
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (g.is_op(v) && g.nodes[v].op == Op::Add && g.live()[v]) {
      CHECK(g.nodes[v].operands.size() == 3);
      CHECK(g.width(v) == 4);
    }
  // 4 bits: one table, nothing to add.
  g = lowered("input x: u8\ny := popcount(x & 15)\n");
  CHECK(count_live(g, Op::Rom) == 1);
  CHECK(count_live(g, Op::Add) == 0);
  // Parity (bit 0 alone) is narrow_pass's XorReduce; the lowering leaves it.
  g = lowered("input x: u64\ny := popcount(x) & 1\n");
  CHECK(count_live(g, Op::XorReduce) == 1);
}

TEST_CASE("clz and ctz by hand: a table per 4 bits, then one mux and one OR per pair, no adders") {
  // 64 bits: 16 tables, 15 muxes (8 of 3 bits, 4 of 4, 2 of 5, 1 of 6), 14 ORs, and the final
  // "no bit set" from the last two flags: five LUT levels.
  for (const char* op : {"clz", "ctz"}) {
    CAPTURE(op);
    const Dfg g = lowered(fmt::format("input x: u64\ny := {}(x)\n", op));
    CHECK(widths_of(g, Op::Rom) == std::map<unsigned, size_t>{{1, 1}, {3, 16}});
    CHECK(widths_of(g, Op::Mux) == std::map<unsigned, size_t>{{3, 8}, {4, 4}, {5, 2}, {6, 1}});
    CHECK(count_live(g, Op::Or) == 14);
    CHECK(count_live(g, Op::Add) == 0);
    CHECK(logic_depth(g) == 5);
  }
  // 36 bits: padded to 64 with a 1 just past the end; the padding's groups are constants.
  const Dfg g = lowered("input x: u64\ny := clz(x & 0xFFFFFFFFF)\n");  // 28 leading zeros, then clz of 36 bits
  CHECK(count_live(g, Op::Rom) <= 10);
  // 8 bits: two tables, one mux.
  const Dfg g8 = lowered("input x: u8\ny := ctz(x)\n");
  CHECK(widths_of(g8, Op::Mux) == std::map<unsigned, size_t>{{3, 1}});
}

TEST_CASE("pipeline stages at 48 MHz, worked out from the cost model") {
  // A step has 20.8 - 4.4 - 3 = 13.4 ns. A LUT level from registers ends at 1.0 ns; a chained one
  // starts 2.5 ns (routing) after its operand and takes 1.0: each further level adds 3.5 ns.
  CHECK(schedule_period_ns(Target::Ice40, 20.8) == doctest::Approx(13.4));
  // clz of 64 bits: five LUT levels, 1.0 + 4 * 3.5 = 15.0 > 13.4: four levels in stage 0
  // (ending 11.5), the fifth in stage 1.
  Design d = must_synth("input x: u64\ny := clz(x)\n", opts(Target::Ice40, 20.8));
  CHECK(d.stages == 2);
  CHECK(d.critical_path_ns == doctest::Approx(11.5 + 4.4 + 3.0));
  // popcount of 64 bits: the tables (1.0), a 4-bit adder chained (starts 3.5, 0.8 + 4 * 0.34: ends
  // 5.66); a 5-bit one would start 5.66 + 3.5 (a sum's routing) + 2.5 = 11.66 and end 14.16 > 13.4:
  // a new stage (ends 2.5), with the 6-bit one (starts 8.5, ends 11.34); the 7-bit one in a third.
  d = must_synth("input x: u64\ny := popcount(x)\n", opts(Target::Ice40, 20.8));
  CHECK(d.stages == 3);
  CHECK(d.critical_path_ns == doctest::Approx(11.34 + 4.4 + 3.0));
}

TEST_CASE("on the generic target a count is lowered only when it is longer than a step") {
  // A 64-bit count there: 0.05 + 0.06 * log2(64) = 0.41 ns.
  const Dfg g = counts(64);
  CHECK(count_counts(count_lower_pass(g, LowerOptions{Target::Generic, 1.0})) == count_counts(g));
  CHECK(count_counts(count_lower_pass(g, LowerOptions{Target::Generic, 0.4})) == 0);
}

TEST_CASE("the corpus kernel at 48 MHz: every operation fits a step, the clock is met") {
  const double period = schedule_period_ns(Target::Ice40, 20.8);
  CHECK(op_cost(Target::Ice40, Op::Popcount, 64, false).delay_ns > period);  // why the pass exists
  const Design d = must_synth(corpus_text("stdlib_bits.gk"), opts(Target::Ice40, 20.8));
  auto problems = dependence_problems(d);
  for (const std::string& p : timing_problems(d)) problems.push_back(p);
  CHECK_MESSAGE(problems.empty(), join(problems));
  for (ValueId v : live_ops(d)) {
    CAPTURE(node_label(d.dfg, v));
    CHECK(library_cost(d, v).delay_ns <= period);
  }
  CHECK(count_counts(d.dfg) == 0);
  CHECK(d.critical_path_ns <= 20.8);
}

TEST_CASE("the harness catches planted faults: a table entry changed, a mux's inputs swapped, an adder's operand") {
  const Dfg g = counts(16);
  const Dfg after = count_lower_pass(g);
  std::vector<uint64_t> xs;
  for (uint64_t x = 0; x <= 0xFFFF; x += 7) xs.push_back(x);
  for (unsigned at = 0; at < 16; at += 4)  // one group alone: what a clz reaches only when every group above is 0
    for (uint64_t x = 0; x < 16; ++x) xs.push_back(x << at);
  const std::vector<Sample> samples = values(16, xs);
  REQUIRE(output_differences(g, after, samples).empty());
  size_t planted = 0;
  const auto live = after.live();
  for (ValueId v = 0; v < after.nodes.size(); ++v) {
    const Node& n = after.nodes[v];
    if (!live[v] || !n.is_op()) continue;
    Dfg faulty = after;
    if (n.op == Op::Rom) faulty.nodes[v].table[n.table.size() - 1] ^= 1;
    else if (n.op == Op::Mux) std::swap(faulty.nodes[v].operands[1], faulty.nodes[v].operands[2]);
    else if (n.op == Op::Add && n.operands.size() == 2) faulty.nodes[v].operands[1] = faulty.nodes[v].operands[0];
    else continue;
    CAPTURE(node_label(after, v));
    CHECK_FALSE(output_differences(g, faulty, samples).empty());
    ++planted;
  }
  CHECK(planted >= 20);
}

}  // TEST_SUITE
