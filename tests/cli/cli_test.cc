// End-to-end tests of the `polydat` command: the real binary, run in a
// temporary folder with argv[0] = "polydat", stdout and stderr captured
// apart. Expected outputs are worked out by hand from the language's
// definition (the hash values from xxHash's XXH3_64bits, computed outside
// polydat: hash(0) % 1000 = 897, hash(1) % 1000 = 78, hash(2) % 1000 = 547).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/cli/cli_support.h"

namespace fs = std::filesystem;

namespace {

using polydat::clitest::contains;
using polydat::clitest::Run;
using polydat::clitest::Sandbox;

// The bundled example's kernel, as in examples/ids.gk.
const char* kIds =
    "input cycle: u64\n"
    "id := mod(hash(cycle), 1000)\n"
    "bucket := id / 100\n"
    "label := \"user-{id}\"\n"
    "output id\n";

// One output of each kind of value.
const char* kKinds =
    "input cycle: u64\n"
    "extern scale: f64 = 0.5\n"
    "neg := -(cycle as i8)\n"
    "half := cycle as f64 * scale\n"
    "third := cycle as f32 / 3.0\n"
    "even: bool := cycle % 2 == 0\n"  // a bool (a comparison alone is the u64 1 or 0)
    "name := \"k,{cycle}\"\n";

// Two inputs and two externs, one without a default.
const char* kParams =
    "input (cycle: u64, shard: u8)\n"
    "extern width: u64 = 4\n"
    "extern base: u64\n"
    "cell := base + shard * width + cycle % width\n";

}  // namespace

// ---- version and help ----

TEST_CASE("cli: --version prints the version and exits 0") {
  Sandbox s;
  const Run r = s.run({"--version"});
  CHECK(r.status == 0);
  CHECK(r.out == "polydat 0.1.0\n");
  CHECK(r.err.empty());
}

TEST_CASE("cli: --help lists the subcommands; every subcommand has its own --help") {
  Sandbox s;
  const Run top = s.run({"--help"});
  CHECK(top.status == 0);
  CHECK(contains(top.out, "Usage: polydat [OPTIONS] [SUBCOMMAND]"));
  for (const char* sub : {"check", "eval", "ir"}) CHECK(contains(top.out, std::string("\n  ") + sub + " "));
  CHECK(contains(top.out, "--version"));

  const Run check = s.run({"check", "--help"});
  CHECK(check.status == 0);
  CHECK(contains(check.out, "Usage: polydat check [OPTIONS] files..."));
  CHECK(contains(check.out, "-L"));

  const Run eval = s.run({"eval", "--help"});
  CHECK(eval.status == 0);
  CHECK(contains(eval.out, "Usage: polydat eval [OPTIONS] file"));
  for (const char* opt : {"--cycles", "--set", "--format", "-L", "table", "csv", "json"})
    CHECK_MESSAGE(contains(eval.out, opt), "eval --help lacks " << opt);

  const Run ir = s.run({"ir", "--help"});
  CHECK(ir.status == 0);
  CHECK(contains(ir.out, "Usage: polydat ir [OPTIONS] file"));
  for (const char* opt : {"--format", "--no-opt", "-L", "text", "mermaid", "dot"})
    CHECK_MESSAGE(contains(ir.out, opt), "ir --help lacks " << opt);

  CHECK(s.run({"-h"}).out == top.out);
  CHECK(s.run({"eval", "-h"}).out == eval.out);
}

// ---- exit codes ----

TEST_CASE("cli: exit status 0 for a good kernel, 1 for a kernel with an error") {
  Sandbox s;
  s.file("good.gk", kIds).file("bad.gk", "input cycle: u64\nx: u8 := cycle\n");
  for (const char* cmd : {"check", "eval", "ir"}) {
    CAPTURE(cmd);
    const Run good = s.run({cmd, "good.gk"});
    CHECK(good.status == 0);
    CHECK(good.err.empty());
    const Run bad = s.run({cmd, "bad.gk"});
    CHECK(bad.status == 1);
    CHECK(bad.out.empty());
    CHECK(bad.err ==
          "bad.gk:2:10: error: expected u8 (the annotated type), found u64; convert with `as u8` [type-mismatch]\n"
          "  x: u8 := cycle\n"
          "           ^~~~~\n");
  }
}

