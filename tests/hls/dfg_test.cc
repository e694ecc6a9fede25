// The scalar dataflow graph built from real kernels: products flattened into
// ports and state registers, constant powers expanded into multiplications,
// the Pre/Loop/Post regions of dfg.h, and live().
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "hls/dfg.h"
#include "hls/dfg_eval.h"
#include "hls/predicate.h"
#include "hls_support.h"

using namespace polydat;
using namespace polydat::hls;
using hls::testing::compile_kernel;
using hls::testing::isolated;
using hls::testing::join;
using hls::Op;

namespace {

Dfg dfg_of(const std::string& text, bool use_config = true) {
  auto k = compile_kernel(text);
  INFO(k.error);
  REQUIRE(k.ok());
  auto kind = single_loop_fsm(*k.ir, k.ir->entry());
  REQUIRE(kind.ok());
  auto g = build_dfg(*k.ir, k.ir->entry(), use_config ? k.config : std::vector<bool>{});
  if (!g) INFO(g.error().kind << ": " << g.error().message);
  REQUIRE(g.ok());
  return std::move(*g);
}

std::vector<ValueId> ops_of(const Dfg& g, Op k) {
  std::vector<ValueId> out;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].kind == NodeKind::Op && g.nodes[v].op == k) out.push_back(v);
  return out;
}

std::vector<std::string> port_names(const std::vector<DfgPort>& ports) {
  std::vector<std::string> out;
  for (const DfgPort& p : ports) out.push_back(p.name);
  return out;
}

// The one operation of kind k whose operands are exactly `operands` (in any order).
ValueId the_op(const Dfg& g, Op k, std::vector<ValueId> operands) {
  std::sort(operands.begin(), operands.end());
  std::vector<ValueId> found;
  for (ValueId v : ops_of(g, k)) {
    auto o = g.nodes[v].operands;
    std::sort(o.begin(), o.end());
    if (o == operands) found.push_back(v);
  }
  REQUIRE(found.size() == 1);
  return found.front();
}

// For isolated() probes (no doctest macros): the DFG of a kernel, or why not.
std::optional<Dfg> try_dfg(const std::string& text, std::vector<std::string>& problems) {
  auto k = compile_kernel(text);
  if (!k.ok()) {
    problems.push_back("the kernel does not compile: " + k.error);
    return std::nullopt;
  }
  if (!single_loop_fsm(*k.ir, k.ir->entry()).ok()) {
    problems.push_back("single_loop_fsm refuses the kernel");
    return std::nullopt;
  }
  auto g = build_dfg(*k.ir, k.ir->entry(), k.config);
  if (!g) {
    problems.push_back("build_dfg refuses the kernel: " + g.error().message);
    return std::nullopt;
  }
  return std::move(*g);
}

// For isolated() probes: the one operation of kind k reading exactly `operands`.
std::optional<ValueId> find_op(const Dfg& g, Op k, std::vector<ValueId> operands, std::vector<std::string>& problems) {
  std::sort(operands.begin(), operands.end());
  std::vector<ValueId> found;
  for (ValueId v : ops_of(g, k)) {
    auto o = g.nodes[v].operands;
    std::sort(o.begin(), o.end());
    if (o == operands) found.push_back(v);
  }
  if (found.size() == 1) return found.front();
  std::string want;
  for (ValueId o : operands) want += " v" + std::to_string(o);
  problems.push_back(std::to_string(found.size()) + " " + std::string(op_name(k)) + " nodes read" + want);
  return std::nullopt;
}

bool is_constant(const Dfg& g, ValueId v, uint64_t value) {
  return g.nodes[v].kind == NodeKind::Constant && g.nodes[v].constant == value;
}

// The operation of kind k reading `a` and a constant `c`.
ValueId op_with_constant(const Dfg& g, Op k, ValueId a, uint64_t c) {
  std::vector<ValueId> found;
  for (ValueId v : ops_of(g, k)) {
    const auto& o = g.nodes[v].operands;
    if (o.size() == 2 && ((o[0] == a && is_constant(g, o[1], c)) || (o[1] == a && is_constant(g, o[0], c))))
      found.push_back(v);
  }
  REQUIRE(found.size() == 1);
  return found.front();
}

