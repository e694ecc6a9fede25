// The narrowing pass: random graphs keep every output (also with every
// undemanded bit inverted, which shows the demanded-bits analysis covers
// every bit the rewrites read), each rule on a small kernel with its widths
// worked out by hand, faults planted in the analysis caught, and (skipped
// unless asked for) the effect on the corpus kernels, measured.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/compile.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"
#include "hls/narrow_pass.h"
#include "hls/op_library.h"
#include "hls/predicate.h"
#include "hls_support.h"
#include "ir/pass_pipeline.h"
#include "pass_support.h"
#include "random_loop.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

std::vector<ValueId> live_of(const Dfg& g, Op op) {
  const auto live = g.live();
  std::vector<ValueId> out;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_op(v) && g.nodes[v].op == op) out.push_back(v);
  return out;
}

// The one live operation of kind op (fails when there is not exactly one).
ValueId only(const Dfg& g, Op op) {
  const auto v = live_of(g, op);
  INFO(dump(g));
  REQUIRE(v.size() == 1);
  return v[0];
}

unsigned operand_width(const Dfg& g, ValueId v, size_t i) { return g.width(g.nodes[v].operands.at(i)); }

// The widest live logic operation, counting its operands.
unsigned widest_logic(const Dfg& g) {
  const auto live = g.live();
  unsigned w = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!live[v] || !g.is_logic(v)) continue;
    w = std::max(w, g.width(v));
    for (ValueId o : g.nodes[v].operands) w = std::max(w, g.width(o));
  }
  return w;
}

// The library's area of the live operations (iCE40 LUT4s).
double area(const Dfg& g) {
  const auto live = g.live();
  double a = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_logic(v)) a += op_cost(Target::Ice40, shape_of(g, v, false)).area;
  return a;
}

// The bits of the values that cross from one operation to another: each
// live operation's result (what a register would hold) and each loop state register.
uint64_t value_bits(const Dfg& g) {
  const auto live = g.live();
  uint64_t bits = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_logic(v)) bits += g.width(v);
  if (g.loop)
    for (ValueId s : g.loop->state) bits += g.width(s);
  return bits;
}

unsigned state_width(const Dfg& g, const std::string& name) {
  REQUIRE(g.loop);
  for (ValueId s : g.loop->state)
    if (g.nodes[s].name == name) return g.width(s);
  FAIL("no state " << name);
  return 0;
}

// The pass's result, checked against the graph (rules and outputs).
Dfg narrowed(const std::string& kernel) {
  const Dfg g = dfg_from(kernel);
  Dfg n = narrow_pass(g);
  const auto problems = pass_problems(g, n, 300, 2);
  CHECK_MESSAGE(problems.empty(), join(problems) << "\nbefore:\n" << dump(g) << "after:\n" << dump(n));
  return n;
}

// The LFSR of tests/corpus/lfsr.gk, with a u8 trip count to keep the test fast.
const char* kLfsr =
    "input cycle: u8\nextern seed: u64 = 1\nstate := loop (s = seed, i = 0) while i < cycle {\n"
    "    s = (s >> 1) ^ ((s & 1) * 0xB400)\n    i = i + 1\n} yield s\n";

// Kernels with loops, for the checks that random (loop-free) graphs miss.
const std::vector<std::string> kLoopKernels = {
    kLfsr,
    "input n: u8\ntotal := loop (i = 0, acc = 0) while i < n {\n    acc = acc ^ (i * 3)\n    i = i + 1\n} yield acc\n",
    "input (n: u8, k: u64)\nr := loop (i = 0, acc = k) while i < n {\n    acc = acc + i\n    i = i + 1\n} yield acc & 0xFF\n",
    "input (x: u64, k: u16)\ny := pcg_stream(x % 300, k as u64)\n",
    "input n: u32\nz := loop (i: u32 = 0, k: u32 = 7) while (i != 10) & (k < n) {\n    i = i + 1\n    k = k * 3\n} yield k\n",
    "input (a: u16, b: u8)\nr := loop (x = a, j: u8 = 0) while j < b {\n    x = (x << 1) | (x >> 15)\n    j = j + 1\n} yield x as u8\n",
};

}  // namespace

