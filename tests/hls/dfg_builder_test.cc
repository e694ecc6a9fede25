// The DFG's evaluator, builder and rewriting frame: the semantics of each
// operation against values worked out by hand, the builder's identities (each
// checked to keep the value), random graphs that keep the graph's rules, and
// cleanup() keeping every output. The pass-test harness itself is shown to
// catch a planted fault.
#include <doctest/doctest.h>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"
#include "hls_support.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

uint64_t eval1(Op op, unsigned w, std::vector<uint64_t> x, std::vector<unsigned> xw, bool sgn = false,
               uint32_t param = 0) {
  Node n;
  n.op = op;
  n.width = w;
  n.sgn = sgn;
  n.param = param;
  return eval_node(n, x, xw);
}

// A graph with one input of width w whose single output is built by `make`.
Dfg one_input(unsigned w, unsigned out_w, const std::function<ValueId(DfgBuilder&, ValueId)>& make) {
  Dfg g;
  g.name = "t";
  DfgBuilder b(g);
  Node in;
  in.kind = NodeKind::Input;
  in.width = w;
  in.name = "x";
  const ValueId x = b.raw(in);
  g.inputs.push_back(DfgPort{"x", ir::Ty::scalar(w == 1 ? ir::TyKind::Bool : w == 8 ? ir::TyKind::U8 : w == 16 ? ir::TyKind::U16 : w == 32 ? ir::TyKind::U32 : ir::TyKind::U64), x});
  const ValueId y = make(b, x);
  g.outputs.push_back(DfgPort{"y", ir::Ty::scalar(out_w == 1 ? ir::TyKind::Bool : out_w == 8 ? ir::TyKind::U8 : out_w == 16 ? ir::TyKind::U16 : out_w == 32 ? ir::TyKind::U32 : ir::TyKind::U64), y});
  return g;
}

}  // namespace

