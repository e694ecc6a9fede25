// The progress line's text (cli/progress.h), against figures worked by hand.
#include <doctest/doctest.h>

#include "cli/progress.h"

using polydat::cli::progress_text;

TEST_CASE("progress: done of total, the share, the rate and the time left") {
  // 1,200,000 of 4,000,000 in 2 s: 600 K/s, 2,800,000 left at that rate = 4.67 s, shown as 5 s.
  CHECK(progress_text("cosim ids.gk on verilator", 1'200'000, 4'000'000, "results", 2.0) ==
        "cosim ids.gk on verilator: 1,200,000 of 4,000,000 results (30%), 600.0 K/s, 5 s left");
  // 393,216 of 1,000,000 cycles in 0.25 s: 1.57 M/s; 606,784 left = 0.39 s, shown as 1 s.
  CHECK(progress_text("run w.yaml", 393'216, 1'000'000, "cycles", 0.25, "phase run 2; 393,216 ops so far") ==
        "run w.yaml: 393,216 of 1,000,000 cycles (39%), 1.6 M/s, 1 s left; phase run 2; 393,216 ops so far");
}

TEST_CASE("progress: counts grouped by thousands") {
  CHECK(polydat::cli::grouped(0) == "0");
  CHECK(polydat::cli::grouped(999) == "999");
  CHECK(polydat::cli::grouped(1000) == "1,000");
  CHECK(polydat::cli::grouped(18446744073709551615ull) == "18,446,744,073,709,551,615");
}

TEST_CASE("progress: minutes and hours left, and no total") {
  // 10 of 1,000 in 10 s: 1/s, 990 s left = 16 min 30 s.
  CHECK(progress_text("fuzz", 10, 1000, "kernels", 10.0) == "fuzz: 10 of 1,000 kernels (1%), 1/s, 16 min 30 s left");
  // 1 of 10,000 in 1 s: 9,999 s = 2 h 46 min.
  CHECK(progress_text("fuzz", 1, 10000, "kernels", 1.0) == "fuzz: 1 of 10,000 kernels (0%), 1/s, 2 h 46 min left");
  CHECK(progress_text("eval", 5000, 0, "cycles", 1.0) == "eval: 5,000 cycles, 5.0 K/s");
}