TEST_SUITE("narrowing") {

TEST_CASE("random graphs keep every output through the pass") {
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    const Dfg n = narrow_pass(g);
    const auto problems = pass_problems(g, n, 60, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\nbefore:\n" << dump(g) << "after:\n" << dump(n));
  }
}

TEST_CASE("with every undemanded bit inverted the outputs are the same: nothing reads what it did not demand") {
  NarrowOptions o;
  o.invert_undemanded = true;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    const auto problems = pass_problems(g, narrow_pass(g, o), 60, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(g));
  }
  for (const std::string& k : kLoopKernels) {
    CAPTURE(k);
    const Dfg g = dfg_from(k);
    CHECK(pass_problems(g, narrow_pass(g), 100, 4).empty());
    CHECK(pass_problems(g, narrow_pass(g, o), 100, 4).empty());
  }
}

TEST_CASE("random loops keep every output, also with every undemanded bit inverted; their registers narrow") {
  NarrowOptions o;
  o.invert_undemanded = true;
  size_t registers = 0, narrowed_registers = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_loop_dfg(seed);
    REQUIRE_MESSAGE(check_dfg(g).empty(), check_dfg(g).front());
    const Dfg n = narrow_pass(g);
    auto problems = pass_problems(g, n, 40, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\nbefore:\n" << dump(g) << "after:\n" << dump(n));
    problems = pass_problems(g, narrow_pass(g, o), 40, seed);
    CHECK_MESSAGE(problems.empty(), join(problems) << "\n" << dump(g));
    for (size_t k = 0; k < g.loop->state.size(); ++k) {
      ++registers;
      narrowed_registers += n.width(n.loop->state[k]) < g.width(g.loop->state[k]);
    }
  }
  MESSAGE(narrowed_registers << " of " << registers << " state registers narrowed");
  CHECK(narrowed_registers * 4 > registers);
}

TEST_CASE("planted faults in the analysis are caught") {
  // Facts: an addition whose result is claimed one bit narrower than it is.
  NarrowOptions wrong_facts;
  wrong_facts.hooks.forward = [](const Dfg& g, ValueId v, ValueFacts& f) {
    if (g.nodes[v].op == Op::Add) f = normalized(ValueFacts{f.width, 0, 0, 0, f.hi >> 1});
  };
  const Dfg sum = dfg_from("input (a: u8, b: u8)\ns := (a as u16) + (b as u16)\n");
  CHECK(pass_problems(sum, narrow_pass(sum)).empty());
  CHECK_FALSE(pass_problems(sum, narrow_pass(sum, wrong_facts)).empty());
  // Demand: an addition that forgets its carries demands only the bits it
  // outputs; inverting the rest shows it.
  NarrowOptions no_carries;
  no_carries.invert_undemanded = true;
  no_carries.hooks.backward = [](const Dfg& g, ValueId v, std::vector<uint64_t>& operands) {
    if (g.nodes[v].op == Op::Add)
      for (uint64_t& d : operands) d &= ~uint64_t{0xFF};
  };
  const Dfg high = dfg_from("input (a: u16, b: u16)\ns := (a + b) >> 8\n");
  NarrowOptions invert;
  invert.invert_undemanded = true;
  CHECK(pass_problems(high, narrow_pass(high, invert)).empty());
  CHECK_FALSE(pass_problems(high, narrow_pass(high, no_carries)).empty());
}

TEST_CASE("(x + y) & 0x3FF is a 10-bit addition") {
  const Dfg n = narrowed("input (x: u64, y: u64)\nr := (x + y) & 0x3FF\n");
  const ValueId add = only(n, Op::Add);
  CHECK(n.width(add) == 10);
  CHECK(operand_width(n, add, 0) == 10);
  CHECK(live_of(n, Op::And).empty());  // the mask is the slice itself
  CHECK(widest_logic(n) == 10);
  CHECK(n.width(n.outputs[0].value) == 64);  // the port keeps its width
}

TEST_CASE("popcount(z) & 1 is the parity of z") {
  const Dfg n = narrowed("input z: u64\npar := popcount(z) & 1\n");
  CHECK(live_of(n, Op::Popcount).empty());
  const ValueId x = only(n, Op::XorReduce);
  CHECK(operand_width(n, x, 0) == 64);
}

TEST_CASE("x % 1000 stays a remainder whose readers take 10 bits") {
  const Dfg n = narrowed("input x: u64\nr := x % 1000\n");
  const ValueId mod = only(n, Op::Mod);
  // The output is the remainder's low 10 bits, zero-extended: bits 10 and up are known zero.
  const Node& out = n.nodes[n.outputs[0].value];
  REQUIRE(out.op == Op::ZExt);
  const Node& low = n.nodes[out.operands[0]];
  CHECK(low.op == Op::Slice);
  CHECK(low.width == 10);
  CHECK(low.operands[0] == mod);
  // A remainder of a narrow dividend is computed at its width.
  const Dfg m = narrowed("input x: u64\nr := (x & 0xFFFF) % 1000\n");
  CHECK(m.width(only(m, Op::Mod)) == 16);
}

