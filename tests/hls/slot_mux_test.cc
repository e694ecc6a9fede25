// The input multiplexers of a unit shared across a pipeline's slots: hand-built
// designs whose LUTs are counted bit by bit in the comments, and the binding of
// the kernel at II 3, whose multiplexers must not exceed those of the
// plain rule it replaced (the k-th product of a slot on block k).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "hls/slot_mux.h"
#include "tests/hls/hls_support.h"

using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

// A design at II 2 over a 4-bit input x (node 0) and a 2-bit input y (node 1); `add_mul` appends
// a Mul of two operands at a step.
struct Built {
  Design d;
  Built() {
    d.kind = DesignKind::Pipeline;
    d.ii = 2;
    add_node(NodeKind::Input, 4);
    add_node(NodeKind::Input, 2);
  }
  ValueId add_node(NodeKind kind, unsigned width, uint64_t constant = 0) {
    Node n;
    n.kind = kind;
    n.width = width;
    n.constant = constant;
    d.dfg.nodes.push_back(n);
    d.place.push_back(Placement{});
    return static_cast<ValueId>(d.dfg.nodes.size() - 1);
  }
  ValueId constant(uint64_t c) { return add_node(NodeKind::Constant, 4, c); }
  ValueId add_mul(ValueId a, ValueId b, uint32_t step) {
    const ValueId v = add_node(NodeKind::Op, 8);
    d.dfg.nodes[v].op = Op::Mul;
    d.dfg.nodes[v].operands = {a, b};
    d.place[v].step = step;
    return v;
  }
};

}  // namespace

TEST_SUITE("slot_mux") {

TEST_CASE("x * 3 in slot 0 and x * 5 in slot 1: x by wire or by register, and two constant bits that differ") {
  Built b;
  // Step 0 reads x from its port, step 1 from the register p0_x: two inputs on each of 4 bits
  // (4 LUTs). 3 = 0011 and 5 = 0101: bits 1 and 2 differ (2 LUTs), bits 0 and 3 agree (none).
  const ValueId m0 = b.add_mul(0, b.constant(3), 0);
  const ValueId m1 = b.add_mul(0, b.constant(5), 1);
  CHECK(slot_mux_luts(b.d, {m0, m1}) == 6);
}

TEST_CASE("one register read in both slots needs no multiplexer; equal constants none either") {
  Built b;
  // At II 2, x's register p0_x holds it through steps 1 and 2: the same source in slots 1 and 0.
  const ValueId m0 = b.add_mul(0, b.constant(9), 1);
  const ValueId m1 = b.add_mul(0, b.constant(9), 2);
  CHECK(slot_mux_luts(b.d, {m0, m1}) == 0);
  // At step 4 (slot 0 again) x comes from p2_x, another register: 4 LUTs beside step 1's.
  const ValueId m2 = b.add_mul(0, b.constant(9), 4);
  CHECK(slot_mux_luts(b.d, {m0, m2}) == 4);
}

TEST_CASE("a narrower operand's zero extension is a constant input beside the wider one's bits") {
  Built b;
  // x (4 bits) at step 0 and y (2 bits) at step 1 from p0_y: bits 0-1 choose between two
  // variables (2 LUTs), bits 2-3 between x and a zero (2 LUTs). The constants 1 and 1: none.
  const ValueId m0 = b.add_mul(0, b.constant(1), 0);
  const ValueId m1 = b.add_mul(1, b.constant(1), 1);
  CHECK(slot_mux_luts(b.d, {m0, m1}) == 4);
  // Three slots' worth at II 3: x at step 0, y at step 1, x at step 2 (register p0_x), constants
  // 1, 2, 4 (bits 0-2 each differ, bit 3 agrees). Operand 0: bits 0-1 three variables (2 LUTs
  // each), bits 2-3 two variables and a zero (2 each): 8. Operand 1: 3.
  b.d.ii = 3;
  const ValueId n0 = b.add_mul(0, b.constant(1), 0);
  const ValueId n1 = b.add_mul(1, b.constant(2), 1);
  const ValueId n2 = b.add_mul(0, b.constant(4), 2);
  CHECK(slot_mux_luts(b.d, {n0, n1, n2}) == 11);
}

TEST_CASE("constants that differ between slots beside a variable cost one LUT more") {
  Built b;
  b.d.ii = 3;
  // Operand 0 is x (step 0), then 5 = 0101 and 6 = 0110: bits 0 and 1 choose between x and
  // constants that differ (1 + 1 LUTs each), bits 2 and 3 between x and one constant bit (1
  // each): 6. Operand 1 is 1 everywhere: none.
  const ValueId m0 = b.add_mul(0, b.constant(1), 0);
  const ValueId m1 = b.add_mul(b.constant(5), b.constant(1), 1);
  const ValueId m2 = b.add_mul(b.constant(6), b.constant(1), 2);
  CHECK(slot_mux_luts(b.d, {m0, m1, m2}) == 6);
}

TEST_CASE("a unit with one op, or in an FSM, has no slot multiplexers") {
  Built b;
  const ValueId m0 = b.add_mul(0, b.constant(3), 0);
  const ValueId m1 = b.add_mul(1, b.constant(5), 1);
  CHECK(slot_mux_luts(b.d, {m0}) == 0);
  b.d.kind = DesignKind::Fsm;
  CHECK(slot_mux_luts(b.d, {m0, m1}) == 0);
}

TEST_CASE("the issue's kernel at II 3: its DSP binding multiplexes no more than the k-th-of-a-slot rule") {
  HlsOptions o;
  o.ii = 3;
  const Design d = must_synth(kMixedKernel, o);
  std::vector<ValueId> dsp_ops;
  double bound = 0;
  for (const FunctionalUnit& u : d.units)
    if (u.cls == UnitClass::Dsp) {
      bound += slot_mux_luts(d, u.ops);
      dsp_ops.insert(dsp_ops.end(), u.ops.begin(), u.ops.end());
    }
  REQUIRE(dsp_ops.size() > 8);  // blocks are shared
  std::sort(dsp_ops.begin(), dsp_ops.end());
  std::map<uint32_t, size_t> taken;
  std::vector<std::vector<ValueId>> blocks;  // k -> the ops the plain rule gives block k
  for (ValueId v : dsp_ops) {
    const size_t k = taken[d.slot(d.place[v].step)]++;
    if (k >= blocks.size()) blocks.resize(k + 1);
    blocks[k].push_back(v);
  }
  double plain_luts = 0;
  for (const auto& ops : blocks) plain_luts += slot_mux_luts(d, ops);
  CHECK(bound <= plain_luts);
  CHECK(bound > 0);
}

}
