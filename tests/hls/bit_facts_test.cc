// The bit-facts analysis: every transfer function is sound (checked by
// enumerating every operand value the facts admit at small widths, against
// eval_node), the facts hold on every evaluation of random graphs and on
// every iteration of loops, facts and demands match values worked out by
// hand, and the soundness check catches a planted fault.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <bit>
#include <functional>
#include <random>

#include "hls/bit_facts.h"
#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls_support.h"
#include "pass_support.h"
#include "random_loop.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

// Whether x is consistent with f, written here rather than trusted from the analysis.
bool holds(const ValueFacts& f, uint64_t x) {
  return (x & f.zeros) == 0 && (x & f.ones) == f.ones && f.lo <= x && x <= f.hi && x <= width_mask(f.width);
}

std::string text(const ValueFacts& f) {
  return fmt::format("w{} zeros 0x{:x} ones 0x{:x} [{}, {}]", f.width, f.zeros, f.ones, f.lo, f.hi);
}

// The tightest facts of exactly these values (each field computed directly).
ValueFacts facts_of_set(unsigned w, const std::vector<uint64_t>& set) {
  ValueFacts f{w, width_mask(w), width_mask(w), width_mask(w), 0};
  for (uint64_t x : set) {
    f.zeros &= ~x;
    f.ones &= x;
    f.lo = std::min(f.lo, x);
    f.hi = std::max(f.hi, x);
  }
  return f;
}

// Facts of a random set of w-bit values: a range, values with some bits
// fixed, one constant, or everything.
ValueFacts random_facts(unsigned w, std::mt19937_64& rng) {
  const uint64_t m = width_mask(w);
  std::vector<uint64_t> set;
  switch (rng() % 4) {
    case 0: {
      uint64_t a = rng() & m, b = rng() & m;
      if (a > b) std::swap(a, b);
      set = {a, b};
      break;
    }
    case 1: {
      const uint64_t fixed = rng() & m, value = rng() & m;
      for (int i = 0; i < 3; ++i) set.push_back((value & fixed) | (rng() & ~fixed & m));
      break;
    }
    case 2: set = {rng() & m}; break;
    default: set = {0, m}; break;
  }
  return facts_of_set(w, set);
}

std::vector<uint64_t> admitted(const ValueFacts& f) {
  std::vector<uint64_t> out;
  for (uint64_t x = 0; x <= width_mask(f.width); ++x)
    if (holds(f, x)) out.push_back(x);
  return out;
}

// One random operation at small widths with its operand widths.
struct Case {
  Node node;
  std::vector<unsigned> widths;
};

unsigned between(std::mt19937_64& rng, unsigned lo, unsigned hi) { return lo + static_cast<unsigned>(rng() % (hi - lo + 1)); }

Case random_case(Op op, std::mt19937_64& rng) {
  Case c;
  Node& n = c.node;
  n.op = op;
  n.sgn = rng() % 2;
  unsigned w = between(rng, 1, 5);
  switch (op) {
    case Op::Slice: {
      const unsigned ow = between(rng, 1, 6);
      w = between(rng, 1, ow);
      n.param = between(rng, 0, ow - w);
      c.widths = {ow};
      break;
    }
    case Op::Concat: {
      const unsigned parts = between(rng, 2, 3);
      w = 0;
      for (unsigned i = 0; i < parts; ++i) {
        c.widths.push_back(between(rng, 1, 2));
        w += c.widths.back();
      }
      break;
    }
    case Op::ZExt: case Op::SExt: c.widths = {between(rng, 1, w)}; break;
    case Op::Not: case Op::Neg: c.widths = {w}; break;
    case Op::And: case Op::Or: case Op::Xor: c.widths.assign(between(rng, 2, 3), w); break;
    case Op::Mux: c.widths = {1, w, w}; break;
    case Op::AndReduce: case Op::OrReduce: case Op::XorReduce: c.widths = {w}; w = 1; break;
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: c.widths = {w, w}; w = 1; break;
    case Op::Add: c.widths = rng() % 2 ? std::vector<unsigned>{w, w} : std::vector<unsigned>{w, w, 1}; break;
    case Op::Sub: case Op::Div: case Op::Mod: c.widths = {w, w}; break;
    case Op::Mul: c.widths = {between(rng, 1, w), between(rng, 1, w)}; break;
    case Op::Shl: case Op::Shr: c.widths = {w, between(rng, 1, 3)}; break;
    case Op::Rotl: case Op::Rotr:
      w = 1u << between(rng, 0, 2);
      c.widths = {w, between(rng, 1, 3)};
      break;
    case Op::Popcount: case Op::Clz: case Op::Ctz: c.widths = {between(rng, 1, 6)}; break;
    case Op::Rom: {
      c.widths = {between(rng, 1, 3)};
      for (size_t i = 0; i < (size_t{1} << c.widths[0]); ++i) n.table.push_back(rng() & width_mask(w));
      break;
    }
  }
  n.width = w;
  return c;
}