TEST_CASE("cli: exit status 2 for a wrong command line") {
  Sandbox s;
  s.file("good.gk", kIds);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{}, "a subcommand is required"},
      {{"frobnicate"}, "frobnicate"},
      {{"--bogus"}, "--bogus"},
      {{"eval", "good.gk", "--set", "k"}, "--set takes NAME=VALUE"},
      {{"eval", "good.gk", "--bogus"}, "--bogus"},
      {{"check"}, "which file? polydat check FILE...: kernel files (.gk)"},
      {{"eval"}, "which file? polydat eval FILE: the kernel (.gk)"},
      {{"ir"}, "which file? polydat ir FILE: the kernel (.gk)"},
      {{"eval", "good.gk", "--format", "xml"}, "xml"},
      {{"ir", "good.gk", "--format", "png"}, "png"},
      {{"eval", "good.gk", "--cycles"}, "--cycles"},
      {{"eval", "good.gk", "--cycles", "5..3"}, "--cycles: N or A..B (half-open, A <= B; counts as 10K or 20M), not '5..3'"},
      {{"eval", "good.gk", "--cycles", "ten"}, "--cycles: N or A..B (half-open, A <= B; counts as 10K or 20M), not 'ten'"},
      {{"eval", "good.gk", "--cycles", "-3"}, ""},
  };
  for (const Case& c : cases) {
    std::string line;
    for (const std::string& a : c.args) line += " " + a;
    CAPTURE(line);
    const Run r = s.run(c.args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(r.err.empty());
    CHECK(contains(r.err, c.says));
  }
}

