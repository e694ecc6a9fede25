// nb-rs's stanza in the workload top: cycle c of an entry renders only op
// stanza[c % S] (nb-rs docs/sysref/22_op_sequencing.md). The stanzas here are
// set by hand on the plan (longer than the ops, repeating them, starting with
// another op than the first), so the reference lines are derived by hand and
// cross-checked against a workload that spells each stanza out as ops.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - emit_top.cc's stanza table shifted by one place (op stanza[(c+1) % S]):
//     the decoder refuses the first record of every multi-op entry, here and in
//     cosim_test.cc's seeding matrix;
//   - decode.cc's stanza check dropped: "the decoder checks each record" fails.
#include <doctest/doctest.h>

#include "tests/hwtop/hwtop_support.h"
#include "workload/plan.h"

using namespace polydat;
using namespace polydat::hwtop;
using namespace polydat::hwtop::test;

namespace {

bool contains(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

// p streams (its kernel writes `total`, reads no cell), q has one cycle in flight (its kernel
// reads `total`), r has no kernel. Each has fewer ops than the stanzas set below.
const std::string kPhaseP = R"(bindings: |
  shared(sum) total: u64 := 0
phases:
  p:
    bindings: |
      input cycle: u64
      v := cycle * 3
      early := cycle < 4
      total := cycle
    ops:
      a: "a {cycle} v={v} total={total}"
      b:
        if: early
        stmt: "b {cycle}"
)";
const std::string kWorkload = kPhaseP + R"(  q:
    bindings: |
      input cycle: u64
      w := total + cycle
    ops:
      x: "x {cycle} w={w}"
      y: "y {cycle}"
  r:
    ops:
      s: "r {total}"
      t: "s {cycle}"
)";

struct Stanza {
  std::vector<size_t> places;
  uint64_t stanzas = 1;
};

// The planned entries given these stanzas (cycles: stanzas x length, as the runner counts them).
workload::WorkloadPlan plan_with(const workload::Workload& w, const std::vector<Stanza>& stanzas) {
  workload::RunOptions ro;
  ro.native = false;
  auto plan = workload::plan_workload(w, ro);
  REQUIRE_MESSAGE(static_cast<bool>(plan), (plan ? "" : plan.error()));
  REQUIRE(plan->entries.size() == stanzas.size());
  for (size_t k = 0; k < stanzas.size(); ++k) {
    plan->entries[k].stanza = stanzas[k].places;
    plan->entries[k].cycles = stanzas[k].stanzas * stanzas[k].places.size();
  }
  return std::move(*plan);
}

HwWorkload lower_with(const workload::Workload& w, const std::vector<Stanza>& stanzas) {
  auto hw = lower_plan(w, plan_with(w, stanzas), HwOptions{});
  REQUIRE_MESSAGE(static_cast<bool>(hw), (hw ? "" : hw.error()));
  return std::move(*hw);
}

// p: [a, b, a, a] twice; q: [y, y, x] once; r: [t, s] twice.
const std::vector<Stanza> kStanzas = {{{0, 1, 0, 0}, 2}, {{1, 1, 0}, 1}, {{1, 0}, 2}};

// By hand: v = 3c; total after p's cycle c is 0 + 1 + ... + c; b only while c < 4 (so not at 5);
// q's w = 28 + c; r shows the 28 p left.
const char* const kExpected = R"(a 0 v=0 total=0
b 1
a 2 v=6 total=3
a 3 v=9 total=6
a 4 v=12 total=10
a 6 v=18 total=21
a 7 v=21 total=28
y 0
y 1
x 2 w=30
s 0
r 28
s 2
r 28
)";

// The same stanzas spelled out as ops, which the software runner steps through one by one.
const std::string kSpelledOut = kPhaseP + R"(      a2: "a {cycle} v={v} total={total}"
      a3: "a {cycle} v={v} total={total}"
    cycles: "2"
  q:
    bindings: |
      input cycle: u64
      w := total + cycle
    ops:
      y: "y {cycle}"
      y2: "y {cycle}"
      x: "x {cycle} w={w}"
  r:
    cycles: "2"
    ops:
      t: "s {cycle}"
      s: "r {total}"
)";

Record record(uint32_t entry, uint32_t op, uint64_t cycle) {
  Record r;
  r.entry = entry;
  r.op = op;
  r.cycle = cycle;
  r.payload = {0, 0, 0, 0};
  return r;
}

}  // namespace

TEST_CASE("a stanza longer than its ops, repeating them: the top renders one op a cycle, as derived by hand") {
  CHECK(run_lines(load_text(kSpelledOut)) == kExpected);  // the hand derivation, checked by the runner
  const workload::Workload w = load_text(kWorkload);
  const HwWorkload hw = lower_with(w, kStanzas);
  REQUIRE(hw.entries.size() == 3);
  CHECK(hw.entries[0].streamed);
  CHECK_FALSE(hw.entries[1].streamed);
  CHECK(hw.entries[2].stages.empty());
  for (bool systemc : {false, true})
    for (double stall : {0.0, 0.4}) {
      CAPTURE(systemc);
      CAPTURE(stall);
      CHECK(hardware_lines(hw, sim_options(systemc, stall, 5)) == kExpected);
    }
}