constexpr Op kAllOps[] = {Op::Slice, Op::Concat, Op::ZExt, Op::SExt, Op::Not, Op::And, Op::Or, Op::Xor,
                          Op::Mux, Op::AndReduce, Op::OrReduce, Op::XorReduce, Op::Eq, Op::Ne, Op::Lt,
                          Op::Le, Op::Gt, Op::Ge, Op::Add, Op::Sub, Op::Neg, Op::Mul, Op::Div, Op::Mod,
                          Op::Shl, Op::Shr, Op::Rotl, Op::Rotr, Op::Popcount, Op::Clz, Op::Ctz, Op::Rom};

// Every operand tuple the facts admit, through eval_node: the result's facts
// must admit each result. Returns the first counterexample.
using Transfer = std::function<ValueFacts(const Node&, const std::vector<ValueFacts>&)>;

std::string unsound_case(const Case& c, const std::vector<ValueFacts>& in, const Transfer& transfer, size_t& evaluations) {
  const ValueFacts out = transfer(c.node, in);
  std::vector<std::vector<uint64_t>> values;
  for (const ValueFacts& f : in) values.push_back(admitted(f));
  std::vector<size_t> at(in.size(), 0);
  std::vector<uint64_t> x(in.size());
  for (;;) {
    for (size_t i = 0; i < in.size(); ++i) x[i] = values[i][at[i]];
    const uint64_t r = eval_node(c.node, x, c.widths);
    ++evaluations;
    if (!holds(out, r)) {
      std::string s = fmt::format("{}{} w{}: result 0x{:x} outside {}; operands", op_name(c.node.op),
                                  c.node.sgn ? ".s" : "", c.node.width, r, text(out));
      for (size_t i = 0; i < in.size(); ++i) s += fmt::format(" 0x{:x} of {};", x[i], text(in[i]));
      return s;
    }
    size_t i = 0;
    while (i < in.size() && ++at[i] == values[i].size()) at[i++] = 0;
    if (i == in.size()) return "";
  }
}

std::string first_unsound(const Transfer& transfer, int cases_per_op, size_t& evaluations) {
  std::mt19937_64 rng(11);
  for (Op op : kAllOps)
    for (int k = 0; k < cases_per_op; ++k) {
      const Case c = random_case(op, rng);
      std::vector<ValueFacts> in;
      for (unsigned w : c.widths) in.push_back(random_facts(w, rng));
      if (std::string s = unsound_case(c, in, transfer, evaluations); !s.empty()) return s;
    }
  return "";
}

// Calls `seen` with every node's values on each pass through the graph: each
// loop iteration and the exit (eval_values keeps only the last).
bool each_pass(const Dfg& g, const Sample& s, uint64_t limit, const std::function<void(const std::vector<uint64_t>&)>& seen) {
  std::vector<uint64_t> val(g.nodes.size(), 0);
  auto pass = [&](bool report) {
    for (ValueId v = 0; v < g.nodes.size(); ++v) {
      const Node& n = g.nodes[v];
      if (n.kind == NodeKind::Input) val[v] = s.inputs.at(n.index) & width_mask(n.width);
      if (n.kind == NodeKind::Config) val[v] = s.configs.at(n.index) & width_mask(n.width);
      if (n.kind == NodeKind::Constant) val[v] = n.constant;
      if (n.kind != NodeKind::Op) continue;
      std::vector<uint64_t> x;
      std::vector<unsigned> xw;
      for (ValueId o : n.operands) {
        x.push_back(val[o]);
        xw.push_back(g.nodes[o].width);
      }
      val[v] = eval_node(n, x, xw);
    }
    if (report) seen(val);
  };
  pass(!g.loop);  // with a loop, a first pass for the values before it (the state is not set yet)
  if (!g.loop) return true;
  for (size_t i = 0; i < g.loop->state.size(); ++i) val[g.loop->state[i]] = val[g.loop->init[i]];
  for (uint64_t taken = 0;; ++taken) {
    pass(true);
    if (!val[g.loop->cond]) return true;
    if (taken >= limit) return false;
    std::vector<uint64_t> next;
    for (ValueId v : g.loop->next) next.push_back(val[v]);
    for (size_t i = 0; i < next.size(); ++i) val[g.loop->state[i]] = next[i];
  }
}

