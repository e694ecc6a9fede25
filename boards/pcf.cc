// The board top's .pcf: one set_io line for each port the board top has, with
// the names from top_ports.h, so the SystemVerilog and the constraints agree.
#include <string>

#include "boards/top_ports.h"

namespace polydat::boards {

namespace {
// A comment line's text: on one line, without control characters.
std::string one_line(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    const bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (blank || static_cast<unsigned char>(c) < 32 || c == 127) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string set_io(const char* port, const Pin& pin) {
  return std::string("set_io -nowarn ") + port + " " + pin.pin + "\n";
}
}  // namespace

std::string pcf(const Board& board) {
  std::string out;
  out += "# polydat board top for " + one_line(board.title) + " (" + board.name + "): " + board.device + " " +
         board.package + "\n";
  out += "# pins from: " + one_line(board.source) + "\n";
  out += set_io(kClockPort, board.clock);
  out += set_io(kUartTxPort, board.uart_tx);
  if (!board.leds.empty()) out += set_io(kLedPort, board.leds.front());
  if (board.reset_button) out += set_io(kResetPort, *board.reset_button);
  return out;
}

}  // namespace polydat::boards
