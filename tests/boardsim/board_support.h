// Shared by the board suites: a kernel synthesized at a board's clock inside
// its board top, and the batch the board's counter feeds it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "boards/board.h"
#include "boards/board_top.h"
#include "hls/design.h"
#include "sim/engine.h"
#include "tests/sim/cosim_support.h"
#include "tests/support/process.h"

namespace polydat::boardtest {

struct BoardKernel {
  std::unique_ptr<simtest::SimKernel> kernel;  // with its design re-synthesized at the board's clock
  boards::Board board;
  boards::BoardTop top;  // externs at their defaults, other inputs held at 0
};

// nullptr kernel (and `why`) when the kernel or the board cannot be had.
// With `pll_mhz`, the board top runs at that clock through the PLL, and HLS
// schedules against it.
BoardKernel board_kernel(const std::string& key, const std::string& board, std::string& why,
                         std::optional<double> pll_mhz = std::nullopt);

// Evaluations 0..n-1 as the board runs them: the first input counts, the
// other inputs are 0, the externs their defaults.
sim::Batch counter_batch(const simtest::SimKernel& k, size_t n);

// `polydat ARGS...` run in folder cwd, ten minutes at most.
testing::ProcessResult run_polydat(const std::vector<std::string>& args, const std::filesystem::path& cwd);

// The path of tests/corpus/NAME.gk.
std::string corpus_kernel(const std::string& name);

}  // namespace polydat::boardtest