// Live values whose facts some evaluation breaks (at most a few lines).
std::vector<std::string> fact_violations(const Dfg& g, const BitFacts& f, size_t random, uint64_t seed) {
  std::vector<std::string> problems;
  const auto live = g.live();
  for (const Sample& s : samples_for(g, random, seed)) {
    each_pass(g, s, 2000, [&](const std::vector<uint64_t>& val) {
      for (ValueId v = 0; v < g.nodes.size() && problems.size() < 3; ++v)
        if (live[v] && g.nodes[v].kind != NodeKind::Input && g.nodes[v].kind != NodeKind::Config && !holds(f.facts(v), val[v]))
          problems.push_back(fmt::format("v{} ({}) = 0x{:x} outside {}", v, node_label(g, v), val[v], text(f.facts(v))));
    });
    if (problems.size() >= 3) break;
  }
  return problems;
}

// The value an output port is driven by, through the wiring the builder adds.
ValueId output(const Dfg& g, const std::string& name) {
  for (const DfgPort& p : g.outputs)
    if (p.name == name) return p.value;
  FAIL("no output " << name);
  return 0;
}

// The first live operation of kind op.
ValueId first_live(const Dfg& g, Op op) {
  const auto live = g.live();
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_op(v) && g.nodes[v].op == op) return v;
  FAIL("no live " << op_name(op));
  return 0;
}

ValueId input(const Dfg& g, const std::string& name) {
  for (const DfgPort& p : g.inputs)
    if (p.name == name) return p.value;
  for (const DfgPort& p : g.configs)
    if (p.name == name) return p.value;
  FAIL("no input " << name);
  return 0;
}

// The LFSR of tests/corpus/lfsr.gk, with a u8 trip count to keep the test fast.
const char* kLfsr =
    "input cycle: u8\nextern seed: u64 = 1\nstate := loop (s = seed, i = 0) while i < cycle {\n"
    "    s = (s >> 1) ^ ((s & 1) * 0xB400)\n    i = i + 1\n} yield s\n";
const char* kCounter =
    "input n: u8\ntotal := loop (i = 0, acc = 0) while i < n {\n    acc = acc ^ (i * 3)\n    i = i + 1\n} yield acc\n";

}  // namespace

TEST_SUITE("narrowing") {

TEST_CASE("every transfer function is sound: each admitted operand tuple, evaluated, lands in the facts") {
  size_t evaluations = 0;
  const std::string problem = first_unsound(forward_facts, 250, evaluations);
  CHECK_MESSAGE(problem.empty(), problem);
  MESSAGE(evaluations << " evaluations");
  CHECK(evaluations > 100000);
}

TEST_CASE("normalizing and joining facts keeps every value they admitted") {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 3000; ++k) {
    const unsigned w = between(rng, 1, 6);
    const ValueFacts a = random_facts(w, rng), b = random_facts(w, rng);
    const ValueFacts n = normalized(a), j = join(a, b);
    for (uint64_t x = 0; x <= width_mask(w); ++x) {
      if (holds(a, x)) CHECK_MESSAGE(holds(n, x), text(a) << " -> " << text(n) << " loses " << x);
      if (holds(a, x) || holds(b, x)) CHECK_MESSAGE(holds(j, x), text(a) << " join " << text(b) << " loses " << x);
    }
  }
}

TEST_CASE("with constant operands the facts are the value itself") {
  std::mt19937_64 rng(7);
  for (Op op : kAllOps)
    for (int k = 0; k < 100; ++k) {
      const Case c = random_case(op, rng);
      std::vector<ValueFacts> in;
      std::vector<uint64_t> x;
      for (unsigned w : c.widths) {
        x.push_back(rng() & width_mask(w));
        in.push_back(constant_facts(w, x.back()));
      }
      const ValueFacts f = forward_facts(c.node, in);
      const uint64_t r = eval_node(c.node, x, c.widths);
      CHECK_MESSAGE((f.is_constant() && f.lo == r), op_name(op) << " w" << c.node.width << ": " << text(f) << " for " << r);
    }
}

