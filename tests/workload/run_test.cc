// The scope model through the runner: read-through, shadowing, const, the
// loop_scope x iter_scope matrix, write-through with combine templates,
// structural and parametric variables, per-cycle values from outer scopes,
// and every error path, each on a workload written here. Every run is done on
// the interpreter and on native code and the two outputs must be identical.
#include <doctest/doctest.h>
#include <xxhash.h>

#include <string>

#include "run_support.h"
#include "workload/model.h"
#include "workload/runner.h"

using namespace polydat;
using namespace polydat::workload;
using namespace polydat::workload::test;

namespace {

uint64_t xxh(uint64_t x) { return XXH3_64bits(&x, sizeof x); }  // little-endian host

Ran run_scenario(const std::string& yaml, const std::string& scenario) {
  RunOptions o;
  o.scenario = scenario;
  return run(yaml, o);
}

// The 2x2 matrix: `bump` adds 100 to the workload's shared(sum) cell before
// the loop; each iteration's phase adds 1 and shows the cell as it sees it.
std::string matrix_yaml(const std::string& loop, const std::string& iter) {
  return R"(bindings: |
  shared(sum) total: u64 := 0
phases:
  bump:
    bindings: |
      total := 100
    ops:
      line: "bump total={total}"
  add:
    bindings: |
      total := 1
    ops:
      line: "add i={i} total={total}"
  report:
    ops:
      line: "report total={total}"
scenarios:
  default:
    - bump
    - for_each: "i in 1,2,3"
      loop_scope: )" + loop + R"(
      iter_scope: )" + iter + R"(
      phases:
        - add
    - report
)";
}

}  // namespace

TEST_CASE("run: the loop_scope x iter_scope matrix, each cell") {
  // clean loop: seeded from the workload as it began (total 0), not after bump (100).
  // inherit iterations: each sees the ones before; clean: each starts from the loop's seed.
  // Every write goes through to the owner, so the workload ends at 103 in all four.
  struct Cell {
    const char* loop;
    const char* iter;
    int a, b, c;
  };
  for (const Cell& m : {Cell{"clean", "inherit", 1, 2, 3}, Cell{"clean", "clean", 1, 1, 1},
                        Cell{"inherit", "inherit", 101, 102, 103}, Cell{"inherit", "clean", 101, 101, 101}}) {
    CAPTURE(std::string(m.loop));
    CAPTURE(std::string(m.iter));
    Ran r = run(matrix_yaml(m.loop, m.iter));
    REQUIRE_MESSAGE(r.ok, r.error);
    CHECK(r.out == "bump total=100\nadd i=1 total=" + std::to_string(m.a) + "\nadd i=2 total=" + std::to_string(m.b) +
                       "\nadd i=3 total=" + std::to_string(m.c) + "\nreport total=103\n");
  }
}

TEST_CASE("run: the defaults are loop_scope clean, iter_scope inherit") {
  std::string yaml = matrix_yaml("clean", "inherit");
  const std::string plain = [&] {
    std::string s = yaml;
    s.erase(s.find("      loop_scope: clean\n"), std::string("      loop_scope: clean\n").size());
    s.erase(s.find("      iter_scope: inherit\n"), std::string("      iter_scope: inherit\n").size());
    return s;
  }();
  Ran a = run(yaml), b = run(plain);
  REQUIRE(a.ok);
  CHECK(a.out == b.out);
}

TEST_CASE("run: outer values read through, per scope and per cycle") {
  const std::string yaml = R"(bindings: |
  input cycle: u64
  const region := "eu"
  id := hash(cycle) % 10
  volatile v := 7
phases:
  plain:
    cycles: 3
    ops:
      line: "plain cycle={cycle} id={id} region={region}"
  derived:
    cycles: 3
    bindings: |
      input cycle: u64
      twice := id * 2 + v
      tag := "{region}-{twice}"
    ops:
      line: "derived {tag}"
)";
  Ran r = run(yaml);
  REQUIRE_MESSAGE(r.ok, r.error);
  std::string want;
  for (uint64_t c = 0; c < 3; ++c)
    want += "plain cycle=" + std::to_string(c) + " id=" + std::to_string(xxh(c) % 10) + " region=eu\n";
  for (uint64_t c = 0; c < 3; ++c) want += "derived eu-" + std::to_string(xxh(c) % 10 * 2 + 7) + "\n";
  CHECK(r.out == want);
  // `id` changes per cycle and `v` is volatile: both are read per cycle; `region` once.
  auto w = parse_workload_text(yaml, "test.yaml");
  REQUIRE(w);
  auto e = explain_workload(*w, {});
  REQUIRE(e);
  CHECK(e->tree.find("imports once [region]; imports per cycle [id, v]") != std::string::npos);
}

