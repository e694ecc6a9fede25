// SystemVerilog for a bound design: one module with the kernel interface
// (clk, rst, cfg_*, in_valid/in_ready/in_*, out_valid/out_ready/out_*),
// deterministic text in the subset Verilator and Yosys 0.23 both accept.
#pragma once

#include <string>
#include <vector>

#include "hls/design.h"

namespace polydat::rtl {

// The data ports: cfg_, in_ or out_ before the source name; a name already taken
// (by the handshake, e.g. an input called `valid`, or an earlier port) gets the
// first free suffix _0, _1, ... Same order as the DFG's configs, inputs, outputs.
struct PortNames {
  std::vector<std::string> configs, inputs, outputs;
};
PortNames port_names(const hls::Design& design);

// One emission of a design: its text, its name and its data ports. The name is
// the kernel's as an identifier, prefixed with `k_` while it is a SystemVerilog
// keyword or the name of a signal inside the module.
struct Module {
  std::string name;
  std::string text;
  PortNames ports;
};
Module emit_module(const hls::Design& design);

}  // namespace polydat::rtl
