// The progress line shows on a terminal only, and --quiet silences it: eval under a
// pseudo-terminal (util-linux `script`), against a pipe.
#include <doctest/doctest.h>

#include "tests/cli/cli_support.h"

using namespace polydat::clitest;

namespace {
// `polydat ARGS` with stderr on a pseudo-terminal; what the terminal showed.
std::string on_terminal(const Sandbox& box, const std::string& args) {
  const Run r = polydat::testing::run_process("/usr/bin/script", {"script", "-qec", kPolydat + " " + args + " > /dev/null", "/dev/null"},
                                             box.path());
  REQUIRE_MESSAGE(r.status == 0, r.err);
  return r.out;
}
// The interpreter on one thread: a few seconds, past the line's first second.
const std::string kLong = "eval ids.gk --engine interp --threads 1 --cycles 1M --format csv";
}  // namespace

TEST_CASE("progress: eval shows done of total on a terminal, nothing through a pipe, nothing with --quiet") {
  Sandbox box;
  box.file("ids.gk", "input cycle: u64\nid := mod(hash(cycle), 1000)\noutput id\n");
  const std::string shown = on_terminal(box, kLong);
  CHECK(shown.find("eval ids.gk: ") != std::string::npos);
  CHECK(shown.find(" of 1,000,000 cycles (") != std::string::npos);
  CHECK(shown.find(" left") != std::string::npos);
  CHECK(on_terminal(box, kLong + " --quiet").find("cycles (") == std::string::npos);
  const Run piped = box.run({"eval", "ids.gk", "--engine", "interp", "--threads", "1", "--cycles", "1M", "--format", "csv"});
  CHECK(piped.status == 0);
  CHECK(piped.err.empty());
}