TEST_CASE("run: an inner binding shadows an outer one, only inside") {
  Ran r = run(R"(bindings: |
  base := 1000
phases:
  inner:
    bindings: |
      base := 5
      sum := base + 1
    ops:
      line: "inner base={base} sum={sum}"
  outer:
    ops:
      line: "outer base={base}"
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "inner base=5 sum=6\nouter base=1000\n");
}

TEST_CASE("run: a write-through reaches the owner through every scope between") {
  // The cell is the workload's; the phase that writes it runs two loops deep.
  Ran r = run(R"(bindings: |
  shared(count) writes: u64 := 0
  shared(max) top: u64 := 0
  shared(min) low: str := "zz"
  shared last: u64 := 0
phases:
  w:
    cycles: 2
    bindings: |
      input cycle: u64
      writes := 0
      top := a * 10 + cycle
      low := "{b}{cycle}"
      last := a * 100 + cycle
    ops:
      line: "a={a} b={b} writes={writes} top={top} low={low} last={last}"
  after:
    ops:
      line: "after writes={writes} top={top} low={low} last={last}"
scenarios:
  default:
    - for_each: "a in 1,2"
      phases:
        - for_each: "b in m,k"
          phases:
            - w
    - after
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  const std::string want =
      "a=1 b=m writes=1 top=10 low=m0 last=100\n"
      "a=1 b=m writes=2 top=11 low=m0 last=101\n"
      "a=1 b=k writes=3 top=11 low=k0 last=100\n"
      "a=1 b=k writes=4 top=11 low=k0 last=101\n"
      "a=2 b=m writes=5 top=20 low=k0 last=200\n"
      "a=2 b=m writes=6 top=21 low=k0 last=201\n"
      "a=2 b=k writes=7 top=21 low=k0 last=200\n"
      "a=2 b=k writes=8 top=21 low=k0 last=201\n"
      "after writes=8 top=21 low=k0 last=201\n";
  CHECK(r.out == want);
}

TEST_CASE("run: structural variables recompile per iteration, parametric ones do not") {
  const std::string structural = R"(phases:
  p:
    for_each: "k in 3,5,7"
    cycles: 2
    bindings: |
      input cycle: u64
      v := hash(cycle) % {k}
    ops:
      line: "k={k} v={v}"
)";
  Ran s = run(structural);
  REQUIRE_MESSAGE(s.ok, s.error);
  CHECK(s.summary.compiles == 3);
  std::string want;
  for (uint64_t k : {3, 5, 7})
    for (uint64_t c = 0; c < 2; ++c) want += "k=" + std::to_string(k) + " v=" + std::to_string(xxh(c) % k) + "\n";
  CHECK(s.out == want);
  // The same values, with k read as a name: one kernel, k set per iteration.
  std::string parametric = structural;
  parametric.replace(parametric.find("% {k}"), 5, "% k");
  Ran p = run(parametric);
  REQUIRE_MESSAGE(p.ok, p.error);
  CHECK(p.summary.compiles == 1);
  CHECK(p.out == want);
}

TEST_CASE("run: multi-clause for_each, the later clause seeing the earlier variable") {
  Ran r = run(R"(phases:
  p:
    for_each: "a in x,y, b in {a}1,{a}2"
    ops:
      line: "{a}/{b}"
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "x/x1\nx/x2\ny/y1\ny/y2\n");
}

