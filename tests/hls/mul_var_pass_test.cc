// mul_var_pass: every multiplication of two variables becomes DSP-block limb
// products and rows of ANDs summed by a tree of shifted terms, and computes
// what the original graph computes (eval_node's Mul): every operand pair up
// to 7 + 7 bits at every result width, squares exhaustively up to 12 bits,
// edge and random values up to 64 x 64 at every result width, under DSP
// budgets of 0, 1, 3, 8 and unlimited, in a pipeline and in an FSM. No
// multiplication of two variables is left outside a DSP block, a DSP
// multiplication is at most 16 x 16 -> 32 bits, and a pipeline never holds
// more of them than the budget; the counts are worked out by hand. The sum
// of shifted terms is held to plain arithmetic. The corpus kernels that
// multiply variables keep their outputs and fit a 48 MHz step; an FSM's DSP
// multiplications stay within the budget in every state. The harness is
// shown to catch planted faults.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "hls/design.h"
#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/mul_var_pass.h"
#include "hls/passes.h"
#include "hls/shifted_sum.h"
#include "hls_support.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

constexpr uint32_t kUnlimited = std::numeric_limits<uint32_t>::max();
const std::initializer_list<uint32_t> kBudgets = {0, 1, 3, 8, kUnlimited};

// x: the low wx bits of one port, y: the low wy bits of another (a square:
// y is x); the output is x * y at w bits, zero-extended to its port.
Dfg product(unsigned wx, unsigned wy, unsigned w, bool square = false) {
  Dfg g;
  g.name = "product";
  DfgBuilder b(g);
  const ValueId x = b.resize(add_input(g, b, "x", port_bits(wx)), wx);
  const ValueId y = square ? x : b.resize(add_input(g, b, "y", port_bits(wy)), wy);
  g.outputs.push_back(DfgPort{"p", port_type(port_bits(w)), b.zext(b.op(Op::Mul, w, {x, y}), port_bits(w))});
  classify_regions(g);
  return g;
}

// Every x below 2^wx against every y below 2^wy (a square: x alone), the port bits above random.
std::vector<Sample> every_pair(unsigned wx, unsigned wy, bool square, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto above = [&](unsigned w) { return (rng() << w) & width_mask(port_bits(w)); };
  std::vector<Sample> out;
  for (uint64_t x = 0; x <= width_mask(wx); ++x) {
    if (square) {
      out.push_back(Sample{{x | above(wx)}, {}});
      continue;
    }
    for (uint64_t y = 0; y <= width_mask(wy); ++y) out.push_back(Sample{{x | above(wx), y | above(wy)}, {}});
  }
  return out;
}

// Edge values of each operand against edge values of the other, and random pairs.
std::vector<Sample> edge_pairs(unsigned wx, unsigned wy, bool square, size_t random, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<uint64_t> ex = edge_values(port_bits(wx), 0, seed), ey = edge_values(port_bits(wy), 0, seed + 1);
  std::vector<Sample> out;
  for (size_t i = 0; i < ex.size(); ++i) {
    if (square) {
      out.push_back(Sample{{ex[i]}, {}});
      continue;
    }
    for (size_t j = 0; j < ey.size(); j += 3) out.push_back(Sample{{ex[i], ey[(j + i) % ey.size()]}, {}});
    out.push_back(Sample{{ex[i], rng()}, {}});
    out.push_back(Sample{{rng(), ex[i]}, {}});
  }
  for (size_t i = 0; i < random; ++i) out.push_back(square ? Sample{{rng()}, {}} : Sample{{rng(), rng()}, {}});
  for (Sample& s : out) {
    s.inputs[0] &= width_mask(port_bits(wx));
    if (!square) s.inputs[1] &= width_mask(port_bits(wy));
  }
  return out;
}

bool variable_operands(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  return !g.is_constant(n.operands[0]) && !g.is_constant(n.operands[1]);
}

// Live multiplications of two variables not in a DSP block: what Yosys would build as an array.
size_t lut_products(const Dfg& g) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    n += live[v] && g.is_op(v) && g.nodes[v].op == Op::Mul && g.nodes[v].param == 0 && variable_operands(g, v);
  return n;
}

