// Small SystemVerilog designs whose resource numbers can be derived by hand.
#pragma once

namespace polydat::fpga::test_designs {

// An 8-bit counter with a synchronous reset: exactly 8 flip-flops, an 8-bit
// increment (a carry chain), 10 pins (clk, rst, q[7:0]).
inline constexpr const char* kCounter = R"(module counter(input logic clk, input logic rst, output logic [7:0] q);
  always_ff @(posedge clk) begin
    if (rst) q <= 8'd0;
    else q <= q + 8'd1;
  end
endmodule
)";

// Pins for the counter on an UP5K sg48.
inline constexpr const char* kCounterPcf = R"(set_io clk 35
set_io rst 10
set_io q[0] 2
set_io q[1] 3
set_io q[2] 4
set_io q[3] 6
set_io q[4] 9
set_io q[5] 11
set_io q[6] 12
set_io q[7] 13
)";

// A registered 16x16 multiply, its operands shifted in 8 bits at a time so
// that it needs only 17 pins: one SB_MAC16 on an UP5K.
inline constexpr const char* kMul = R"(module mul(input logic clk, input logic [7:0] d, output logic [7:0] y);
  logic [15:0] a, b;
  logic [31:0] p;
  always_ff @(posedge clk) begin
    a <= {a[7:0], d};
    b <= {b[7:0], a[15:8]};
    p <= a * b;
  end
  assign y = p[31:24];
endmodule
)";

// A 1600-bit shift register: 1600 flip-flops, more than an HX1K's 1280 logic cells.
inline constexpr const char* kBig = R"(module big(input logic clk, input logic d, output logic q);
  logic [1599:0] sr;
  always_ff @(posedge clk) sr <= {sr[1598:0], d};
  assign q = sr[1599];
endmodule
)";

// A registered 16-bit adder with 49 pins: more than an UP5K sg48 bonds out.
inline constexpr const char* kWide = R"(module wide(input logic clk, input logic [15:0] a, input logic [15:0] b,
            output logic [15:0] s);
  always_ff @(posedge clk) s <= a + b;
endmodule
)";

// A purely combinational 8-bit adder: no clock, so no Fmax.
inline constexpr const char* kComb = R"(module comb(input logic [7:0] a, input logic [7:0] b, output logic [7:0] s);
  assign s = a + b;
endmodule
)";

}  // namespace polydat::fpga::test_designs