TEST_CASE("cli: a file that cannot be read is a user error (1)") {
  Sandbox s;
  const Run r = s.run({"eval", "missing.gk"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("missing.gk:1:1: error: cannot read missing.gk [file-not-found]\n", 0) == 0);
}

TEST_CASE("cli: warnings go to stderr and leave the exit status 0") {
  Sandbox s;
  s.file("w.gk", "input cycle: u64\nnext := cycle + 1\npragma unroll\n");
  const Run r = s.run({"check", "w.gk"});
  CHECK(r.status == 0);
  CHECK(r.out == "w.gk: ok (cycle: u64) -> (next: u64)\n");
  CHECK(r.err ==
        "w.gk:3:8: warning: unknown pragma 'unroll' is ignored [unknown-pragma]\n"
        "  pragma unroll\n"
        "         ^~~~~~\n");
  const Run e = s.run({"eval", "w.gk", "--cycles", "2", "--format", "csv"});
  CHECK(e.status == 0);
  CHECK(e.out == "cycle,next\n0,1\n1,2\n");
  CHECK(contains(e.err, "warning: unknown pragma 'unroll'"));
}

// ---- check ----

TEST_CASE("cli: check prints one signature line per file, in order, and reports every file") {
  Sandbox s;
  s.file("a.gk", kIds)
      .file("b.gk", kParams)
      .file("c.gk", "total := price * count\n")
      .file("bad.gk", "input cycle: u64\ny := cycle + \"s\"\n");
  const Run ok = s.run({"check", "a.gk", "b.gk", "c.gk"});
  CHECK(ok.status == 0);
  CHECK(ok.out ==
        "a.gk: ok (cycle: u64) -> (id: u64, bucket: u64, label: str)\n"
        "b.gk: ok (cycle: u64, shard: u8, extern width: u64, extern base: u64) -> (cell: u64)\n"
        "c.gk: ok (price: u64, count: u64) -> (total: u64)\n");
  CHECK(ok.err.empty());

  const Run mixed = s.run({"check", "a.gk", "bad.gk", "c.gk"});
  CHECK(mixed.status == 1);
  CHECK(mixed.out ==
        "a.gk: ok (cycle: u64) -> (id: u64, bucket: u64, label: str)\n"
        "c.gk: ok (price: u64, count: u64) -> (total: u64)\n");
  CHECK(mixed.err ==
        "bad.gk:2:6: error: cannot combine u64 and str [type-mismatch]\n"
        "  y := cycle + \"s\"\n"
        "       ^~~~~~~~~~~\n");
}

// ---- eval: formats ----

TEST_CASE("cli: eval prints an aligned table by default, ten cycles") {
  Sandbox s;
  s.file("ids.gk", kIds);
  const Run r = s.run({"eval", "ids.gk"});
  CHECK(r.status == 0);
  CHECK(r.out ==
        "cycle  id   bucket  label\n"
        "0      897  8       user-897\n"
        "1      78   0       user-78\n"
        "2      547  5       user-547\n"
        "3      189  1       user-189\n"
        "4      456  4       user-456\n"
        "5      332  3       user-332\n"
        "6      75   0       user-75\n"
        "7      455  4       user-455\n"
        "8      22   0       user-22\n"
        "9      871  8       user-871\n");
  CHECK(r.err.empty());
  CHECK(s.run({"eval", "ids.gk", "--format", "table"}).out == r.out);
  CHECK(s.run({"eval", "ids.gk"}).out == r.out);  // deterministic
}

TEST_CASE("cli: eval --format table, csv and json on every kind of value") {
  Sandbox s;
  s.file("kinds.gk", kKinds);
  const Run table = s.run({"eval", "kinds.gk", "--cycles", "3"});
  CHECK(table.status == 0);
  CHECK(table.out ==
        "cycle  neg  half  third       even   name\n"
        "0      0    0.0   0.0         true   k,0\n"
        "1      -1   0.5   0.33333334  false  k,1\n"
        "2      -2   1.0   0.6666667   true   k,2\n");

  // The header is the iterated input, then the outputs in declaration order;
  // a field with a comma is quoted.
  const Run csv = s.run({"eval", "kinds.gk", "--cycles", "3", "--format", "csv"});
  CHECK(csv.status == 0);
  CHECK(csv.out ==
        "cycle,neg,half,third,even,name\n"
        "0,0,0.0,0.0,true,\"k,0\"\n"
        "1,-1,0.5,0.33333334,false,\"k,1\"\n"
        "2,-2,1.0,0.6666667,true,\"k,2\"\n");

  const Run json = s.run({"eval", "kinds.gk", "--cycles", "2", "--format", "json"});
  CHECK(json.status == 0);
  CHECK(json.out ==
        "[\n"
        "  {\n"
        "    \"cycle\": 0,\n"
        "    \"neg\": 0,\n"
        "    \"half\": 0.0,\n"
        "    \"third\": 0.0,\n"
        "    \"even\": true,\n"
        "    \"name\": \"k,0\"\n"
        "  },\n"
        "  {\n"
        "    \"cycle\": 1,\n"
        "    \"neg\": -1,\n"
        "    \"half\": 0.5,\n"
        "    \"third\": 0.33333334,\n"
        "    \"even\": false,\n"
        "    \"name\": \"k,1\"\n"
        "  }\n"
        "]\n");
}

TEST_CASE("cli: eval prints integers in decimal at their full range and floats in shortest round-trip form") {
  Sandbox s;
  s.file("edges.gk",
         "top := 0xFFFF_FFFF_FFFF_FFFF\n"
         "bottom := -9223372036854775808\n"
         "byte := 0x80 as u8 as i8\n"
         "tenth := 0.1\n"
         "third := 1.0 / 3.0\n"
         "big := 1e21\n"
         "tiny := 1e-7\n"
         "whole := 100.0\n"
         "single := 16777217 as f32\n"
         "nan := 0.0 / 0.0\n"
         "inf := -1.0 / 0.0\n"
         "quote := \"say \\\"hi\\\"\"\n");
  const Run csv = s.run({"eval", "edges.gk", "--format", "csv"});
  CHECK(csv.status == 0);
  CHECK(csv.out ==
        "top,bottom,byte,tenth,third,big,tiny,whole,single,nan,inf,quote\n"
        "18446744073709551615,-9223372036854775808,-128,0.1,0.3333333333333333,1e+21,1e-07,100.0,16777216.0,"
        "NaN,-inf,\"say \"\"hi\"\"\"\n");
  const Run json = s.run({"eval", "edges.gk", "--format", "json"});
  CHECK(json.status == 0);
  CHECK(contains(json.out, "\"top\": 18446744073709551615,"));
  CHECK(contains(json.out, "\"bottom\": -9223372036854775808,"));
  CHECK(contains(json.out, "\"byte\": -128,"));
  CHECK(contains(json.out, "\"tenth\": 0.1,"));
  CHECK(contains(json.out, "\"third\": 0.3333333333333333,"));
  CHECK(contains(json.out, "\"nan\": null,"));  // JSON has no NaN or infinity
  CHECK(contains(json.out, "\"inf\": null,"));
  CHECK(contains(json.out, "\"quote\": \"say \\\"hi\\\"\"\n"));
}

TEST_CASE("cli: a kernel without inputs is evaluated once, whatever --cycles says") {
  Sandbox s;
  s.file("k.gk", "answer := 6 * 7\n");
  const Run r = s.run({"eval", "k.gk", "--cycles", "5", "--format", "csv"});
  CHECK(r.status == 0);
  CHECK(r.out == "answer\n42\n");
}

// ---- eval: cycles ----

TEST_CASE("cli: --cycles N is 0..N and A..B is half-open") {
  Sandbox s;
  s.file("sq.gk", "input cycle: u64\nsq := cycle * cycle\n");
  auto csv = [&](const std::string& cycles) {
    const Run r = s.run({"eval", "sq.gk", "--cycles", cycles, "--format", "csv"});
    CHECK(r.status == 0);
    return r.out;
  };
  CHECK(csv("3") == "cycle,sq\n0,0\n1,1\n2,4\n");
  CHECK(csv("5..8") == "cycle,sq\n5,25\n6,36\n7,49\n");
  CHECK(csv("0..3") == csv("3"));
  CHECK(csv("4..4") == "cycle,sq\n");
  CHECK(csv("0") == "cycle,sq\n");
  CHECK(csv("0x10..0x12") == "cycle,sq\n16,256\n17,289\n");
  CHECK(csv("1_000..1_001") == "cycle,sq\n1000,1000000\n");
  CHECK(csv("4294967296..4294967297") == "cycle,sq\n4294967296,0\n");  // 2^64 wraps to 0
}

TEST_CASE("cli: a cycle that does not fit the iterated input is a user error") {
  Sandbox s;
  s.file("b.gk", "input b: u8\nnext := b + 1\n");
  const Run ok = s.run({"eval", "b.gk", "--cycles", "254..256", "--format", "csv"});
  CHECK(ok.status == 0);
  CHECK(ok.out == "b,next\n254,255\n255,0\n");
  const Run r = s.run({"eval", "b.gk", "--cycles", "255..257"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "error: cycle 256 does not fit 'b' (u8)\n");
}

// ---- eval: --set ----

TEST_CASE("cli: --set gives a second input and externs their values; defaults apply otherwise") {
  Sandbox s;
  s.file("p.gk", kParams);
  // cell = base + shard * width + cycle % width
  const Run r = s.run({"eval", "p.gk", "--cycles", "3", "--set", "shard=2", "--set", "base=100", "--format", "csv"});
  CHECK(r.status == 0);
  CHECK(r.out == "cycle,cell\n0,108\n1,109\n2,110\n");
  CHECK(r.err.empty());

  const Run w = s.run({"eval", "p.gk", "--cycles", "3..5", "--set", "shard=1", "--set", "base=0x10", "--set",
                       "width=3", "--format", "csv"});
  CHECK(w.status == 0);
  CHECK(w.out == "cycle,cell\n3,19\n4,20\n");  // 16 + 3 + 0, 16 + 3 + 1
}

TEST_CASE("cli: --set errors: a missing value, an unknown name, the iterated input, a value that does not fit") {
  Sandbox s;
  s.file("p.gk", kParams);
  struct Case {
    std::vector<std::string> sets;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"--set", "base=1"}, "error: 'shard' has no value: give it with --set shard=VALUE\n"},
      {{"--set", "shard=1"}, "error: 'base' has no value: give it with --set base=VALUE\n"},
      {{"--set", "shard=1", "--set", "base=1", "--set", "depth=2"},
       "error: the kernel has no input or extern named 'depth'\n"},
      {{"--set", "shard=1", "--set", "base=1", "--set", "cycle=2"},
       "error: 'cycle' is the input --cycles iterates; it cannot be --set\n"},
      {{"--set", "shard=256", "--set", "base=1"}, "error: '256' is not a u8 value for 'shard'\n"},
      {{"--set", "shard=-1", "--set", "base=1"}, "error: '-1' is not a u8 value for 'shard'\n"},
      {{"--set", "shard=1", "--set", "base=ten"}, "error: 'ten' is not a u64 value for 'base'\n"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"eval", "p.gk", "--cycles", "2"};
    args.insert(args.end(), c.sets.begin(), c.sets.end());
    std::string line;
    for (const std::string& a : c.sets) line += " " + a;
    CAPTURE(line);
    const Run r = s.run(args);
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err == c.error);
  }
}