struct DspCount {
  size_t blocks = 0;
  std::vector<std::string> problems;  // a DSP multiplication that is no SB_MAC16 product
};

DspCount dsp_blocks(const Dfg& g) {
  const auto live = g.live();
  DspCount c;
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    const Node& n = g.nodes[v];
    if (!live[v] || !g.is_op(v) || n.op != Op::Mul || n.param != 1) continue;
    ++c.blocks;
    const unsigned a = g.width(n.operands[0]), b = g.width(n.operands[1]);
    if (a > 16 || b > 16 || n.width > 32 || n.width < 11 || std::min(a, b) < 2)
      c.problems.push_back(fmt::format("v{}: a DSP multiplication {} x {} -> {}", v, a, b, n.width));
  }
  return c;
}

MulVarOptions options(uint32_t dsps, DesignKind kind = DesignKind::Pipeline, CarryCuts cuts = carry_cuts(Target::Ice40, 20.8)) {
  return MulVarOptions{kind, dsps, cuts};
}

// The pass on g: the graph's rules, the same outputs, nothing left for an
// array multiplier, every DSP multiplication an SB_MAC16 one and a
// pipeline's within the budget. Returns the DSP blocks used.
size_t check_pass(const Dfg& g, const std::vector<Sample>& samples, const MulVarOptions& o) {
  const Dfg after = mul_var_pass(g, o);
  const auto rules = check_dfg(after);
  REQUIRE_MESSAGE(rules.empty(), rules.front() << "\n" << dump(after));
  CHECK(lut_products(after) == 0);
  const DspCount dsp = dsp_blocks(after);
  CHECK_MESSAGE(dsp.problems.empty(), join(dsp.problems));
  if (o.kind == DesignKind::Pipeline) CHECK(dsp.blocks <= o.dsp_limit);
  if (o.dsp_limit == 0) CHECK(dsp.blocks == 0);
  const auto diffs = output_differences(g, after, samples);
  CHECK_MESSAGE(diffs.empty(), join(diffs) << "\n" << dump(after));
  return dsp.blocks;
}

size_t dsps_for(unsigned wx, unsigned wy, unsigned w, uint32_t budget, bool square = false,
                DesignKind kind = DesignKind::Pipeline) {
  return dsp_blocks(mul_var_pass(product(wx, wy, w, square), options(budget, kind))).blocks;
}

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::filesystem::path kCorpus = POLYDAT_CORPUS_DIR;

// A random graph rich in products of variables: products of slices and
// extensions of inputs and earlier values (squares among them, operands
// wider or narrower than the result, products of products), sums and XORs.
Dfg random_products(uint64_t seed) {
  std::mt19937_64 rng(seed);
  Dfg g;
  g.name = "products";
  DfgBuilder b(g);
  std::vector<ValueId> values;
  for (int i = 0; i < 3; ++i) values.push_back(add_input(g, b, "x" + std::to_string(i), std::vector<unsigned>{8, 16, 32, 64}[rng() % 4]));
  auto any = [&](unsigned w) {
    const ValueId v = values[values.size() - 1 - rng() % std::min<size_t>(values.size(), 6)];
    const unsigned from = rng() % 4 == 0 ? static_cast<unsigned>(rng() % b.width(v)) : 0;
    const ValueId part = b.slice(v, from, std::min(w, b.width(v) - from));
    return rng() % 5 == 0 ? b.resize(b.sext(part, 64), w) : b.resize(part, w);
  };
  for (int i = 0; i < 10; ++i) {
    const unsigned w = rng() % 2 ? std::vector<unsigned>{16, 32, 48, 64}[rng() % 4] : 1 + static_cast<unsigned>(rng() % 64);
    const unsigned wa = rng() % 3 ? w : 1 + static_cast<unsigned>(rng() % w), wc = rng() % 3 ? w : 1 + static_cast<unsigned>(rng() % w);
    const ValueId a = any(wa);
    switch (rng() % 6) {
      case 0: values.push_back(b.op(Op::Mul, w, {a, a})); break;
      case 1: values.push_back(b.add(any(w), any(w))); break;
      case 2: values.push_back(b.bxor(b.op(Op::Mul, w, {a, any(wc)}), any(w))); break;
      default: values.push_back(b.op(Op::Mul, w, {a, any(wc)})); break;
    }
  }
  for (size_t i = 0; i < 3; ++i) g.outputs.push_back(DfgPort{"y" + std::to_string(i), port_type(64), b.resize(values[values.size() - 1 - i], 64)});
  classify_regions(g);
  return g;
}

}  // namespace