// 1 + 2 + ... + n, with an invariant bound and arithmetic on the exit value.
const char* kSumVariant =
    "input n: u64\n"
    "total := loop (i = 1, acc = 0) while i <= n * 2 {\n"
    "    acc = acc + i\n"
    "    i = i + 1\n"
    "} yield acc * 3\n";

const char* kSumToN =
    "input n: u64\n"
    "total := loop (i = 1, acc = 0) while i <= n {\n"
    "    acc = acc + i\n"
    "    i = i + 1\n"
    "} yield acc\n";

}  // namespace

TEST_SUITE("dfg") {

TEST_CASE("a kernel's outputs are its output struct's fields, one port per scalar field") {
  const Dfg g = dfg_of(
      "input (x: u64, small: u8, flag: bool)\n"
      "a := x + 1\n"
      "b := small * 3\n"
      "c: bool := flag & (x > 5)\n");  // a comparison is a u64 1 or 0: declared bool
  CHECK(g.name == "kernel");
  CHECK(port_names(g.inputs) == std::vector<std::string>{"x", "small", "flag"});
  REQUIRE(g.outputs.size() == 3);
  CHECK(port_names(g.outputs) == std::vector<std::string>{"a", "b", "c"});
  CHECK(g.outputs[0].ty.bits() == 64);
  CHECK(g.outputs[1].ty.bits() == 8);
  CHECK(g.outputs[2].ty.is_bool());
  // Every port's value is a scalar node of the port's type.
  for (const DfgPort& p : g.outputs) CHECK(g.nodes[p.value].width == p.ty.bits());
  for (const DfgPort& p : g.inputs) {
    CHECK(g.nodes[p.value].kind == NodeKind::Input);
    CHECK(g.nodes[p.value].name == p.name);
  }
  CHECK(g.configs.empty());
  CHECK_FALSE(g.loop.has_value());
}

TEST_CASE("a destructured tuple leaves as one port per element") {
  const Dfg g = dfg_of(
      "input n: u64\n"
      "(q, r) := loop (a = 0, b = n) while b >= 3 {\n"
      "    a = a + 1\n"
      "    b = b - 3\n"
      "} yield (a, b)\n");
  REQUIRE(g.outputs.size() == 2);
  CHECK(port_names(g.outputs) == std::vector<std::string>{"q", "r"});
  REQUIRE(g.loop.has_value());
  // The exit reads the state the guard rejected: the outputs are the state registers.
  CHECK(g.outputs[0].value == g.loop->state[0]);
  CHECK(g.outputs[1].value == g.loop->state[1]);
}

TEST_CASE("externs become config ports when marked, inputs otherwise") {
  const char* lfsr =
      "input cycle: u64\n"
      "extern seed: u64 = 1\n"
      "state := loop (s = seed, i = 0) while i < cycle {\n"
      "    s = (s >> 1) ^ ((s & 1) * 0xB400)\n"
      "    i = i + 1\n"
      "} yield s\n";
  const Dfg g = dfg_of(lfsr);
  CHECK(port_names(g.inputs) == std::vector<std::string>{"cycle"});
  REQUIRE(port_names(g.configs) == std::vector<std::string>{"seed"});
  CHECK(g.nodes[g.configs[0].value].kind == NodeKind::Config);
  REQUIRE(g.loop.has_value());
  CHECK(g.loop->init[0] == g.configs[0].value);  // s starts at cfg_seed
  const Dfg h = dfg_of(lfsr, false);
  CHECK(port_names(h.inputs) == std::vector<std::string>{"cycle", "seed"});
  CHECK(h.configs.empty());
}

TEST_CASE("a tuple-carried loop gets one state register per scalar") {
  // pcg's loop carries five u64 variables.
  const Dfg g = dfg_of(
      "input position: u64\n"
      "input stream: u64\n"
      "out := pcg_stream(position, stream)\n");
  REQUIRE(g.loop.has_value());
  const DfgLoop& l = *g.loop;
  REQUIRE(l.state.size() == 5);
  CHECK(l.init.size() == 5);
  CHECK(l.next.size() == 5);
  const std::vector<std::string> names{"acc_mult", "acc_plus", "cur_mult", "cur_plus", "delta"};
  for (uint32_t i = 0; i < 5; ++i) {
    const Node& s = g.nodes[l.state[i]];
    CHECK(s.kind == NodeKind::State);
    CHECK(s.index == i);
    CHECK(s.width == 64);
    CHECK(s.name == names[i]);
  }
  // Initial values: 1, 0, 6364136223846793005, increment = 2 * stream + 1, position.
  CHECK(is_constant(g, l.init[0], 1));
  CHECK(is_constant(g, l.init[1], 0));
  CHECK(is_constant(g, l.init[2], 6364136223846793005ull));
  CHECK(g.nodes[l.init[3]].op == Op::Add);
  CHECK(l.init[4] == g.inputs[0].value);
  // The guard is delta != 0.
  CHECK(g.nodes[l.cond].op == Op::Ne);
  CHECK(g.nodes[l.cond].width == 1);
  // Only 'delta = delta >> 1' writes delta: a shift by a constant is wiring,
  // the state's bits 1..63 zero-extended.
  const Node& next_delta = g.nodes[l.next[4]];
  CHECK(next_delta.op == Op::ZExt);
  const Node& bits = g.nodes[next_delta.operands.at(0)];
  CHECK(bits.op == Op::Slice);
  CHECK(bits.param == 1);
  CHECK(bits.width == 63);
  CHECK(bits.operands.at(0) == l.state[4]);
}

TEST_CASE("state registers keep each variable's own width") {
  const Dfg g = dfg_of(
      "input cycle: u64\n"
      "(zx, zi) := loop (x = cycle, i: u8 = 9, on = true) while i < 3 { x = 0; i = i + 1; on = !on } yield (x, i)\n");
  REQUIRE(g.loop.has_value());
  REQUIRE(g.loop->state.size() == 3);
  CHECK(g.nodes[g.loop->state[0]].width == 64);
  CHECK(g.nodes[g.loop->state[1]].width == 8);
  CHECK(g.nodes[g.loop->state[2]].width == 1);
}

// The tests that build a constant power run in a child process
// (testing::isolated): power() once built its multiplications from a dangling
// reference into the node vector, and a heap corruption there must not take
// the rest of the suite down with it.
TEST_CASE("x ** 5 becomes three multiplications: x^2, x^4 and x^4 * x") {
  const auto problems = isolated([] {
    std::vector<std::string> p;
    auto g = try_dfg("input (x: u64, unused: u64)\ny := x ** 5\n", p);
    if (!g) return p;
    if (ops_of(*g, Op::Mul).size() != 3) p.push_back(std::to_string(ops_of(*g, Op::Mul).size()) + " Mul nodes");
    const ValueId x = g->inputs.at(0).value;
    const auto x2 = find_op(*g, Op::Mul, {x, x}, p);
    if (!x2) return p;
    const auto x4 = find_op(*g, Op::Mul, {*x2, *x2}, p);
    if (!x4) return p;
    const auto x5 = find_op(*g, Op::Mul, {*x4, x}, p);
    if (!x5) return p;
    if (g->outputs.size() != 1 || g->outputs[0].value != *x5) p.push_back("the output is not x^4 * x");
    if (g->nodes[*x5].name != "y") p.push_back("x^4 * x is not named y");
    if (g->nodes[*x5].loc.line != 2) p.push_back("x^4 * x is not on line 2");
    return p;
  });
  CHECK_MESSAGE(problems.empty(), join(problems));
}

TEST_CASE("the multiplications of a power have the base's type") {
  const auto problems = isolated([] {
    std::vector<std::string> p;
    for (const char* text : {"input (x: u64, unused: u64)\ny := x ** 5\n", "input x: u64\ny := x ** 3\n"}) {
      auto g = try_dfg(text, p);
      if (!g) continue;
      for (ValueId m : ops_of(*g, Op::Mul))
        if (g->nodes[m].width != 64)
          p.push_back(std::string(text) + ": Mul v" + std::to_string(m) + " is " + std::to_string(g->nodes[m].width) +
                      " bits wide, not 64");
    }
    auto h = try_dfg("input x: u32\ny := x ** 8\n", p);
    if (h) {
      for (ValueId m : ops_of(*h, Op::Mul))
        if (h->nodes[m].width != 32) p.push_back("x ** 8 (u32): Mul v" + std::to_string(m) + " is not 32 bits wide");
      if (h->outputs.at(0).ty.bits() != 32) p.push_back("x ** 8 (u32): the output is not 32 bits wide");
    }
    return p;
  });
  CHECK_MESSAGE(problems.empty(), join(problems));
}

TEST_CASE("other constant exponents") {
  // x ** 0 and x ** 1 build no multiplication (power() never reads its dangling reference).
  SUBCASE("x ** 0 is the constant 1") {
    const Dfg g = dfg_of("input x: u64\ny := x ** 0\n");
    CHECK(ops_of(g, Op::Mul).empty());
    CHECK(is_constant(g, g.outputs.at(0).value, 1));
  }
  SUBCASE("x ** 1 is x") {
    const Dfg g = dfg_of("input x: u64\ny := x ** 1\n");
    CHECK(ops_of(g, Op::Mul).empty());
    CHECK(g.outputs.at(0).value == g.inputs.at(0).value);
  }
  SUBCASE("x ** 8 is three squarings") {
    const auto problems = isolated([] {
      std::vector<std::string> p;
      auto g = try_dfg("input x: u32\ny := x ** 8\n", p);
      if (!g) return p;
      if (ops_of(*g, Op::Mul).size() != 3) p.push_back(std::to_string(ops_of(*g, Op::Mul).size()) + " Mul nodes");
      const ValueId x = g->inputs.at(0).value;
      const auto x2 = find_op(*g, Op::Mul, {x, x}, p);
      if (!x2) return p;
      const auto x4 = find_op(*g, Op::Mul, {*x2, *x2}, p);
      if (!x4) return p;
      const auto x8 = find_op(*g, Op::Mul, {*x4, *x4}, p);
      if (x8 && g->outputs.at(0).value != *x8) p.push_back("the output is not x^8");
      return p;
    });
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
  SUBCASE("x ** 7: x^2, x^4 and two products") {
    const auto problems = isolated([] {
      std::vector<std::string> p;
      auto g = try_dfg("input x: u64\ny := x ** 7\n", p);
      // 7 = 111b: two squarings, two multiplications into the product.
      if (g && ops_of(*g, Op::Mul).size() != 4) p.push_back(std::to_string(ops_of(*g, Op::Mul).size()) + " Mul nodes");
      return p;
    });
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
}

TEST_CASE("sum_to_n: the guard and the next state are in the loop") {
  const Dfg g = dfg_of(kSumToN);
  REQUIRE(g.loop.has_value());
  const DfgLoop& l = *g.loop;
  REQUIRE(l.state.size() == 2);
  const ValueId i = l.state[0], acc = l.state[1], n = g.inputs.at(0).value;
  CHECK(g.nodes[i].name == "i");
  CHECK(g.nodes[acc].name == "acc");
  CHECK(is_constant(g, l.init[0], 1));
  CHECK(is_constant(g, l.init[1], 0));
  const ValueId guard = the_op(g, Op::Le, {i, n});
  CHECK(l.cond == guard);
  CHECK(g.nodes[guard].operands == std::vector<ValueId>{i, n});  // i <= n, in that order
  const ValueId next_acc = the_op(g, Op::Add, {acc, i});
  const ValueId next_i = op_with_constant(g, Op::Add, i, 1);
  CHECK(l.next == std::vector<ValueId>{next_i, next_acc});
  for (ValueId v : {guard, next_acc, next_i}) CHECK(g.nodes[v].region == Region::Loop);
  CHECK(g.outputs.at(0).value == acc);
  CHECK(g.loop->loc.line == 2);
  // Three operations, all in the loop.
  size_t ops = 0;
  for (const Node& node : g.nodes) ops += node.kind == NodeKind::Op;
  CHECK(ops == 3);
}

TEST_CASE("sum_to_n with an invariant bound and exit arithmetic: Pre, Loop and Post") {
  const Dfg g = dfg_of(kSumVariant);
  REQUIRE(g.loop.has_value());
  const DfgLoop& l = *g.loop;
  const ValueId i = l.state[0], acc = l.state[1], n = g.inputs.at(0).value;
  // n * 2 reads no state: Pre.
  const ValueId bound = op_with_constant(g, Op::Mul, n, 2);
  CHECK(g.nodes[bound].region == Region::Pre);
  // The guard and the next state: Loop.
  const ValueId guard = the_op(g, Op::Le, {i, bound});
  CHECK(l.cond == guard);
  CHECK(g.nodes[guard].region == Region::Loop);
  CHECK(g.nodes[the_op(g, Op::Add, {acc, i})].region == Region::Loop);
  CHECK(g.nodes[op_with_constant(g, Op::Add, i, 1)].region == Region::Loop);
  // acc * 3 reads the state and feeds only the output: Post.
  const ValueId out = op_with_constant(g, Op::Mul, acc, 3);
  CHECK(g.nodes[out].region == Region::Post);
  CHECK(g.outputs.at(0).value == out);
}

TEST_CASE("a loop value that also feeds the exit stays in the loop region") {
  // After CSE the yield's acc * 3 + i is the body's: it feeds the next state (Loop)
  // and the exit's ^ 5, which is Post.
  const Dfg g = dfg_of(
      "input n: u64\n"
      "r := loop (i = 0, acc = 0) while i < n {\n"
      "    acc = acc * 3 + i\n"
      "    i = i + 1\n"
      "} yield (acc * 3 + i) ^ 5\n");
  REQUIRE(g.loop.has_value());
  const ValueId acc = g.loop->state[1];
  const ValueId acc3 = op_with_constant(g, Op::Mul, acc, 3);
  const ValueId sum = the_op(g, Op::Add, {acc3, g.loop->state[0]});
  CHECK(g.loop->next[1] == sum);
  CHECK(g.nodes[sum].region == Region::Loop);
  const ValueId x = op_with_constant(g, Op::Xor, sum, 5);
  CHECK(g.nodes[x].region == Region::Post);
}

TEST_CASE("live() keeps what outputs and the loop need and drops the rest") {
  SUBCASE("an unused input, the exponent and the power's unused 1") {
    const auto problems = isolated([] {  // a constant power: see the isolated() note above
      std::vector<std::string> p;
      auto g = try_dfg("input (x: u64, unused: u64)\ny := x ** 5\n", p);
      if (!g) return p;
      const auto live = g->live();
      if (live.size() != g->nodes.size()) return std::vector<std::string>{"live() does not cover every value"};
      if (!live[g->inputs[0].value]) p.push_back("x is not live");
      if (live[g->inputs[1].value]) p.push_back("the unused input is live");
      for (ValueId m : ops_of(*g, Op::Mul))
        if (!live[m]) p.push_back("a multiplication is not live");
      // The constants (5, the exponent, and 1, the power's starting product) feed nothing live.
      size_t constants = 0;
      for (ValueId v = 0; v < g->nodes.size(); ++v)
        if (g->nodes[v].kind == NodeKind::Constant) {
          ++constants;
          if (live[v]) p.push_back("constant v" + std::to_string(v) + " is live");
        }
      if (constants == 0) p.push_back("no constant nodes");
      return p;
    });
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
  SUBCASE("an unused input and an unused binding's operations") {
    // b is an output (nothing reads it), so it is live; the input `unused` is not.
    const Dfg g = dfg_of("input (x: u64, unused: u64)\na := x + 1\nb := a * 3\n");
    const auto live = g.live();
    CHECK(live[g.inputs[0].value]);
    CHECK_FALSE(live[g.inputs[1].value]);
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (g.nodes[v].kind == NodeKind::Op) CHECK(live[v]);
  }
  SUBCASE("a loop: the state, its initial values, the guard and the next state") {
    const Dfg g = dfg_of(kSumToN);
    const auto live = g.live();
    const DfgLoop& l = *g.loop;
    for (ValueId v : l.state) CHECK(live[v]);
    for (ValueId v : l.init) CHECK(live[v]);
    for (ValueId v : l.next) CHECK(live[v]);
    CHECK(live[l.cond]);
    CHECK(live[g.inputs[0].value]);
  }
  SUBCASE("every operand of a live value is live") {
    const Dfg g = dfg_of(kSumVariant);
    const auto live = g.live();
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (live[v])
        for (ValueId o : g.nodes[v].operands) CHECK(live[o]);
  }
}

TEST_CASE("operands come before their users") {
  for (const char* text : {kSumToN, kSumVariant, "input x: u64\ny := mod(hash(x), 1000)\n"}) {
    const Dfg g = dfg_of(text);
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      for (ValueId o : g.nodes[v].operands) CHECK(o < v);
  }
}

TEST_CASE("a mux reads (condition, if true, if false)") {
  const Dfg g = dfg_of(
      "input (x: u64, y: u64)\n"
      "m := if(x > y, x, y + 1)\n");
  const auto phis = ops_of(g, Op::Mux);
  REQUIRE(phis.size() == 1);
  const Node& m = g.nodes[phis[0]];
  REQUIRE(m.operands.size() == 3);
  CHECK(g.nodes[m.operands[0]].op == Op::Gt);
  CHECK(m.operands[1] == g.inputs[0].value);
  CHECK(g.nodes[m.operands[2]].op == Op::Add);
  CHECK(m.width == 64);
}

// x ** e wrapping at x's width, by repeated multiplication: the reference, written apart from the builder.
uint64_t slow_pow(uint64_t x, uint64_t e, unsigned w) {
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  uint64_t r = 1 & mask;
  for (uint64_t i = 0; i < e; ++i) r = (r * x) & mask;
  return r;
}

TEST_CASE("a run-time exponent is square and multiply over its bits, every base and exponent checked") {
  for (const char* ty : {"u8", "u16", "i8"}) {
    CAPTURE(ty);
    const Dfg g = dfg_of(std::string("input (x: ") + ty + ", e: u16)\np := x ** e\n");
    CHECK(ops_of(g, Op::Mul).size() > 0);
    const unsigned w = std::string(ty) == "u16" ? 16 : 8;
    size_t wrong = 0;
    for (uint64_t x = 0; x < (uint64_t{1} << w); x += (w == 16 ? 97 : 1))
      for (uint64_t e : {0, 1, 2, 3, 5, 6, 7, 8, 13, 64, 255, 256, 1000, 4097, 65535}) {
        auto out = eval_outputs(g, {x, e}, {});
        REQUIRE(out.has_value());
        wrong += (*out)[0] != slow_pow(x, e, w);
      }
    CHECK(wrong == 0);
  }
}

TEST_CASE("a 64-bit run-time exponent: the high bits only decide zero or not") {
  const Dfg g = dfg_of("input (x: u64, e: u64)\np := x ** e\n");
  // x^e mod 2^64 by the C++ reference for exponents whose high bits are set: odd x to a multiple of
  // 2^62 is 1, even x is 0.
  for (uint64_t x : {0ull, 1ull, 2ull, 3ull, 0xFFFFFFFFFFFFFFFFull, 0x123456789ABCDEFull, 6364136223846793005ull})
    for (uint64_t e : {0ull, 1ull, 63ull, 64ull, 1ull << 61, 1ull << 62, 1ull << 63, ~0ull, (1ull << 62) + 5}) {
      uint64_t r = 1, b = x;
      for (uint64_t k = e; k; k >>= 1, b *= b)
        if (k & 1) r *= b;
      auto out = eval_outputs(g, {x, e}, {});
      REQUIRE(out.has_value());
      CHECK_MESSAGE((*out)[0] == r, x << " ** " << e);
    }
}

}  // TEST_SUITE
