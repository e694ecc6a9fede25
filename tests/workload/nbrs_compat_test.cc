// nb-rs's workload surface through the runner, on workloads written here to
// the shapes of nb-rs's example files: scenario steps (set:, bindings:,
// includes, phase:), the stanza (ratios, seq=, cycles forms), tag filters,
// the stdout formats, and the check that runs before the first line. Each
// expected line is nb-rs's (its integration tests, cited) or derived by hand
// from nb-rs's rules; every run is on both engines.
#include <doctest/doctest.h>

#include <string>

#include "run_support.h"
#include "workload/model.h"
#include "workload/runner.h"

using namespace polydat;
using namespace polydat::workload;
using namespace polydat::workload::test;

namespace {

Ran scenario(const std::string& yaml, const std::string& name, RunOptions o = {}) {
  o.scenario = name;
  return run(yaml, o);
}

size_t count_prefix(const std::string& out, const std::string& prefix) {
  size_t n = 0;
  for (size_t at = 0; at < out.size();) {
    const size_t end = out.find('\n', at);
    if (out.compare(at, prefix.size(), prefix) == 0) ++n;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return n;
}

// scenario_param_overrides.yaml's shape.
const std::string kOverrides = R"(params:
  mode: default
  size: small
scenarios:
  baseline:
    - announce
  single_shadow:
    - set: { mode: verbose }
      phases:
        - announce
  multi_shadow:
    - set: { mode: verbose, size: bulk }
      phases:
        - announce
  computed_value:
    - set: { mode: "mode_for_{size}" }
      phases:
        - announce
  with_for_each:
    - set: { mode: swept }
      phases:
        - for_each: "n in 1,2,3"
          phases:
            - announce_with_n
  nested:
    - set: { mode: outer }
      phases:
        - set: { size: inner_size }
          phases:
            - announce
  long_form:
    - bindings: |
        const mode := "verbose"
        const size := "bulk"
      phases:
        - announce
  text_form:
    - set: "mode=terse"
      phases: [announce]
phases:
  announce:
    adapter: stdout
    cycles: 1
    concurrency: 1
    ops:
      msg:
        stmt: "set/{mode}/{size}"
  announce_with_n:
    cycles: 1
    ops:
      msg:
        stmt: "set/n={n}/{mode}"
)";

// scenario_includes.yaml's shape.
const std::string kIncludes = R"(scenarios:
  smoke:
    - setup
    - rampup
  top_level:
    - scenario: smoke
    - search
  nested_in_for_each:
    - for_each: "k in 10,100"
      phases:
        - scenario: smoke
        - search
  composed:
    - scenario: top_level
    - scenario: smoke
  plural:
    - scenarios: [smoke, top_level]
  named_step:
    - phase: search
phases:
  setup:
    ops:
      msg: "[setup]"
  rampup:
    ops:
      msg: "[rampup]"
  search:
    ops:
      msg: "[search {shown}]"
    bindings: |
      extern k: u64 = 0
      shown := k
)";

}  // namespace

TEST_SUITE("workload") {

TEST_CASE("nb-rs set: and bindings: steps shadow params over their steps (scenario_param_overrides.yaml)") {
  // The lines nbrs/tests/workload_examples.rs asserts for each scenario.
  CHECK(scenario(kOverrides, "baseline").out == "set/default/small\n");
  CHECK(scenario(kOverrides, "single_shadow").out == "set/verbose/small\n");
  CHECK(scenario(kOverrides, "multi_shadow").out == "set/verbose/bulk\n");
  CHECK(scenario(kOverrides, "computed_value").out == "set/mode_for_small/small\n");
  CHECK(scenario(kOverrides, "with_for_each").out == "set/n=1/swept\nset/n=2/swept\nset/n=3/swept\n");
  CHECK(scenario(kOverrides, "nested").out == "set/outer/inner_size\n");
  CHECK(scenario(kOverrides, "long_form").out == "set/verbose/bulk\n");
  CHECK(scenario(kOverrides, "text_form").out == "set/terse/small\n");
}

TEST_CASE("nb-rs set: with no phases is a no-op, said once as a warning") {
  const Ran r = scenario(
      "params: {mode: default}\nscenarios:\n  good:\n    - set: {mode: verbose}\n      phases: [p]\n  empty:\n"
      "    - set: {mode: verbose}\nphases:\n  p:\n    ops:\n      m: \"mode={mode}\"\n",
      "good");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "mode=verbose\n");
  size_t noted = 0;
  for (const std::string& w : r.summary.warnings) noted += w.find("[no-op-step]") != std::string::npos;
  CHECK(noted == 1);
}

