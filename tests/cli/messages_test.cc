// The small message defects of issue 34, through the binary: counts that agree with their nouns, an
// unknown --outputs name said as a command-line mistake, the IR text naming an inlined module's file,
// `||` explained, and `run --format csv` printing no header row unless header=true asks (as nb-rs).
#include "tests/cli/cli_support.h"

namespace polydat::clitest {
namespace {

const std::string kIds = polydat::testing::read_file(fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "ids.gk");

// One phase of one cycle with one op: every count the run prints is 1.
constexpr const char* kOne =
    "phases:\n"
    "  only:\n"
    "    cycles: \"1\"\n"
    "    bindings: |\n"
    "      input cycle: u64\n"
    "      n := cycle * 10\n"
    "    ops:\n"
    "      op:\n"
    "        stmt: \"n={n}\"\n"
    "        n: \"{n}\"\n";

TEST_CASE("counts of one are singular: the run's summary, --explain, the workload's hardware") {
  Sandbox s;
  s.file("one.yaml", kOne);
  const Run run = s.run({"run", "one.yaml"});
  CHECK(run.status == 0);
  CHECK(contains(run.err, "polydat run: all phases complete: 1 phase run, 1 cycle, 1 op (0 skipped by if:), "
                          "1 kernel compiled, "));
  const Run explain = s.run({"run", "one.yaml", "--explain"});
  CHECK(contains(explain.out, "  phase only (1 cycle): outputs [n]\n"));
  const Run hw = s.run({"emit-sv", "one.yaml", "-o", "out"});
  CHECK(hw.status == 0);
  CHECK(contains(hw.out, "one.yaml: 1 scope module, 1 entry, 0 shared cells; top "));
  CHECK(contains(polydat::testing::read_file(s.path() / "out" / "workload_top.sv"),
                 "// The workload top: 1 scope module, 1 entry, 0 shared cells.\n"));
}

TEST_CASE("--outputs naming no binding: a usage error that names it and lists the kernel's outputs") {
  Sandbox s;
  s.file("ids.gk", kIds);
  for (const std::string command : {"eval", "bench"}) {
    const Run r = s.run({command, "ids.gk", "--outputs", "nosuch"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "error: --outputs: 'nosuch' is asked for as an output, but it is not a binding of ids.gk; its outputs: id, "
          "bucket, shard [usage]\n");
  }
  const Run near = s.run({"eval", "ids.gk", "--outputs", "id,shrd"});
  CHECK(near.status == 2);
  CHECK(contains(near.err, "'shrd' is asked for as an output, but it is not a binding of ids.gk (did you mean 'shard'?)"));
  CHECK(!contains(near.err, "ids.gk:1:1"));  // no caret under the kernel's first comment
}

TEST_CASE("ir: a position inside an inlined library module names the module's file") {
  Sandbox s;
  s.file("m.gk", "input cycle: u64\nv := hash_range(cycle, 100)\n");
  const Run r = s.run({"ir", "m.gk"});
  CHECK(r.status == 0);
  CHECK(contains(r.out, "; cycle: u64  @1:7\n"));  // the kernel's own file: line and column
  CHECK(contains(r.out, "  @<stdlib>/hash_range.gk:"));
  CHECK(contains(r.out, "  @<stdlib>/hash.gk:"));
}

TEST_CASE("check: '||' says '|' is the or, how it binds, and the rewrite; at its place, exit 1") {
  Sandbox s;
  s.file("p.gk", "input (cycle: u64, i: u64)\nstop := cycle != 3 || i < 5\n");
  const Run r = s.run({"check", "p.gk"});
  CHECK(r.status == 1);
  CHECK(r.err ==
        "p.gk:2:20: error: '||' is not an operator; '|' is the or (bitwise on integers, logical on bool) and binds "
        "tighter than '!=': write (cycle != 3) | (i < 5) [syntax]\n"
        "  stop := cycle != 3 || i < 5\n"
        "                     ^~\n");
}

// nb-rs's stdout adapter writes csv without a header row unless header=true (then once, before the
// first line, the field names joined by ','); polydat run keeps that, where eval --format csv has one.
TEST_CASE("run --format csv: no header row, as nb-rs; header=true writes the field names first") {
  Sandbox s;
  s.file("one.yaml", kOne);
  const Run plain = s.run({"run", "one.yaml", "--format", "csv"});
  CHECK(plain.status == 0);
  CHECK(plain.out == "n=0,0\n");
  const Run header = s.run({"run", "one.yaml", "--format", "csv", "header=true"});
  CHECK(header.status == 0);
  CHECK(header.out == "stmt,n\nn=0,0\n");
  s.file("ids.gk", kIds);
  const Run eval = s.run({"eval", "ids.gk", "--cycles", "1", "--format", "csv"});
  CHECK(eval.out.rfind("cycle,id,bucket,shard\n", 0) == 0);
}

}  // namespace
}  // namespace polydat::clitest
