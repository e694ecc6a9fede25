#include "boards/board_top.h"

#include <fmt/core.h>

#include <cmath>

#include "boards/top_ports.h"
#include "rtl/emit_sv.h"

namespace polydat::boards {

namespace {

// Inputs wider than this count in two halves (a 64-bit carry chain misses 48 MHz on a UP5K).
constexpr unsigned kCountHalf = 32;

unsigned hex_digits(unsigned bits) { return (std::max(1u, bits) + 3) / 4; }

// Bits enough to count to n.
unsigned bits_for(uint64_t n) {
  unsigned b = 1;
  while (b < 64 && (n >> b) != 0) ++b;
  return b;
}

std::string literal(unsigned width, uint64_t value) {
  if (width < 64) value &= (1ull << width) - 1;
  return fmt::format("{}'h{:x}", width, value);
}

std::string vec(unsigned width) { return width <= 1 ? "" : fmt::format("[{}:0] ", width - 1); }

// One name for ours that the kernel's module does not already have.
std::string unclashed(std::string ours, const std::string& kernel) { return ours == kernel ? ours + "_top" : ours; }

std::string uart_tx_module(const std::string& name) {
  return fmt::format(R"(// A UART transmitter, 8N1: DIVISOR clock cycles per bit, the line high when idle.
module {name} #(parameter int DIVISOR = 104) (
    input  logic clk,
    input  logic rst,
    input  logic valid,
    output logic ready,
    input  logic [7:0] data,
    output logic tx
);
  localparam int TW = $clog2(DIVISOR);
  logic [9:0] frame;  // stop bit, 8 data bits, start bit: sent from bit 0; all ones when idle
  logic [3:0] bits_left;
  logic [TW-1:0] tick;
  assign ready = bits_left == 4'd0;
  assign tx = frame[0];  // straight from a flip-flop: no glitch reaches the pin
  always_ff @(posedge clk) begin
    if (rst) begin
      frame <= '1;
      bits_left <= 4'd0;
      tick <= '0;
    end else if (bits_left == 4'd0) begin
      if (valid) begin
        frame <= {{1'b1, data, 1'b0}};
        bits_left <= 4'd10;
        tick <= '0;
      end
    end else if (tick == TW'(DIVISOR - 1)) begin
      tick <= '0;
      frame <= {{1'b1, frame[9:1]}};
      bits_left <= bits_left - 4'd1;
    end else begin
      tick <= tick + 1'b1;
    end
  end
endmodule
)",
                     fmt::arg("name", name));
}

}  // namespace

uint32_t result_line_chars(const KernelPorts& k) {
  uint32_t n = 0;
  for (const KernelPort& o : k.outputs) n += hex_digits(o.width) + 1;  // digits, then a space or the newline
  return std::max<uint32_t>(n, 1);
}

BoardTop board_top(const hls::Design& design, const rtl::Module& module, const Board& board, const BoardTopOptions& options) {
  return board_top(kernel_ports(design, module), module.text, board, options);
}

BoardTop board_top(const KernelPorts& g, const std::string& kernel_sv, const Board& board, const BoardTopOptions& options) {
  const std::string& kernel = g.module;
  BoardTop top;
  top.module = unclashed("polydat_board", kernel);
  const std::string uart = unclashed("polydat_uart_tx", kernel);
  top.pll = options.pll;
  top.pll_pad = board.pll_input == PllInput::Pad;
  top.clock_mhz = options.pll ? options.pll->out_mhz : board.clock_mhz;
  const double clock_hz = top.clock_mhz * 1e6;
  // The clock everything runs on: the oscillator's pin, or the PLL's output.
  const std::string kclk = options.pll ? "pll_clk" : kClockPort;
  top.divisor = static_cast<uint32_t>(std::max(2.0, std::round(clock_hz / board.baud)));
  top.line_chars = result_line_chars(g);

  std::string header_ports = fmt::format("    input  logic {},\n", kClockPort);
  if (board.reset_button) header_ports += fmt::format("    input  logic {},\n", kResetPort);
  header_ports += fmt::format("    output logic {},\n    output logic {}\n", kUartTxPort, kLedPort);

  // The PLL: its output runs everything; reset holds until it locks (LOCK synchronised to its clock).
  std::string pll;
  if (options.pll) {
    pll = "  logic pll_clk, pll_lock;\n" +
          fpga::pll_instance(*options.pll, top.pll_pad, "u_pll", kClockPort, "pll_clk", "pll_lock") +
          "  logic [1:0] lock_sync = 2'b00;\n  always_ff @(posedge pll_clk) lock_sync <= {lock_sync[0], pll_lock};\n\n";
  }
  // Reset: power-on (iCE40 flip-flops start at zero after configuration), or the button, synchronised.
  std::string reset = fmt::format("  logic [3:0] por = 4'd0;\n  always_ff @(posedge {}) if (por != 4'hf) por <= por + 4'd1;\n", kclk);
  std::string reset_cond = options.pll ? "por != 4'hf || !lock_sync[1]" : "por != 4'hf";
  if (board.reset_button) {
    reset += fmt::format("  logic [1:0] btn_sync = 2'b00;  // two flip-flops against metastability\n"
                         "  always_ff @(posedge {}) btn_sync <= {{btn_sync[0], {}{}}};\n",
                         kclk, board.reset_button->active_low ? "~" : "", kResetPort);
    reset_cond += " || btn_sync[1]";
  }
  // Held as its complement: a flip-flop's power-on zero then means "in reset".
  reset += fmt::format("  logic running = 1'b0;\n  always_ff @(posedge {}) running <= !({});\n  logic rst;\n"
                       "  assign rst = !running;\n",
                       kclk, reset_cond);

  // Inputs: the counter into the first, the rest held; the configuration block.
  std::string feed, connect, hold;
  connect += fmt::format("      .clk({}),\n      .rst(rst),\n      .in_valid(k_in_valid),\n      .in_ready(k_in_ready),\n", kclk);
  if (!g.inputs.empty()) {
    const unsigned w = g.inputs[0].width;
    if (w <= kCountHalf) {
      feed += fmt::format(
          "  logic {}count;  // the kernel's first input: 0, 1, 2, ... one per evaluation\n"
          "  always_ff @(posedge {})\n    if (rst) count <= '0;\n    else if (k_in_valid && k_in_ready) count <= count + 1'b1;\n",
          vec(w), kclk);
    } else {
      hold = " && !count_carry";
      // A carry chain as wide as the input would set the clock: the upper half counts a cycle
      // after the lower one wraps, and no input is offered in that cycle.
      feed += fmt::format(
          "  logic {vw}count;  // the kernel's first input: 0, 1, 2, ... one per evaluation\n"
          "  logic [{h}:0] count_low_next;  // the lower half plus one, with its carry out\n"
          "  logic count_carry;\n"
          "  assign count_low_next = {{1'b0, count[{hm}:0]}} + {h1}'d1;\n"
          "  always_ff @(posedge {clk})\n"
          "    if (rst) begin\n      count <= '0;\n      count_carry <= 1'b0;\n    end else begin\n"
          "      count_carry <= k_in_valid && k_in_ready && count_low_next[{h}];\n"
          "      if (k_in_valid && k_in_ready) count[{hm}:0] <= count_low_next[{hm}:0];\n"
          "      if (count_carry) count[{wm}:{h}] <= count[{wm}:{h}] + 1'b1;\n"
          "    end\n",
          fmt::arg("vw", vec(w)), fmt::arg("h", kCountHalf), fmt::arg("hm", kCountHalf - 1),
          fmt::arg("h1", kCountHalf + 1), fmt::arg("wm", w - 1), fmt::arg("clk", kclk));
    }
    connect += fmt::format("      .{}(count),\n", g.inputs[0].name);
  }
  for (size_t i = 1; i < g.inputs.size(); ++i) {
    const uint64_t v = i - 1 < options.inputs.size() ? options.inputs[i - 1] : 0;
    connect += fmt::format("      .{}({}),\n", g.inputs[i].name, literal(g.inputs[i].width, v));
  }
  if (!g.configs.empty()) feed += "  // The configuration block: each extern in a register, loaded with its value at reset.\n";
  for (size_t i = 0; i < g.configs.size(); ++i) {
    const unsigned w = g.configs[i].width;
    const uint64_t v = i < options.configs.size() ? options.configs[i] : 0;
    feed += fmt::format("  logic {}config_{};  // {}\n  always_ff @(posedge {}) if (rst) config_{} <= {};\n", vec(w), i,
                        g.configs[i].source, kclk, i, literal(w, v));
    connect += fmt::format("      .{}(config_{}),\n", g.configs[i].name, i);
  }
  connect += "      .out_valid(k_out_valid),\n      .out_ready(k_out_ready)";
  std::string results, held_fields;
  unsigned held_bits = 0;
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const unsigned w = g.outputs[i].width, padded = 4 * hex_digits(w);
    results += fmt::format("  logic {}result_{};  // {}\n", vec(w), i, g.outputs[i].source);
    connect += fmt::format(",\n      .{}(result_{})", g.outputs[i].name, i);
    if (!held_fields.empty()) held_fields += ", ";
    held_fields += padded > w ? fmt::format("{}'d0, result_{}", padded - w, i) : fmt::format("result_{}", i);
    held_bits += padded;
  }

  // The line: character k of the result held; digits, spaces, the newline.
  const unsigned iw = bits_for(top.line_chars);
  std::string cases;
  uint32_t at = 0;
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const unsigned digits = hex_digits(g.outputs[i].width);
    for (unsigned d = 0; d < digits; ++d, ++at) cases += fmt::format("      {}'d{}: kind = 2'd0;\n", iw, at);
    if (i + 1 < g.outputs.size()) cases += fmt::format("      {}'d{}: kind = 2'd1;\n", iw, at++);
  }
  const std::string held_decl = held_bits ? fmt::format("  logic {}held;  // the result being sent\n", vec(held_bits)) : "";
  const std::string held_load = held_bits ? fmt::format("        held <= {{{}}};\n", held_fields) : "";
  const std::string held_reset = held_bits ? "      held <= '0;\n" : "";
  // The digit sent is always the held value's top one: the value shifts after each digit, so no
  // multiplexer over the digits stands between the counter and the UART.
  const std::string nib_decl =
      held_bits ? fmt::format("  logic [3:0] nib;\n  assign nib = held[{}:{}];\n", held_bits - 1, held_bits - 4)
                : "  logic [3:0] nib;  // no outputs: never a digit\n  assign nib = 4'd0;\n";
  const std::string held_shift = held_bits ? "      if (kind == 2'd0) held <= held << 4;\n" : "";

