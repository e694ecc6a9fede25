// The command at the edges a new user reaches first (issue 15's list): a
// library module shadowed by a stray file, a folder or a binary file given as
// a kernel, floods of errors, control bytes, every malformed flag, the
// iteration limit on both engines, and refusals inside library calls.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_support.h"

using polydat::clitest::contains;
using polydat::clitest::Run;
using polydat::clitest::Sandbox;

namespace {
size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

bool has_control_bytes(const std::string& text) {
  for (char c : text)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\n') || c == 0x7f) return true;
  return false;
}
}  // namespace

TEST_CASE("edge: a file beside the kernel named like a library module is an error naming both; -L makes it the choice") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\nh := hash(cycle)\n");
  s.file("hash.gk", "input x: u64\ny := x + 1\n");
  const Run r = s.run({"eval", "k.gk", "--cycles", "2", "--format", "csv"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "k.gk:2:6: error: 'hash' is both ./hash.gk and the library's module <stdlib>/hash.gk"));
  CHECK(contains(r.err, "[shadowed-library]"));
  // Named with -L, the local module is used: hash(x) = x + 1 here.
  const Run chosen = s.run({"eval", "k.gk", "--cycles", "2", "--format", "csv", "-L", "."});
  CHECK(chosen.status == 0);
  CHECK(chosen.out == "cycle,h\n0,1\n1,2\n");
  // A module with a name the library does not have is found beside the kernel as before.
  s.file("m.gk", "input cycle: u64\nh := bump(cycle)\n").file("bump.gk", "input x: u64\ny := x + 5\n");
  CHECK(s.run({"eval", "m.gk", "--cycles", "1", "--format", "csv"}).out == "cycle,h\n0,5\n");
}

TEST_CASE("edge: a folder or a binary file given as a kernel gets one error") {
  Sandbox s;
  s.file("dir/a.gk", "x := 1\n");
  const Run dir = s.run({"check", "dir"});
  CHECK(dir.status == 1);
  CHECK(dir.err == "dir:1:1: error: 'dir' is a folder; give the kernel files (.gk) in it [file-not-found]\n");

  std::string binary = "\x7f" "ELF\x02\x01\x01";
  for (int i = 0; i < 3000; ++i) binary += static_cast<char>(i * 37 % 256);
  s.file("bin.gk", binary);
  const Run bin = s.run({"check", "bin.gk"});
  CHECK(bin.status == 1);
  CHECK(count_of(bin.err, "error:") == 1);
  CHECK(contains(bin.err, "it holds a NUL byte (a binary file?) [binary-file]"));
  CHECK_FALSE(has_control_bytes(bin.err));
  CHECK(bin.err.size() < 1000);
}

// A workload given where a kernel goes, and a kernel given to run: one located error naming the command that
// takes the file, not the other language's syntax errors (issue 34).
TEST_CASE("edge: a file of the other kind says so, and which command takes it") {
  Sandbox s;
  s.file("users.yaml", "ops:\n  q: select 1\n");
  s.file("ids.gk", "input cycle: u64\nid := mod(hash(cycle), 1000)\n");
  for (const char* command : {"check", "eval", "hls", "ir", "bench", "difftest"}) {
    CAPTURE(command);
    const Run r = s.run({command, "users.yaml"});
    CHECK(r.status == 2);  // the command line named the wrong file: a usage error
    CHECK(r.err == "users.yaml:1:1: error: this is YAML (a workload, or a board), not a kernel: a workload runs with "
                   "`polydat run users.yaml`; emit-sv, cosim and synth take either [not-a-kernel]\n  ops:\n  ^\n");
  }
  const Run run = s.run({"run", "ids.gk"});
  CHECK(run.status == 2);
  CHECK(run.err == "ids.gk:1:1: error: this is a kernel (GK), not a workload: `polydat eval ids.gk` evaluates it "
                   "[not-a-workload]\n  input cycle: u64\n  ^\n");
  // Of either kind as asked: the workload runs, the kernel checks.
  CHECK(s.run({"run", "users.yaml", "cycles=1"}).status == 0);
  CHECK(s.run({"check", "ids.gk"}).status == 0);
}

