// The whole board top in Verilator: the oscillator ticks, the reset button
// rests, and the testbench decodes the UART pin bit by bit (8N1 at the
// board top's divisor) into the lines a host terminal would print.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "boards/board.h"
#include "boards/board_top.h"
#include "hls/design.h"
#include "ir/expected.h"
#include "sim/engine.h"

namespace polydat::sim {

struct BoardSimRun {
  std::vector<std::string> lines;  // decoded, without the newline
  uint64_t cycles = 0;             // oscillator cycles simulated
  uint64_t framing_errors = 0;     // characters whose stop bit was low, or a start bit that did not hold
  uint64_t led_toggles = 0;        // heartbeat changes seen
  bool built_now = false;          // false when the cache had the model
};

// Simulates until `lines` lines arrived or `max_cycles` passed (0: enough
// for `lines` lines at the board top's baud rate, with room for the kernel).
// A board top with a PLL is simulated at the PLL's output clock: the clock
// pin is ticked at that frequency and a stand-in for the SB_PLL40_* primitive
// (pll_standin_sv) passes it through and raises LOCK after 24 cycles; the
// cycles counted are then the PLL's.
ir::Expected<BoardSimRun, std::string> simulate_board(const boards::BoardTop& top, const boards::Board& board,
                                                      uint64_t lines, const std::filesystem::path& cache,
                                                      uint64_t max_cycles = 0);

// The decoded lines against the oracle's results: each line parsed as hex
// fields (one per output, ceil(width / 4) digits, single spaces), evaluation
// i against oracle result i.
struct BoardCheck {
  size_t compared = 0;    // lines checked
  size_t mismatches = 0;  // lines malformed or with a wrong value
  std::string first;      // the first mismatch, in words
  bool ok(size_t wanted) const { return mismatches == 0 && compared == wanted; }
};
BoardCheck check_board_lines(const hls::Design& d, const std::vector<std::string>& lines, const EngineRun& oracle);

// The behavioural stand-in for SB_PLL40_PAD (pad) or SB_PLL40_CORE.
std::string pll_standin_sv(bool pad);

// The testbench's C++ source.
//   usage: board LINES MAX_CYCLES OUT   (OUT gets the lines, then "cycles N framing F led T")
std::string board_driver_cpp(const boards::BoardTop& top, const boards::Board& board);

}  // namespace polydat::sim