TEST_SUITE("mul var") {

TEST_CASE("the sum of shifted terms is plain arithmetic") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 400; ++round) {
    Dfg g;
    g.name = "sum";
    DfgBuilder b(g);
    const unsigned w = 1 + static_cast<unsigned>(rng() % 64);
    const CarryCuts cuts = rng() % 3 == 0 ? CarryCuts{} : CarryCuts{1 + static_cast<unsigned>(rng() % 30), 1 + static_cast<unsigned>(rng() % 40)};
    std::vector<ShiftedTerm> terms;
    std::vector<unsigned> widths;
    const size_t n = rng() % 9;
    for (size_t k = 0; k < n; ++k) {
      const unsigned tw = 1 + static_cast<unsigned>(rng() % 64);
      widths.push_back(tw);
      terms.push_back(ShiftedTerm{b.resize(add_input(g, b, "t" + std::to_string(k), 64), tw),
                                  static_cast<unsigned>(rng() % 70), rng() % 4 == 0});
    }
    g.outputs.push_back(DfgPort{"s", port_type(64), b.zext(sum_shifted_terms(b, terms, w, cuts), 64)});
    classify_regions(g);
    REQUIRE(check_dfg(g).empty());
    for (int s = 0; s < 40; ++s) {
      std::vector<uint64_t> in;
      uint64_t want = 0;
      for (size_t k = 0; k < n; ++k) {
        in.push_back(s < 4 ? (s % 2 ? ~uint64_t{0} : 0) : rng());
        const unsigned sh = terms[k].shift;
        if (sh < 64) want += ((in.back() & width_mask(widths[k])) << sh) + (terms[k].owed ? uint64_t{1} << sh : 0);
      }
      CAPTURE(w);
      CAPTURE(round);
      CHECK((*eval_outputs(g, in, {}))[0] == (want & width_mask(w)));
    }
  }
}

TEST_CASE("terms that do not overlap are joined by wiring: no adder") {
  Dfg g;
  DfgBuilder b(g);
  const ValueId a = add_input(g, b, "a", 16), c = add_input(g, b, "c", 16), d = add_input(g, b, "d", 16);
  const size_t before = g.nodes.size();
  const ValueId s = sum_shifted_terms(b, {{a, 0}, {c, 16}, {d, 40}}, 64);
  for (ValueId v = static_cast<ValueId>(before); v < g.nodes.size(); ++v) CHECK_FALSE(g.is_logic(v));
  g.outputs.push_back(DfgPort{"s", port_type(64), s});
  CHECK((*eval_outputs(g, {0x1234, 0xABCD, 0xFFFF}, {}))[0] == 0x00FFFF00ABCD1234ull);
}

TEST_CASE("every operand pair up to 7 + 7 bits, at every result width, under every budget, exhaustively") {
  const CarryCuts tight{4, 6};  // cuts inside these narrow sums too
  for (unsigned wx = 1; wx <= 7; ++wx)
    for (unsigned wy = 1; wy <= 7; ++wy) {
      const std::vector<Sample> samples = every_pair(wx, wy, false, wx * 8 + wy);
      for (unsigned w = 1; w <= wx + wy + 1; ++w)
        for (uint32_t budget : kBudgets) {
          CAPTURE(wx);
          CAPTURE(wy);
          CAPTURE(w);
          CAPTURE(budget);
          const Dfg g = product(wx, wy, w);
          check_pass(g, samples, options(budget));
          if (budget == 8) check_pass(g, samples, options(budget, DesignKind::Pipeline, tight));
        }
    }
}