TEST_CASE("nb-rs scenario: includes splice a scenario in place, at any depth (scenario_includes.yaml)") {
  CHECK(scenario(kIncludes, "top_level").out == "[setup]\n[rampup]\n[search 0]\n");
  CHECK(scenario(kIncludes, "nested_in_for_each").out ==
        "[setup]\n[rampup]\n[search 10]\n[setup]\n[rampup]\n[search 100]\n");
  CHECK(scenario(kIncludes, "composed").out == "[setup]\n[rampup]\n[search 0]\n[setup]\n[rampup]\n");
  CHECK(scenario(kIncludes, "plural").out == "[setup]\n[rampup]\n[setup]\n[rampup]\n[search 0]\n");
  CHECK(scenario(kIncludes, "named_step").out == "[search 0]\n");
}

TEST_CASE("nb-rs stanza: a phase's cycles count stanzas, cycle c runs the op in slot c of the stanza") {
  // nbrs/tests/inline_workload.rs semicolon_multiple_ops: read, write, read, write.
  const Ran two = run("phases:\n  p:\n    cycles: 2\n    ops:\n      read: \"read {cycle}\"\n      write: \"write {cycle}\"\n");
  REQUIRE_MESSAGE(two.ok, two.error);
  CHECK(two.out == "read 0\nwrite 1\nread 2\nwrite 3\n");
  CHECK(two.summary.cycles == 4);
  // ratio_prefix: 3:1 over 8 cycles gives A six times and B twice; bucket deals A B A A
  // ("A, B, A, A, A, B, A, A" in its comment), concat A A A B.
  const std::string ratios =
      "params: {cycles: 8}\nops:\n  A:\n    ratio: 3\n    stmt: \"A {cycle}\"\n  B:\n    ratio: 1\n    stmt: \"B {cycle}\"\n";
  const Ran r = run(ratios);
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "A 0\nB 1\nA 2\nA 3\nA 4\nB 5\nA 6\nA 7\n");
  RunOptions concat;
  concat.sequencer = Sequencer::Concat;
  CHECK(run(ratios, concat).out == "A 0\nA 1\nA 2\nB 3\nA 4\nA 5\nA 6\nB 7\n");
  // Bucket deals one slot per op per pass: A:2, B:2 is A B A B; concat is A A B B.
  const std::string even = "params: {cycles: 4}\nops:\n  A:\n    ratio: 2\n    stmt: A\n  B:\n    ratio: 2\n    stmt: B\n";
  CHECK(run(even).out == "A\nB\nA\nB\n");
  CHECK(run(even, concat).out == "A\nA\nB\nB\n");
  // The default count of top-level ops is one stanza.
  CHECK(run("ops:\n  A:\n    ratio: 2\n    stmt: A\n  B: B\n").out == "A\nB\nA\n");
}

