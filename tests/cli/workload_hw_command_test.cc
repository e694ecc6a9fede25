// `polydat emit-sv` and `polydat cosim` on a workload file, through the
// binary: the files written, the decoded lines on stdout equal to
// `polydat run`'s, params on the command line, and a refusal's exit status
// and located message.
#include "tests/cli/cli_support.h"

namespace polydat::clitest {
namespace {

const fs::path kExamples = fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "workloads";

TEST_CASE("emit-sv WORKLOAD.yaml: a file per scope module and the top") {
  Sandbox s;
  s.file("sweep.yaml", polydat::testing::read_file(kExamples / "sweep.yaml"));
  const Run r = s.run({"emit-sv", "sweep.yaml", "-o", "out"});
  CHECK(r.status == 0);
  CHECK(contains(r.out, "2 scope modules, 4 entries"));
  for (const char* f : {"s0_phase_probe.sv", "s1_phase_probe.sv", "workload_top.sv"}) {
    CAPTURE(f);
    CHECK(fs::exists(s.path() / "out" / f));
  }
  CHECK(contains(polydat::testing::read_file(s.path() / "out" / "workload_top.sv"), "module workload_top ("));
}

TEST_CASE("cosim WORKLOAD.yaml: the top's decoded lines are polydat run's, with a param set") {
  Sandbox s;
  s.file("do_while.yaml", polydat::testing::read_file(kExamples / "do_while.yaml"));
  const Run want = s.run({"run", "do_while.yaml", "rounds=2"});
  REQUIRE(want.status == 0);
  for (const char* sim : {"verilator", "systemc"}) {
    CAPTURE(sim);
    const Run r = s.run({"cosim", "do_while.yaml", "rounds=2", "--sim", sim, "--stall", "0.25"});
    CHECK(r.status == 0);
    CHECK(r.out == want.out);
    CHECK(contains(r.err, "identical to polydat run"));
  }
}

TEST_CASE("cosim WORKLOAD.yaml --board: the records over the simulated UART decode into polydat run's lines") {
  Sandbox s;
  s.file("three_phase.yaml", polydat::testing::read_file(kExamples / "three_phase.yaml"));
  const Run want = s.run({"run", "three_phase.yaml", "buckets=7"});
  REQUIRE(want.status == 0);
  const Run r = s.run({"cosim", "three_phase.yaml", "buckets=7", "--board", "icebreaker"});
  CHECK(r.status == 0);
  CHECK(r.out == want.out);
  CHECK(contains(r.err, "on board icebreaker (12 MHz): 11 of 11 records over the UART"));
  CHECK(contains(r.err, "0 framing errors"));
  CHECK(contains(r.err, "identical to polydat run"));
}

TEST_CASE("cosim WORKLOAD.yaml: a scope hardware cannot take is refused at its line") {
  Sandbox s;
  s.file("keyvalue.yaml", polydat::testing::read_file(kExamples / "keyvalue.yaml"));
  const Run r = s.run({"cosim", "keyvalue.yaml", "--sim", "verilator"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "keyvalue.yaml:23:14: error: phase rampup: cannot make hardware: 'key' has type str"));
  CHECK(contains(r.err, "[hw-refused]"));
}

TEST_CASE("cosim WORKLOAD.yaml --partition: the refused phases run on the host, named on stderr, the lines in order") {
  Sandbox s;
  s.file("keyvalue.yaml", polydat::testing::read_file(kExamples / "keyvalue.yaml"));
  const Run want = s.run({"run", "keyvalue.yaml"});
  REQUIRE(want.status == 0);
  const Run r = s.run({"cosim", "keyvalue.yaml", "--partition", "--sim", "verilator"});
  CHECK(r.status == 0);
  CHECK(r.out == want.out);
  CHECK(contains(r.err, "note: --partition: phase 'rampup' and its 1 op run on the host: keyvalue.yaml:23:14: phase rampup: "
                        "cannot make hardware: 'key' has type str"));
  CHECK(contains(r.err, "note: --partition: phase 'main' and its 2 ops run on the host"));
  CHECK(contains(r.err, "identical to polydat run"));
}

TEST_CASE("--partition on a kernel file is a usage error") {
  Sandbox s;
  s.file("k.gk", "input cycle: u64\nid := cycle + 1\n");
  const Run r = s.run({"emit-sv", "k.gk", "--partition", "-o", "out"});
  CHECK(r.status == 2);
  CHECK(contains(r.err, "--partition is for a workload (.yaml); 'k.gk' is a kernel"));
}

TEST_CASE("cosim, emit-sv WORKLOAD.yaml: a kernel's stimulus flags and an unknown parameter are refused, not ignored") {
  Sandbox s;
  s.file("budget.yaml", polydat::testing::read_file(kExamples / "budget.yaml"));
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"cosim", "budget.yaml", "--cycles", "5"}, {"cosim", "budget.yaml", "--set", "x=1"},
        {"cosim", "budget.yaml", "--trace", "t.vcd"}, {"cosim", "budget.yaml", "trhreads=4"},
        {"emit-sv", "budget.yaml", "-o", "out", "format=csv"}, {"emit-sv", "budget.yaml", "-o", "out", "cyles=3"}}) {
    CAPTURE(args.back());
    const Run r = s.run(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
  }
  const Run typo = s.run({"cosim", "budget.yaml", "trhreads=4"});
  CHECK(contains(typo.err, "unrecognized parameter 'trhreads='"));
}

}  // namespace
}  // namespace polydat::clitest