TEST_CASE("squares up to 12 bits at every result width, exhaustively") {
  for (unsigned wx = 1; wx <= 12; ++wx) {
    const std::vector<Sample> samples = every_pair(wx, wx, true, wx);
    for (unsigned w = 1; w <= 2 * wx + 1; ++w)
      for (uint32_t budget : {0u, 8u}) {
        CAPTURE(wx);
        CAPTURE(w);
        CAPTURE(budget);
        const Dfg g = product(wx, wx, w, true);
        check_pass(g, samples, options(budget));
        check_pass(g, samples, options(budget, DesignKind::Pipeline, CarryCuts{4, 5}));
      }
  }
}

TEST_CASE("16 x 16 products and squares: edge values around the limb boundaries") {
  for (unsigned wx : {15u, 16u})
    for (unsigned wy : {9u, 16u})
      for (unsigned w : {11u, 16u, 17u, 31u, 32u})
        for (uint32_t budget : kBudgets) {
          CAPTURE(wx);
          CAPTURE(wy);
          CAPTURE(w);
          CAPTURE(budget);
          check_pass(product(wx, wy, w), edge_pairs(wx, wy, false, 300, w), options(budget));
        }
  // A 16-bit square exhaustively.
  for (uint32_t budget : {0u, 1u})
    for (unsigned w : {16u, 32u}) check_pass(product(16, 16, w, true), every_pair(16, 16, true, 1), options(budget));
}

TEST_CASE("up to 64 x 64: edge and random values at every result width, under every budget") {
  const std::vector<std::pair<unsigned, unsigned>> shapes = {{64, 64}, {64, 17}, {33, 31}, {48, 48}, {40, 24}, {63, 5}, {64, 1}};
  for (const auto& [wx, wy] : shapes)
    for (unsigned w = 1; w <= 64; ++w)
      for (uint32_t budget : kBudgets) {
        CAPTURE(wx);
        CAPTURE(wy);
        CAPTURE(w);
        CAPTURE(budget);
        const Dfg g = product(wx, wy, w);
        check_pass(g, edge_pairs(wx, wy, false, 20, w), options(budget));
      }
  for (unsigned wx : {17u, 32u, 47u, 64u})
    for (unsigned w = 1; w <= 64; ++w)
      for (uint32_t budget : {0u, 3u, kUnlimited}) {
        CAPTURE(wx);
        CAPTURE(w);
        CAPTURE(budget);
        check_pass(product(wx, wx, w, true), edge_pairs(wx, wx, true, 40, w), options(budget));
      }
}

TEST_CASE("in an FSM every product that suits a block gets one, whatever the budget; none at 0") {
  for (uint32_t budget : {1u, 3u, 8u}) {
    const Dfg g = product(64, 64, 64);
    CHECK(check_pass(g, edge_pairs(64, 64, false, 100, budget), options(budget, DesignKind::Fsm)) == 10);
  }
  CHECK(dsps_for(64, 64, 64, 0, false, DesignKind::Fsm) == 0);
}

TEST_CASE("DSP blocks counted by hand") {
  // 64 x 64 -> 64: the limb products with i + j <= 3 (4 + 3 + 2 + 1).
  CHECK(dsps_for(64, 64, 64, kUnlimited) == 10);
  CHECK(dsps_for(64, 64, 64, 8) == 8);
  CHECK(dsps_for(64, 64, 64, 3) == 3);
  CHECK(dsps_for(64, 64, 64, 1) == 1);
  // 64 x 64 -> 128 is not a width; -> 32: (0,0), (0,1), (1,0).
  CHECK(dsps_for(64, 64, 32, kUnlimited) == 3);
  // 32 x 32 -> 64: all four limb products.
  CHECK(dsps_for(32, 32, 64, kUnlimited) == 4);
  // A 64-bit square: (0,0), (1,1) and the cross products (0,1), (0,2), (0,3), (1,2) once each, doubled.
  CHECK(dsps_for(64, 64, 64, kUnlimited, true) == 6);
  // 48 x 48 -> 48: i + j <= 2.
  CHECK(dsps_for(48, 48, 48, kUnlimited) == 6);
  // 16 x 16 -> 32: one block; -> 10 bits: Yosys maps no product under 11 bits, so rows.
  CHECK(dsps_for(16, 16, 32, kUnlimited) == 1);
  CHECK(dsps_for(16, 16, 10, kUnlimited) == 0);
  // 6 x 6 -> 11: a block; an operand of 4 bits: rows.
  CHECK(dsps_for(6, 6, 11, kUnlimited) == 1);
  CHECK(dsps_for(16, 4, 20, kUnlimited) == 0);
  // 17 x 17 -> 34: the 16 x 16 product in a block, the top bits' products (1 bit wide) in rows.
  CHECK(dsps_for(17, 17, 34, kUnlimited) == 1);
}