TEST_CASE("cli: --set parses values of every scalar type") {
  Sandbox s;
  s.file("v.gk",
         "input (cycle: u64, flag: bool, delta: i16, ratio: f32, name: str)\n"
         "out := \"{cycle} {flag} {delta} {ratio} {name}\"\n");
  const Run r = s.run({"eval", "v.gk", "--cycles", "1", "--set", "flag=true", "--set", "delta=-300", "--set",
                       "ratio=0.1", "--set", "name=a b", "--format", "csv"});
  CHECK(r.status == 0);
  CHECK(r.out == "cycle,out\n0,0 true -300 0.1 a b\n");
  const Run bad = s.run({"eval", "v.gk", "--set", "flag=1", "--set", "delta=1", "--set", "ratio=1", "--set", "name=x"});
  CHECK(bad.status == 1);
  CHECK(bad.err == "error: '1' is not a bool value for 'flag'\n");
}

TEST_CASE("cli: an error while evaluating is reported with its place and cycle, after the rows before it") {
  Sandbox s;
  s.file("loop.gk",
         "input n: u64\n"
         "half := loop (i = 0, k = 0) while i != n {\n"
         "    i = i + 2\n"
         "    k = k + 1\n"
         "} yield k\n");
  const Run ok = s.run({"eval", "loop.gk", "--cycles", "2..3", "--format", "csv"});
  CHECK(ok.status == 0);
  CHECK(ok.out == "n,half\n2,1\n");
  const Run r = s.run({"eval", "loop.gk", "--cycles", "3"});  // n = 1 never stops
  CHECK(r.status == 1);
  CHECK(r.out == "n  half\n0  0\n");  // output streams: the rows before the error, none after
  CHECK(contains(r.err, "loop.gk:2:9: error: "));
  CHECK(contains(r.err, "(at cycle 1)"));
}

