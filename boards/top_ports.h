// The board top's port names: the generated SystemVerilog and the generated
// .pcf both take them from here, so the two cannot disagree.
#pragma once

#include <string>

#include "boards/board.h"

namespace polydat::boards {

inline constexpr const char* kClockPort = "clk";       // the board oscillator
inline constexpr const char* kUartTxPort = "uart_tx";  // results leave here, 8N1
inline constexpr const char* kLedPort = "led";         // the heartbeat
inline constexpr const char* kResetPort = "rst_btn";   // only when the board has a reset button

// set_io lines for exactly the ports the board top has.
std::string pcf(const Board& board);

}  // namespace polydat::boards
