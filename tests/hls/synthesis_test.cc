// Whole designs synthesized from GK kernels, checked against the invariants
// of hls_support.h (dependences, chaining within the period, the pipeline or
// FSM shape, unit binding, register lifetimes) and against shapes worked out
// by hand from the operator library's model (hls/op_library.cc, calibrated in
// docs/ice40-calibration.md):
//   iCE40: a 64-bit add 0.34 * 64 = 21.76 ns; a 64-bit subtraction or
//   ordered comparison 2.75 + 0.35 * 64 = 25.15 ns (both longer than the
//   default clock); a logic level 0.8 ns; a 64-bit multiplication by a
//   constant (shift-and-add) 0.71 * 64 + 1.6 * log2(64) = 55.04 ns; a 64-bit
//   remainder by a constant 2.6 * 64 + 0.36 * 64^2 = 1640.96 ns, by a variable
//   7.6 * 64 + 0.385 * 64^2 = 2063.36 ns; shifts and rotates by a constant are
//   wiring (0 ns); the default clock is 20.8 ns. An operation longer than the
//   period starts a step and nothing chains after it, not even a wire.
//   generic: a 64-bit add 0.05 + 0.04 * log2(64) = 0.29 ns, remainder
//   0.1 + 0.06 * 64 = 3.94 ns, default clock 1.0 ns.
// Also the text and JSON reports.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "hls/design.h"
#include "hls/report.h"
#include "hls_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

struct Named {
  const char* name;
  const char* text;
};

// ---- loop-free kernels ----
const char* kId = "input cycle: u64\nid := mod(hash(cycle), 1000)\n";
const char* kArith =
    "input (a: u32, b: u32)\n"
    "s := a + b\n"
    "t := s * 3\n"
    "u := t - a\n"
    "v := (u + b) * s\n"
    "w := v - t\n";
const char* kMux =
    "input (x: u64, y: u64)\n"
    "big := x > y\n"
    "m := if(big, x - y, y - x)\n"
    "clamped := if(m > 1000, 1000, m)\n"
    "flag := big & (m == 0)\n";
const char* kShift =
    "input (x: u64, k: u64)\n"
    "a := x << 3\n"
    "b := x >> k\n"
    "c := rotl(x, 13) ^ rotr(x, k)\n"
    "d := (a ^ b) + c\n";
const char* kNarrow =
    "input (x: u8, f: bool)\n"
    "y := if(f, x * x, x + 1)\n"
    "z := popcount(x) + clz(x)\n"
    "h := ((x + 7) as u16) * 300\n";
const char* kSplitmix = "input cycle: u64\nr := splitmix64(cycle)\n";
const char* kInterleave = "input (a: u64, b: u64)\nz := interleave(a, b)\n";
// Nothing but wiring: one stage, every output registered once.
const char* kWires = "input x: u64\nhigh := x >> 40\nlow := x as u16\nsame := x\n";
// No input at all: a constant.
const char* kConstant = "k := 41 + 1\n";

// ---- one loop ----
const char* kSumToN =
    "input n: u64\n"
    "total := loop (i = 1, acc = 0) while i <= n {\n"
    "    acc = acc + i\n"
    "    i = i + 1\n"
    "} yield acc\n";
const char* kPcg = "input position: u64\ninput stream: u64\nout := pcg(position, stream)\n";
const char* kPermute = "input position: u64\ninput range: u64\ninput seed: u64\nout := permute(position, range, seed)\n";
const char* kLfsr =
    "input cycle: u64\n"
    "extern seed: u64 = 1\n"
    "state := loop (s = seed, i = 0) while i < cycle {\n"
    "    s = (s >> 1) ^ ((s & 1) * 0xB400)\n"
    "    i = i + 1\n"
    "} yield s\n";
const char* kFib =
    "input n: u64\n"
    "fib := loop (a = 0, b = 1, i = 0) while i < n {\n"
    "    t := a + b\n"
    "    a = b\n"
    "    b = t\n"
    "    i = i + 1\n"
    "} yield a\n";
const char* kGcd =
    "input (x0: u64, y0: u64)\n"
    "scaled := x0 * 7 + 1\n"
    "(g, steps) := loop (x = scaled, y = y0 + 12, k: u32 = 0) while x != y {\n"
    "    nx := if(x > y, x - y, x)\n"
    "    y = if(y > x, y - x, y)\n"
    "    x = nx\n"
    "    k = k + 1\n"
    "} yield (x * 3, k)\n";
// Loop-free work beside the loop: hash(n) is computed before it and held to the end.
const char* kSide =
    "input n: u64\n"
    "side := hash(n)\n"
    "k := loop (j = 0) while j * j < n { j = j + 1 } yield j\n";

// A loop with no operation in it: the guard and the next state are state and constants.
const char* kNoOps =
    "input (f: bool, n: u64)\n"
    "x := loop (go = f, v = n) while go { go = false } yield v\n";