// A command without its file says which file it wants (issue 34: "error: files is required"), exit 2; bare
// `polydat` names every subcommand its help lists.
TEST_CASE("edge: a missing file or subcommand is named, with every subcommand") {
  Sandbox s;
  const std::pair<const char*, const char*> wants[] = {
      {"check", "which file? polydat check FILE...: kernel files (.gk)"},
      {"eval", "which file? polydat eval FILE: the kernel (.gk)"},
      {"hls", "which file? polydat hls FILE: the kernel (.gk)"},
      {"cosim", "which file? polydat cosim FILE: the kernel (.gk) or workload (.yaml)"},
      {"emit-sv", "which file? polydat emit-sv FILE: the kernel (.gk) or workload (.yaml)"}};
  for (const auto& [command, want] : wants) {
    CAPTURE(command);
    const Run r = s.run({command});
    CHECK(r.status == 2);
    CHECK(r.err == "error: " + std::string(want) + "\n(polydat " + command + " --help lists what it takes)\n");
  }
  const Run help = s.run({"--help"});
  const Run bare = s.run({});
  CHECK(bare.status == 2);
  const std::string last = bare.err.substr(bare.err.rfind("error: "));
  size_t listed = 0;
  for (const std::string& line : polydat::testing::split_lines(help.out.substr(help.out.find("Subcommands:")))) {
    const size_t name = line.find_first_not_of(' ');
    if (line.rfind("  ", 0) != 0 || name == std::string::npos) continue;
    const std::string sub = line.substr(name, line.find(' ', name) - name);
    const std::string word = " " + sub;
    CHECK_MESSAGE((contains(last, word + ",") || contains(last, word + " or ") || contains(last, word + "\n")), sub);
    ++listed;
  }
  CHECK(listed == 16);  // with boards and help
}

TEST_CASE("edge: at most 20 diagnostics, then how many more") {
  std::string text = "input cycle: u64\n";
  for (int i = 0; i < 1000; ++i) text += "b" + std::to_string(i) + " := cycle + nope\n";
  Sandbox s;
  s.file("many.gk", text);
  const Run r = s.run({"check", "many.gk"});
  CHECK(r.status == 1);
  CHECK(count_of(r.err, ": error: ") == 20);
  CHECK(contains(r.err, "980 more errors not shown (the first 20 are)\n"));
}

TEST_CASE("edge: control bytes in an echoed source line are shown as \\xNN, and the caret still points at the fault") {
  Sandbox s;
  s.file("esc.gk", "x := 1 \x1b[31m @ 2\n");
  const Run r = s.run({"check", "esc.gk"});
  CHECK(r.status == 1);
  CHECK_FALSE(has_control_bytes(r.err));
  CHECK(contains(r.err, "esc.gk:1:8: error: unexpected character '\\x1b' [unexpected-character]\n"
                        "  x := 1 \\x1b[31m @ 2\n"
                        "         ^~~~\n"));
  CHECK(contains(r.err, "esc.gk:1:14: error: unexpected character '@' [unexpected-character]\n"
                        "  x := 1 \\x1b[31m @ 2\n"
                        "                  ^\n"));
}

TEST_CASE("edge: every malformed flag is an error: line with exit 2, and a near miss is suggested") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\nextern k: u8 = 254\nv := k\nw := cycle * 3\n");
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"hls", "k.gk", "--clock-ns", "inf"}, "error: --clock-ns: the clock period is in ns, from 1 (1 GHz) to 1000000"},
      {{"hls", "k.gk", "--clock-ns", "1e-9"}, "error: --clock-ns: the clock period is in ns"},
      {{"hls", "k.gk", "--clock-ns", "nan"}, "error: --clock-ns: the clock period is in ns"},
      {{"hls", "k.gk", "-L", "/nonexistent"}, "error: -L: no folder '/nonexistent'"},
      {{"eval", "k.gk", "-L", "nope"}, "error: -L: no folder 'nope'"},
      {{"emit-sv", "k.gk", "-o", ""}, "error: --output: an empty path"},
      {{"emit-obj", "k.gk", "-o", ""}, "error: --output: an empty path"},
      {{"cosim", "k.gk", "--trace", "missing/t.vcd"}, "error: --trace: the folder 'missing' does not exist"},
      {{"synth", "k.gk", "--device", "up5k", "--freq", "-3"}, "error: --freq: a number above zero, not '-3'"},
      {{"eval", "k.gk", "--cycels", "3"}, "error: unknown option '--cycels'; did you mean '--cycles'?"},
      {{"evl", "k.gk"}, "error: unknown subcommand 'evl'; did you mean 'eval'?"},
      {{"eval", "k.gk", "--engine", "lvm"}, "error: --engine: lvm not in {interp,llvm}; did you mean 'llvm'?"},
      {{"eval", "k.gk", "stray"}, "error: unknown argument 'stray'"},
  };
  for (const Case& c : cases) {
    std::string line;
    for (const std::string& a : c.args) line += " " + a;
    CAPTURE(line);
    const Run r = s.run(c.args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("error: ", 0) == 0);
    CHECK(contains(r.err, c.says));
  }
  CHECK_FALSE(s.path().empty());
  // A flag that means nothing for this kernel is said so (and the run goes on).
  const Run mul = s.run({"hls", "k.gk", "--max-mul", "2"});
  CHECK(mul.status == 0);
  CHECK(contains(mul.err, "k.gk: warning: --max-mul has no effect: 'k' is a pipeline"));
}