// ---- ir ----

TEST_CASE("cli: ir prints the IR as text, Mermaid or DOT") {
  Sandbox s;
  s.file("t.gk", "input x: u64\ny := x + 1\n");
  const Run text = s.run({"ir", "t.gk", "--no-opt"});
  CHECK(text.status == 0);
  CHECK(text.out ==
        "fn t: t_in -> t_out  (entry)\n"
        "  %3 = 1: u64\n"
        "  %2 <- Proj 0 %0                     ; x: u64  @1:7\n"
        "  %4 <- Pair 0/2 %2                   ; (u64, u64)  @2:6\n"
        "  %4 <- Pair 1/2 %3                   ; (u64, u64)  @2:6\n"
        "  %5 <- Add %4                        ; y: u64  @2:6\n"
        "  %1 <- Pair 0/1 %5                   ; ret: t_out  @1:1\n"
        "\n");
  CHECK(s.run({"ir", "t.gk", "--format", "text", "--no-opt"}).out == text.out);

  const Run optimised = s.run({"ir", "t.gk"});
  CHECK(optimised.status == 0);
  CHECK(optimised.out.rfind("fn t: t_in -> t_out  (entry)\n", 0) == 0);

  const Run mermaid = s.run({"ir", "t.gk", "--format", "mermaid"});
  CHECK(mermaid.status == 0);
  CHECK(mermaid.out.rfind("flowchart LR\n", 0) == 0);
  CHECK(contains(mermaid.out, "subgraph f0[\"fn t\"]"));
  CHECK(contains(mermaid.out, "((\"y: u64\"))"));

  const Run dot = s.run({"ir", "t.gk", "--format", "dot"});
  CHECK(dot.status == 0);
  CHECK(dot.out.rfind("digraph polydat {\n", 0) == 0);
  CHECK(contains(dot.out, "label=\"fn t\""));
  CHECK(contains(dot.out, "[label=\"y: u64\"]"));
  CHECK(dot.out.substr(dot.out.size() - 2) == "}\n");
}

TEST_CASE("cli: ir shows every function a kernel calls") {
  Sandbox s;
  s.file("lib/twice.gk", "input v: u64\nout := v * 2\n").file("main.gk", "input cycle: u64\ny := twice(cycle)\n");
  const Run r = s.run({"ir", "main.gk", "--no-opt", "-L", "lib"});
  CHECK(r.status == 0);
  CHECK(contains(r.out, "fn twice: twice_in -> twice_out\n"));
  CHECK(contains(r.out, "fn main: main_in -> main_out  (entry)\n"));
  CHECK(contains(r.out, "Call twice"));
}

// ---- -L ----

TEST_CASE("cli: -L adds module folders, searched after the kernel's own folder and before the bundled library") {
  Sandbox s;
  s.file("main.gk", "input cycle: u64\ny := twice(cycle)\n")
      .file("lib1/twice.gk", "input v: u64\nout := v * 2\n")
      .file("lib2/twice.gk", "input v: u64\nout := v * 3\n")
      .file("lib2/thrice.gk", "input v: u64\nout := helper(v)\n")  // helper is found next to thrice.gk
      .file("lib2/helper.gk", "input v: u64\nout := v * 3\n")
      .file("uses_thrice.gk", "input cycle: u64\ny := thrice(cycle)\n")
      .file("own/main.gk", "input cycle: u64\ny := twice(cycle)\n")
      .file("own/twice.gk", "input v: u64\nout := v + 100\n")
      .file("hashed.gk", "input cycle: u64\nh := hash(cycle) % 1000\n")
      .file("mine/hash.gk", "input x: u64\nh := x + 1\n");
  auto csv = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--cycles", "3", "--format", "csv"});
    const Run r = s.run(args);
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    return r.out;
  };
  const Run missing = s.run({"eval", "main.gk"});
  CHECK(missing.status == 1);
  CHECK(missing.err ==
        "main.gk:2:6: error: unknown function 'twice' [unknown-function]\n"
        "  y := twice(cycle)\n"
        "       ^~~~~\n");
  CHECK(csv({"eval", "main.gk", "-L", "lib1"}) == "cycle,y\n0,0\n1,2\n2,4\n");
  CHECK(csv({"eval", "main.gk", "-L", "lib2", "-L", "lib1"}) == "cycle,y\n0,0\n1,3\n2,6\n");  // the first wins
  CHECK(s.run({"eval", "main.gk", "-L", "nowhere", "-L", "lib1"}).status == 2);  // a folder that is not there
  CHECK(csv({"eval", "uses_thrice.gk", "-L", "lib2"}) == "cycle,y\n0,0\n1,3\n2,6\n");
  CHECK(csv({"eval", "own/main.gk", "-L", "lib1"}) == "cycle,y\n0,100\n1,101\n2,102\n");  // own folder first
  CHECK(csv({"eval", "hashed.gk"}) == "cycle,h\n0,897\n1,78\n2,547\n");                  // the bundled hash
  CHECK(csv({"eval", "hashed.gk", "-L", "mine"}) == "cycle,h\n0,1\n1,2\n2,3\n");         // replaced

  const Run check = s.run({"check", "main.gk", "uses_thrice.gk", "-L", "lib1", "-L", "lib2"});
  CHECK(check.status == 0);
  CHECK(check.out == "main.gk: ok (cycle: u64) -> (y: u64)\nuses_thrice.gk: ok (cycle: u64) -> (y: u64)\n");
  const Run ir = s.run({"ir", "main.gk", "--no-opt", "-L", "lib1"});  // unoptimised: the call is still there
  CHECK(ir.status == 0);
  CHECK(contains(ir.out, "twice"));
}