TEST_CASE("run: do_while and do_until check before each iteration, with the counter set") {
  Ran r = run(R"(params:
  n: "2"
phases:
  p:
    ops:
      line: "i={i}"
  q:
    ops:
      line: "j={j}"
scenarios:
  default:
    - do_while: "{i} < {n}"
      counter: i
      phases: [p]
    - do_until: "{j} * {j} > 5"
      counter: j
      phases: [q]
    - do_while: "{i} < 0"
      counter: i
      phases: [p]
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "i=0\ni=1\nj=0\nj=1\nj=2\n");
}

TEST_CASE("run: if: by name and by expression, and top-level ops in turn") {
  Ran r = run(R"(bindings: |
  input cycle: u64
  even := cycle % 2 == 0
ops:
  a:
    if: even
    stmt: "a {cycle}"
  b:
    if: "{cycle > 2}"
    stmt: "b {cycle}"
  c: "c {{cycle * 10}}"
params:
  cycles: "7"
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  // cycle c renders op c % 3 when its condition holds.
  CHECK(r.out == "a 0\nc 20\nb 4\nc 50\na 6\n");
  CHECK(r.summary.skipped == 2);
}

TEST_CASE("run: params from the file and from the command line") {
  const std::string yaml = R"(params:
  count: "2"
  word: "hi"
phases:
  p:
    cycles: "{count}"
    bindings: |
      input cycle: u64
      x := cycle + {count}
    ops:
      line: "{word} {x}"
)";
  Ran a = run(yaml);
  REQUIRE(a.ok);
  CHECK(a.out == "hi 2\nhi 3\n");
  RunOptions o;
  o.overrides = {{"count", "3"}, {"word", "yo"}};
  Ran b = run(yaml, o);
  REQUIRE(b.ok);
  CHECK(b.out == "yo 3\nyo 4\nyo 5\n");
}

TEST_CASE("run: every error names the file, line, column and kind") {
  struct Case {
    const char* what;
    std::string yaml;
    std::string starts;  // the error's first characters
    std::string kind;
  };
  const Case cases[] = {
      {"a const shadowed", "bindings: |\n  const base := 1\nphases:\n  p:\n    bindings: |\n      base := 2\n    ops:\n      l: \"{base}\"\n",
       "test.yaml:6:7: error: 'base' is const in workload at line 2", "[final-shadow]"},
      {"an op binding shadowing", "bindings: |\n  id := 1\nphases:\n  p:\n    ops:\n      l:\n        bindings: |\n          id := 2\n        stmt: \"{id}\"\n",
       "test.yaml:8:11: error: op-level binding 'id'", "[op-shadow]"},
      {"a write of the wrong type", "bindings: |\n  shared n: u64 := 0\nphases:\n  p:\n    bindings: |\n      n := 1.5\n    ops:\n      l: \"{n}\"\n",
       "test.yaml:6:7: error: binding 'n' of phase p writes a f64 value into shared cell 'n' (u64", "[write-type]"},
      {"an unknown name", "bindings: |\n  count := 1\nphases:\n  p:\n    bindings: |\n      x := cout + 1\n    ops:\n      l: \"{x}\"\n",
       "test.yaml:6:12: error: 'cout' is not defined in phase p nor in any scope around it (did you mean 'count'?)",
       "[unbound-import]"},
      {"a type error in a block", "phases:\n  p:\n    bindings: |\n      input cycle: u64\n      x := cycle + 1\n      y := x + \"s\"\n    ops:\n      l: \"{y}\"\n",
       "test.yaml:6:", ""},
      {"a combine on the wrong type", "bindings: |\n  shared(sum) s := \"x\"\nphases:\n  p:\n    ops:\n      l: \"{s}\"\n",
       "test.yaml:2:10: error: shared(sum) needs an integer or float cell", "[type-mismatch]"},
      {"a bad count", "phases:\n  p:\n    cycles: \"{1.5}\"\n    ops:\n      l: x\n", "test.yaml:3:14: error:", ""},
      {"an unclosed bind point", "phases:\n  p:\n    ops:\n      l: \"a {b\"\n", "test.yaml:4:13: error: this '{' is never closed",
       "[op-template]"},
      {"an op reading nothing", "phases:\n  p:\n    ops:\n      l: \"a {nothing}\"\n",
       "test.yaml:4:7: error: op 'l' reads 'nothing', which no scope around it defines", "[unbound-name]"},
      {"an unknown phase", "phases:\n  p:\n    ops:\n      l: x\nscenarios:\n  default:\n    - q\n", "test.yaml:7:7: error: ",
       "[unknown-phase]"},
  };
  for (const Case& c : cases) {
    CAPTURE(std::string(c.what));
    Ran r = run(c.yaml);
    REQUIRE(!r.ok);
    CHECK_MESSAGE(r.error.rfind(c.starts, 0) == 0, r.error);
    CHECK_MESSAGE(r.error.find(c.kind) != std::string::npos, r.error);
    CHECK(r.out.empty());
  }
}

