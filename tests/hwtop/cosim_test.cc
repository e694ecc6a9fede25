// Every example workload the hardware takes, its whole top simulated in
// Verilator (C++ testbench) and in SystemC, free-flowing and with rec_ready
// stalled at random: the decoded lines equal `polydat run`'s byte for byte.
// Workloads of our own cover each combine template, the loop_scope x
// iter_scope seeding matrix, and the csv/jsonl formats. A fault planted in
// the emitted top must be caught.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - the sum combine emitted as `cur - v` (emit_top.cc): every workload with a
//     shared(sum) cell fails, on both simulators;
//   - a clean-seeded frame seeded from the parent's view instead of its seed
//     (emit_top.cc seeding): the seeding matrix fails for loop_scope clean;
//   - every one-stage entry streamed, even one whose kernel reads a cell
//     (lower.cc): budget.yaml fails on both simulators (its next cycle reads
//     `remaining` before the previous write).
#include <doctest/doctest.h>

#include "tests/hwtop/hwtop_support.h"

using namespace polydat;
using namespace polydat::hwtop;
using namespace polydat::hwtop::test;

namespace {

void check_all_ways(const workload::Workload& w, const workload::RunOptions& run = {}) {
  const std::string expected = run_lines(w, run);
  REQUIRE_FALSE(expected.empty());
  const HwWorkload hw = lower(w, run);
  for (bool systemc : {false, true})
    for (double stall : {0.0, 0.4}) {
      CAPTURE(systemc);
      CAPTURE(stall);
      CHECK(hardware_lines(hw, sim_options(systemc, stall, 3), run.render.format) == expected);
    }
}

// Three frames deep (loop, iteration, phase) with each seeding of loop and iteration.
std::string seeding_workload(const std::string& loop_scope, const std::string& iter_scope) {
  return std::string(R"(bindings: |
  shared(sum) total: u64 := 100
  shared(count) n: u64 := 0
  shared(max) peak: i64 := -5
  shared(min) low: u32 := 4000000000
  shared flag: bool := false
scenarios:
  default:
    - for_each: "k in [1, 2, 3]"
      loop_scope: )") + loop_scope + R"(
      iter_scope: )" + iter_scope + R"(
      phases:
        - add
    - after
phases:
  add:
    cycles: "2"
    bindings: |
      input cycle: u64
      total := k + cycle
      n := k
      peak := (k as i64) - 3
      low := (hash(cycle + k) % 1000) as u32
      flag := cycle == 1
    ops:
      line: "k={k} cycle={cycle} total={total} n={n} peak={peak} low={low} flag={flag}"
      big:
        if: flag
        stmt: "flagged k={k} total={total}"
  after:
    ops:
      line: "after total={total} n={n} peak={peak} low={low} flag={flag}"
)";
}

}  // namespace

TEST_CASE("the example workloads the hardware takes: the top's lines are polydat run's") {
  for (const char* name : {"budget.yaml", "do_while.yaml", "lfsr.yaml", "scope_chain.yaml", "sweep.yaml", "three_phase.yaml"}) {
    CAPTURE(name);
    check_all_ways(load_example(name));
  }
}

TEST_CASE("params change the program: do_while with rounds=4, lfsr with another seed") {
  workload::RunOptions run;
  run.overrides = {{"rounds", "4"}};
  check_all_ways(load_example("do_while.yaml"), run);
  run.overrides = {{"seed", "77"}};
  check_all_ways(load_example("lfsr.yaml"), run);
}

TEST_CASE("every combine template and each loop_scope x iter_scope seeding, in hardware") {
  for (const std::string loop : {"inherit", "clean"})
    for (const std::string iter : {"inherit", "clean"}) {
      CAPTURE(loop);
      CAPTURE(iter);
      check_all_ways(load_text(seeding_workload(loop, iter)));
    }
}