TEST_CASE("the stanza in the SystemVerilog: a case table for each entry of several places, none for one") {
  SUBCASE("one-op phases only: no stanza position, no case on the op") {
    for (const char* name : {"budget.yaml", "three_phase.yaml", "do_while.yaml"}) {
      CAPTURE(name);
      const std::string top = emit_top(lower(load_example(name)));
      CHECK_FALSE(contains(top, "spos"));
      CHECK_FALSE(contains(top, "case (cur_op)"));
      CHECK(contains(top, "assign rec_op = cur_op;"));
      CHECK(contains(top, "assign released = state == S_EMIT && sent;"));
    }
    // The record of budget's one op is the entry's row, with no case inside.
    const std::string top = emit_top(lower(load_example("budget.yaml")));
    CHECK(contains(top, "2'd0: begin payload[0 +: 64] = m0_out_cost;"));
  }
  SUBCASE("several places: spos steps through the table, wraps at the entry's last place, restarts with each entry") {
    const HwWorkload hw = lower_with(load_text(kWorkload), kStanzas);
    const std::string top = emit_top(hw);
    CHECK(contains(top, "logic [1:0] spos, spos_last;"));
    CHECK(contains(top, "2'd0: begin n_cycles = 4'd8; n_stages = 1'd1; streamed = 1'b1; spos_last = 2'd3; case (spos) 2'd1: cur_op = 1'd1; default: ; endcase"));
    CHECK(contains(top, "2'd1: begin n_cycles = 4'd3; n_stages = 1'd1; spos_last = 2'd2; case (spos) 2'd0: cur_op = 1'd1; 2'd1: cur_op = 1'd1; default: ; endcase"));
    CHECK(contains(top, "2'd2: begin n_cycles = 4'd4; n_stages = 1'd0; spos_last = 2'd1; case (spos) 2'd0: cur_op = 1'd1; default: ; endcase end"));
    CHECK(contains(top, "spos <= spos == spos_last ? '0 : spos + 1'b1;"));
    // p's records: op a carries v (and the cell), op b only its gate.
    CHECK(contains(top, "2'd0: case (cur_op) 1'd0: begin payload[0 +: 64] = m0_out_v; payload[64 +: 64] = c_total_1; end 1'd1: begin gate = (m0_out_early != '0); end default: ; endcase"));
    check_lint_and_yosys(hw, "stanza");
  }
  SUBCASE("a one-op phase beside a multi-op one keeps a plain row") {
    const HwWorkload hw = lower_with(load_text(kWorkload), {{{0, 1}, 1}, {{0}, 2}, {{1}, 1}});
    const std::string top = emit_top(hw);
    // q's and r's one place: no spos_last (spos stays at 0), no case on cur_op; r's names op 1 outright.
    CHECK(contains(top, "2'd1: begin n_cycles = 2'd2; n_stages = 1'd1; case (stg)"));
    CHECK(contains(top, "2'd1: begin payload[0 +: 64] = m1_out_w; end"));
    CHECK(contains(top, "2'd2: begin n_cycles = 2'd1; n_stages = 1'd0; cur_op = 1'd1; end"));
    // total is 0 + 1 after p's two cycles.
    CHECK(hardware_lines(hw, sim_options(false, 0.3)) == "a 0 v=0 total=0\nb 1\nx 0 w=1\nx 1 w=2\ns 0\n");
  }
}

TEST_CASE("the decoder checks each record against the stanza: its op, its cycle, its order") {
  const HwWorkload hw = lower_with(load_text(kWorkload), kStanzas);
  // Entry 2 is r, stanza [t, s]: cycle 1 renders op 0, cycle 2 op 1.
  auto good = decode_records(hw, {record(2, 0, 1), record(2, 1, 2)}, workload::LineFormat::Stmt);
  REQUIRE_MESSAGE(static_cast<bool>(good), (good ? "" : good.error().message));
  CHECK(*good == "r 0\ns 2\n");
  auto wrong_op = decode_records(hw, {record(2, 1, 1)}, workload::LineFormat::Stmt);
  REQUIRE_FALSE(static_cast<bool>(wrong_op));
  CHECK(wrong_op.error().message == "record 0 (entry 2, cycle 1, op 1): the stanza renders op 0 at that cycle");
  auto past = decode_records(hw, {record(2, 1, 4)}, workload::LineFormat::Stmt);
  REQUIRE_FALSE(static_cast<bool>(past));
  CHECK(contains(past.error().message, "is past the entry's 4 cycles"));
  auto repeated = decode_records(hw, {record(2, 1, 2), record(2, 1, 2)}, workload::LineFormat::Stmt);
  REQUIRE_FALSE(static_cast<bool>(repeated));
  CHECK(contains(repeated.error().message, "record 1 (entry 2, cycle 2, op 1) comes after cycle 2's record"));
}