TEST_CASE("run: errors: a bool cell written a u64 sum, a loop that never ends, an unknown scenario") {
  // Only a value known to be 0 or 1 (a comparison) goes into a bool cell by itself: refused before the run.
  Ran bad = run("bindings: |\n  shared flag := false\nphases:\n  p:\n    cycles: 3\n    bindings: |\n      input cycle: u64\n      flag := cycle + 6\n    ops:\n      l: \"{flag}\"\n");
  REQUIRE(!bad.ok);
  CHECK_MESSAGE(bad.error.rfind("test.yaml:8:7: error: binding 'flag' of phase p writes a u64 value into shared cell 'flag' (bool, declared in workload at line 2); only a comparison", 0) == 0, bad.error);
  CHECK(bad.error.find("[write-type]\n        flag := cycle + 6\n        ^\n") != std::string::npos);
  CHECK(bad.out.empty());
  Ran cmp = run("bindings: |\n  shared flag := false\nphases:\n  p:\n    cycles: 3\n    bindings: |\n      input cycle: u64\n      flag := cycle + 6 > 7\n    ops:\n      l: \"{flag}\"\n");
  REQUIRE_MESSAGE(cmp.ok, cmp.error);
  CHECK(cmp.out == "false\nfalse\ntrue\n");
  // A loop past the iteration limit: at the loop, in the file, on both engines.
  Ran limit = run("phases:\n  p:\n    cycles: 3\n    bindings: |\n      input cycle: u64\n      x := loop (i = 0) while i >= 0 { i = i + 1 } yield i\n    ops:\n      l: \"{x}\"\n");
  REQUIRE(!limit.ok);
  CHECK_MESSAGE(limit.error.rfind("test.yaml:6:12: error: phase p, cycle 0: the loop ran more than 1000000 iterations [iteration-limit]", 0) == 0, limit.error);
  RunOptions o;
  o.max_loop_iterations = 5;
  Ran endless = run("phases:\n  p:\n    ops:\n      l: x\nscenarios:\n  default:\n    - do_while: \"true\"\n      phases: [p]\n", o);
  REQUIRE(!endless.ok);
  CHECK(endless.error.find("[loop-limit]") != std::string::npos);
  CHECK(endless.out == "x\nx\nx\nx\nx\n");  // the lines before the error are kept
  Ran none = run_scenario("phases:\n  p:\n    ops:\n      l: x\nscenarios:\n  fast: [p]\n  full: [p]\n", "fsat");
  REQUIRE(!none.ok);
  CHECK(none.error.find("no scenario 'fsat' in this workload (did you mean 'fast'?) [unknown-scenario]") != std::string::npos);
}

TEST_CASE("run: formats: csv quotes, jsonl keeps a whole-field value's type") {
  const std::string yaml = R"(phases:
  p:
    cycles: 2
    bindings: |
      input cycle: u64
      f := cycle as f64 / 2.0
    ops:
      o:
        stmt: "a, {cycle}"
        n: "{cycle}"
        x: "{f}"
)";
  RunOptions csv;
  csv.render.format = LineFormat::Csv;
  Ran c = run(yaml, csv);
  REQUIRE(c.ok);
  CHECK(c.out == "\"a, 0\",0,0\n\"a, 1\",1,0.5\n");
  RunOptions jl;
  jl.render.format = LineFormat::Jsonl;
  Ran j = run(yaml, jl);
  REQUIRE(j.ok);
  // A float keeps serde_json's form in JSON (0.0), as nb-rs writes it.
  CHECK(j.out == "{\"stmt\":\"a, 0\",\"n\":0,\"x\":0.0}\n{\"stmt\":\"a, 1\",\"n\":1,\"x\":0.5}\n");
}