// ---- once-known bugs, kept as regressions ----

TEST_CASE("cli: -L before the file takes one folder; _ is not a binding name") {
  Sandbox s;
  s.file("main.gk", "input cycle: u64\ny := twice(cycle)\n").file("lib/twice.gk", "input v: u64\nout := v * 2\n");
  const Run before = s.run({"eval", "-L", "lib", "main.gk", "--cycles", "2", "--format", "csv"});
  CHECK_MESSAGE(before.status == 0, "eval -L lib main.gk: " << before.err);
  CHECK(before.out == "cycle,y\n0,0\n1,2\n");
  s.file("discard.gk", "_ := 3\ny := cycle\n").file("discard_extern.gk", "extern _: u64 = 1\ny := cycle\n");
  for (const std::string f : {"discard.gk", "discard_extern.gk"}) {
    const Run r = s.run({"check", f});
    CHECK_MESSAGE(r.status == 1, f << ": exit " << r.status << ": " << r.err);
    CHECK(contains(r.err, "'_' only discards a value in a destructuring"));
  }
}

TEST_CASE("cli: ir shows the optimised graph unless --no-opt") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\nscaled := twice(cycle) + 2 * 3\n").file("twice.gk", "input v: u64\nout := v * 2\n");
  const Run raw = s.run({"ir", "k.gk", "--no-opt"});
  const Run opt = s.run({"ir", "k.gk"});
  REQUIRE(raw.status == 0);
  REQUIRE(opt.status == 0);
  CHECK(contains(raw.out, "Call twice"));   // calls stay until inlining
  CHECK(contains(raw.out, "fn twice"));
  CHECK_FALSE(contains(opt.out, "Call "));  // inlined
  CHECK_FALSE(contains(opt.out, "fn twice"));
  CHECK(contains(opt.out, "= 6: u64"));      // 2 * 3 folded
  CHECK_FALSE(contains(raw.out, "= 6: u64"));
}

// ---- cosim (models are cached in the build folder: POLYDAT_CACHE in meson.build) ----

TEST_CASE("cli: hardware commands warn, with the place, when the model misses the clock; --strict makes it an error") {
  Sandbox s;
  s.file("add.gk", "input (a: u32, b: u32)\ny := a + b\n");
  // At 20.8 ns: one 32-bit adder, 0.8 + 0.34 * 32 = 11.68 ns, plus 4.4 (registers) and 3.0 (routing
  // margin) = 19.08 ns: met, nothing on stderr.
  const Run met = s.run({"hls", "add.gk"});
  CHECK(met.status == 0);
  CHECK(met.err.empty());
  // At 5 ns the registers and the margin alone take 7.4 ns: missed, at the addition.
  for (const char* cmd : {"hls", "emit-sv"}) {
    CAPTURE(cmd);
    std::vector<std::string> args{cmd, "add.gk", "--clock-ns", "5"};
    if (std::string(cmd) == "emit-sv") args.insert(args.end(), {"-o", "out"});
    const Run warn = s.run(args);
    CHECK(warn.status == 0);
    CHECK(warn.err.rfind("add.gk:2:6: warning: the model predicts the clock is missed: ", 0) == 0);
    CHECK(contains(warn.err, " ns against 5.00 ns ("));
    CHECK(contains(warn.err, "[timing]\n  y := a + b\n       ^"));
    args.push_back("--strict");
    const Run strict = s.run(args);
    CHECK(strict.status == 3);  // misses its clock: docs/guide.md "Exit codes"
    CHECK(strict.err.rfind("add.gk:2:6: error: the model predicts the clock is missed: ", 0) == 0);
  }
  const Run cosim = s.run({"cosim", "add.gk", "--clock-ns", "5", "--strict"});
  CHECK(cosim.status == 3);
  CHECK(contains(cosim.err, "error: the model predicts the clock is missed"));
}