TEST_CASE("a fault planted in the stanza is caught: every entry starting one place on (op stanza[(c+1) % S])") {
  const HwWorkload hw = lower_with(load_text(kWorkload), kStanzas);
  std::string sv = emit_all(hw);
  const std::string restart = "            spos <= '0;\n";  // S_BEGIN's (reset's is indented less)
  const size_t at = sv.find(restart);
  REQUIRE(at != std::string::npos);
  sv.replace(at, restart.size(), "            spos <= 2'd1;\n");
  TopSimOptions o = sim_options(false, 0);
  o.sv = sv;
  auto sim = simulate_top(hw, o);
  REQUIRE_MESSAGE(static_cast<bool>(sim), (sim ? "" : sim.error()));
  REQUIRE_FALSE(sim->records.empty());
  CHECK(sim->records[0].op == 1);  // b at cycle 0, where the stanza has a
  auto lines = decode_records(hw, sim->records, workload::LineFormat::Stmt);
  REQUIRE_FALSE(static_cast<bool>(lines));
  CHECK(lines.error().message == "record 0 (entry 0, cycle 0, op 1): the stanza renders op 0 at that cycle");
}

TEST_CASE("a stanza the sequencer cannot step through is refused at the phase, kind hw-scenario") {
  const workload::Workload w = load_text(kWorkload);
  for (const Stanza& bad : {Stanza{{0, 2}, 1}, Stanza{{}, 1}}) {
    auto hw = lower_plan(w, plan_with(w, {bad, {{0}, 1}, {{0}, 1}}), HwOptions{});
    REQUIRE_FALSE(static_cast<bool>(hw));
    CHECK(contains(hw.error(), "hw.yaml:4:3: error: phase 'p': its stanza of " + std::to_string(bad.places.size()) + " places (2 ops"));
    CHECK(contains(hw.error(), "[hw-scenario]"));
  }
  // Cycles that are not whole stanzas.
  workload::WorkloadPlan plan = plan_with(w, {{{0, 1}, 1}, {{0}, 1}, {{0}, 1}});
  plan.entries[0].cycles = 3;
  auto hw = lower_plan(w, std::move(plan), HwOptions{});
  REQUIRE_FALSE(static_cast<bool>(hw));
  CHECK(contains(hw.error(), "its stanza of 2 places (2 ops, 3 cycles)"));
}

TEST_CASE("--partition: a multi-op phase in hardware between multi-op phases on the host, lines in place") {
  // The runner's own stanzas ([0, 1] and [0, 1, 2]); h computes a string, so it stays on the host.
  const workload::Workload w = load_text(R"(phases:
  h:
    cycles: "2"
    bindings: |
      input cycle: u64
      s := format_u64(cycle * 7)
    ops:
      one: "h1 {s}"
      two: "h2 {cycle}"
  g:
    cycles: "3"
    bindings: |
      input cycle: u64
      v := cycle * 5
      odd := cycle % 2 == 1
    ops:
      a: "g-a {cycle} {v}"
      b:
        if: odd
        stmt: "g-b {cycle} {v}"
      c: "g-c {cycle}"
scenarios:
  default: [h, g, h]
)");
  HwOptions o;
  o.partition = true;
  auto hw = lower_workload(w, {}, o);
  REQUIRE_MESSAGE(static_cast<bool>(hw), (hw ? "" : hw.error()));
  REQUIRE(hw->entries.size() == 3);
  CHECK(hw->entries[0].host);
  CHECK_FALSE(hw->entries[1].host);
  CHECK(hw->entries[2].host);
  // By hand: h renders h1 at even cycles, h2 at odd ones; g's nine cycles go a, b, c, and b shows only at odd cycles (1, 7).
  const std::string h = "h1 0\nh2 1\nh1 14\nh2 3\n";
  const std::string expected = h + "g-a 0 0\ng-b 1 5\ng-c 2\ng-a 3 15\ng-c 5\ng-a 6 30\ng-b 7 35\ng-c 8\n" + h;
  CHECK(run_lines(w) == expected);
  auto sim = simulate_top(*hw, sim_options(true, 0.3));
  REQUIRE_MESSAGE(static_cast<bool>(sim), (sim ? "" : sim.error()));
  const std::vector<std::string> host = {h, "", h};
  auto lines = decode_records(*hw, sim->records, workload::LineFormat::Stmt, &host);
  REQUIRE_MESSAGE(static_cast<bool>(lines), (lines ? "" : lines.error().message));
  CHECK(*lines == expected);
}