TEST_CASE("run: the sink going away stops the run quietly") {
  const std::string yaml = "phases:\n  p:\n    cycles: 100000000\n    ops:\n      l: \"{cycle}\"\n";
  auto w = parse_workload_text(yaml, "test.yaml");
  REQUIRE(w);
  size_t calls = 0;
  auto s = run_workload(*w, {}, [&](const std::string&) { return ++calls < 3; });
  REQUIRE(s);
  CHECK(calls == 3);
  CHECK(s->cycles < 1000000);
}

std::string matrix_free_do_while() {
  return "bindings: |\n  shared remaining: u64 := 3\nphases:\n  dec:\n    bindings: |\n      remaining := remaining - 1\n"
         "    ops:\n      line: \"left {remaining}\"\nscenarios:\n  default:\n    - do_while: \"{remaining} > 0\"\n"
         "      phases: [dec]\n";
}

TEST_CASE("run: a do_while ends when the cell its body writes says so") {
  Ran r = run(R"(bindings: |
  shared remaining: u64 := 3
phases:
  dec:
    bindings: |
      remaining := remaining - 1
    ops:
      line: "left {remaining}"
scenarios:
  default:
    - do_while: "{remaining} > 0"
      iter_scope: inherit
      phases: [dec]
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "left 2\nleft 1\nleft 0\n");
  // With do_while's default iter_scope (clean) each iteration starts from the loop's seed, 3, and
  // writes 2 again: the condition sees 2 for ever, and the loop limit ends it.
  RunOptions o;
  o.max_loop_iterations = 4;
  std::string clean = matrix_free_do_while();
  Ran c = run(clean, o);
  REQUIRE(!c.ok);
  CHECK(c.out == "left 2\nleft 2\nleft 2\nleft 2\n");
  CHECK(c.error.find("[loop-limit]") != std::string::npos);
}

TEST_CASE("run: a loop variable hides an outer cell of the same name") {
  Ran r = run(R"(bindings: |
  shared k: u64 := 0
phases:
  p:
    bindings: |
      x := k * 10
    ops:
      line: "{k} {x}"
scenarios:
  default:
    - for_each: "k in 5,6"
      phases: [p]
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "5 50\n6 60\n");
}

TEST_CASE("run: a later clause reads the earlier clause's variable, not an outer one of the same name") {
  Ran r = run("params:\n  t: zzz\nphases:\n  p:\n    for_each: \"t in a,b, n in {t}1\"\n    ops:\n      l: \"{t} {n}\"\n");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "a a1\nb b1\n");
}

TEST_CASE("run: an outer binding that reads a cell is read per cycle") {
  // `left` depends on the cell the phase writes: inside the kernel it must follow the writes.
  Ran r = run(R"(bindings: |
  shared(sum) spent: u64 := 0
  left := 1000 - spent
phases:
  p:
    cycles: 3
    bindings: |
      spent := 100
      low := left < 850
    ops:
      line: "{left} {low}"
)");
  REQUIRE_MESSAGE(r.ok, r.error);
  // The kernel reads `left` as the cycle begins (before its own write); the op shows it after.
  CHECK(r.out == "900 0\n800 0\n700 1\n");  // `low` is a comparison: the u64 1 or 0
}

TEST_CASE("run: an extern a block declares for an outer name is bound from it") {
  Ran r = run("bindings: |\n  const dim := 128\nphases:\n  p:\n    bindings: |\n      extern dim: u64\n      half := dim / 2\n    ops:\n      l: \"{half}\"\n");
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.out == "64\n");
}