// Work before the loop read after it, an input read both in and after the loop.
const char* kPrePost =
    "input n: u64\n"
    "a := n * 5\n"
    "x := loop (i = 0) while i < n { i = i + 1 } yield i + a\n";

const std::vector<Named> kPipelines = {{"id", kId},         {"arith", kArith},         {"mux", kMux},
                                       {"shift", kShift},   {"narrow", kNarrow},       {"splitmix64", kSplitmix},
                                       {"interleave", kInterleave}, {"wires", kWires},
                                       {"constant", kConstant}};
const std::vector<Named> kFsms = {{"sum_to_n", kSumToN}, {"pcg", kPcg},   {"permute", kPermute},
                                  {"lfsr", kLfsr},       {"fib", kFib},   {"gcd", kGcd},
                                  {"side", kSide},       {"no_ops", kNoOps}, {"pre_post", kPrePost}};

std::vector<HlsOptions> option_grid() {
  return {opts(Target::Ice40), opts(Target::Generic), opts(Target::Ice40, 10.0), opts(Target::Ice40, 40.0),
          opts(Target::Generic, 0.5), opts(Target::Generic, 2.0)};
}

std::string label(const Named& k, const HlsOptions& o) {
  return std::string(k.name) + " / " + std::string(target_name(o.target)) + " / " +
         (o.clock_ns ? std::to_string(*o.clock_ns) : std::string("default")) + " ns" +
         (o.max_mul ? " / max_mul " + std::to_string(*o.max_mul) : std::string());
}

uint32_t count_units(const Design& d, UnitClass c) {
  return static_cast<uint32_t>(std::count_if(d.units.begin(), d.units.end(), [&](const FunctionalUnit& u) { return u.cls == c; }));
}

uint32_t count_ops(const Design& d, Op k) {
  uint32_t n = 0;
  for (ValueId v : live_ops(d)) n += d.dfg.nodes[v].op == k;
  return n;
}

// The most FSM-register lifetimes of one width alive at once, lifetimes being
// (written at the end of a, last read in b]: a lower bound on that width's registers.
std::map<unsigned, size_t> max_overlap(const Design& d) {
  std::map<unsigned, std::vector<std::pair<uint32_t, uint32_t>>> lives;
  for (const Register& r : d.registers)
    for (const auto& l : r.lifetimes) lives[r.width].push_back(l);
  std::map<unsigned, size_t> out;
  for (const auto& [w, ls] : lives) {
    size_t best = 0;
    for (const auto& [a, b] : ls) {  // alive just after the end of a
      (void)b;
      size_t n = 0;
      for (const auto& [a2, b2] : ls) n += a2 <= a && a < b2;
      best = std::max(best, n);
    }
    out[w] = best;
  }
  return out;
}

}  // namespace

