// `polydat synth WORKLOAD.yaml --board icebreaker` with the real tools: the
// three-phase example's workload top, inside the board top, fits the
// iCEBreaker's UP5K and meets its 12 MHz clock after place and route (the
// command exits 0 only then), and the report names both.
#include "tests/cli/cli_support.h"

namespace polydat::clitest {
namespace {

const fs::path kExamples = fs::path(POLYDAT_SOURCE_ROOT) / "examples" / "workloads";

TEST_CASE("synth WORKLOAD.yaml --board icebreaker: the three-phase example fits and meets 12 MHz") {
  Sandbox s;
  s.file("three_phase.yaml", polydat::testing::read_file(kExamples / "three_phase.yaml"));
  const Run r = s.run({"synth", "three_phase.yaml", "--board", "icebreaker", "-o", "out"});
  CHECK_MESSAGE(r.status == 0, r.out << r.err);
  CHECK(contains(r.out, "2 scope modules, 3 entries, 3 shared cells; board icebreaker (up5k sg48) at 12 MHz"));
  CHECK(contains(r.out, "12.00 MHz requested: meets"));
  CHECK(contains(r.out, "after placement"));
  CHECK(fs::exists(s.path() / "out" / "polydat_board.bin"));
}

TEST_CASE("synth WORKLOAD.yaml needs a board") {
  Sandbox s;
  s.file("three_phase.yaml", polydat::testing::read_file(kExamples / "three_phase.yaml"));
  const Run r = s.run({"synth", "three_phase.yaml", "--device", "up5k"});
  CHECK(r.status == 2);
  CHECK(contains(r.err, "a workload is synthesized for a board: --board NAME"));
}

}  // namespace
}  // namespace polydat::clitest