TEST_CASE("the LFSR multiplies a 1-bit value, and xors only the product's significant bits") {
  const Dfg n = narrowed(kLfsr);
  const ValueId mul = only(n, Op::Mul);
  // (s & 1) * 0xB400: bit 0 of s times 0xB400 >> 10 = 0x2D, six bits, placed at bit 10.
  CHECK(std::min(operand_width(n, mul, 0), operand_width(n, mul, 1)) == 1);
  CHECK(n.width(mul) == 6);
  // (s >> 1) ^ product: only bits 10..15 of the product can be 1, so only they are xored.
  CHECK(n.width(only(n, Op::Xor)) == 6);
  CHECK(state_width(n, "s") == 64);  // the seed is a u64
  CHECK(state_width(n, "i") == 8);   // below the u8 trip count
}

TEST_CASE("a loop counter below a u8 bound is an 8-bit register, compared and incremented on 8 bits") {
  const Dfg n = narrowed(
      "input n: u8\ntotal := loop (i = 0, acc = 0) while i < n {\n    acc = acc ^ (i * 3)\n    i = i + 1\n} yield acc\n");
  CHECK(state_width(n, "i") == 8);
  CHECK(state_width(n, "acc") == 10);  // i * 3 < 768
  const ValueId lt = only(n, Op::Lt);
  CHECK(operand_width(n, lt, 0) == 8);
  for (ValueId add : live_of(n, Op::Add)) CHECK(n.width(add) <= 10);
}

TEST_CASE("(x << 40) + y adds only the top 24 bits") {
  const Dfg n = narrowed("input (x: u64, y: u64)\nr := (x << 40) + y\n");
  CHECK(n.width(only(n, Op::Add)) == 24);
}

TEST_CASE("the xorshift kernel keeps what lo and par need") {
  const std::string body = "input x: u64\na := x ^ (x << 13)\nb := a ^ (a >> 7)\nz := b ^ (b << 17)\n";
  auto xor_widths = [](const Dfg& g) {
    std::vector<unsigned> w;
    for (ValueId v : live_of(g, Op::Xor)) w.push_back(g.width(v));
    std::sort(w.begin(), w.end());
    return w;
  };
  // lo alone: z[0,10) = b[0,10) (b << 17 is zero there) = a[0,10) ^ a[7,17);
  // a[0,13) = x[0,13) and a[13,17) = x[13,17) ^ x[0,4): xors of 10 and 4 bits.
  const Dfg lo = narrowed(body + "lo := z & 0x3FF\n");
  CHECK(xor_widths(lo) == std::vector<unsigned>{4, 10});
  CHECK(widest_logic(lo) == 10);
  // With par, the parity reads all of z: a xors x[13,64) (51 bits), b xors
  // a[0,57) (57), z xors b[17,64) (47); the popcount is a parity.
  const std::string kernel = body + "lo := z & 0x3FF\npar := popcount(z) & 1\n";
  const Dfg both = narrowed(kernel);
  CHECK(xor_widths(both) == std::vector<unsigned>{47, 51, 57});
  CHECK(live_of(both, Op::Popcount).empty());
  CHECK(live_of(both, Op::XorReduce).size() == 1);
  CHECK(live_of(both, Op::And).empty());
  CHECK(area(both) < area(dfg_from(kernel)));
}

TEST_CASE("an addend known to be 0 or 1 is a carry in") {
  const Dfg n = narrowed("input (x: u64, a: u64, b: u64)\nr := x + ((a < b) as u64)\n");
  const ValueId add = only(n, Op::Add);
  REQUIRE(n.nodes[add].operands.size() == 3);
  CHECK(operand_width(n, add, 2) == 1);
  CHECK(only(n, Op::Lt) == n.nodes[add].operands[2]);
}