  const unsigned beat_bit = static_cast<unsigned>(std::floor(std::log2(std::max(2.0, clock_hz))));
  const std::string led = fmt::format("{}beat[{}]", board.leds.empty() || !board.leds[0].active_low ? "" : "~", beat_bit);

  top.sv = fmt::format(R"(// Generated by polydat: the board top for kernel '{kernel_name}' on {title}. Do not edit.
// {mhz} MHz oscillator{pll_note}; results leave on {tx} at {baud} baud, 8N1 (divisor {divisor}), one line
// of {chars} characters per result: the outputs in hex, spaces between, a newline.
/* verilator lint_off DECLFILENAME */
/* verilator lint_off UNUSEDSIGNAL */
module {top} (
{header_ports});
{pll}{reset}
  logic k_in_valid, k_in_ready, k_out_valid, k_out_ready;
{feed}  assign k_in_valid = !rst{hold};
{results}
  {kernel} u_kernel (
{connect}
  );

  // The serialiser: one result at a time; the kernel waits while a line is on the wire.
{held_decl}  logic sending;
  logic {iw_vec}idx;  // the character being offered
  logic tx_ready;
  assign k_out_ready = !sending;
  always_ff @(posedge {kclk}) begin
    if (rst) begin
      sending <= 1'b0;
      idx <= '0;
{held_reset}    end else if (!sending) begin
      if (k_out_valid) begin
{held_load}        sending <= 1'b1;
        idx <= '0;
      end
    end else if (tx_ready) begin
      if (idx == {iw}'d{last}) sending <= 1'b0;
      idx <= idx + 1'b1;
{held_shift}    end
  end

{nib_decl}  logic [1:0] kind;  // 0 a hex digit, 1 a space, 2 the newline
  always_comb begin
    kind = 2'd2;
    case (idx)
{cases}      default: kind = 2'd2;
    endcase
  end
  logic [7:0] char_out;
  assign char_out = kind == 2'd0 ? (nib < 4'd10 ? {{4'h3, nib}} : 8'h57 + {{4'h0, nib}}) : kind == 2'd1 ? 8'h20 : 8'h0a;

  {uart} #(.DIVISOR({divisor})) u_uart (
      .clk({kclk}),
      .rst(rst),
      .valid(sending),
      .ready(tx_ready),
      .data(char_out),
      .tx({tx})
  );

  // The heartbeat: bit {beat_bit} of a free-running counter, about one blink a second.
  logic [{beat_bit}:0] beat = '0;
  always_ff @(posedge {kclk}) beat <= beat + 1'b1;
  assign {led_port} = {led};
endmodule

{uart_module}
{kernel_sv})",
                       fmt::arg("kernel_name", g.module), fmt::arg("title", board.title),
                       fmt::arg("mhz", board.clock_mhz), fmt::arg("kclk", kclk), fmt::arg("pll", pll),
                       fmt::arg("pll_note", options.pll ? fmt::format(", the PLL's {:.3f} MHz runs everything", options.pll->out_mhz)
                                                        : std::string()), fmt::arg("tx", kUartTxPort), fmt::arg("baud", board.baud),
                       fmt::arg("divisor", top.divisor), fmt::arg("chars", top.line_chars), fmt::arg("top", top.module),
                       fmt::arg("header_ports", header_ports), fmt::arg("reset", reset), fmt::arg("feed", feed), fmt::arg("hold", hold),
                       fmt::arg("results", results), fmt::arg("kernel", kernel), fmt::arg("connect", connect),
                       fmt::arg("held_decl", held_decl), fmt::arg("iw_vec", vec(iw)), fmt::arg("iw", iw),
                       fmt::arg("held_reset", held_reset), fmt::arg("held_load", held_load), fmt::arg("held_shift", held_shift),
                       fmt::arg("last", top.line_chars - 1), fmt::arg("nib_decl", nib_decl), fmt::arg("cases", cases),
                       fmt::arg("uart", uart), fmt::arg("beat_bit", beat_bit), fmt::arg("led_port", kLedPort),
                       fmt::arg("led", led), fmt::arg("uart_module", uart_tx_module(uart)),
                       fmt::arg("kernel_sv", kernel_sv));
  return top;
}

}  // namespace polydat::boards
