// The board top's SystemVerilog: clean for Verilator and Yosys on every
// bundled board, with the UART divisor and the line length derived by hand.
#include <doctest/doctest.h>

#include "boards/board_top.h"
#include "sim/verilator/board_sim.h"
#include "tests/boardsim/board_support.h"
#include "tests/support/process.h"

using namespace polydat;

namespace {

boardtest::BoardKernel load(const std::string& key, const std::string& board) {
  std::string why;
  boardtest::BoardKernel bk = boardtest::board_kernel(key, board, why);
  REQUIRE_MESSAGE(bk.kernel, why);
  return bk;
}

}  // namespace

TEST_CASE("board top: Verilator lint and the Yosys check, every board, kernels with externs, tuples, renamed ports") {
  testing::TempDir tmp("polydat-board-top");
  for (const std::string& board : boards::board_names())
    for (const std::string key : {"rtl/with_cfg", "rtl/port_names", "corpus/lfsr", "rtl/ids_hash"}) {
      CAPTURE(board);
      CAPTURE(key);
      const boardtest::BoardKernel bk = load(key, board);
      const std::filesystem::path sv = tmp.path() / (board + "-" + bk.kernel->source.name + ".sv");
      tmp.write(sv.filename().string(), bk.top.sv);
      const rtltest::ToolRun lint = rtltest::verilator_lint(sv);
      CHECK_MESSAGE(lint.status == 0, lint.output);
      CHECK_MESSAGE(lint.output.empty(), lint.output);
      const rtltest::ToolRun check = rtltest::yosys_check(sv, bk.top.module);
      CHECK_MESSAGE(check.status == 0, check.output);
      CHECK_MESSAGE(rtltest::complaints(check.output).empty(), check.output);
    }
}

TEST_CASE("board top: the divisor is the oscillator over the baud rate, the line length the hex digits") {
  // 12 MHz / 115200 = 104.17; 16 MHz / 115200 = 138.9.
  CHECK(load("rtl/with_cfg", "icebreaker").top.divisor == 104);
  CHECK(load("rtl/with_cfg", "tinyfpga_bx").top.divisor == 139);
  // with_cfg: scaled u32 (8 digits), moved u64 (16), tagged u8 (2), two spaces and a newline.
  CHECK(load("rtl/with_cfg", "icebreaker").top.line_chars == 8 + 16 + 2 + 3);
  // port_names: ready u8 and sum u8.
  CHECK(load("rtl/port_names", "icestick").top.line_chars == 2 + 2 + 2);
}

TEST_CASE("board top: externs take their defaults, the button its polarity, the text is deterministic") {
  const boardtest::BoardKernel a = load("rtl/with_cfg", "icebreaker"), b = load("rtl/with_cfg", "icebreaker");
  CHECK(a.top.sv == b.top.sv);
  // scale: u32 = 3, offset: u64 = 7, enable: bool = true.
  CHECK(a.top.sv.find("<= 32'h3;") != std::string::npos);
  CHECK(a.top.sv.find("<= 64'h7;") != std::string::npos);
  CHECK(a.top.sv.find("<= 1'h1;") != std::string::npos);
  // iCEBreaker's button is active low; the iCEstick has none.
  CHECK(a.top.sv.find("~rst_btn") != std::string::npos);
  CHECK(load("rtl/with_cfg", "icestick").top.sv.find("rst_btn") == std::string::npos);
}

TEST_CASE("board top with a PLL: Verilator lint (with the simulation's stand-in) and Yosys with the iCE40 cells, every board") {
  testing::TempDir tmp("polydat-board-top-pll");
  for (const std::string& board : boards::board_names()) {
    CAPTURE(board);
    std::string why;
    const boardtest::BoardKernel bk = boardtest::board_kernel("rtl/with_cfg", board, why, 48.0);
    REQUIRE_MESSAGE(bk.kernel, why);
    REQUIRE(bk.top.pll.has_value());
    const bool pad = board == "icebreaker" || board == "icesugar";
    CHECK(bk.top.pll_pad == pad);
    CHECK(bk.top.sv.find(pad ? "SB_PLL40_PAD #(" : "SB_PLL40_CORE #(") != std::string::npos);
    CHECK(bk.top.divisor == 417);  // 48 MHz / 115200, whatever the oscillator
    const std::filesystem::path sim = tmp.path() / (board + "-sim.sv");
    tmp.write(sim.filename().string(), bk.top.sv + sim::pll_standin_sv(bk.top.pll_pad));
    const rtltest::ToolRun lint = rtltest::verilator_lint(sim);
    CHECK_MESSAGE(lint.status == 0, lint.output);
    CHECK_MESSAGE(lint.output.empty(), lint.output);
    const std::filesystem::path sv = tmp.path() / (board + ".sv");
    tmp.write(sv.filename().string(), bk.top.sv);
    const auto check = testing::run_process(
        "/usr/bin/yosys",
        {"yosys", "-q", "-p",
         "read_verilog -lib +/ice40/cells_sim.v; read_verilog -sv " + sv.string() + "; hierarchy -check -top " +
             bk.top.module + "; proc; check -assert"},
        tmp.path());
    CHECK_MESSAGE(check.status == 0, (check.out + check.err));
    CHECK_MESSAGE(rtltest::complaints(check.out + check.err).empty(), (check.out + check.err));
  }
}
