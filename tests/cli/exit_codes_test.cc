// One table of exit codes for every command (docs/guide.md "Exit codes"): 0 done,
// 1 the work failed, 2 usage, 3 does not fit or misses its clock. Each command is
// run to each code it can give, through the binary.
#include <doctest/doctest.h>

#include <sstream>

#include "tests/cli/cli_support.h"

using namespace polydat::clitest;

namespace {

const char* kKernel = "input cycle: u64\nid := mod(hash(cycle), 1000)\noutput id\n";
const char* kBroken = "input cycle: u64\nid := mod(hash(cycle), \noutput id\n";
const char* kWorkload = "ops:\n  q: select 1\n";

void fill(Sandbox& s) {
  s.file("ids.gk", kKernel).file("broken.gk", kBroken).file("users.yaml", kWorkload).file("broken.yaml", "ops: [\n");
}

// Every subcommand, as bare `polydat` lists them ("error: a subcommand is required: a, b or c").
std::vector<std::string> subcommands(const Sandbox& s) {
  const Run r = s.run({});
  const std::string marker = "a subcommand is required: ";
  const size_t at = r.err.find(marker);
  REQUIRE(at != std::string::npos);
  std::string list = r.err.substr(at + marker.size());
  list = list.substr(0, list.find('\n'));
  for (size_t p; (p = list.find(" or ")) != std::string::npos;) list.replace(p, 4, ", ");
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string n; std::getline(in, n, ',');) names.push_back(n.substr(n.find_first_not_of(' ')));
  return names;
}

struct Case {
  std::vector<std::string> args;
  int status;
};

void check_cases(const Sandbox& s, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    std::string line;
    for (const std::string& a : c.args) line += a + " ";
    CAPTURE(line);
    const Run r = s.run(c.args);
    CHECK_MESSAGE(r.status == c.status, r.err);
  }
}

}  // namespace

TEST_CASE("exit codes: an unknown flag is 2 on every subcommand") {
  Sandbox s;
  fill(s);
  const std::vector<std::string> names = subcommands(s);
  REQUIRE(names.size() >= 15);
  for (const std::string& name : names) {
    CAPTURE(name);
    CHECK(s.run({name, "--no-such-flag"}).status == 2);
  }
  CHECK(s.run({}).status == 2);
  CHECK(s.run({"no-such-command"}).status == 2);
}

TEST_CASE("exit codes: the software commands give 0 done, 1 the work failed, 2 usage") {
  Sandbox s;
  fill(s);
  check_cases(s, {
      {{"check", "ids.gk"}, 0},
      {{"check", "broken.gk"}, 1},
      {{"check", "users.yaml"}, 2},  // the other kind of file
      {{"eval", "ids.gk", "--cycles", "2K"}, 0},
      {{"eval", "broken.gk"}, 1},
      {{"eval", "ids.gk", "--cycles", "1x"}, 2},
      {{"eval", "ids.gk", "--outputs", "nosuch"}, 2},
      {{"eval", "ids.gk", "-o", "no/such/folder/out.csv"}, 2},
      {{"run", "users.yaml", "cycles=3"}, 0},
      {{"run", "users.yaml", "--set", "cycles=3"}, 0},
      {{"run", "broken.yaml"}, 1},
      {{"run", "ids.gk"}, 2},
      {{"ir", "ids.gk"}, 0},
      {{"ir", "broken.gk"}, 1},
      {{"ir", "ids.gk", "--format", "nosuch"}, 2},
      {{"bench", "ids.gk", "--cycles", "1K"}, 0},
      {{"bench", "broken.gk"}, 1},
      {{"emit-obj", "ids.gk", "-o", "obj"}, 0},
      {{"emit-obj", "broken.gk", "-o", "obj2"}, 1},
      {{"difftest", "ids.gk", "--engines", "interp,llvm", "--inputs", "1K"}, 0},
      {{"difftest", "broken.gk", "--engines", "interp,llvm"}, 1},
      {{"difftest", "ids.gk", "--stall", "0.99"}, 2},
      {{"fuzz", "--count", "2", "--engines", "interp,llvm", "-o", "findings"}, 0},
      {{"fuzz", "--count", "lots"}, 2},
      {{"functions"}, 0},
  });
}

TEST_CASE("exit codes: the hardware commands give 0, 1, 2, and 3 for a predicted clock miss under --strict") {
  Sandbox s;
  fill(s);
  check_cases(s, {
      {{"hls", "ids.gk"}, 0},
      {{"hls", "broken.gk"}, 1},
      {{"hls", "ids.gk", "--clock-ns", "0.5"}, 2},
      {{"hls", "ids.gk", "--strict", "--clock-ns", "1"}, 3},  // no operator of the hash meets 1 ns on the iCE40
      {{"hls", "ids.gk", "--clock-ns", "1"}, 0},              // the same miss, a warning without --strict
      {{"emit-sv", "ids.gk", "-o", "sv"}, 0},
      {{"emit-sv", "broken.gk", "-o", "sv2"}, 1},
      {{"emit-sv", "ids.gk", "-o", "no/such/sv"}, 2},
      {{"emit-sv", "ids.gk", "--strict", "--clock-ns", "1", "-o", "sv3"}, 3},
      {{"cosim", "ids.gk", "--cycles", "100"}, 0},
      {{"cosim", "broken.gk"}, 1},
      {{"cosim", "ids.gk", "--stall", "1"}, 2},
      {{"synth", "ids.gk", "--board", "nosuch"}, 2},
      {{"synth", "ids.gk", "--seed", "3"}, 2},  // renamed --place-seed: one name, one meaning
  });
  // Nothing was made for the refused output folder, nor its parent.
  CHECK_FALSE(fs::exists(s.path() / "no"));
}

// Place and route for real (about 10 s): a 64-bit product in LUTs, even shared in an FSM, passes an hx1k's 1,280.
TEST_CASE("exit codes: synth gives 3 when the design does not fit, and the report says so") {
  Sandbox s;
  s.file("big.gk", "input cycle: u64\ny := hash(cycle) * hash(cycle + 1)\noutput y\n");
  const Run r = s.run({"synth", "big.gk", "--device", "hx1k", "-o", "fit"});
  CHECK_MESSAGE(r.status == 3, r.err);
  CHECK(r.out.find("does not fit: ") != std::string::npos);
}