TEST_CASE("cli: cosim of a pipeline passes and reports the measured latency and II") {
  Sandbox s;
  s.file("k.gk", "input cycle: u8\ny := cycle * 3 + 1\nz := y ^ cycle\n");
  const Run r = s.run({"cosim", "k.gk", "--cycles", "200"});
  CHECK_MESSAGE(r.status == 0, r.out << r.err);
  CHECK(contains(r.out, "cosim k.gk on verilator: pipeline"));
  CHECK(contains(r.out, "stimulus: cycle = 0..200, stall 0, seed 1"));
  CHECK(contains(r.out, "evaluations compared: 200\n"));
  CHECK(contains(r.out, "mismatches: 0\n"));
  CHECK(contains(r.out, "(agrees)"));
  CHECK(contains(r.out, "initiation interval: 1..1 cycles measured, report 1"));
  CHECK(contains(r.out, "after reset: ready, no result, outputs zero"));
  CHECK(contains(r.out, "result: PASS"));
  // u8 holds 0..255: cycle 256 does not fit the input.
  const Run big = s.run({"cosim", "k.gk", "--cycles", "250..300"});
  CHECK(big.status == 1);
  CHECK(contains(big.err, "cycle 256 does not fit 'cycle' (u8)"));
}

TEST_CASE("cli: cosim of an FSM under stalls, with --set and a VCD trace") {
  Sandbox s;
  s.file("sum.gk",
         "input (n: u8, k: u8)\n"
         "total := loop (i = 0, acc = 0) while i < n { acc = acc + i * k; i = i + 1 } yield acc\n");
  const Run r = s.run({"cosim", "sum.gk", "--cycles", "40", "--set", "k=3", "--stall", "0.3", "--seed", "5",
                       "--trace", "sum.vcd"});
  CHECK_MESSAGE(r.status == 0, r.out << r.err);
  CHECK(contains(r.out, "on verilator: FSM"));
  CHECK(contains(r.out, "stimulus: n = 0..40, stall 0.3, seed 5"));
  CHECK(contains(r.out, "evaluations compared: 40\n"));
  CHECK(contains(r.out, "latency and II: checked under free flow only"));
  CHECK(contains(r.out, "trace: sum.vcd"));
  const std::string vcd = polydat::testing::read_file(s.path() / "sum.vcd");
  CHECK(contains(vcd, "$timescale"));
  CHECK(contains(vcd, " in_n "));
  CHECK(contains(vcd, " out_total "));
}

TEST_CASE("cli: cosim refuses bad options and kernels without hardware") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\ny := cycle + 1\n").file("f.gk", "input cycle: u64\ny := to_f64(cycle) * 0.5\n");
  for (const std::vector<std::string>& args : {std::vector<std::string>{"cosim", "k.gk", "--stall", "1"},
                                              {"cosim", "k.gk", "--stall", "-0.1"},
                                              {"cosim", "k.gk", "--cycles", "5..2"},
                                              {"cosim", "k.gk", "--sim", "icarus"},
                                              {"cosim", "k.gk", "--set", "novalue"}}) {
    const Run r = s.run(args);
    CHECK_MESSAGE(r.status == 2, args[2] << " " << args[3] << ": exit " << r.status << " " << r.err);
  }
  const Run f = s.run({"cosim", "f.gk"});
  CHECK(f.status == 1);
  CHECK(contains(f.err, "f.gk:2:"));
  CHECK(contains(f.err, "cannot make hardware"));
}

TEST_CASE("cli: eval --engine llvm prints what the interpreter prints, byte for byte") {
  Sandbox s;
  s.file("ids.gk", kIds);
  s.file("mix.gk",
         "input cycle: u64\n"
         "f := (cycle as f64) / 3.0\n"
         "s := (cycle as i8) >> 1\n"
         "q := loop (i = 0, acc: u32 = 1) while i < cycle { acc = acc * 3; i = i + 1 } yield acc\n");
  for (const std::string f : {"ids.gk", "mix.gk"})
    for (const std::string format : {"table", "csv", "json"}) {
      CAPTURE(f);
      CAPTURE(format);
      const Run interp = s.run({"eval", f, "--cycles", "300", "--format", format, "--engine", "interp"});
      const Run llvm = s.run({"eval", f, "--cycles", "300", "--format", format, "--engine", "llvm"});
      const Run by_default = s.run({"eval", f, "--cycles", "300", "--format", format});  // LLVM
      CHECK(by_default.out == llvm.out);
      REQUIRE(interp.status == 0);
      CHECK_MESSAGE(llvm.status == 0, llvm.err);
      CHECK(llvm.out == interp.out);
    }
}