TEST_CASE("narrow products take the cheapest form") {
  // A 1-bit operand: one And, no adder, no multiplication.
  const Dfg one = mul_var_pass(product(64, 1, 64), options(8));
  CHECK(count_live(one, Op::And) == 1);
  CHECK(count_live(one, Op::Add) == 0);
  CHECK(count_live(one, Op::Mul) == 0);
  // A 3-bit operand: three rows, two additions, no block even with blocks to spare.
  const Dfg three = mul_var_pass(product(32, 3, 32), options(8, DesignKind::Pipeline, CarryCuts{}));
  CHECK(count_live(three, Op::And) == 3);
  CHECK(count_live(three, Op::Add) == 2);
  CHECK(count_live(three, Op::Mul) == 0);
  // A square of 8 bits: 4 rows (row k starts at 2k and stops below bit 8), 3 additions at most.
  const Dfg sq = mul_var_pass(product(8, 8, 8, true), options(0, DesignKind::Pipeline, CarryCuts{}));
  CHECK(count_live(sq, Op::Add) <= 3);
  CHECK(pass_problems(product(8, 8, 8, true), sq).empty());
}

TEST_CASE("values worked out by hand") {
  auto at64 = [](uint32_t budget, uint64_t x, uint64_t y) {
    return (*eval_outputs(mul_var_pass(product(64, 64, 64), options(budget)), {x, y}, {}))[0];
  };
  for (uint32_t budget : {0u, 3u, 8u, kUnlimited}) {
    CAPTURE(budget);
    CHECK(at64(budget, ~uint64_t{0}, ~uint64_t{0}) == 1);                        // (-1)^2
    CHECK(at64(budget, 0x100000001ull, 0xFFFFFFFFull) == 0xFFFFFFFFFFFFFFFFull);  // (2^32 + 1)(2^32 - 1) = 2^64 - 1
    CHECK(at64(budget, 0x10000ull, 0x10000ull) == 0x100000000ull);                // 2^16 * 2^16
    CHECK(at64(budget, 0x1000000000000ull, 0x10000ull) == 0);                     // 2^48 * 2^16 wraps
    // 0xDEADBEEF * 0xCAFEBABE = 0xB092AB7B88CF5B62 (it fits 64 bits), and 10^9 * 10^9 = 10^18.
    CHECK(at64(budget, 0xDEADBEEFull, 0xCAFEBABEull) == 0xB092AB7B88CF5B62ull);
    CHECK(at64(budget, 1000000000ull, 1000000000ull) == 1000000000000000000ull);
  }
  // PCG's multiplier squared, 6364136223846793005^2 mod 2^64 (Python's big integers): 0x685F98A2018FADE9.
  const Dfg sq = mul_var_pass(product(64, 64, 64, true), options(8));
  CHECK((*eval_outputs(sq, {6364136223846793005ull}, {}))[0] == 0x685F98A2018FADE9ull);
}