TEST_CASE("run: params keep their text; if: true and false; any phase name; a count cell counts any write") {
  Ran a = run("params:\n  zip: \"007\"\n  v: \"1.10\"\nphases:\n  p:\n    bindings: |\n      s := \"{zip}/{v}\"\n    ops:\n      l: \"{zip} {v} {s}\"\n");
  REQUIRE_MESSAGE(a.ok, a.error);
  CHECK(a.out == "007 1.10 007/1.10\n");
  Ran b = run("phases:\n  read-write:\n    cycles: 2\n    ops:\n      y:\n        if: true\n        stmt: \"y {{cycle + 1}}\"\n      n:\n        if: false\n        stmt: n\n");
  REQUIRE_MESSAGE(b.ok, b.error);
  // Two stanzas of [y, n]: y at cycles 0 and 2 (nb-rs's stanza: one op per cycle).
  CHECK(b.out == "y 1\ny 3\n");
  Ran c = run("bindings: |\n  shared(count) n: u64 := 0\nphases:\n  p:\n    cycles: 3\n    bindings: |\n      n := \"any\"\n    ops:\n      l: \"{n}\"\n");
  REQUIRE_MESSAGE(c.ok, c.error);
  CHECK(c.out == "1\n2\n3\n");
}

TEST_CASE("run: a loop variable inside an inline binding is structural, nested braces and all") {
  const std::string yaml = "phases:\n  p:\n    for_each: \"k in 3,5\"\n    cycles: 2\n    ops:\n      l: \"{{hash(cycle) % {k}}}\"\n";
  Ran r = run(yaml);
  REQUIRE_MESSAGE(r.ok, r.error);
  std::string want;
  for (uint64_t k : {3, 5})
    for (uint64_t c = 0; c < 2; ++c) want += std::to_string(xxh(c) % k) + "\n";
  CHECK(r.out == want);
  CHECK(r.summary.compiles == 2);
  auto w = parse_workload_text(yaml, "test.yaml");
  REQUIRE(w);
  auto e = explain_workload(*w, {});
  REQUIRE(e);
  CHECK(e->tree.find("variable k: structural") != std::string::npos);
}

TEST_CASE("run: a comparison written into a bool cell is a bool; any other integer is refused") {
  // The cell takes the comparison as `x: bool := ...` would: directly, through a name, as & | of comparisons.
  for (const char* write : {"flag := cycle > 1", "lt := cycle > 1\n      flag := lt",
                            "flag := (cycle > 1) & (cycle < 9)", "flag := if(cycle > 1, 1, 0)"}) {
    CAPTURE(write);
    Ran r = run(std::string("bindings: |\n  shared flag := false\nphases:\n  p:\n    cycles: 3\n    bindings: |\n"
                            "      input cycle: u64\n      ") + write + "\n    ops:\n      l: \"{cycle} {flag}\"\n");
    REQUIRE_MESSAGE(r.ok, r.error);
    CHECK(r.out == "0 false\n1 false\n2 true\n");
  }
  for (const char* write : {"flag := !(cycle > 1)", "flag := (cycle > 1) + 0", "flag := cycle & 1"}) {
    CAPTURE(write);
    Ran r = run(std::string("bindings: |\n  shared flag := false\nphases:\n  p:\n    cycles: 3\n    bindings: |\n"
                            "      input cycle: u64\n      ") + write + "\n    ops:\n      l: \"{flag}\"\n");
    REQUIRE(!r.ok);
    CHECK_MESSAGE(r.error.find("into shared cell 'flag' (bool, declared in workload at line 2); only a comparison") !=
                      std::string::npos, r.error);
    CHECK(r.error.find("[write-type]") != std::string::npos);
  }
  // Into an integer cell a comparison is its u64 1 or 0: shared(sum) counts the cycles where it holds.
  // (A phase runs its kernel only with an op to run: nb-rs skips a phase of no ops.)
  Ran sum = run("bindings: |\n  shared(sum) hits: u64 := 0\nphases:\n  p:\n    cycles: 6\n    bindings: |\n"
                "      input cycle: u64\n      hits := cycle % 3 == 0\n    ops:\n      quiet:\n        if: false\n        stmt: x\n"
                "  q:\n    ops:\n      l: \"{hits}\"\n"
                "scenarios:\n  default: [p, q]\n");
  REQUIRE_MESSAGE(sum.ok, sum.error);
  CHECK(sum.out == "2\n");
}