TEST_CASE("nb-rs stanza: service_model.yaml's 5:3:2:1 at cycles=22 (and conditional_ops.yaml's 6 stanzas)") {
  const std::string service = R"(bindings: |
  input cycle: u64
  is_analytics := cycle % 5
ops:
  read_user:
    ratio: 5
    stmt: "user {cycle}"
  read_product:
    ratio: 3
    stmt: "product {cycle}"
  write_order:
    ratio: 2
    stmt: "order {cycle}"
  analytics_query:
    if: is_analytics
    ratio: 1
    stmt: "analytics {cycle}"
)";
  RunOptions o;
  o.overrides = {{"cycles", "22"}};
  const Ran r = run(service, o);
  REQUIRE_MESSAGE(r.ok, r.error);
  // Bucket over 5:3:2:1 deals [u p o a u p o u p u u] (11 slots); two stanzas.
  CHECK(count_prefix(r.out, "user ") == 10);
  CHECK(count_prefix(r.out, "product ") == 6);
  CHECK(count_prefix(r.out, "order ") == 4);
  CHECK(count_prefix(r.out, "analytics ") == 2);  // cycles 3 and 14: 3 % 5 and 14 % 5 are nonzero
  CHECK(r.out.rfind("user 0\nproduct 1\norder 2\nanalytics 3\nuser 4\n", 0) == 0);
  // Past LLVM's first batch of 4,096 cycles (not a whole number of stanzas): the deal goes on where it
  // was (run() holds the batches to the interpreter's op-by-op lines); 4,097 is slot 5, 4,400 slot 0.
  o.overrides = {{"cycles", "10000"}};
  const Ran big = run(service, o);
  REQUIRE_MESSAGE(big.ok, big.error);
  CHECK(big.out.find("\nproduct 4097\n") != std::string::npos);
  CHECK(big.out.find("\nuser 4400\n") != std::string::npos);
  // conditional_ops.yaml at cycles=18: three ops, six stanzas, `always` once in each
  // (nbrs/tests/workload_examples.rs conditional_ops_skip_falsy).
  o.overrides = {{"cycles", "18"}};
  const Ran c = run("bindings: |\n  is_even := cycle % 2\n  is_third := cycle % 3\nops:\n"
                    "  always: \"(always) {cycle}\"\n  even_only:\n    if: is_even\n    stmt: \"(even) {cycle}\"\n"
                    "  every_third:\n    if: is_third\n    stmt: \"(third) {cycle}\"\n",
                    o);
  REQUIRE_MESSAGE(c.ok, c.error);
  CHECK(count_prefix(c.out, "(always) ") == 6);
  // even_only runs at cycles 1, 4, 7, 10, 13, 16 and shows the odd ones; every_third at 2, 5, ... (all nonzero mod 3).
  CHECK(count_prefix(c.out, "(even) ") == 3);
  CHECK(count_prefix(c.out, "(third) ") == 6);
}

TEST_CASE("nb-rs stanza: cycles as ===auto, a K suffix, a {expression}; a phase without ops is skipped") {
  const std::string yaml = "params: {n: 3}\nphases:\n  a:\n    cycles: ===auto\n    ops: {o: \"a {cycle}\"}\n"
                           "  b:\n    cycles: \"{n * 2}\"\n    ops: {o: \"b {cycle}\"}\n  c:\n    cycles: 1K\n"
                           "    ops: {o: \"c\"}\n  d:\n    cycles: 4\n    bindings: |\n      x := cycle\n";
  const Ran r = run(yaml);
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out.rfind("a 0\nb 0\nb 1\nb 2\nb 3\nb 4\nb 5\nc\n", 0) == 0);
  CHECK(count_prefix(r.out, "c") == 1000);
  bool skipped = false;
  for (const std::string& w : r.summary.warnings) skipped = skipped || w.find("phase 'd' has no ops") != std::string::npos;
  CHECK(skipped);
}

TEST_CASE("nb-rs tags=: top-level ops by their tags, nb-rs's automatic ones included; a phase's tags: selects them") {
  const std::string yaml = R"(params: {cycles: 3}
ops:
  read:
    tags: {type: read}
    stmt: "r {cycle}"
  write:
    tags: {type: write}
    stmt: "w {cycle}"
)";
  RunOptions o;
  o.tags = *TagFilter::parse("type:write");
  CHECK(run(yaml, o).out == "w 0\nw 1\nw 2\n");
  o.tags = *TagFilter::parse("name:read");
  CHECK(run(yaml, o).out == "r 0\nr 1\nr 2\n");
  o.tags = *TagFilter::parse("block:block0,type:read|write");
  CHECK(run(yaml, o).out == "r 0\nw 1\nr 2\n");
  o.tags = *TagFilter::parse("type:none");
  const Ran none = run(yaml, o);
  CHECK_FALSE(none.ok);
  CHECK(none.error.find("[no-ops-selected]") != std::string::npos);
  // A phase with `tags:` and no ops of its own runs the top-level ops it selects.
  const Ran phase = run(yaml + "phases:\n  writes:\n    cycles: 2\n    tags: \"type:write\"\n");
  REQUIRE_MESSAGE(phase.ok, phase.error);
  CHECK(phase.out == "w 0\nw 1\n");
}