TEST_CASE("the soundness check catches a planted fault: an addition that forgets its carry") {
  auto forgets_carry = [](const Node& n, const std::vector<ValueFacts>& x) {
    ValueFacts f = forward_facts(n, x);
    if (n.op == Op::Add) f = normalized(ValueFacts{f.width, f.zeros, f.ones, 0, std::max(x[0].hi, x[1].hi)});
    return f;
  };
  size_t evaluations = 0;
  CHECK_FALSE(first_unsound(forgets_carry, 250, evaluations).empty());
  // And on graphs: the same fault through the analysis' hook.
  BitFactsHooks hooks;
  hooks.forward = [](const Dfg& g, ValueId v, ValueFacts& f) {
    if (g.nodes[v].op == Op::Add) f = normalized(ValueFacts{f.width, 0, 0, 0, f.hi >> 1});  // one bit short
  };
  const Dfg g = dfg_from("input (a: u8, b: u8)\ns := (a as u16) + (b as u16)\n");
  CHECK(fact_violations(g, BitFacts(g), 0, 1).empty());
  CHECK_FALSE(fact_violations(g, BitFacts(g, hooks), 0, 1).empty());
}

TEST_CASE("the facts hold on every evaluation of random graphs") {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    const auto problems = fact_violations(g, BitFacts(g), 30, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(g));
  }
}

TEST_CASE("the facts hold on every iteration of loops") {
  const std::vector<std::string> kernels = {
      kLfsr,
      kCounter,
      "input n: u64\ntotal := loop (i = 1, acc = 0) while i <= n {\n    acc = acc + i\n    i = i + 1\n} yield acc\n",
      "input (x: u64, k: u16)\ny := pcg_stream(x % 300, k as u64)\n",
      "input (a: u16, b: u16)\ng := loop (x = a, y = b) while y != 0 {\n    x = y\n    y = x % y\n} yield x\n",
      "input n: u32\nz := loop (i: u32 = 0, k: u32 = 7) while (i != 10) & (k < n) {\n    i = i + 1\n    k = k * 3\n} yield k\n",
  };
  for (const std::string& k : kernels) {
    CAPTURE(k);
    const Dfg g = dfg_from(k);
    const BitFacts f(g);
    const auto problems = fact_violations(g, f, 40, 3);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(g));
  }
}

TEST_CASE("the facts hold on every iteration of random loops") {
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_loop_dfg(seed);
    const auto problems = fact_violations(g, BitFacts(g), 10, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(g));
  }
}

TEST_CASE("facts worked out by hand") {
  auto facts_of_output = [](const std::string& kernel, const std::string& name) {
    const Dfg g = dfg_from(kernel);
    return BitFacts(g).facts(output(g, name));
  };
  // x % 1000 < 1000; x & 0x3FF; x / 1000; a cast to u8.
  ValueFacts f = facts_of_output("input x: u64\nr := x % 1000\n", "r");
  CHECK(f.lo == 0);
  CHECK(f.hi == 999);
  CHECK(f.significant_bits() == 10);
  CHECK(facts_of_output("input x: u64\nr := x & 0x3FF\n", "r").hi == 0x3FF);
  CHECK(facts_of_output("input x: u64\nr := x / 1000\n", "r").hi == 18446744073709551ull);  // (2^64 - 1) / 1000
  CHECK(facts_of_output("input x: u64\nr := (x as u8) as u64\n", "r").hi == 255);
  // Counts of 64 bits fit in 7 bits; of 32 bits clz is at most 32.
  CHECK(facts_of_output("input x: u64\nr := popcount(x)\n", "r").hi == 64);
  CHECK(facts_of_output("input x: u32\nr := clz(x)\n", "r").hi == 32);
  CHECK(facts_of_output("input x: u64\nr := ctz(x | 0x100)\n", "r").hi == 8);
  // A select of 3 or 5: bit 0 known one, bits 3 and up known zero, 3..5.
  f = facts_of_output("input c: bool\nr := if(c, 3, 5)\n", "r");
  CHECK(f.ones == 1);
  CHECK(f.zeros == ~uint64_t{7});
  CHECK(f.lo == 3);
  CHECK(f.hi == 5);
  // Sums and products of ranges; shifted addends keep their low zeros.
  CHECK(facts_of_output("input (x: u64, y: u64)\nr := (x & 0xFF) + (y & 0xFF)\n", "r").hi == 510);
  CHECK(facts_of_output("input (x: u64, y: u64)\nr := (x & 0xF) * (y & 0xF)\n", "r").hi == 225);
  CHECK(facts_of_output("input (x: u64, y: u64)\nr := (x << 3) + (y << 5)\n", "r").low_zeros() == 3);
  CHECK(facts_of_output("input (x: u64, y: u64)\nr := (x << 3) * (y << 5)\n", "r").low_zeros() == 8);
  // A comparison that its ranges decide (declared bool: its one bit, not the u64 1 or 0).
  f = facts_of_output("input x: u64\nr: bool := (x & 0xF) < 16\n", "r");
  CHECK((f.width == 1 && f.is_constant() && f.lo == 1));
  // A table: the OR and AND of the entries an index can select.
  Dfg g;
  DfgBuilder b(g);
  Node in;
  in.kind = NodeKind::Input;
  in.width = 2;
  const ValueId i = b.raw(in);
  const ValueId rom = b.op(Op::Rom, 8, {i}, false, 0, {0x10, 0x30, 0x12, 0x32});
  g.outputs.push_back(DfgPort{"r", ir::Ty::scalar(ir::TyKind::U8), rom});
  f = BitFacts(g).facts(rom);
  CHECK(f.ones == 0x10);
  CHECK(f.zeros == (0xFF & ~0x32ull));
  CHECK(f.lo == 0x10);
  CHECK(f.hi == 0x32);
}

