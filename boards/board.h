// A board file: which iCE40 part a real board carries, its oscillator, and the
// pins the board top uses (clock, UART, LEDs, reset button), loaded from YAML.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expected.h"

namespace polydat::boards {

// A package pin: "35" (SG48, TQ144) or "B2" (CM81, CT256).
struct Pin {
  std::string pin;
  bool active_low = false;
};

// How the iCE40 PLL takes the oscillator: as its own pad (SB_PLL40_PAD, the
// UP5K's pin 35) or from the pin's buffer (SB_PLL40_CORE, the HX and LP parts'
// clock pins). nextpnr-ice40 places only the one the pin allows.
enum class PllInput { Core, Pad };

struct Board {
  std::string name;      // how --board names it: the file's stem (icebreaker)
  std::string title;     // what the board is called (1BitSquared iCEBreaker v1.0e)
  std::string device;    // up5k | hx8k | lp8k | hx1k
  std::string package;   // sg48 | ct256 | cm81 | tq144 | ...
  Pin clock;             // the oscillator's pin
  double clock_mhz = 0;  // its frequency
  PllInput pll_input = PllInput::Core;  // clock.pll
  std::vector<Pin> leds;  // user LEDs, the heartbeat drives the first
  Pin uart_tx;           // FPGA output (the host receives)
  Pin uart_rx;           // FPGA input
  uint32_t baud = 115200;
  std::optional<Pin> reset_button;  // a user button the top uses as reset
  // Programming: the command with {bin} for the bitstream, and the USB ids
  // ("0403:6010") whose presence means the board is attached.
  std::string program = "iceprog {bin}";
  std::vector<std::string> usb_ids = {"0403:6010", "0403:6014"};
  std::string source;    // where the pin facts come from (schematic, vendor .pcf)
  std::string note;      // anything a user must know (a jumper, an external adapter)
};

// Loads and checks a board file. Errors read "FILE:LINE:COL: error: ... [kind]",
// then the source line and a caret.
ir::Expected<Board, std::string> load_board_file(const std::filesystem::path& file);

// Board text as if read from `path` (what a fuzzer or a test feeds the loader).
ir::Expected<Board, std::string> parse_board_text(std::string_view text, const std::string& path);

// A board bundled with polydat by name, or a path to a .yaml file.
ir::Expected<Board, std::string> find_board(std::string_view name_or_path);

// The bundled boards' names, sorted.
std::vector<std::string> board_names();

// Whether find_board fails on the name itself (no bundled board, no file at that path), not on a file's content:
// the command line is wrong, not the board file.
bool board_unknown(std::string_view name_or_path);

}  // namespace polydat::boards