TEST_CASE("comparisons, products, shifts and quotients of narrow values are narrow") {
  // Both operands below 256: an 8-bit comparison, unsigned even when the source is signed.
  Dfg n = narrowed("input (x: u64, y: u64)\nr := (x & 0xFF) < (y & 0xFF)\n");
  CHECK(operand_width(n, only(n, Op::Lt), 0) == 8);
  n = narrowed("input (x: i64, y: i64)\nr := (x & 0xFF) < (y & 0xFF)\n");
  CHECK(operand_width(n, only(n, Op::Lt), 0) == 8);
  CHECK_FALSE(n.nodes[only(n, Op::Lt)].sgn);
  // A signed comparison of unknown signs stays whole and signed.
  n = narrowed("input (x: i64, y: i64)\nr := x < y\n");
  CHECK(operand_width(n, only(n, Op::Lt), 0) == 64);
  CHECK(n.nodes[only(n, Op::Lt)].sgn);
  // 12 x 8 bits: a 20-bit product.
  n = narrowed("input (x: u64, y: u64)\nr := (x & 0xFFF) * (y & 0xFF)\n");
  const ValueId mul = only(n, Op::Mul);
  CHECK(n.width(mul) == 20);
  CHECK(operand_width(n, mul, 0) + operand_width(n, mul, 1) == 20);
  // A 16-bit value shifted right by a variable amount.
  n = narrowed("input (x: u64, k: u64)\nr := (x & 0xFFFF) >> k\n");
  CHECK(n.width(only(n, Op::Shr)) == 16);
  // A quotient narrows only when the divisor cannot be zero (x / 0 is all 64 ones).
  n = narrowed("input (x: u64, y: u64)\nr := (x & 0xFFFF) / ((y & 0xFF) | 1)\n");
  CHECK(n.width(only(n, Op::Div)) == 16);
  n = narrowed("input (x: u64, y: u64)\nr := (x & 0xFFFF) / (y & 0xFF)\n");
  CHECK(n.width(only(n, Op::Div)) == 64);
  // An arithmetic shift of a value of unknown sign stays whole.
  n = narrowed("input (x: i64, k: u64)\nr := (x >> k) & 0xFF\n");
  CHECK(n.width(only(n, Op::Shr)) == 64);
}

TEST_CASE("narrowing never adds area to random graphs") {
  double before = 0, after = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Dfg g = cleanup(random_dfg(seed));
    before += area(g);
    after += area(narrow_pass(g));
  }
  MESSAGE("random graphs: area " << before << " -> " << after);
  CHECK(after < before);
}

// The corpus table of docs/hls-narrowing.md (run with -tc="*corpus*" --no-skip).
TEST_CASE("narrowing on the corpus kernels, measured" * doctest::skip()) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const fs::path& dir : {fs::path(POLYDAT_CORPUS_DIR), fs::path(POLYDAT_CORPUS_DIR) / ".." / "rtl" / "kernels"}) {
    std::vector<fs::path> here;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".gk") here.push_back(e.path());
    std::sort(here.begin(), here.end());
    files.insert(files.end(), here.begin(), here.end());
  }
  fmt::print("| kernel | kind | area before | area after | value bits before | value bits after |\n");
  fmt::print("|---|---|---:|---:|---:|---:|\n");
  double area_before = 0, area_after = 0;
  uint64_t bits_before = 0, bits_after = 0;
  for (const fs::path& p : files) {
    std::ifstream in(p);
    std::string first;
    std::getline(in, first);
    frontend::CompileOptions copts;
    std::istringstream words(first);
    for (std::string w, prev; words >> w; prev = w)
      if (prev == "lib") copts.lib_paths.push_back((p.parent_path() / w).string());
    frontend::CompileResult r = frontend::compile_file(p.string(), copts);
    if (!r.ok()) continue;
    auto opt = ir::optimize(*r.ir);
    if (!opt) continue;
    auto kind = single_loop_fsm(*opt, opt->entry());
    if (!kind) continue;
    std::vector<bool> config;
    for (const frontend::Port& port : r.kernel().params) config.push_back(port.is_extern);
    auto built = build_dfg(*opt, opt->entry(), config);
    if (!built) continue;
    const Dfg g = cleanup(*built);
    const Dfg n = narrow_pass(g);
    CAPTURE(p.stem().string());
    CHECK(pass_problems(g, n, 50, 1).empty());
    fmt::print("| {}/{} | {} | {:.0f} | {:.0f} | {} | {} |\n", p.parent_path().filename().string(), p.stem().string(),
               *kind == DesignKind::Pipeline ? "pipeline" : "fsm", area(g), area(n), value_bits(g), value_bits(n));
    area_before += area(g);
    area_after += area(n);
    bits_before += value_bits(g);
    bits_after += value_bits(n);
  }
  fmt::print("| total | | {:.0f} | {:.0f} | {} | {} |\n", area_before, area_after, bits_before, bits_after);
}

}  // TEST_SUITE