TEST_CASE("edge: both engines stop a loop at the same iteration limit with the same error") {
  Sandbox s;
  s.file("lim.gk", "input cycle: u64\nn := loop (i = 0) while i < cycle * 1000 { i = i + 1 } yield i\n");
  // 1000 * 1000 back edges is the limit itself: allowed on both.
  const Run ok_interp = s.run({"eval", "lim.gk", "--cycles", "999..1001", "--format", "csv"});
  const Run ok_llvm = s.run({"eval", "lim.gk", "--cycles", "999..1001", "--format", "csv", "--engine", "llvm"});
  CHECK(ok_interp.status == 0);
  CHECK(ok_interp.out == "cycle,n\n999,999000\n1000,1000000\n");
  CHECK(ok_llvm.out == ok_interp.out);
  const Run interp = s.run({"eval", "lim.gk", "--cycles", "999..1002"});
  const Run llvm = s.run({"eval", "lim.gk", "--cycles", "999..1002", "--engine", "llvm"});
  CHECK(interp.status == 1);
  CHECK(llvm.status == 1);
  CHECK(interp.out == "cycle  n\n999    999000\n1000   1000000\n");  // the rows before the stop, none after
  CHECK(llvm.out == interp.out);
  CHECK(contains(interp.err, "lim.gk:2:6: error: the loop ran more than 1000000 iterations (at cycle 1001) [iteration-limit]"));
  CHECK(llvm.err == interp.err);
}

TEST_CASE("edge: a hardware refusal inside a library call names the user's calls that lead there") {
  Sandbox s;
  s.file("two.gk", "input cycle: u64\na := pcg(cycle)\nb := pcg(cycle + 1)\n");
  const Run r = s.run({"hls", "two.gk"});
  CHECK(r.status == 1);
  CHECK(contains(r.err, "[two-loops]"));
  CHECK(contains(r.err, "two.gk:2:6: note: inside pcg -> pcg_stream, called here\n  a := pcg(cycle)\n       ^~~\n"));
  CHECK(contains(r.err, "two.gk:3:6: note: inside pcg -> pcg_stream, called here\n  b := pcg(cycle + 1)\n"));
  // The user's own code gets no note.
  s.file("own.gk", "input cycle: u64\na := loop (i = 0) while i < cycle { i = i + 1 } yield i\n"
                   "b := loop (j = 0) while j < cycle { j = j + 2 } yield j\n");
  const Run own = s.run({"hls", "own.gk"});
  CHECK(contains(own.err, "own.gk:3:6: error: cannot make hardware: a second loop"));
  CHECK_FALSE(contains(own.err, "note:"));
}

TEST_CASE("edge: difftest finds the modules beside the kernel, as every other command does") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\ny := bump(cycle)\n").file("bump.gk", "input x: u64\ny := x * 3 + 5\n");
  const Run r = s.run({"difftest", "k.gk", "--engines", "interp,llvm", "--inputs", "20"});
  CHECK_MESSAGE(r.status == 0, r.err);
  CHECK(contains(r.out, "  llvm: agrees (20 evaluations)\n"));
  const Run missing = s.run({"difftest", "nope.gk", "--engines", "interp"});
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "cannot read nope.gk [file-not-found]"));
}