TEST_CASE("nb-rs formats through the runner: the header once per run, fields=") {
  const std::string yaml = "params: {cycles: 2}\nops:\n  o:\n    stmt: \"s{cycle}\"\n    id: \"{cycle}\"\n";
  RunOptions o;
  o.render = *render_options(RenderSettings{"csv", {}, "true", {}});
  CHECK(run(yaml, o).out == "stmt,id\ns0,0\ns1,1\n");
  o.render = *render_options(RenderSettings{"assignments", {}, {}, {}});
  CHECK(run(yaml, o).out == "stmt=s0, id=0\nstmt=s1, id=1\n");
  o.render = *render_options(RenderSettings{"json", {}, {}, "id"});
  CHECK(run(yaml, o).out == "{\"id\":0}\n{\"id\":1}\n");
  o.render = *render_options(RenderSettings{"raw", "|", {}, {}});
  CHECK(run(yaml, o).out == "s0|0\ns1|1\n");
}

TEST_CASE("every scope is compiled and checked before the first line is written") {
  // A typo in the second phase's bindings: no line of the first phase comes out.
  const std::string typo = "phases:\n  first:\n    ops: {o: first}\n  second:\n    bindings: |\n      x := hsah(cycle)\n"
                           "    ops: {o: \"{x}\"}\n";
  const Ran r = run(typo);
  CHECK_FALSE(r.ok);
  CHECK(r.out.empty());
  CHECK(r.error.rfind("test.yaml:6:12: error: ", 0) == 0);
  // An op that reads a name nobody defines, in a phase inside a loop, likewise.
  const Ran name = run("phases:\n  first:\n    ops: {o: first}\n  second:\n    ops: {o: \"{nope}\"}\nscenarios:\n"
                       "  default:\n    - first\n    - for: \"k in 1,2\"\n      phases: [second]\n");
  CHECK_FALSE(name.ok);
  CHECK(name.out.empty());
  CHECK(name.error.find("'nope'") != std::string::npos);
  // A do_while body is checked even when its condition never holds.
  const Ran body = run("phases:\n  first:\n    ops: {o: first}\n  never:\n    bindings: |\n      x := 1 +\n"
                       "    ops: {o: x}\nscenarios:\n  default:\n    - first\n    - do_while: \"1 == 0\"\n      phases: [never]\n");
  CHECK_FALSE(body.ok);
  CHECK(body.out.empty());
}

TEST_CASE("nb-rs comprehensions through the runner: ranges, where, order, unions, the list form") {
  const std::string yaml = R"(scenarios:
  range: [{for: "n in 1..5", phases: [emit_n]}]
  where:
    - for: "k in 10,100, limit in 1,10,50,100"
      where: "{k} * {limit} < 1000"
      phases: [emit_kl]
  lex5: [{for: "n in 1..=10", order: "lex/5", phases: [emit_n]}]
  union:
    - for:
      - "x in 10, y in a,b"
      - "x in 100, y in c"
      phases: [emit_xy]
  dependent: [{for: "k in {k_values}, limit in {k_{k}_limits}", phases: [emit_kl]}]
params:
  k_values: "1, 10"
  k_1_limits: "1, 2"
  k_10_limits: "10, 20"
phases:
  emit_n: {ops: {o: "n={n}"}}
  emit_kl: {ops: {o: "k={k} limit={limit}"}}
  emit_xy: {ops: {o: "x={x} y={y}"}}
)";
  // nbrs/tests/comprehension.rs: range_half_open is n=1..n=4, not the text "1..5".
  CHECK(scenario(yaml, "range").out == "n=1\nn=2\nn=3\nn=4\n");
  CHECK(scenario(yaml, "where").out == "k=10 limit=1\nk=10 limit=10\nk=10 limit=50\nk=100 limit=1\n");
  CHECK(scenario(yaml, "lex5").out == "n=1\nn=2\nn=3\nn=4\nn=5\n");
  CHECK(scenario(yaml, "union").out == "x=10 y=a\nx=10 y=b\nx=100 y=c\n");
  CHECK(scenario(yaml, "dependent").out == "k=1 limit=1\nk=1 limit=2\nk=10 limit=10\nk=10 limit=20\n");
  // A spec this runner cannot expand is a located error, never a literal.
  std::string with_bad = yaml;
  with_bad.insert(with_bad.find("params:"), "  bad: [{for: \"n in 1..=\", phases: [emit_n]}]\n");
  const Ran bad = scenario(with_bad, "bad");
  CHECK_FALSE(bad.ok);
  CHECK(bad.out.empty());
  CHECK(bad.error.find("the range's end is empty") != std::string::npos);
}