TEST_CASE("cli: bench times both engines and checks they agree; emit-obj writes an object and a header") {
  Sandbox s;
  s.file("ids.gk", kIds);
  const Run b = s.run({"bench", "ids.gk", "--cycles", "2000"});
  CHECK_MESSAGE(b.status == 0, b.err);
  CHECK(contains(b.out, "bench ids.gk: 2000 evaluations\n"));
  CHECK(contains(b.out, "  interpreter: "));
  CHECK(contains(b.out, "  llvm:        "));
  CHECK(contains(b.out, "  outputs agree: yes\n"));
  const Run o = s.run({"emit-obj", "ids.gk", "-o", "out"});
  CHECK_MESSAGE(o.status == 0, o.err);
  CHECK(o.out == "out/ids.o\nout/ids.h\n");
  CHECK(contains(o.err, "link libpolydat_rt.a"));  // the label is a string
  CHECK(fs::file_size(s.path() / "out" / "ids.o") > 0);
  CHECK(contains(polydat::testing::read_file(s.path() / "out" / "ids.h"), "size_t ids_run(const ids_inputs* in, ids_outputs* out, size_t n);"));
}

TEST_CASE("cli: cosim --sim systemc runs the SystemC testbench and its reference model") {
  Sandbox s;
  s.file("k.gk", "input cycle: u8\ny := cycle * 3 + 1\n");
  const Run r = s.run({"cosim", "k.gk", "--sim", "systemc", "--cycles", "200", "--stall", "0.3"});
  CHECK_MESSAGE(r.status == 0, r.out << r.err);
  CHECK(contains(r.out, "cosim k.gk on systemc: pipeline"));
  CHECK(contains(r.out, "evaluations compared: 200\n"));
  CHECK(contains(r.out, "mismatches: 0\n"));
  CHECK(contains(r.out, "reference model: 200 results checked inside the simulation, 0 mismatches"));
  CHECK(contains(r.out, "result: PASS"));
}

// ---- the function library ----

TEST_CASE("cli: functions lists the library with signatures, hardware and nb-rs names; --format json too") {
  Sandbox s;
  const Run text = s.run({"functions"});
  CHECK(text.status == 0);
  CHECK(text.err.empty());
  CHECK(contains(text.out, "pcg(position: u64, seed: u64 = 0, stream: u64 = 0) -> u64"));
  CHECK(contains(text.out, "format_u64(x: u64, radix: u64 = 10) -> str"));
  // One line per function, each with its hardware and nb-rs columns.
  size_t lines = 0;
  for (char c : text.out) lines += c == '\n';
  CHECK(lines > 70);

  const Run json = s.run({"functions", "--format", "json"});
  CHECK(json.status == 0);
  CHECK(contains(json.out, "\"name\": \"cycle_walk\""));
  CHECK(contains(json.out, "\"engines\": [\n      \"interp\",\n      \"llvm\"\n    ]"));
  // hash is hardware and nb-rs's; hex is text and not an nb-rs name.
  const size_t hash = json.out.find("\"name\": \"hash\"");
  REQUIRE(hash != std::string::npos);
  const std::string hash_entry = json.out.substr(hash, json.out.find('}', hash) - hash);
  CHECK(contains(hash_entry, "\"hardware\": true"));
  CHECK(contains(hash_entry, "\"nb_rs\": true"));
  const size_t hex = json.out.find("\"name\": \"hex\"");
  REQUIRE(hex != std::string::npos);
  const std::string hex_entry = json.out.substr(hex, json.out.find('}', hex) - hex);
  CHECK(contains(hex_entry, "\"hardware\": false"));
  CHECK(contains(hex_entry, "\"nb_rs\": false"));
}

TEST_CASE("cli: a kernel named like a library module it calls gets the module, not itself") {
  const std::string text = "input cycle: u64\nv := interleave(cycle, 7)\nh := hash(cycle)\n";
  Sandbox reference;
  reference.file("plain.gk", text);
  const Run plain = reference.run({"eval", "plain.gk", "--cycles", "4", "--format", "csv"});
  REQUIRE(plain.status == 0);
  for (const std::string name : {"interleave.gk", "hash.gk"}) {
    CAPTURE(name);
    Sandbox s;
    s.file(name, text);
    const Run r = s.run({"eval", name, "--cycles", "4", "--format", "csv"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out == plain.out);
  }
}

TEST_CASE("cli: check suggests the library's name for a near miss and says which nb-rs functions are missing") {
  Sandbox s;
  s.file("near.gk", "input cycle: u64\nv := cycle_wlak(cycle, 100)\nw := fft_analyze(cycle)\n");
  const Run r = s.run({"check", "near.gk"});
  CHECK(r.status == 1);
  CHECK(contains(r.err, "near.gk:2:6: error: unknown function 'cycle_wlak'; did you mean 'cycle_walk'? [unknown-function]"));
  CHECK(contains(r.err, "near.gk:3:6: error: unknown function 'fft_analyze': nb-rs has it, polydat's library does not yet"));
}
