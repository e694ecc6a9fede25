// `polydat run` end to end, through the binary: the exit status and the
// summary on stderr, -o, --format csv and jsonl, scenario=NAME, name=value,
// --explain, a closed pipe, --engine llvm against the interpreter on every
// example workload, and an error in a bindings block shown at its place in
// the YAML file.
//
// Faults planted to see these tests fail (each restored afterwards): floats
// rendered with 2 decimals (values.cc) fails "--format csv and jsonl" (1.00,
// 1.25 in typed.yaml); the cycle loop not committing write-throughs fails
// "status 0, ..." (budget.yaml's cells); phase runs counted per cycle fails
// the summary checks of "status 0, ..." and "scenario=NAME ...".
#include <algorithm>
#include <chrono>

#include "tests/cli/cli_support.h"

namespace polydat::clitest {
namespace {

const fs::path kExamples = fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "workloads";

// A phase with an op of two fields (one with a comma, one exactly `{n}`), and
// a second phase; two scenarios.
constexpr const char* kTwo =
    "params:\n"
    "  cycles: \"3\"\n"
    "scenarios:\n"
    "  default:\n"
    "    - first\n"
    "    - second\n"
    "  only_second:\n"
    "    - second\n"
    "phases:\n"
    "  first:\n"
    "    cycles: \"{cycles}\"\n"
    "    bindings: |\n"
    "      input cycle: u64\n"
    "      n := cycle * 10\n"
    "      label := \"a,b{cycle}\"\n"
    "    ops:\n"
    "      op:\n"
    "        stmt: \"insert {n}, {label}\"\n"
    "        n: \"{n}\"\n"
    "  second:\n"
    "    ops:\n"
    "      done: \"second phase\"\n";

const std::string kSummary = "polydat run: all phases complete: ";

std::vector<std::string> example_files() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(kExamples))
    if (entry.path().extension() == ".yaml") out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("run command: status 0, the ops on stdout, the summary on stderr; -o writes the same bytes") {
  Sandbox s;
  s.file("budget.yaml", polydat::testing::read_file(kExamples / "budget.yaml"));
  const Run r = s.run({"run", "budget.yaml"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "spend cycle=0 cost=97 remaining=903 spent=97 largest=97 writes=1\n"
        "spend cycle=1 cost=78 remaining=825 spent=175 largest=97 writes=2\n"
        "spend cycle=2 cost=47 remaining=778 spent=222 largest=97 writes=3\n"
        "spend cycle=3 cost=89 remaining=689 spent=311 largest=97 writes=4\n"
        "spend cycle=4 cost=56 remaining=633 spent=367 largest=97 writes=5\n"
        "report remaining=633 spent=367 largest=97 writes=5\n");
  // No progress line when stderr is not a terminal, no warnings: the summary alone.
  CHECK(r.err.rfind(kSummary + "2 phase runs, 6 cycles, 6 ops (0 skipped by if:), 2 kernels compiled, ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);

  const Run o = s.run({"run", "budget.yaml", "-o", "ops.txt"});
  CHECK(o.status == 0);
  CHECK(o.out.empty());
  CHECK(polydat::testing::read_file(s.path() / "ops.txt") == r.out);
  CHECK(contains(o.err, kSummary));

  const Run bad = s.run({"run", "budget.yaml", "-o", "no/such/folder/x.txt"});
  CHECK(bad.status == 2);
  CHECK(bad.out.empty());
  CHECK(contains(bad.err, "error: --output: the folder 'no/such/folder' does not exist"));
}

TEST_CASE("run command: --format csv and jsonl, every field of the op") {
  Sandbox s;
  s.file("two.yaml", kTwo);
  const Run stmt = s.run({"run", "two.yaml"});
  CHECK(stmt.status == 0);
  CHECK(stmt.out == "insert 0, a,b0\ninsert 10, a,b1\ninsert 20, a,b2\nsecond phase\n");

  const Run csv = s.run({"run", "two.yaml", "--format", "csv"});
  CHECK(csv.status == 0);
  // RFC 4180: the field with commas is quoted, the number is not.
  CHECK(csv.out == "\"insert 0, a,b0\",0\n\"insert 10, a,b1\",10\n\"insert 20, a,b2\",20\nsecond phase\n");
  CHECK(contains(csv.err, kSummary));

  const Run jsonl = s.run({"run", "two.yaml", "--format", "jsonl"});
  CHECK(jsonl.status == 0);
  // A field that is exactly `{n}` keeps n's type: a number, not a string.
  CHECK(jsonl.out ==
        "{\"stmt\":\"insert 0, a,b0\",\"n\":0}\n"
        "{\"stmt\":\"insert 10, a,b1\",\"n\":10}\n"
        "{\"stmt\":\"insert 20, a,b2\",\"n\":20}\n"
        "{\"stmt\":\"second phase\"}\n");

  // Other types: a float and a negative integer stay numbers, a bool a bool, a
  // string a string (escaped); a field with more than the name is text.
  s.file("typed.yaml",
         "phases:\n"
         "  p:\n"
         "    cycles: \"2\"\n"
         "    bindings: |\n"
         "      input cycle: u64\n"
         "      ratio := (cycle as f64) / 4.0 + 1.0\n"
         "      flag: bool := cycle == 1\n"
         "      name := \"q\\\"{cycle}\"\n"
         "      neg := (cycle as i64) - 5\n"
         "    ops:\n"
         "      op:\n"
         "        r: \"{ratio}\"\n"
         "        f: \"{flag}\"\n"
         "        s: \"{name}\"\n"
         "        i: \"{neg}\"\n"
         "        t: \"x {ratio}\"\n");
  const Run typed = s.run({"run", "typed.yaml", "--format", "jsonl"});
  CHECK(typed.status == 0);
  CHECK(typed.out ==
        "{\"r\":1.0,\"f\":false,\"s\":\"q\\\"0\",\"i\":-5,\"t\":\"x 1\"}\n"
        "{\"r\":1.25,\"f\":true,\"s\":\"q\\\"1\",\"i\":-4,\"t\":\"x 1.25\"}\n");
  const Run typed_csv = s.run({"run", "typed.yaml", "--format", "csv"});
  CHECK(typed_csv.status == 0);
  CHECK(typed_csv.out == "1,false,\"q\"\"0\",-5,x 1\n1.25,true,\"q\"\"1\",-4,x 1.25\n");

  const Run refused = s.run({"run", "two.yaml", "--format", "xml"});
  CHECK(refused.status == 2);
  CHECK(refused.out.empty());
  CHECK(contains(refused.err, "--format"));
}

TEST_CASE("run command: scenario=NAME picks a scenario, an unknown one is an error; name=value sets a param") {
  Sandbox s;
  s.file("two.yaml", kTwo);
  const Run only = s.run({"run", "two.yaml", "scenario=only_second"});
  CHECK(only.status == 0);
  CHECK(only.out == "second phase\n");
  CHECK(contains(only.err, kSummary + "1 phase run, 1 cycle, 1 op"));

  const Run unknown = s.run({"run", "two.yaml", "scenario=nope"});
  CHECK(unknown.status == 1);
  CHECK(unknown.out.empty());
  CHECK(contains(unknown.err, "unknown-scenario"));
  CHECK(contains(unknown.err, "nope"));
  CHECK_FALSE(contains(unknown.err, kSummary));

  const Run more = s.run({"run", "two.yaml", "cycles=5"});
  CHECK(more.status == 0);
  CHECK(more.out == "insert 0, a,b0\ninsert 10, a,b1\ninsert 20, a,b2\ninsert 30, a,b3\ninsert 40, a,b4\nsecond phase\n");
  CHECK(contains(more.err, kSummary + "2 phase runs, 6 cycles, 6 ops"));

  // Both at once, in either order.
  const Run both = s.run({"run", "two.yaml", "cycles=1", "scenario=default"});
  CHECK(both.status == 0);
  CHECK(both.out == "insert 0, a,b0\nsecond phase\n");

  const Run malformed = s.run({"run", "two.yaml", "cycles"});
  CHECK(malformed.status == 2);
  CHECK(malformed.out.empty());
}

TEST_CASE("run command: --explain on sweep.yaml shows k structural and table parametric") {
  Sandbox s;
  s.file("sweep.yaml", polydat::testing::read_file(kExamples / "sweep.yaml"));
  const Run r = s.run({"run", "sweep.yaml", "--explain"});
  CHECK(r.status == 0);
  CHECK(contains(r.out, "variable k: structural"));
  CHECK(contains(r.out, "variable table: parametric"));
  CHECK_FALSE(contains(r.out, "SELECT"));  // the tree, not the ops
}

// Ten million cycles take far longer than the first line: ending at once shows
// the run stopped at the closed pipe, pipefail that it stopped with status 0.
TEST_CASE("run command: a closed pipe ends the run quietly with status 0") {
  Sandbox s;
  s.file("big.yaml",
         "phases:\n"
         "  big:\n"
         "    cycles: \"10000000\"\n"
         "    bindings: |\n"
         "      input cycle: u64\n"
         "      h := hash(cycle)\n"
         "    ops:\n"
         "      line: \"cycle={cycle} h={h}\"\n");
  for (const std::string engine : {"interp", "llvm"}) {
    CAPTURE(engine);
    const std::string line = "set -o pipefail; '" + kPolydat + "' run big.yaml --engine " + engine + " | head -1";
    const Run r = polydat::testing::run_process("/bin/bash", {"bash", "-c", line}, s.path(), std::chrono::seconds(30));
    CHECK(r.status == 0);  // a timeout is a kill: 128 + 9
    CHECK(r.out == "cycle=0 h=14374147212387527897\n");
    CHECK(r.err.empty());
  }
}

TEST_CASE("run command: --engine llvm prints what the interpreter prints, for every example workload") {
  Sandbox s;
  const std::vector<std::string> files = example_files();
  CHECK(files.size() >= 8);
  for (const std::string& f : files) {
    CAPTURE(f);
    s.file(f, polydat::testing::read_file(kExamples / f));
    const Run interp = s.run({"run", f, "--engine", "interp"});
    const Run llvm = s.run({"run", f, "--engine", "llvm"});
    CHECK(interp.status == 0);
    CHECK(llvm.status == 0);
    CHECK(!interp.out.empty());
    CHECK(interp.out == llvm.out);
    // The same summary but for the time.
    const auto counts = [](const std::string& err) { return err.substr(0, err.rfind(", ")); };
    CHECK(interp.err.rfind(kSummary, 0) == 0);
    CHECK(counts(interp.err) == counts(llvm.err));
  }
}

TEST_CASE("run command: an error in a bindings block is shown at its line and column in the YAML file") {
  Sandbox s;
  const std::string bad_line = "      x := cycle + \"a\"";  // file line 7; `cycle + "a"` starts at column 12
  s.file("bad.yaml",
         "description: a type error on the block's second line\n"  // 1
         "phases:\n"                                               // 2
         "  p:\n"                                                  // 3
         "    cycles: \"2\"\n"                                     // 4
         "    bindings: |\n"                                       // 5
         "      input cycle: u64\n"                                // 6
         + bad_line + "\n" +                                       // 7
         "    ops:\n"
         "      line: \"{x}\"\n");
  for (const std::string engine : {"interp", "llvm"}) {
    CAPTURE(engine);
    const Run r = s.run({"run", "bad.yaml", "--engine", engine});
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("bad.yaml:7:12: error:", 0) == 0);
    CHECK(contains(r.err, "type-mismatch"));
    CHECK_FALSE(contains(r.err, kSummary));
    // The YAML line itself, then a caret under column 12 of it.
    const std::vector<std::string> lines = polydat::testing::split_lines(r.err);
    REQUIRE(lines.size() >= 3);
    const size_t at = lines[1].find(bad_line);
    REQUIRE(at != std::string::npos);
    CHECK(lines[1].substr(at) == bad_line);
    CHECK(lines[2].find('^') == at + 11);
    CHECK(lines[2].find_first_not_of(' ') == at + 11);
  }
}

TEST_CASE("run command: nb-rs's form `run workload=FILE k=v`, its parameters acted on, noted or refused by name") {
  Sandbox s;
  s.file("two.yaml", kTwo);
  const Run plain = s.run({"run", "two.yaml", "cycles=2"});
  const Run nbrs = s.run({"run", "workload=two.yaml", "cycles=2"});
  CHECK(nbrs.status == 0);
  CHECK(nbrs.out == plain.out);
  const Run csv = s.run({"run", "workload=two.yaml", "scenario=only_second", "format=csv", "header=true"});
  CHECK(csv.status == 0);
  CHECK(csv.out == "stmt\nsecond phase\n");
  // A typo stops the run before any line, with nb-rs's words.
  const Run typo = s.run({"run", "two.yaml", "trhreads=4"});
  CHECK(typo.status == 2);
  CHECK(typo.out.empty());
  CHECK(contains(typo.err, "unrecognized parameter 'trhreads='"));
  const Run cql = s.run({"run", "two.yaml", "adapter=cql"});
  CHECK(cql.status == 2);
  CHECK(contains(cql.err, "[unsupported-adapter]"));
  const Run noted = s.run({"run", "two.yaml", "concurrency=4"});
  CHECK(noted.status == 0);
  CHECK(contains(noted.err, "note: concurrency=4 is not acted on"));
  CHECK(noted.out == s.run({"run", "two.yaml"}).out);
  const Run both = s.run({"run", "two.yaml", "workload=two.yaml"});
  CHECK(both.status == 2);
  // nb-rs's file-less `run op=...` is refused by name, not asked for a file.
  const Run inline_op = s.run({"run", "op=hello {cycle}", "cycles=3"});
  CHECK(inline_op.status == 2);
  CHECK(contains(inline_op.err, "op=: inline workloads (op=) are not supported"));
  CHECK(contains(inline_op.err, "[unsupported-parameter]"));
  const Run file = s.run({"run", "two.yaml", "filename=lines.txt"});
  CHECK(file.status == 0);
  CHECK(file.out.empty());
  CHECK(polydat::testing::read_file(s.path() / "lines.txt") == s.run({"run", "two.yaml"}).out);
}

TEST_CASE("run command: a typo in the second phase's bindings stops the run before the first phase's lines") {
  Sandbox s;
  s.file("late.yaml", "phases:\n  first:\n    ops: {o: first}\n  second:\n    bindngs: |\n      x := 1\n");
  const Run key = s.run({"run", "late.yaml"});
  CHECK(key.status == 1);
  CHECK(key.out.empty());
  CHECK(contains(key.err, "late.yaml:5:5: error: 'bindngs' is not a key of phase 'second'; did you mean 'bindings'?"));
  s.file("late2.yaml", "phases:\n  first:\n    ops: {o: first}\n  second:\n    bindings: |\n      x := hsah(cycle)\n    ops: {o: \"{x}\"}\n");
  const Run name = s.run({"run", "late2.yaml"});
  CHECK(name.status == 1);
  CHECK(name.out.empty());
  CHECK(contains(name.err, "late2.yaml:6:12: error:"));
}

}  // namespace
}  // namespace polydat::clitest
