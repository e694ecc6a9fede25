// The board top: what runs a kernel on a real board. A power-on reset (and
// the board's button, synchronised), a counter feeding the kernel's first
// input, the other inputs and the externs held at their values, the kernel,
// and a UART transmitter that streams every result as one line of hex
// fields; the first LED blinks as a heartbeat.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boards/board.h"
#include "boards/qor_wrapper.h"
#include "fpga/pll.h"
#include "hls/design.h"

namespace polydat::boards {

struct BoardTopOptions {
  std::vector<uint64_t> configs;  // per cfg_ port (the DFG's configs), the bit pattern held
  std::vector<uint64_t> inputs;   // per in_ port after the first, the bit pattern held
  // When set, the oscillator feeds the iCE40 PLL (SB_PLL40_PAD or _CORE as the
  // board's clock.pll says) and everything runs on its output: the kernel, the
  // counters, the UART (its divisor from the PLL's frequency), the heartbeat.
  std::optional<fpga::PllConfig> pll;
};

struct BoardTop {
  std::string module;     // the top module's name
  std::string sv;         // the board top, the UART transmitter and the kernel module
  uint32_t divisor = 0;   // clock cycles per UART bit: the clock over the baud rate, rounded
  uint32_t line_chars = 0;  // characters per result line, the newline included
  double clock_mhz = 0;   // what everything runs at: the oscillator, or the PLL's output
  std::optional<fpga::PllConfig> pll;  // the PLL's settings, when there is one
  bool pll_pad = false;   // SB_PLL40_PAD (else SB_PLL40_CORE)
};

// The text of a result line: output i as ceil(width_i / 4) lowercase hex
// digits (the bit pattern, most significant digit first), fields separated by
// one space, then '\n'. The line's length:
uint32_t result_line_chars(const KernelPorts& kernel);

BoardTop board_top(const hls::Design& design, const rtl::Module& module, const Board& board, const BoardTopOptions& options);
// Around any module with the kernel interface (`kernel_sv` its text and what it instantiates).
BoardTop board_top(const KernelPorts& kernel, const std::string& kernel_sv, const Board& board,
                   const BoardTopOptions& options);

}  // namespace polydat::boards