TEST_SUITE("dfg builder") {

TEST_CASE("operation semantics, worked out by hand") {
  CHECK(eval1(Op::Slice, 8, {0x12345678}, {32}, false, 8) == 0x56);
  CHECK(eval1(Op::Concat, 24, {0xAB, 0xCDEF}, {8, 16}) == 0xABCDEF);
  CHECK(eval1(Op::SExt, 16, {0x80}, {8}) == 0xFF80);
  CHECK(eval1(Op::ZExt, 16, {0x80}, {8}) == 0x80);
  CHECK(eval1(Op::Xor, 8, {0xF0, 0x3C, 0x01}, {8, 8, 8}) == 0xCD);
  CHECK(eval1(Op::Mux, 8, {1, 5, 9}, {1, 8, 8}) == 5);
  CHECK(eval1(Op::Mux, 8, {0, 5, 9}, {1, 8, 8}) == 9);
  CHECK(eval1(Op::AndReduce, 1, {0xFF}, {8}) == 1);
  CHECK(eval1(Op::AndReduce, 1, {0x7F}, {8}) == 0);
  CHECK(eval1(Op::XorReduce, 1, {0x7}, {8}) == 1);
  CHECK(eval1(Op::Lt, 1, {0x80, 0x01}, {8, 8}, true) == 1);   // -128 < 1
  CHECK(eval1(Op::Lt, 1, {0x80, 0x01}, {8, 8}, false) == 0);  // 128 < 1
  CHECK(eval1(Op::Ge, 1, {0x7F, 0x80}, {8, 8}, true) == 1);   // 127 >= -128
  CHECK(eval1(Op::Add, 8, {0xFF, 0x01, 1}, {8, 8, 1}) == 0x01);
  CHECK(eval1(Op::Sub, 8, {0x00, 0x01}, {8, 8}) == 0xFF);
  CHECK(eval1(Op::Mul, 16, {0xFF, 0xFF}, {8, 8}) == 0xFE01);   // narrow operands, full product
  CHECK(eval1(Op::Mul, 8, {0xFF, 0xFF}, {8, 8}) == 0x01);
  CHECK(eval1(Op::Div, 8, {0x80, 0xFF}, {8, 8}, true) == 0x80);  // MIN / -1 = MIN
  CHECK(eval1(Op::Mod, 8, {0x80, 0xFF}, {8, 8}, true) == 0);     // MIN % -1 = 0
  CHECK(eval1(Op::Div, 8, {7, 0}, {8, 8}) == 0xFF);              // x / 0 = all ones
  CHECK(eval1(Op::Mod, 8, {7, 0}, {8, 8}) == 7);                 // x % 0 = x
  CHECK(eval1(Op::Div, 8, {0xF9, 2}, {8, 8}, true) == 0xFD);     // -7 / 2 = -3 (toward zero)
  CHECK(eval1(Op::Mod, 8, {0xF9, 2}, {8, 8}, true) == 0xFF);     // -7 % 2 = -1
  CHECK(eval1(Op::Shl, 8, {1, 8}, {8, 8}) == 0);
  CHECK(eval1(Op::Shr, 8, {0x80, 7}, {8, 8}, true) == 0xFF);
  CHECK(eval1(Op::Shr, 8, {0x80, 200}, {8, 8}, true) == 0xFF);
  CHECK(eval1(Op::Shr, 8, {0x40, 200}, {8, 8}, true) == 0);
  CHECK(eval1(Op::Rotl, 8, {0x81, 9}, {8, 8}) == 0x03);
  CHECK(eval1(Op::Rotr, 8, {0x81, 1}, {8, 8}) == 0xC0);
  CHECK(eval1(Op::Clz, 7, {0}, {16}) == 16);
  CHECK(eval1(Op::Clz, 7, {1}, {16}) == 15);
  CHECK(eval1(Op::Ctz, 7, {0x8000}, {16}) == 15);
  CHECK(eval1(Op::Popcount, 4, {0xFF}, {8}) == 8);
  Node rom;
  rom.op = Op::Rom;
  rom.width = 8;
  rom.table = {3, 1, 4, 1};
  CHECK(eval_node(rom, {2}, {2}) == 4);
}

TEST_CASE("the builder's identities keep the value") {
  struct Case {
    const char* what;
    unsigned w, out_w;
    std::function<ValueId(DfgBuilder&, ValueId)> make;
    std::function<bool(const Dfg&)> shape;  // what the builder made of it
    std::function<uint64_t(uint64_t)> ref;   // the value, computed here
  };
  auto output_is_input = [](const Dfg& g) { return g.outputs[0].value == g.inputs[0].value; };
  auto no_logic = [](const Dfg& g) {
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (g.is_logic(v)) return false;
    return true;
  };
  const std::vector<Case> cases = {
      {"x ^ x is 0", 16, 16, [](DfgBuilder& b, ValueId x) { return b.bxor(x, x); },
       [](const Dfg& g) { return g.is_constant(g.outputs[0].value); }, [](uint64_t) { return uint64_t{0}; }},
      {"x & ones is x", 16, 16, [](DfgBuilder& b, ValueId x) { return b.band(x, b.constant(16, 0xFFFF)); }, output_is_input,
       [](uint64_t x) { return x; }},
      {"x ^ ones is ~x", 16, 16, [](DfgBuilder& b, ValueId x) { return b.bxor(x, b.constant(16, 0xFFFF)); },
       [](const Dfg& g) { return g.nodes[g.outputs[0].value].op == Op::Not; }, [](uint64_t x) { return ~x & 0xFFFF; }},
      {"a slice of a concatenation is the part", 16, 8,
       [](DfgBuilder& b, ValueId x) { return b.slice(b.concat({x, b.constant(8, 0x5A)}), 12, 8); },
       [](const Dfg& g) { return g.nodes[g.outputs[0].value].op == Op::Slice; }, [](uint64_t x) { return (x >> 4) & 0xFF; }},
      {"adjacent slices merge", 32, 32,
       [](DfgBuilder& b, ValueId x) { return b.concat({b.slice(x, 16, 16), b.slice(x, 0, 16)}); }, output_is_input,
       [](uint64_t x) { return x; }},
      {"rotl by a constant is wiring", 64, 64,
       [](DfgBuilder& b, ValueId x) { return b.op(Op::Rotl, 64, {x, b.constant(8, 13)}); }, no_logic,
       [](uint64_t x) { return (x << 13) | (x >> 51); }},
      {"an arithmetic shift by a constant is wiring", 32, 32,
       [](DfgBuilder& b, ValueId x) { return b.op(Op::Shr, 32, {x, b.constant(8, 5)}, true); }, no_logic,
       [](uint64_t x) { return static_cast<uint64_t>(static_cast<int32_t>(static_cast<uint32_t>(x)) >> 5) & 0xFFFFFFFF; }},
      {"a shift past the width", 32, 32, [](DfgBuilder& b, ValueId x) { return b.op(Op::Shl, 32, {x, b.constant(8, 40)}); },
       [](const Dfg& g) { return g.is_constant(g.outputs[0].value); }, [](uint64_t) { return uint64_t{0}; }},
      {"a mux on a constant", 8, 8,
       [](DfgBuilder& b, ValueId x) { return b.mux(b.constant(1, 1), x, b.constant(8, 3)); }, output_is_input,
       [](uint64_t x) { return x; }},
      {"a slice of a sign extension above the value", 8, 8,
       [](DfgBuilder& b, ValueId x) { return b.slice(b.sext(x, 32), 20, 8); },
       [](const Dfg& g) { return g.nodes[g.outputs[0].value].op == Op::SExt; },
       [](uint64_t x) { return x & 0x80 ? uint64_t{0xFF} : uint64_t{0}; }},
      {"leading zeros of a concatenation are an extension", 8, 16,
       [](DfgBuilder& b, ValueId x) { return b.concat({b.constant(8, 0), x}); },
       [](const Dfg& g) { return g.nodes[g.outputs[0].value].op == Op::ZExt; }, [](uint64_t x) { return x; }},
      {"x * 1 and x + 0", 16, 16,
       [](DfgBuilder& b, ValueId x) { return b.add(b.op(Op::Mul, 16, {x, b.constant(16, 1)}), b.constant(16, 0)); },
       output_is_input, [](uint64_t x) { return x; }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const Dfg g = one_input(c.w, c.out_w, c.make);
    CHECK(check_dfg(g).empty());
    CHECK(c.shape(g));
    for (const Sample& s : samples_for(g, 100, 3)) {
      CAPTURE(s.inputs[0]);
      CHECK((*eval_outputs(g, s.inputs, s.configs))[0] == c.ref(s.inputs[0]));
    }
  }
}

TEST_CASE("constants fold through the builder") {
  Dfg g;
  DfgBuilder b(g);
  const ValueId k = b.op(Op::Mul, 64, {b.constant(64, 0x9E3779B97F4A7C15ull), b.constant(64, 3)});
  CHECK(g.is_constant(k));
  CHECK(g.nodes[k].constant == 0x9E3779B97F4A7C15ull * 3);
  const ValueId m = b.op(Op::Mod, 16, {b.constant(16, 1000), b.constant(16, 7)});
  CHECK(g.nodes[m].constant == 1000 % 7);
  // Structurally equal nodes are one.
  const ValueId c1 = b.constant(8, 5), c2 = b.constant(8, 5);
  CHECK(c1 == c2);
}

TEST_CASE("random graphs keep the graph's rules, and cleanup keeps their outputs") {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    const auto rules = check_dfg(g);
    REQUIRE_MESSAGE(rules.empty(), rules.front() << "\n" << dump(g));
    const auto problems = pass_problems(g, cleanup(g), 50, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << dump(g));
  }
}

TEST_CASE("the DFG of a kernel agrees with values worked out by hand") {
  // hash(0) and hash(1) of TOOLCHAIN.md (xxHash's XXH3_64bits).
  const Dfg g = dfg_from("input x: u64\nh := hash(x)\n");
  CHECK((*eval_outputs(g, {0}, {}))[0] == 0xc77b3abb6f87acd9ull);
  CHECK((*eval_outputs(g, {1}, {}))[0] == 0x2fbc593564db792eull);
  CHECK((*eval_outputs(g, {42}, {}))[0] == 0xd5a6f8c838df27c8ull);
  // sum_to_n: 1 + ... + 10 = 55, through the loop.
  const Dfg s = dfg_from(
      "input n: u64\ntotal := loop (i = 1, acc = 0) while i <= n {\n    acc = acc + i\n    i = i + 1\n} yield acc\n");
  uint64_t iterations = 0;
  auto v = eval_values(s, {10}, {}, 1000, &iterations);
  REQUIRE(v.has_value());
  CHECK((*v)[s.outputs[0].value] == 55);
  CHECK(iterations == 10);
  CHECK_FALSE(eval_outputs(s, {1000000}, {}, 1000).has_value());  // past the iteration limit
}

TEST_CASE("the pass harness catches a planted fault") {
  // A "pass" that turns one addition into a subtraction must be caught.
  const Dfg g = dfg_from("input (a: u32, b: u32)\ns := (a + b) ^ 7\n");
  Dfg broken = g;
  for (Node& n : broken.nodes)
    if (n.is_op() && n.op == Op::Add) n.op = Op::Sub;
  CHECK_FALSE(pass_problems(g, broken).empty());
  // And one that breaks the graph's rules (an operand of the wrong width).
  Dfg bad = g;
  for (Node& n : bad.nodes)
    if (n.is_op() && n.op == Op::Add) n.width = 16;
  CHECK_FALSE(check_dfg(bad).empty());
  // A small graph is checked exhaustively: a fault on one input value only is found.
  const Dfg small = dfg_from("input (a: u8, b: u8)\ns := a + b\n");
  Dfg one_off = small;
  DfgBuilder b(one_off);
  const ValueId a = one_off.inputs[0].value, bb = one_off.inputs[1].value;
  const ValueId is_77 = b.compare(Op::Eq, a, b.constant(8, 77));
  one_off.outputs[0].value = b.mux(is_77, b.constant(8, 0), b.add(a, bb));
  CHECK(samples_for(small, 0, 1).size() == 65536);
  CHECK_FALSE(output_differences(small, one_off, samples_for(small, 0, 1)).empty());
}

}  // TEST_SUITE