TEST_SUITE("synthesis") {

TEST_CASE("loop-free kernels: pipelines that respect every invariant") {
  for (const Named& k : kPipelines)
    for (const HlsOptions& o : option_grid()) {
      CAPTURE(label(k, o));
      const Design d = must_synth(k.text, o);
      CHECK(d.kind == DesignKind::Pipeline);
      CHECK(d.target == o.target);
      CHECK(d.clock_ns == o.clock_ns.value_or(o.target == Target::Ice40 ? 20.8 : 1.0));
      const auto problems = design_problems(d);
      CHECK_MESSAGE(problems.empty(), join(problems));
    }
}

TEST_CASE("single-loop kernels: FSMs that respect every invariant") {
  for (const Named& k : kFsms)
    for (const HlsOptions& o : option_grid()) {
      CAPTURE(label(k, o));
      const Design d = must_synth(k.text, o);
      CHECK(d.kind == DesignKind::Fsm);
      const auto problems = design_problems(d);
      CHECK_MESSAGE(problems.empty(), join(problems));
    }
}

TEST_CASE("the id kernel on iCE40: eight stages, worked out by hand") {
  // Stage 0: rotl (wire), xor [0,0.8], two rotls, xor [0.8,1.6], xor [1.6,2.4].
  // Stage 1: m1 = * const, 55.04 ns, alone. Stage 2: m1 >> 35 (wire) at 0; the
  // 21.76 ns + 8 after it is longer than the period. Stage 3: + 8 [0,21.76].
  // Stage 4: xor (s1) [0,0.8]. Stage 5: m2, 55.04 ns, alone. Stage 6: >> 28,
  // xor [0,0.8] (h). Stage 7: the remainder by 1000, 1640.96 ns, alone.
  const Design d = must_synth(kId, opts(Target::Ice40));
  REQUIRE(d.kind == DesignKind::Pipeline);
  CHECK(d.stages == 8);
  CHECK(d.latency() == 8);
  CHECK(d.initiation_interval() == 1);
  CHECK(d.critical_path_ns == doctest::Approx(1640.96));
  CHECK(count_ops(d, Op::Xor) == 5);
  CHECK(count_ops(d, Op::Mul) == 2);
  CHECK(count_ops(d, Op::Mod) == 1);
  CHECK(count_units(d, UnitClass::Logic) == 5);
  CHECK(count_units(d, UnitClass::Mul) == 2);
  CHECK(count_units(d, UnitClass::Adder) == 1);
  CHECK(count_units(d, UnitClass::Div) == 1);
  CHECK(d.units.size() == 9);  // the rotates and shifts by constants are wiring
  for (ValueId v : live_ops(d)) {
    const Node& n = d.dfg.nodes[v];
    if (n.op == Op::Mod) {
      CHECK(d.place[v].step == 7);
      CHECK(d.place[v].start_ns == 0);
      CHECK(d.place[v].finish_ns == doctest::Approx(1640.96));
    }
    if (n.op == Op::Mul) {
      CHECK(d.place[v].start_ns == 0);
      CHECK(d.place[v].finish_ns - d.place[v].start_ns == doctest::Approx(55.04));
    }
    if (n.op == Op::Add) CHECK(d.place[v].step == 3);
    if (n.name == "m1") CHECK(d.place[v].step == 1);
    if (n.name == "s1") CHECK(d.place[v].step == 4);
    if (n.name == "m2") CHECK(d.place[v].step == 5);
    if (n.name == "h") CHECK(d.place[v].step == 6);
  }
  // Registers: the xors' result across stage 0, m1 across 1, m1 and m1 >> 35
  // across 2, m1 and the sum across 3, s1 across 4, m2 across 5, h across 6,
  // id out of 7.
  CHECK(d.registers.size() == 10);
  CHECK(d.register_bits() == 10 * 64);
  std::multiset<uint32_t> stages;
  for (const Register& r : d.registers) stages.insert(r.stage);
  CHECK(stages == std::multiset<uint32_t>{0, 1, 2, 2, 3, 3, 4, 5, 6, 7});
}

TEST_CASE("a pipeline registers an input once per stage boundary it crosses") {
  // a is read in stage 0 (a + b) and, after a 1640.96 ns remainder, in stage 2.
  const Design d = must_synth(
      "input (a: u64, b: u64)\n"
      "r := (a + b) % 1000\n"
      "out := r ^ a\n",
      opts(Target::Ice40));
  // Stage 0: a + b [0,21.76]. Stage 1: % alone. Stage 2: ^ [0,0.8].
  REQUIRE(d.stages == 3);
  const ValueId a = d.dfg.inputs.at(0).value;
  std::vector<uint32_t> a_regs;
  for (const Register& r : d.registers)
    if (r.values.at(0) == a) a_regs.push_back(r.stage);
  std::sort(a_regs.begin(), a_regs.end());
  CHECK(a_regs == std::vector<uint32_t>{0, 1});
  const auto problems = register_problems(d);
  CHECK_MESSAGE(problems.empty(), join(problems));
}

TEST_CASE("sum_to_n: one loop state, worked out by hand") {
  // i <= n (25.15 ns), acc + i and i + 1 (21.76 ns) all read only the state and
  // the input: each starts LOOP0, in parallel (each longer than the period).
  const Design d = must_synth(kSumToN, opts(Target::Ice40));
  REQUIRE(d.kind == DesignKind::Fsm);
  CHECK(d.pre_steps == 0);
  CHECK(d.loop_steps == 1);
  CHECK(d.post_steps == 0);
  CHECK(d.states.size() == 3);
  CHECK(d.latency(0) == 2);
  CHECK(d.latency(10) == 12);  // n = 10: ten iterations
  CHECK(d.initiation_interval(10) == 13);
  CHECK(count_units(d, UnitClass::Adder) == 3);
  CHECK(d.units.size() == 3);
  CHECK(d.critical_path_ns == doctest::Approx(25.15));
  // The input n is latched in IDLE and read in every iteration: one 64-bit
  // register [0, 2] (it must outlive the writes at the end of LOOP0, the last
  // loop state, since the next iteration reads it again).
  REQUIRE(d.registers.size() == 1);
  CHECK(d.registers[0].values == std::vector<ValueId>{d.dfg.inputs.at(0).value});
  CHECK(d.registers[0].lifetimes == std::vector<std::pair<uint32_t, uint32_t>>{{0, 2}});
  // Bits: n, the two state registers and the output.
  CHECK(d.register_bits() == 64 + 2 * 64 + 64);
  // The controller: IDLE -> LOOP0 on in_valid; LOOP0 -> LOOP0 while the guard holds,
  // -> DONE when it fails; DONE -> IDLE once the output is taken.
  CHECK(d.idle_state() == 0);
  CHECK(d.loop_state(0) == 1);
  CHECK(d.done_state() == 2);
  CHECK(d.entry_state() == 0);
  CHECK(d.finish_state() == 1);
}

TEST_CASE("lfsr: one state at 60 ns, three at the default clock and at 10 ns") {
  // s >> 1 (wire), s & 1 [0,0.8], * 0xB400 [0.8,55.84], ^ [55.84,56.64];
  // i < cycle [0,25.15] and i + 1 [0,21.76] beside.
  const Design d = must_synth(kLfsr, opts(Target::Ice40, 60.0));
  CHECK(d.pre_steps == 0);
  CHECK(d.loop_steps == 1);
  CHECK(d.post_steps == 0);
  CHECK(d.critical_path_ns == doctest::Approx(56.64));
  CHECK(d.dfg.configs.size() == 1);  // seed: cfg_seed, held stable, never registered
  for (const Register& r : d.registers)
    for (ValueId v : r.values) CHECK(d.dfg.nodes[v].kind != NodeKind::Config);
  // At 10 ns the 55.04 ns multiplication is longer than the period: it cannot chain after
  // s & 1, so it has a state of its own, and the ^ after it another. So at the default
  // 20.8 ns.
  CHECK(must_synth(kLfsr, opts(Target::Ice40)).loop_steps == 3);
  const Design t = must_synth(kLfsr, opts(Target::Ice40, 10.0));
  CHECK(t.loop_steps == 3);
  CHECK(t.latency(4) == 1 + 3 * 5);
  for (ValueId v : live_ops(t))
    if (t.dfg.nodes[v].op == Op::Mul) {
      CHECK(t.place[v].step == t.loop_state(1));
      CHECK(t.place[v].start_ns == 0);
    }
  // Alive 64-bit values between states: cycle, s >> 1, s & 1 (or the product), i + 1: four.
  std::map<unsigned, size_t> by_width;
  for (const Register& r : t.registers) ++by_width[r.width];
  CHECK(by_width[64] == 4);
  CHECK(by_width[1] == 1);  // the guard, computed in LOOP0 and read in LOOP2
  const auto problems = design_problems(t);
  CHECK_MESSAGE(problems.empty(), join(problems));
}

TEST_CASE("pcg: seven multiplications, and --max-mul shares them") {
  // 2 * stream, the output's * constant and acc_mult * seed (seed is the constant
  // default of its extern here) are shift-and-add, never shared; the four in the
  // body are general multiplications, what --max-mul limits.
  const Design d = must_synth(kPcg, opts(Target::Ice40));
  CHECK(count_ops(d, Op::Mul) == 7);
  CHECK(count_units(d, UnitClass::Mul) == 7);
  CHECK(general_multiplier_units(d) == 4);
  CHECK(d.dfg.loop->state.size() == 5);
  for (uint32_t n : {1u, 2u, 3u}) {
    CAPTURE(n);
    const Design s = must_synth(kPcg, opts(Target::Ice40, std::nullopt, n));
    CHECK(count_ops(s, Op::Mul) == 7);
    CHECK(general_multiplier_units(s) <= n);
    CHECK(count_units(s, UnitClass::Mul) == general_multiplier_units(s) + 3);
    // The body's four multiplications need at least 4 / n states.
    CHECK(s.loop_steps >= (4 + n - 1) / n);
    const auto problems = design_problems(s, n);
    CHECK_MESSAGE(problems.empty(), join(problems));
  }
  // One multiplier: every general multiplication is on it, each in its own state.
  const Design one = must_synth(kPcg, opts(Target::Ice40, std::nullopt, 1u));
  REQUIRE(general_multiplier_units(one) == 1);
  for (const FunctionalUnit& u : one.units)
    if (u.cls == UnitClass::Mul) CHECK(u.ops.size() == (general_multiplication(one, u.ops[0]) ? 4u : 1u));
  CHECK(one.loop_steps >= 4);
}

TEST_CASE("--max-mul on other FSMs and targets") {
  for (const Named& k : kFsms)
    for (Target t : {Target::Ice40, Target::Generic})
      for (uint32_t n : {1u, 2u}) {
        const HlsOptions o = opts(t, std::nullopt, n);
        CAPTURE(label(k, o));
        const Design d = must_synth(k.text, o);
        const auto problems = design_problems(d, n);
        CHECK_MESSAGE(problems.empty(), join(problems));
      }
}

TEST_CASE("--max-mul does not change a pipeline (it limits FSMs)") {
  const Design a = must_synth(kId, opts(Target::Ice40));
  const Design b = must_synth(kId, opts(Target::Ice40, std::nullopt, 1u));
  CHECK(a.stages == b.stages);
  CHECK(count_units(b, UnitClass::Mul) == 2);
  const auto problems = design_problems(b, 1u);
  CHECK_MESSAGE(problems.empty(), join(problems));
}

TEST_CASE("permute: a loop between pre-loop work and a mux after it") {
  const Design d = must_synth(kPermute, opts(Target::Ice40));
  CHECK(d.pre_steps >= 1);   // width, mask, half, increment, start, first
  CHECK(d.post_steps == 1);  // if(range == 0, 0, walked): one mux
  CHECK(d.critical_path_ns == doctest::Approx(2063.36));  // position % range, by a variable
  const auto problems = design_problems(d);
  CHECK_MESSAGE(problems.empty(), join(problems));
}

TEST_CASE("registers: left-edge sharing uses as few registers per width as lifetimes allow") {
  for (const Named& k : kFsms)
    for (const HlsOptions& o : option_grid()) {
      CAPTURE(label(k, o));
      const Design d = must_synth(k.text, o);
      std::map<unsigned, size_t> regs;
      for (const Register& r : d.registers) ++regs[r.width];
      CHECK(regs == max_overlap(d));
    }
}

// hls/synthesize.cc fsm_registers(): a value from before the loop that the
// loop reads gets the lifetime [def, last loop state], and a loop value
// written in the last loop state and read after the loop gets [last loop
// state, post state]; since b1 <= a2 they share a register. But the second
// is written at the end of the last loop state in every iteration, so the
// next iteration reads the clobbered register instead of the input. Here n
// (read by i < n in LOOP0) shares with acc * 3 + i (LOOP1, read by ^ 5 in POST0).
TEST_CASE("a loop-invariant input never shares a register with a value written inside the loop") {
  const char* text =
      "input n: u64\n"
      "r := loop (i = 0, acc = 0) while i < n {\n"
      "    acc = acc * 3 + i\n"
      "    i = i + 1\n"
      "} yield (acc * 3 + i) ^ 5\n";
  const Design d = must_synth(text, opts(Target::Ice40));
  REQUIRE(d.loop_steps == 2);  // * 3 (16.9 ns) then + i (7.9 ns)
  REQUIRE(d.post_steps == 1);
  const ValueId n = d.dfg.inputs.at(0).value;
  REQUIRE(d.reg_of.at(n) >= 0);
  const Register& r = d.registers.at(static_cast<size_t>(d.reg_of[n]));
  CHECK(r.values == std::vector<ValueId>{n});
  const auto problems = register_problems(d);
  CHECK_MESSAGE(problems.empty(), join(problems));
}

// hls/scheduling.cc earliest()/fits(): an operation longer than the period
// may start its step at 0 ns "alone", but a zero-delay operand computed in the
// same step (a cast, a shift by a constant) also finishes at 0 ns, so the long
// operation is chained after it; verify() then refuses the chain and
// synthesize() fails with "internal: the schedule does not verify".
TEST_CASE("a long operation reading a shift by a constant synthesizes") {
  auto d = synth("input cycle: u64\ny := (cycle >> 3) % 1000\n", opts(Target::Ice40));
  if (!d) INFO(d.error().kind << ": " << d.error().message);
  REQUIRE(d.ok());
  // >> 3 is wiring in stage 0, the 130 ns remainder alone in stage 1.
  CHECK(d->stages == 2);
  const auto problems = design_problems(*d);
  CHECK_MESSAGE(problems.empty(), join(problems));
}

// hls/dfg.cc Builder::power(): the multiplications of a constant power are
// built from a reference into dfg_.nodes that add() invalidates; they come out
// without a width, so the design costs and registers them as 0-bit values.
// Whether the reference dangles depends on when the node vector grows, so
// several exponents and kernel shapes are tried, each in a child process (the
// garbage type copied can corrupt the heap).
TEST_CASE("a constant power is built at the base's width") {
  for (int k = 2; k <= 12; ++k)
    for (const std::string& text : {"input (x: u64, unused: u64)\ny := x ** " + std::to_string(k) + "\n",
                                    "input (x: u8, y: u64)\np := x ** 3\nq := (y + 1) ** " + std::to_string(k) + "\n"}) {
      CAPTURE(text);
      const auto problems = isolated([&] {
        std::vector<std::string> p;
        Kernel kernel = compile_kernel(text);
        if (!kernel.ok()) return std::vector<std::string>{"does not compile"};
        auto d = synthesize(*kernel.ir, kernel.ir->entry(), kernel.config, opts(Target::Ice40));
        if (!d) return std::vector<std::string>{"refused: " + d.error().kind + ": " + d.error().message};
        for (ValueId v : live_ops(*d))
          if (d->dfg.nodes[v].op == Op::Mul && d->dfg.nodes[v].width < 8)
            p.push_back("Mul v" + std::to_string(v) + " is " + std::to_string(d->dfg.nodes[v].width) + " bits wide");
        for (const std::string& line : design_problems(*d)) p.push_back(line);
        return p;
      });
      CHECK_MESSAGE(problems.empty(), join(problems));
    }
}

// hls/dfg.h Dfg::constant_rhs() looks only at the second operand, so 3 * x is
// costed as a general multiplier (iCE40 64-bit: 0.51 * 64 + 4.5 * 6 = 59.64 ns,
// area 1.2 * 64^2) while x * 3 is shift-and-add (55.04 ns). The library's comment
// says a multiplication by a constant is shift-and-add; multiplication
// commutes. (pcg's and permute's 2 * stream / 2 * seed are costed this way.)
TEST_CASE("a multiplication by a constant costs the same on either side") {
  const Design d = must_synth("input x: u64\na := 3 * x\nb := x * 3\n", opts(Target::Ice40));
  std::vector<double> delays;
  for (ValueId v : live_ops(d)) delays.push_back(d.place[v].finish_ns - d.place[v].start_ns);
  REQUIRE(delays.size() == 2);
  CHECK(delays[0] == doctest::Approx(55.04));
  CHECK(delays[1] == doctest::Approx(55.04));
}

TEST_CASE("a tighter clock never gives fewer stages or states") {
  // Clocks from 60 ns down to 8 ns on iCE40 and 4 ns down to 0.4 ns on the generic
  // target (below that an operation of these kernels would become longer than the
  // period right after a wire: the case above).
  const std::map<Target, std::vector<double>> clocks = {
      {Target::Ice40, {60, 40, 30, 20.8, 16, 14, 12, 10, 9, 8}},
      {Target::Generic, {4, 3, 2, 1.5, 1, 0.8, 0.6, 0.5, 0.45, 0.4}}};
  for (const auto& [target, sweep] : clocks) {
    for (const Named& k : {Named{"id", kId}, Named{"arith", kArith}, Named{"mux", kMux}, Named{"shift", kShift}}) {
      uint32_t prev = 0;
      for (double c : sweep) {
        CAPTURE(label(k, opts(target, c)));
        const Design d = must_synth(k.text, opts(target, c));
        CHECK(d.stages >= prev);
        prev = d.stages;
        const auto problems = design_problems(d);
        CHECK_MESSAGE(problems.empty(), join(problems));
      }
    }
    for (const Named& k : {Named{"sum_to_n", kSumToN}, Named{"lfsr", kLfsr}, Named{"pcg", kPcg}, Named{"fib", kFib}}) {
      uint32_t prev_total = 0, prev_loop = 0;
      for (double c : sweep) {
        CAPTURE(label(k, opts(target, c)));
        const Design d = must_synth(k.text, opts(target, c));
        CHECK(d.loop_steps >= prev_loop);
        CHECK(d.pre_steps + d.loop_steps + d.post_steps >= prev_total);
        prev_loop = d.loop_steps;
        prev_total = d.pre_steps + d.loop_steps + d.post_steps;
        const auto problems = design_problems(d);
        CHECK_MESSAGE(problems.empty(), join(problems));
      }
    }
  }
}

TEST_CASE("the generic target and iCE40 have different delays") {
  const Design ice = must_synth(kId, opts(Target::Ice40));
  const Design gen = must_synth(kId, opts(Target::Generic));
  CHECK(ice.clock_ns == doctest::Approx(20.8));
  CHECK(gen.clock_ns == doctest::Approx(1.0));
  CHECK(gen.critical_path_ns == doctest::Approx(3.94));  // the 64-bit remainder
  CHECK(ice.critical_path_ns != doctest::Approx(gen.critical_path_ns));
  // Operation by operation (the same DFG), every non-wire delay differs.
  REQUIRE(ice.dfg.nodes.size() == gen.dfg.nodes.size());
  for (ValueId v : live_ops(ice)) {
    const double di = ice.place[v].finish_ns - ice.place[v].start_ns;
    const double dg = gen.place[v].finish_ns - gen.place[v].start_ns;
    if (library_cost(ice, v).unit == UnitClass::Wire) {
      CHECK(di == 0);
      CHECK(dg == 0);
    } else {
      CHECK(di != doctest::Approx(dg));
    }
  }
  // The same 64-bit comparison i <= n: 25.15 ns on iCE40, 0.29 ns generic.
  const Design si = must_synth(kSumToN, opts(Target::Ice40));
  const Design sg = must_synth(kSumToN, opts(Target::Generic));
  CHECK(si.critical_path_ns == doctest::Approx(25.15));
  CHECK(sg.critical_path_ns == doctest::Approx(0.29));
  // Even at the same clock the two targets schedule differently.
  const Design i5 = must_synth(kArith, opts(Target::Ice40, 5.0));
  const Design g5 = must_synth(kArith, opts(Target::Generic, 5.0));
  CHECK(i5.stages > g5.stages);
  CHECK(g5.stages == 1);  // every operation of arith is well under 5 ns generic
}

TEST_CASE("the design checks catch planted faults") {
  SUBCASE("an operation moved before its operand") {
    Design d = must_synth(kId, opts(Target::Ice40));
    for (ValueId v : live_ops(d))
      if (d.dfg.nodes[v].op == Op::Mod) d.place[v].step = 0;
    CHECK_FALSE(dependence_problems(d).empty());
  }
  SUBCASE("a chain stretched past the period") {
    Design d = must_synth(kSumToN, opts(Target::Ice40));
    const ValueId v = live_ops(d).front();
    d.place[v].start_ns += 15;
    d.place[v].finish_ns += 15;
    CHECK_FALSE(timing_problems(d).empty());
  }
  SUBCASE("a missing transition") {
    Design d = must_synth(kSumToN, opts(Target::Ice40));
    d.transitions.pop_back();
    CHECK_FALSE(shape_problems(d).empty());
  }
  SUBCASE("two multiplications of one state on one unit") {
    Design d = must_synth(kPcg, opts(Target::Ice40));
    std::vector<ValueId> muls;
    for (ValueId v : live_ops(d))
      if (d.dfg.nodes[v].op == Op::Mul && d.place[v].step == d.loop_state(0)) muls.push_back(v);
    REQUIRE(muls.size() >= 2);
    const int u = d.place[muls[0]].unit;
    d.units[static_cast<size_t>(d.place[muls[1]].unit)].ops.clear();
    d.place[muls[1]].unit = u;
    d.units[static_cast<size_t>(u)].ops.push_back(muls[1]);
    CHECK_FALSE(unit_problems(d, 1u).empty());
  }
  SUBCASE("a value read later without a register") {
    Design d = must_synth(kSumToN, opts(Target::Ice40));
    d.reg_of.assign(d.reg_of.size(), -1);
    d.registers.clear();
    CHECK_FALSE(register_problems(d).empty());
  }
  SUBCASE("a missing pipeline register") {
    Design d = must_synth(kId, opts(Target::Ice40));
    d.registers.pop_back();
    CHECK_FALSE(register_problems(d).empty());
  }
}

}  // TEST_SUITE

