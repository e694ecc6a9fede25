// The workload top's composition, read off the lowering and the emitted
// SystemVerilog without simulating: one module per scope kernel a run needs,
// wired by name; a structural loop variable specialises modules, a
// parametric one drives a cfg_ port per entry; shared cells become registers
// with their combine's hardware; what hardware cannot take is refused at the
// workload file's line with its kind; the output is deterministic.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - module_of keyed by the scope's label instead of the compiled scope
//     (lower.cc): "sweep" sees one module instead of two;
//   - the sum combine emitted as `cur - v` (emit_top.cc): "budget" fails on the adder.
#include <doctest/doctest.h>

#include <algorithm>

#include "tests/hwtop/hwtop_support.h"

using namespace polydat;
using namespace polydat::hwtop;
using namespace polydat::hwtop::test;

namespace {

bool contains(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

size_t entries_of(const HwWorkload& hw, size_t module) {
  size_t n = 0;
  for (const HwEntry& e : hw.entries)
    for (const HwStage& s : e.stages) n += s.module == module;
  return n;
}

}  // namespace

TEST_CASE("sweep: a structural variable gives a module per value, a parametric one only the host reads") {
  const HwWorkload hw = lower(load_example("sweep.yaml"));
  // for_each table in t_small,t_large, k in [10, 1000]: four entries; `k` is in the bindings text.
  REQUIRE(hw.entries.size() == 4);
  REQUIRE(hw.modules.size() == 2);
  CHECK(hw.modules[0].name == "s0_phase_probe");
  CHECK(hw.modules[1].name == "s1_phase_probe");
  CHECK(entries_of(hw, 0) == 2);
  CHECK(entries_of(hw, 1) == 2);
  // The entries alternate k=10, k=1000 inside each table.
  CHECK(hw.entries[0].stages[0].module == 0);
  CHECK(hw.entries[1].stages[0].module == 1);
  CHECK(hw.entries[2].stages[0].module == 0);
  CHECK(hw.entries[0].plan->iteration == "k=10 table=t_small");
  // `table` is only in the op template: no port carries it; the host renders it.
  for (const HwModule& m : hw.modules) CHECK(m.cfg_ports.empty());
  const auto& names = hw.entries[1].plan->names;
  CHECK(names.at("table").kind == workload::ValueSource::Kind::Const);
  CHECK(names.at("table").value.as_str() == "t_small");
  CHECK(names.at("v").kind == workload::ValueSource::Kind::Output);
  // The two specialised modules differ (mod 10 against mod 1000).
  CHECK(hw.modules[0].sv != hw.modules[1].sv);
}

TEST_CASE("do_while: a parametric counter is one module whose cfg_ port each entry drives") {
  const HwWorkload hw = lower(load_example("do_while.yaml"));
  // do_while round < 3 runs batch 3 times; do_until n >= 2 runs tail twice (no kernel).
  REQUIRE(hw.entries.size() == 5);
  REQUIRE(hw.modules.size() == 1);
  CHECK(entries_of(hw, 0) == 3);
  CHECK(hw.modules[0].cfg_ports == std::vector<std::string>{"cfg_round"});
  CHECK(hw.modules[0].in_ports == std::vector<std::string>{"in_cycle"});
  const std::string top = emit_top(hw);
  // Wired by name: the module's port to the top's wire of the same name.
  CHECK(contains(top, ".cfg_round(m0_cfg_round)"));
  CHECK(contains(top, ".in_cycle(m0_in_cycle)"));
  CHECK(contains(top, ".out_id(m0_out_id)"));
  // Driven per entry with the counter's value; the issue side's cycle counter feeds in_cycle
  // (batch reads no cell, so its cycles stream into the pipeline).
  CHECK(contains(top, "3'd0: begin m0_cfg_round = 64'h0; m0_in_cycle = icyc64; end"));
  CHECK(contains(top, "3'd1: begin m0_cfg_round = 64'h1; m0_in_cycle = icyc64; end"));
  CHECK(contains(top, "3'd2: begin m0_cfg_round = 64'h2; m0_in_cycle = icyc64; end"));
  CHECK(contains(top, "3'd0: begin n_cycles = 2'd2; n_stages = 1'd1; streamed = 1'b1;"));
  for (size_t k = 0; k < 3; ++k) CHECK(hw.entries[k].streamed);
  // The tail entries have no stage; their counter `n` is known to the host.
  CHECK(hw.entries[3].stages.empty());
  CHECK(hw.entries[4].plan->names.at("n").value.as_u64() == 1);
}

TEST_CASE("budget: cells are registers owned by the workload scope, written with their combine's hardware") {
  const HwWorkload hw = lower(load_example("budget.yaml"));
  REQUIRE(hw.cells.size() == 4);
  for (const HwCell& c : hw.cells) {
    CHECK(c.owner == "workload");
    CHECK(c.owner_depth == 0);
  }
  const std::string top = emit_top(hw);
  // Reset and the workload's start put the initial values in.
  CHECK(contains(top, "c_remaining_0 <= 64'h3e8;"));
  // The phase (depth 1) writes its view and the owner's: last, an adder, a comparator, a counter.
  CHECK(contains(top, "c_remaining_1 <= m0_out___write_remaining; c_remaining_0 <= m0_out___write_remaining;"));
  CHECK(contains(top, "c_spent_0 <= c_spent_0 + m0_out___write_spent;"));
  CHECK(contains(top, "c_largest_0 <= (c_largest_0 < m0_out___write_largest) ? m0_out___write_largest : c_largest_0;"));
  CHECK(contains(top, "c_writes_0 <= c_writes_0 + 64'h1;"));
  // The phase's kernel reads the cells as its cfg_ ports, from its own view; it reads
  // `remaining`, so one cycle is in flight at a time (the cycle counter feeds in_cycle).
  CHECK(contains(top, "m0_cfg_remaining = (state == S_EMIT ? r_remaining_1 : c_remaining_1);"));
  // What the kernel read stays on its port while the records go out, after the write has landed.
  CHECK(contains(top, "r_remaining_1 <= c_remaining_1;"));
  CHECK(contains(top, "m0_in_cycle = cyc64;"));
  CHECK_FALSE(hw.entries[0].streamed);
  // The report phase has no kernel: its record carries the four cells from its view.
  const HwEntry& report = hw.entries[1];
  CHECK(report.stages.empty());
  REQUIRE(report.ops[0].payload.size() == 4);
  CHECK(report.ops[0].payload[0].source.kind == workload::ValueSource::Kind::Cell);
}

TEST_CASE("signed min, and a cell written from a narrower type, get signed hardware") {
  const HwWorkload hw = lower(load_text(R"(bindings: |
  shared(min) low: i64 := 0
  shared(sum) total: i64 := 0
phases:
  p:
    cycles: "3"
    bindings: |
      input cycle: u64
      d := (cycle as i32) - 1
      low := d as i64
      total := d
    ops:
      line: "low={low} total={total}"
)"));
  const std::string top = emit_top(hw);
  CHECK(contains(top, "($signed(m0_out___write_low) < $signed(c_low_0)) ? m0_out___write_low : c_low_0"));
  // i32 into an i64 cell: sign-extended.
  CHECK(contains(top, "c_total_0 <= c_total_0 + {{32{m0_out___write_total[31]}}, m0_out___write_total};"));
}

TEST_CASE("refusals name the scope, the binding and the line, with a stable kind") {
  SUBCASE("a string binding") {
    const std::string e = refusal(load_example("keyvalue.yaml"));
    CHECK(contains(e, "keyvalue.yaml:23:14: error: phase rampup: cannot make hardware: 'key' has type str"));
    CHECK(contains(e, "key := format_u64(cycle)"));
    CHECK(contains(e, "[hw-refused]"));
  }
  SUBCASE("a float binding in the workload scope, read per cycle") {
    const std::string e = refusal(load_example("sensor_telemetry.yaml"));
    CHECK(contains(e, "sensor_telemetry.yaml:14:16: error: workload: cannot make hardware: 'baseline' has type f64"));
    CHECK(contains(e, "[hw-refused]"));
  }
  SUBCASE("two loops in one kernel") {
    const std::string e = refusal(load_example("pcg_stream.yaml"));
    CHECK(contains(e, "phase streams: cannot make hardware: a second loop"));
    CHECK(contains(e, "[hw-refused]"));
  }
  SUBCASE("a loop whose condition reads a cell") {
    const std::string e = refusal(load_text(R"(bindings: |
  shared left: u64 := 3
scenarios:
  default:
    - do_while: "{left} > 0"
      iter_scope: inherit
      phases:
        - take
phases:
  take:
    bindings: |
      left := left - 1
    ops:
      line: "left={left}"
)"));
    CHECK(contains(e, "hw.yaml:5:18: error: 'scenarios.default[0].do_while' reads 'left', which depends on a shared cell"));
    CHECK(contains(e, "[hw-scenario]"));
  }
  SUBCASE("a phase's cycles, or a for_each spec, that depend on a cell (through a binding too)") {
    const std::string cycles = refusal(load_text(R"(bindings: |
  shared(sum) n: u64 := 0
  twice := n * 2
phases:
  a:
    bindings: |
      n := 1
    ops:
      l: "a {n}"
  b:
    cycles: "{twice}"
    ops:
      l: "b {cycle}"
)"));
    CHECK(contains(cycles, "hw.yaml:11:14: error: 'phases.b.cycles' reads 'twice', which depends on a shared cell"));
    CHECK(contains(cycles, "[hw-scenario]"));
    const std::string spec = refusal(load_text(R"(bindings: |
  shared(sum) n: u64 := 0
phases:
  b:
    ops:
      l: "b {k}"
scenarios:
  default:
    - for_each: "k in 0..{n}"
      phases: [b]
)"));
    CHECK(contains(spec, "reads 'n', which depends on a shared cell"));
    CHECK(contains(spec, "[hw-scenario]"));
  }
  SUBCASE("top-level ops") {
    const std::string e = refusal(load_text("ops:\n  a: \"x\"\n"));
    CHECK(contains(e, "[hw-scenario]"));
  }
  SUBCASE("a string shared cell, at its declaration") {
    const std::string e = refusal(load_text(R"(bindings: |
  shared(min) name := "zz"
phases:
  p:
    bindings: |
      name := "aa"
    ops:
      line: "{name}"
)"));
    CHECK(contains(e, "hw.yaml:2:15: error: workload: shared cell 'name' is a str"));
    CHECK(contains(e, "[hw-refused]"));
  }
}

TEST_CASE("the emitted SystemVerilog is deterministic") {
  for (const char* name : {"budget.yaml", "sweep.yaml", "do_while.yaml", "scope_chain.yaml", "lfsr.yaml", "three_phase.yaml"}) {
    CAPTURE(name);
    const std::string a = emit_all(lower(load_example(name)));
    const std::string b = emit_all(lower(load_example(name)));
    CHECK(a == b);
  }
}

TEST_CASE("the decoder renders a record's payload and the host's values into the op's line") {
  const HwWorkload hw = lower(load_example("do_while.yaml"));
  // Entry 1 is batch with round=1; its op reads round (host), cycle (rec_cycle) and id (payload).
  Record r;
  r.entry = 1;
  r.op = 0;
  r.cycle = 1;
  r.payload = {1234, 0};
  auto lines = decode_records(hw, {r}, workload::LineFormat::Stmt);
  REQUIRE(static_cast<bool>(lines));
  CHECK(*lines == "round=1 cycle=1 id=1234\n");
  r.entry = 9;
  CHECK_FALSE(static_cast<bool>(decode_records(hw, {r}, workload::LineFormat::Stmt)));
}

TEST_CASE("the workload tops pass verilator --lint-only -Wall and the yosys check") {
  for (const char* name : {"budget.yaml", "sweep.yaml", "do_while.yaml", "scope_chain.yaml", "lfsr.yaml", "three_phase.yaml"}) {
    CAPTURE(name);
    check_lint_and_yosys(lower(load_example(name)), name);
  }
}

TEST_CASE("--partition: the phase runs hardware cannot take stay on the host, and the lowering says which") {
  HwOptions o;
  o.partition = true;
  auto hw = lower_workload(load_example("keyvalue.yaml"), {}, o);
  REQUIRE_MESSAGE(static_cast<bool>(hw), (hw ? "" : hw.error()));
  // schema (constant strings only) stays in hardware; rampup and main compute strings.
  REQUIRE(hw->entries.size() == 3);
  CHECK_FALSE(hw->entries[0].host);
  CHECK(hw->entries[1].host);
  CHECK(hw->entries[2].host);
  CHECK(hw->modules.empty());  // the refused scopes leave no module behind
  REQUIRE(hw->partitioned.size() == 2);
  CHECK(contains(hw->partitioned[0], "phase 'rampup' and its 1 op run on the host: "));
  CHECK(contains(hw->partitioned[0], "keyvalue.yaml:23:14: phase rampup: cannot make hardware: 'key' has type str"));
  CHECK(contains(hw->partitioned[1], "phase 'main' and its 2 ops run on the host"));
  // The sequencer gives a host entry no cycles.
  CHECK(contains(emit_top(*hw), "2'd1: begin n_cycles = 1'd0; n_stages = 1'd0; end"));
}

TEST_CASE("--partition refuses a phase run that cannot become hardware and uses a shared cell") {
  HwOptions o;
  o.partition = true;
  auto hw = lower_workload(load_text(R"(bindings: |
  shared n: u64 := 0
phases:
  p:
    cycles: "2"
    bindings: |
      input cycle: u64
      label := format_u64(cycle)
      n := cycle
    ops:
      line: "{label} {n}"
)"), {}, o);
  REQUIRE_FALSE(static_cast<bool>(hw));
  CHECK(contains(hw.error(), "phase 'p' cannot become hardware, and cannot stay on the host (--partition): it uses shared cell 'n'"));
  CHECK(contains(hw.error(), "[hw-refused]"));
  CHECK(contains(hw.error(), "'label' has type str"));
}

TEST_CASE("a phase whose kernel writes cells but reads none streams; a cell it only writes needs no cfg_ port read") {
  const HwWorkload hw = lower(load_example("three_phase.yaml"));
  REQUIRE(hw.entries.size() == 3);
  CHECK(hw.entries[0].streamed);   // warmup: no cells
  CHECK(hw.entries[1].streamed);   // sample: writes total, peak, seen; reads none of them
  CHECK_FALSE(hw.entries[2].streamed);  // report: no kernel
}

TEST_CASE("an outer value constant in every entry folds into the module; a parametric variable stays a cfg_ port") {
  const workload::Workload w = load_text(R"(bindings: |
  scale := 7
scenarios:
  default:
    - for_each: "k in [1, 2]"
      phases:
        - p
phases:
  p:
    cycles: "3"
    bindings: |
      input cycle: u64
      v := hash(cycle) % scale
      w := cycle * k
    ops:
      line: "k={k} v={v} w={w}"
)");
  const HwWorkload hw = lower(w);
  REQUIRE(hw.modules.size() == 1);
  CHECK(hw.modules[0].cfg_ports == std::vector<std::string>{"cfg_k"});
  CHECK_FALSE(contains(hw.modules[0].sv, "scale"));
  const std::string top = emit_top(hw);
  CHECK(contains(top, "2'd0: begin m0_cfg_k = 64'h1; m0_in_cycle = icyc64; end"));
  CHECK(contains(top, "2'd1: begin m0_cfg_k = 64'h2; m0_in_cycle = icyc64; end"));
  CHECK(hardware_lines(hw, sim_options(false, 0.25)) == run_lines(w));
}