TEST_CASE("random graphs keep their outputs, alone and through the whole pass pipeline") {
  size_t products = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    RandomDfgOptions ro;
    ro.ops = 32;
    ro.divisions = seed % 2 == 0;
    const Dfg g = random_dfg(seed, ro);
    products += lut_products(g);
    for (uint32_t budget : {0u, 3u, 8u}) {
      const MulVarOptions o = options(budget, seed % 3 == 0 ? DesignKind::Fsm : DesignKind::Pipeline);
      const Dfg after = mul_var_pass(g, o);
      const auto problems = pass_problems(g, after, 60, seed);
      CHECK_MESSAGE(problems.empty(), join(problems) << dump(g));
      CHECK(lut_products(after) == 0);
      const DspCount dsp = dsp_blocks(after);
      CHECK_MESSAGE(dsp.problems.empty(), join(dsp.problems));
      if (o.kind == DesignKind::Pipeline) CHECK(dsp.blocks <= budget);
    }
    PassOptions po;
    po.dsp_limit = seed % 2 ? 8 : 0;
    const Dfg whole = optimize_dfg(g, po);
    const auto problems = pass_problems(g, whole, 60, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << dump(g));
    CHECK(lut_products(whole) == 0);
    CHECK(dsp_blocks(whole).blocks <= po.dsp_limit);
  }
  CHECK(products > 20);  // the graphs did multiply variables
}

TEST_CASE("random graphs of products of products, squares and slices keep their outputs") {
  size_t products = 0, blocks = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_products(seed);
    REQUIRE(check_dfg(g).empty());
    products += lut_products(g);
    for (uint32_t budget : {0u, 1u, 3u, 8u, kUnlimited}) {
      CAPTURE(budget);
      const MulVarOptions o = options(budget, seed % 4 == 0 ? DesignKind::Fsm : DesignKind::Pipeline,
                                      seed % 3 ? carry_cuts(Target::Ice40, 20.8) : CarryCuts{5, 9});
      const Dfg after = mul_var_pass(g, o);
      const auto problems = pass_problems(g, after, 80, seed);
      CHECK_MESSAGE(problems.empty(), join(problems) << dump(g));
      CHECK(lut_products(after) == 0);
      const DspCount dsp = dsp_blocks(after);
      CHECK_MESSAGE(dsp.problems.empty(), join(dsp.problems));
      if (o.kind == DesignKind::Pipeline) CHECK(dsp.blocks <= budget);
      blocks += dsp.blocks;
    }
  }
  CHECK(products > 800);
  CHECK(blocks > 1000);
}

TEST_CASE("the corpus kernels that multiply variables keep their outputs") {
  struct Case {
    std::filesystem::path file;
    size_t random;
  };
  for (const Case& k : {Case{kCorpus / "affine.gk", 400}, Case{kCorpus / "input_tuple.gk", 400},
                        Case{kCorpus / ".." / "rtl" / "kernels" / "pcg_fsm.gk", 150}}) {
    CAPTURE(k.file.string());
    const Dfg g = dfg_from(read_text(k.file));
    CHECK(lut_products(g) > 0);
    for (uint32_t dsps : {0u, 1u, 8u}) {
      CAPTURE(dsps);
      PassOptions po;
      po.kind = g.loop ? DesignKind::Fsm : DesignKind::Pipeline;
      po.dsp_limit = dsps;
      const Dfg after = optimize_dfg(g, po);
      const auto problems = pass_problems(g, after, k.random, dsps + 1);
      CHECK_MESSAGE(problems.empty(), join(problems));
      CHECK(lut_products(after) == 0);
    }
  }
  // long_loop runs cycle * 100000 iterations: the cycles 0 and 1 (1^2 + ... + 100000^2).
  const Dfg g = dfg_from(read_text(kCorpus / "long_loop.gk"));
  for (uint32_t dsps : {0u, 8u}) {
    PassOptions po;
    po.kind = DesignKind::Fsm;
    po.dsp_limit = dsps;
    const Dfg after = optimize_dfg(g, po);
    CHECK(lut_products(after) == 0);
    CHECK((*eval_outputs(after, {0}, {}, 200000))[0] == 0);
    CHECK((*eval_outputs(after, {1}, {}, 200000))[0] == 333338333350000ull);  // n(n+1)(2n+1)/6, n = 10^5
  }
}