TEST_CASE("loop state facts: a counter below a u8 bound stays below 256; an LFSR's product is a 1-bit times 0xB400") {
  const Dfg c = dfg_from(kCounter);
  const BitFacts fc(c);
  REQUIRE(c.loop);
  for (ValueId s : c.loop->state) {
    CAPTURE(c.nodes[s].name);
    CHECK(fc.facts(s).hi <= (c.nodes[s].name == "i" ? 255u : 1023u));  // i <= n <= 255; acc ^ (i * 3) < 1024
  }
  const Dfg l = dfg_from(kLfsr);
  const BitFacts fl(l);
  const ValueId mul = first_live(l, Op::Mul);
  CHECK(fl.facts(mul).hi == 0xB400);
  CHECK(fl.facts(mul).low_zeros() == 10);
}

TEST_CASE("demanded bits worked out by hand") {
  auto demand_on = [](const std::string& kernel, const std::string& in) {
    const Dfg g = dfg_from(kernel);
    return BitFacts(g).demanded(input(g, in));
  };
  // Carries go up, never down: the low 10 bits of a sum read the low 10 bits.
  CHECK(demand_on("input (x: u64, y: u64)\nr := (x + y) & 0x3FF\n", "x") == 0x3FF);
  // Bitwise: the mask passes through.
  CHECK(demand_on("input (x: u64, y: u64)\nr := (x ^ y) & 0xF0\n", "x") == 0xF0);
  // Shifts by constants are wiring: the demand moves.
  CHECK(demand_on("input x: u64\nr := (x >> 8) & 0xFF\n", "x") == 0xFF00);
  CHECK(demand_on("input x: u64\nr := (x << 8) & 0xFF00\n", "x") == 0xFF);
  // Casts: a truncation reads its bits; a sign extension also reads the sign.
  CHECK(demand_on("input x: u64\nr := x as u8\n", "x") == 0xFF);
  CHECK(demand_on("input x: u8\nr := ((x as i8) as i64) & 0x100\n", "x") == 0x80);
  // A select reads its condition whole and its data where demanded.
  CHECK(demand_on("input (c: bool, x: u64, y: u64)\nr := if(c, x, y) & 0xF\n", "c") == 1);
  CHECK(demand_on("input (c: bool, x: u64, y: u64)\nr := if(c, x, y) & 0xF\n", "y") == 0xF);
  // Comparisons, divisions and the parity of a popcount read everything.
  CHECK(demand_on("input (x: u64, y: u64)\nr := x < y\n", "x") == ~uint64_t{0});
  CHECK(demand_on("input x: u64\nr := (x % 1000) & 1\n", "x") == ~uint64_t{0});
  CHECK(demand_on("input x: u64\nr := popcount(x) & 1\n", "x") == ~uint64_t{0});
  // A product's low byte reads the operands' low bytes.
  CHECK(demand_on("input (x: u64, y: u64)\nr := (x * y) & 0xFF\n", "y") == 0xFF);
}

TEST_CASE("loop state demand: what the body, the guard and the exit read, through the next state") {
  // Only acc's low byte leaves the loop, and acc's next value reads only its own low byte and i's.
  const Dfg g = dfg_from(
      "input n: u64\nr := loop (i = 0, acc = 0) while i < n {\n    acc = acc + i\n    i = i + 1\n} yield acc & 0xFF\n");
  const BitFacts f(g);
  REQUIRE(g.loop);
  for (size_t k = 0; k < g.loop->state.size(); ++k) {
    const ValueId s = g.loop->state[k];
    CAPTURE(g.nodes[s].name);
    if (g.nodes[s].name == "acc") CHECK(f.demanded(s) == 0xFF);
    if (g.nodes[s].name == "i") CHECK(f.demanded(s) == ~uint64_t{0});  // the guard compares it whole
  }
  CHECK(f.backward_rounds() >= 2);
}

}  // TEST_SUITE
