// Shared by the board suites: a kernel synthesized at a board's clock inside
// its board top, and the batch the board's counter feeds it.
#pragma once

#include <memory>
#include <string>

#include "boards/board.h"
#include "boards/board_top.h"
#include "hls/design.h"
#include "sim/engine.h"
#include "tests/sim/cosim_support.h"

namespace polydat::boardtest {

struct BoardKernel {
  std::unique_ptr<simtest::SimKernel> kernel;  // with its design re-synthesized at the board's clock
  boards::Board board;
  boards::BoardTop top;  // externs at their defaults, other inputs held at 0
};

// nullptr kernel (and `why`) when the kernel or the board cannot be had.
BoardKernel board_kernel(const std::string& key, const std::string& board, std::string& why);

// Evaluations 0..n-1 as the board runs them: the first input counts, the
// other inputs are 0, the externs their defaults.
sim::Batch counter_batch(const simtest::SimKernel& k, size_t n);

}  // namespace polydat::boardtest