TEST_CASE("nb-rs shared cells example: a stanza of four typed ops, one cycle (shared_cells.yaml mixed_types)") {
  const Ran r = run(R"(bindings: |
  shared budget_u64 := 100
  shared rate_f64 := 0.5
  shared label_str := "alpha"
  shared enabled_bool := true
phases:
  emit_typed:
    cycles: 1
    ops:
      u64_line: "shared/typed kind=u64 value={budget_u64}"
      f64_line: "shared/typed kind=f64 value={rate_f64}"
      str_line: "shared/typed kind=str value={label_str}"
      bool_line: "shared/typed kind=bool value={enabled_bool}"
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  // nbrs/tests/workload_examples.rs shared_cells_mixed_types_round_trip.
  CHECK(r.out ==
        "shared/typed kind=u64 value=100\nshared/typed kind=f64 value=0.5\nshared/typed kind=str value=alpha\n"
        "shared/typed kind=bool value=true\n");
}

TEST_CASE("nb-rs capture points: [name] in an op map's field shows its source name; default_or and this_or pass through") {
  // capture_flow.yaml's shape: a stdout op has no result, so nothing is captured;
  // nb-rs sends the field with the brackets stripped (nbrs-workload bindpoints.rs capture_simple & co.).
  const std::string yaml = R"(params: {cycles: 2}
bindings: |
  seen := "u{cycle}"
  greeting := default_or(seen, "anonymous")
  n := this_or(cycle + 5, 0)
  r := required(n, "n")
ops:
  read_user:
    stmt: "SELECT [username], [u2 as alias], [(List) items], [@rows], [], [42], [\"a\"], [a, b] FROM t WHERE id={n}"
  greet_user:
    stmt: "UPDATE users SET greeting='Hello, {greeting}!' WHERE r={r}"
)";
  const Ran r = run(yaml);
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out ==
        "SELECT username, u2, items, rows, [], [42], [\"a\"], [a, b] FROM t WHERE id=5\n"
        "UPDATE users SET greeting='Hello, u1!' WHERE r=6\n");
  // A plain text op is sent as written: nb-rs reads capture points only in an op's map of fields.
  CHECK(run("ops:\n  - \"SELECT [username] FROM t\"\n").out == "SELECT [username] FROM t\n");
}

TEST_CASE("nb-rs pure tokens: a field that is one {name} with blanks around it is the value, blanks dropped") {
  // nbrs-activity wires.rs resolve_op_fields_via_wires: the trimmed text `{x}` takes x's typed value.
  const std::string yaml = "params: {cycles: 2}\nops:\n  o:\n    stmt: \" {cycle} \"\n    b: |\n      {cycle}\n    c: \" {{cycle + 1}} \"\n";
  CHECK(run(yaml).out == "0\n1\n");
  RunOptions o;
  o.render = *render_options(RenderSettings{"json", {}, {}, {}});
  // An inline binding is text with its blanks kept.
  CHECK(run(yaml, o).out == "{\"stmt\":0,\"b\":0,\"c\":\" 1 \"}\n{\"stmt\":1,\"b\":1,\"c\":\" 2 \"}\n");
}

}  // TEST_SUITE