TEST_CASE("what a second reader found: each workload gives polydat run's lines in hardware") {
  // A kernel output that reads the cell it writes: the records show what it read, not the new value.
  check_all_ways(load_text(R"(bindings: |
  shared n: u64 := 10
phases:
  a:
    cycles: "3"
    bindings: |
      input cycle: u64
      nv := n + 1
      old := n
      n := nv
    ops:
      l: "a {cycle} nv={nv} old={old} n={n}"
)"));
  // A phase's own cell whose initial value a structural variable sets: seeded per entry.
  check_all_ways(load_text(R"(phases:
  p:
    for_each: "k in 1,2"
    bindings: |
      shared c: u64 := {k}
    ops:
      l: "p k={k} c={c}"
)"));
  // A narrower signed value on a wider extern: sign-extended.
  check_all_ways(load_text(R"(bindings: |
  scale: i32 := -3
phases:
  a:
    cycles: "2"
    bindings: |
      extern scale: i64
      input cycle: u64
      k := scale + (cycle as i64)
    ops:
      l: "a {k}"
)"));
  // The workload scope declares a cell and, per cycle, a binding that does not read it.
  check_all_ways(load_text(R"(bindings: |
  shared(sum) t: u64 := 0
  input cycle: u64
  h := hash(cycle) % 10
phases:
  a:
    cycles: "3"
    bindings: |
      t := h
    ops:
      l: "a {h} {t}"
)"));
  // One phase's own cell, the phase run at the top and inside a loop (two depths).
  check_all_ways(load_text(R"(phases:
  p:
    bindings: |
      shared c: u64 := 3
    ops:
      l: "p c={c}"
scenarios:
  default:
    - p
    - for_each: "k in 1,2"
      phases: [p]
)"));
}

TEST_CASE("csv and jsonl lines from the records") {
  for (auto f : {workload::LineFormat::Csv, workload::LineFormat::Jsonl}) {
    workload::RunOptions run;
    run.render.format = f;
    const workload::Workload w = load_example("budget.yaml");
    CHECK(hardware_lines(lower(w, run), sim_options(false, 0.2), f) == run_lines(w, run));
  }
}

TEST_CASE("a fault planted in the top is caught: the sum cell's adder made a subtractor") {
  const workload::Workload w = load_example("budget.yaml");
  const HwWorkload hw = lower(w);
  std::string sv = emit_all(hw);
  const std::string adder = "c_spent_0 <= c_spent_0 + ";
  const size_t at = sv.find(adder);
  REQUIRE(at != std::string::npos);
  sv.replace(at, adder.size(), "c_spent_0 <= c_spent_0 - ");
  TopSimOptions o = sim_options(false, 0);
  o.sv = sv;
  // The phase reads its own view (depth 1); the report phase reads the owner's (depth 0) after reseeding.
  const std::string lines = hardware_lines(hw, o);
  CHECK(lines != run_lines(w));
  CHECK(lines.find("report remaining=633 spent=367") == std::string::npos);
}

TEST_CASE("--partition: the refused examples run with their host phases' lines in place") {
  for (const char* name : {"keyvalue.yaml", "sensor_telemetry.yaml", "pcg_stream.yaml"}) {
    CAPTURE(name);
    const workload::Workload w = load_example(name);
    HwOptions o;
    o.partition = true;
    auto hw = lower_workload(w, {}, o);
    REQUIRE(static_cast<bool>(hw));
    // Each phase run's lines from the software run: the host's share.
    std::vector<std::pair<uint64_t, uint64_t>> starts;
    workload::RunOptions run;
    run.phase_run_starts = [&](uint64_t bytes, uint64_t ops) { starts.emplace_back(bytes, ops); };
    const std::string expected = run_lines(w, run);
    REQUIRE(starts.size() == hw->entries.size());
    starts.emplace_back(expected.size(), 0);
    std::vector<std::string> host;
    for (size_t k = 0; k + 1 < starts.size(); ++k)
      host.push_back(hw->entries[k].host ? expected.substr(starts[k].first, starts[k + 1].first - starts[k].first) : "");
    auto sim = simulate_top(*hw, sim_options(false, 0.3));
    REQUIRE(static_cast<bool>(sim));
    auto lines = decode_records(*hw, sim->records, workload::LineFormat::Stmt, &host);
    REQUIRE(static_cast<bool>(lines));
    CHECK(*lines == expected);
    // Without the host's lines the decoder says what is missing.
    if (!hw->partitioned.empty()) CHECK_FALSE(static_cast<bool>(decode_records(*hw, sim->records, workload::LineFormat::Stmt)));
  }
}