TEST_SUITE("report") {

TEST_CASE("the JSON report of a pipeline matches the design") {
  const Design d = must_synth(kId, opts(Target::Ice40));
  const auto j = nlohmann::json::parse(report_json(d));
  CHECK(j.at("kernel") == "kernel");
  CHECK(j.at("kind") == "pipeline");
  CHECK(j.at("target") == "ice40");
  CHECK(j.at("clock_ns").get<double>() == doctest::Approx(20.8));
  CHECK(j.at("stages") == 8);
  CHECK(j.at("latency_cycles") == 8);
  CHECK(j.at("initiation_interval") == 1);
  CHECK_FALSE(j.contains("states"));
  // Units by class and width: 5 logic, 2 mul, 1 adder, 1 div, all 64 bits.
  std::map<std::string, int> units;
  int total = 0;
  for (const auto& u : j.at("units")) {
    CHECK(u.at("width") == 64);
    units[u.at("kind").get<std::string>()] += u.at("count").get<int>();
    total += u.at("count").get<int>();
  }
  CHECK(units == std::map<std::string, int>{{"adder", 1}, {"div", 1}, {"logic", 5}, {"mul", 2}});
  CHECK(total == static_cast<int>(d.units.size()));
  CHECK(j.at("registers") == 10);
  CHECK(j.at("register_bits") == 640);
  CHECK(j.at("critical_path_ns").get<double>() == doctest::Approx(1640.96));
  CHECK(j.at("slack_ns").get<double>() == doctest::Approx(20.8 - 1640.96));
  CHECK(j.at("slack_ns").get<double>() < 0);
  // One entry per live operation, with its stage and times.
  const auto& ops = j.at("operations");
  CHECK(ops.size() == live_ops(d).size());
  for (const auto& o : ops) {
    const ValueId v = o.at("value").get<ValueId>();
    CHECK(o.at("step") == "stage " + std::to_string(d.place[v].step));
    CHECK(o.at("start_ns").get<double>() == doctest::Approx(d.place[v].start_ns));
    CHECK(o.at("finish_ns").get<double>() == doctest::Approx(d.place[v].finish_ns));
    CHECK(o.at("unit") == d.place[v].unit);
    CHECK(o.at("line").get<int>() > 0);
    if (d.dfg.nodes[v].op == Op::Mod) CHECK(o.at("line") == 2);  // mod(...) on line 2; the rest in hash.gk
  }
}

TEST_CASE("the JSON report of an FSM matches the design") {
  const Design d = must_synth(kSumToN, opts(Target::Ice40));
  const auto j = nlohmann::json::parse(report_json(d));
  CHECK(j.at("kind") == "fsm");
  CHECK(j.at("states") == 3);
  CHECK(j.at("pre_loop_steps") == 0);
  CHECK(j.at("loop_steps") == 1);
  CHECK(j.at("post_loop_steps") == 0);
  CHECK(j.at("latency_formula") == "1 + 0 + 1*(t+1) + 0");
  CHECK(j.at("latency_cycles_at_zero_iterations") == 2);
  CHECK_FALSE(j.contains("stages"));
  REQUIRE(j.at("units").size() == 1);
  CHECK(j.at("units")[0].at("kind") == "adder");
  CHECK(j.at("units")[0].at("count") == 3);
  // n, the two state registers, the output register.
  CHECK(j.at("registers") == 4);
  CHECK(j.at("register_bits") == 256);
  CHECK(j.at("critical_path_ns").get<double>() == doctest::Approx(25.15));
  CHECK(j.at("slack_ns").get<double>() == doctest::Approx(20.8 - 25.15));
  for (const auto& o : j.at("operations")) CHECK(o.at("step") == "LOOP0");
}

TEST_CASE("the JSON report is consistent with the design for every kernel") {
  std::vector<Named> all = kPipelines;
  all.insert(all.end(), kFsms.begin(), kFsms.end());
  for (const Named& k : all)
    for (const HlsOptions& o : {opts(Target::Ice40), opts(Target::Generic), opts(Target::Ice40, 10.0, 1u)}) {
      CAPTURE(label(k, o));
      const Design d = must_synth(k.text, o);
      const auto j = nlohmann::json::parse(report_json(d));
      CHECK(j.contains("latency_cycles_at_zero_iterations") == (d.kind == DesignKind::Fsm));
      CHECK(j.contains("stages") == (d.kind == DesignKind::Pipeline));
      if (d.kind == DesignKind::Pipeline) {
        CHECK(j.at("latency_cycles") == d.latency());
      } else {
        CHECK(j.at("states") == d.states.size());
        CHECK(j.at("latency_cycles_at_zero_iterations") ==
              1 + d.pre_steps + d.loop_steps + d.post_steps);
      }
      int units = 0;
      for (const auto& u : j.at("units")) units += u.at("count").get<int>();
      CHECK(units == static_cast<int>(d.units.size()));
      // Registers and bits: the bound registers, plus (FSM) the state and output registers.
      size_t regs = d.registers.size();
      uint64_t bits = 0;
      for (const Register& r : d.registers) bits += r.width;
      if (d.kind == DesignKind::Fsm) {
        regs += d.dfg.loop->state.size() + d.dfg.outputs.size();
        for (ValueId s : d.dfg.loop->state) bits += d.dfg.nodes[s].width;
        for (const DfgPort& p : d.dfg.outputs) bits += p.ty.bits();
      }
      CHECK(j.at("registers") == regs);
      CHECK(j.at("register_bits") == bits);
      CHECK(d.register_bits() == bits);
      // The critical path is the latest finish; the slack its difference to the clock.
      double latest = 0;
      for (ValueId v : live_ops(d)) latest = std::max(latest, d.place[v].finish_ns);
      CHECK(j.at("critical_path_ns").get<double>() == doctest::Approx(latest));
      CHECK(j.at("slack_ns").get<double>() == doctest::Approx(d.clock_ns - latest));
      const std::string text = report_text(d);
      CHECK((text.find("NEGATIVE") != std::string::npos) == (d.clock_ns - latest < 0));
      CHECK(j.at("operations").size() == live_ops(d).size());
    }
}

TEST_CASE("the text report") {
  const std::string p = report_text(must_synth(kId, opts(Target::Ice40)));
  CHECK(p.find("kernel kernel: pipeline for ice40 at 20.80 ns") == 0);
  CHECK(p.find("stages: 8") != std::string::npos);
  CHECK(p.find("latency: 8 cycles") != std::string::npos);
  CHECK(p.find("initiation interval: 1") != std::string::npos);
  CHECK(p.find("registers: 10 (640 bits)") != std::string::npos);
  CHECK(p.find("critical path: 1640.96 ns against 20.80 ns") != std::string::npos);
  CHECK(p.find("NEGATIVE") != std::string::npos);
  for (int s = 0; s < 8; ++s) CHECK(p.find("stage " + std::to_string(s) + ":") != std::string::npos);

  // At 30 ns the 25.15 ns comparison fits: the slack is positive.
  const std::string f = report_text(must_synth(kSumToN, opts(Target::Ice40, 30.0)));
  CHECK(f.find("kernel kernel: FSM for ice40 at 30.00 ns") == 0);
  CHECK(f.find("states: 3 (idle, 0 before the loop, 1 per iteration, 0 after, done)") != std::string::npos);
  CHECK(f.find("latency: 1 + 0 + 1*(t+1) + 0 cycles") != std::string::npos);
  CHECK(f.find("(t = 0: 2)") != std::string::npos);
  CHECK(f.find("3 x adder 64-bit") != std::string::npos);
  CHECK(f.find("registers: 4 (256 bits)") != std::string::npos);
  CHECK(f.find("critical path: 25.15 ns against 30.00 ns (slack 4.85 ns)") != std::string::npos);
  CHECK(f.find("NEGATIVE") == std::string::npos);
  CHECK(f.find("LOOP0:") != std::string::npos);
  // Deterministic text.
  CHECK(report_text(must_synth(kPermute)) == report_text(must_synth(kPermute)));
  CHECK(report_json(must_synth(kPcg)) == report_json(must_synth(kPcg)));
}

}  // TEST_SUITE
