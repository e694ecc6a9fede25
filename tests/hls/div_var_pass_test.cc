// Division and remainder by a variable: the restoring array and the iterative
// unit's marking, signed and unsigned, against eval of the original graph
// (exhaustive at 8 bits, edge and random values at 16 to 64 bits, random
// graphs), the array's rows as narrow as the dividend, and a planted fault.
#include <doctest/doctest.h>

#include "hls/dfg_builder.h"
#include "hls/div_var_pass.h"
#include "hls_support.h"
#include "pass_support.h"

using namespace polydat;
using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

DivVarOptions arrays() {
  DivVarOptions o;
  o.max_array_luts = 1e12;
  return o;
}

DivVarOptions iterative() {
  DivVarOptions o;
  o.max_array_luts = 0;
  return o;
}

size_t marked_iterative(const Dfg& g) {
  const auto live = g.live();
  size_t n = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    n += live[v] && g.is_op(v) && (g.nodes[v].op == Op::Div || g.nodes[v].op == Op::Mod) && g.nodes[v].param == 1;
  return n;
}

const char* kinds[] = {"u", "i"};

std::string kernel(const char* sign, unsigned w) {
  return "input (a: " + std::string(sign) + std::to_string(w) + ", b: " + sign + std::to_string(w) +
         ")\nq := a / b\nr := a % b\n";
}

}  // namespace

TEST_SUITE("div var") {

TEST_CASE("8 bits, every dividend and divisor, signed and unsigned, as an array and as an iterative unit") {
  for (const char* sign : kinds) {
    CAPTURE(sign);
    const Dfg g = dfg_from(kernel(sign, 8));
    const Dfg a = div_var_pass(g, arrays());
    CHECK(count_live(a, Op::Div) + count_live(a, Op::Mod) == 0);
    const auto pa = pass_problems(g, a);
    CHECK_MESSAGE(pa.empty(), join(pa));
    const Dfg it = div_var_pass(g, iterative());
    CHECK(marked_iterative(it) == 2);
    const auto pi = pass_problems(g, it);
    CHECK_MESSAGE(pi.empty(), join(pi));
  }
}

TEST_CASE("16, 32 and 64 bits: edge and random values through the array") {
  for (const char* sign : kinds)
    for (unsigned w : {16u, 32u, 64u}) {
      CAPTURE(sign);
      CAPTURE(w);
      const Dfg g = dfg_from(kernel(sign, w));
      const auto p = pass_problems(g, div_var_pass(g, arrays()), 300, w);
      CHECK_MESSAGE(p.empty(), join(p));
    }
}

TEST_CASE("the array is as narrow as the dividend: 100 / (x + 1) has seven rows") {
  const Dfg g = dfg_from("input x: u64\nq := 100 / (x + 1)\nr := 100 % (x + 1)\n");
  const Dfg a = div_var_pass(g);
  CHECK(marked_iterative(a) == 0);
  CHECK(count_live(a, Op::Div) + count_live(a, Op::Mod) == 0);
  // One comparison per quotient bit (100 has 7 significant bits), none wider than 8 bits.
  CHECK(count_live(a, Op::Ge) == 7);
  const auto live = a.live();
  for (ValueId v = 0; v < a.nodes.size(); ++v)
    if (live[v] && a.is_op(v) && a.nodes[v].op == Op::Ge) CHECK(a.width(a.nodes[v].operands[0]) <= 7);
  const auto p = pass_problems(g, a);
  CHECK_MESSAGE(p.empty(), join(p));
}

TEST_CASE("a full 64-bit division becomes an iterative unit by default, one for q and r together") {
  const Dfg g = dfg_from(kernel("u", 64));
  const Dfg a = div_var_pass(g, div_var_options(DesignKind::Pipeline));
  CHECK(marked_iterative(a) == 2);
  const auto p = pass_problems(g, a);
  CHECK_MESSAGE(p.empty(), join(p));
}

TEST_CASE("random graphs keep their outputs both ways") {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    const Dfg g = random_dfg(seed);
    for (const DivVarOptions& o : {arrays(), iterative(), DivVarOptions{}}) {
      const auto p = pass_problems(g, div_var_pass(g, o), 40, seed);
      CHECK_MESSAGE(p.empty(), join(p) << dump(g));
    }
  }
}

TEST_CASE("the harness catches a planted fault in an array row") {
  const Dfg g = dfg_from(kernel("u", 8));
  Dfg a = div_var_pass(g, arrays());
  // Swap the arms of the first row's mux: the remainder is kept where it should be reduced.
  for (Node& n : a.nodes)
    if (n.is_op() && n.op == Op::Mux && n.width > 1) {
      std::swap(n.operands[1], n.operands[2]);
      break;
    }
  CHECK_FALSE(output_differences(g, a, samples_for(g, 0, 1)).empty());
}

}  // TEST_SUITE