TEST_CASE("at 48 MHz no step of a corpus kernel's multiplication is longer than the period") {
  for (const std::string name : {"affine.gk", "input_tuple.gk", "long_loop.gk"})
    for (uint32_t dsps : {0u, 8u}) {
      CAPTURE(name);
      CAPTURE(dsps);
      HlsOptions o = opts(Target::Ice40, 20.8);
      o.dsp_limit = dsps;
      const Design d = must_synth(read_text(kCorpus / name), o);
      CHECK(d.critical_path_ns <= 20.8);
      // (register_problems predates pipeline registers that hold only the bits read later.)
      for (const auto& problems : {dependence_problems(d), timing_problems(d), shape_problems(d)})
        CHECK_MESSAGE(problems.empty(), join(problems));
    }
  // pcg: only its shifts by a variable amount are longer than a step.
  HlsOptions o = opts(Target::Ice40, 20.8);
  const Design d = must_synth(read_text(kCorpus / ".." / "rtl" / "kernels" / "pcg_fsm.gk"), o);
  const double period = schedule_period_ns(Target::Ice40, 20.8);
  for (ValueId v : live_ops(d)) {
    const Op op = d.dfg.nodes[v].op;
    if (op == Op::Shl || op == Op::Shr || op == Op::Rotl || op == Op::Rotr) continue;
    CAPTURE(node_label(d.dfg, v));
    CHECK(d.place[v].finish_ns <= period + 1e-9);
  }
}

TEST_CASE("an FSM shares its DSP blocks across states, within the budget in every state") {
  // acc * x in the loop: 64 x 64 -> 64, ten limb products.
  const std::string text =
      "input (x: u64, n: u64)\n"
      "y := loop (i = 0, acc = 1) while i < n {\n"
      "    i = i + 1\n"
      "    acc = acc * x\n"
      "} yield acc\n";
  for (uint32_t dsps : {0u, 3u, 8u, 10u}) {
    for (std::optional<uint32_t> max_mul : {std::optional<uint32_t>{}, std::optional<uint32_t>{2u}}) {
      CAPTURE(dsps);
      CAPTURE(max_mul.value_or(0));
      HlsOptions o = opts(Target::Ice40, 20.8, max_mul);
      o.dsp_limit = dsps;
      const Design d = must_synth(text, o);
      REQUIRE(d.kind == DesignKind::Fsm);
      const uint32_t limit = std::min(dsps, max_mul.value_or(dsps));
      std::map<uint32_t, uint32_t> per_state;
      std::set<int> units;
      size_t dsp_ops = 0;
      for (ValueId v : live_ops(d)) {
        if (!d.is_dsp(v)) continue;
        ++dsp_ops;
        ++per_state[d.place[v].step];
        units.insert(d.place[v].unit);
        CHECK(d.units[static_cast<size_t>(d.place[v].unit)].cls == UnitClass::Dsp);
      }
      CHECK(dsp_ops == (dsps == 0 ? 0 : 10));
      for (const auto& [state, n] : per_state) CHECK(n <= limit);
      if (dsps > 0) CHECK(per_state.size() >= (10 + limit - 1) / limit);  // 10 products, `limit` a state
      CHECK(units.size() <= limit);
      for (int u : units) {  // a block serves one multiplication per state
        std::set<uint32_t> states;
        for (ValueId v : d.units[static_cast<size_t>(u)].ops) CHECK(states.insert(d.place[v].step).second);
      }
      for (const auto& problems : {dependence_problems(d), timing_problems(d), shape_problems(d), register_problems(d)})
        CHECK_MESSAGE(problems.empty(), join(problems));
    }
  }
}

TEST_CASE("the harness catches planted faults") {
  // A row reading the wrong bit of y: exhaustive 7 x 7 samples find it.
  const Dfg g = product(7, 7, 14);
  const std::vector<Sample> all = every_pair(7, 7, false, 3);
  const Dfg rows = mul_var_pass(g, options(0));
  REQUIRE(output_differences(g, rows, all).empty());
  Dfg wrong_bit = rows;
  bool planted = false;
  for (Node& n : wrong_bit.nodes)
    if (!planted && n.is_op() && n.op == Op::Slice && n.width == 1 && n.param == 3) {
      n.param = 4;
      planted = true;
    }
  REQUIRE(planted);
  CHECK_FALSE(output_differences(g, wrong_bit, all).empty());
  // A DSP product of the wrong limb (bits 17.. of x, not 16..) in a 64 x 64 product: edge and random values find it.
  const Dfg wide = product(64, 64, 64);
  const std::vector<Sample> edges = edge_pairs(64, 64, false, 200, 5);
  const Dfg blocks = mul_var_pass(wide, options(3));
  REQUIRE(output_differences(wide, blocks, edges).empty());
  Dfg wrong_limb = blocks;
  planted = false;
  for (ValueId v = 0; v < wrong_limb.nodes.size() && !planted; ++v) {
    const Node& n = wrong_limb.nodes[v];
    if (!(n.is_op() && n.op == Op::Mul && n.param == 1)) continue;
    for (ValueId o : n.operands) {
      Node& s = wrong_limb.nodes[o];
      if (!planted && s.is_op() && s.op == Op::Slice && s.param == 16 && s.width == 16) {
        s.param = 17;
        planted = true;
      }
    }
  }
  REQUIRE(planted);
  CHECK_FALSE(output_differences(wide, wrong_limb, edges).empty());
  // A carry between two pieces of a cut adder dropped.
  Dfg no_carry = blocks;
  planted = false;
  for (Node& n : no_carry.nodes)
    if (!planted && n.is_op() && n.op == Op::Add && n.operands.size() == 3 && !no_carry.is_constant(n.operands[2])) {
      for (ValueId v = 0; v < no_carry.nodes.size(); ++v)
        if (no_carry.is_constant(v) && no_carry.nodes[v].width == 1 && no_carry.nodes[v].constant == 0) {
          n.operands[2] = v;
          planted = true;
          break;
        }
    }
  REQUIRE(planted);
  CHECK(check_dfg(no_carry).empty());
  CHECK_FALSE(output_differences(wide, no_carry, edges).empty());
  // A square's row not gated by its bit (an And made an Or): exhaustive 12-bit samples find it.
  const Dfg square = product(12, 12, 24, true);
  const std::vector<Sample> squares = every_pair(12, 12, true, 1);
  const Dfg sq = mul_var_pass(square, options(0));
  REQUIRE(output_differences(square, sq, squares).empty());
  Dfg ungated = sq;
  planted = false;
  for (Node& n : ungated.nodes)
    if (!planted && n.is_op() && n.op == Op::And) {
      n.op = Op::Or;
      planted = true;
    }
  REQUIRE(planted);
  CHECK_FALSE(output_differences(square, ungated, squares).empty());
}

TEST_CASE("at an II above 1 multiplications by constants take the blocks left, each whole or not at all") {
  // splitmix64's two constants (each with 10 limb products reaching below bit 64, every limb of
  // three or more set bits) and a 16-bit product of two variables (one limb product: one block).
  const Dfg g = dfg_from(
      "input x: u64\ninput a: u16\ninput b: u16\n"
      "z := (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9\n"
      "w := (z ^ (z >> 27)) * 0x94d049bb133111eb\n"
      "p := a * b\n");
  const auto samples = samples_for(g, 300, 7);
  auto blocks_at = [&](uint32_t dsps, uint32_t ii) {
    MulVarOptions o = options(dsps);
    o.ii = ii;
    const Dfg after = mul_var_pass(g, o);
    const auto diffs = output_differences(g, after, samples);
    CHECK_MESSAGE(diffs.empty(), join(diffs));
    const DspCount c = dsp_blocks(after);
    CHECK_MESSAGE(c.problems.empty(), join(c.problems));
    return c.blocks;
  };
  CHECK(blocks_at(8, 1) == 1);   // II 1: only the product of two variables, as before
  CHECK(blocks_at(8, 2) == 11);  // 16 slots: the variable product, one constant whole (10), not the second
  CHECK(blocks_at(8, 3) == 21);  // 24 slots: both constants
  CHECK(blocks_at(2, 4) == 1);   // 8 slots: neither constant fits whole
  CHECK(blocks_at(0, 4) == 0);
}

}  // TEST_SUITE
