// The reusable SystemC wrapper of a synthesized kernel: a module `<name>_sc`
// with sc_in/sc_out ports named as the SystemVerilog's (clk, rst, cfg_*,
// in_valid, in_ready, in_*, out_valid, out_ready, out_*), instantiating the
// model `verilator --sc` makes of it. Drop the header into a SystemC platform
// next to the verilated model (docs/systemc.md).
#pragma once

#include <string>

#include "hls/design.h"

namespace polydat::sim {

// The C++ type Verilator gives a port of `bits` bits under --sc: bool,
// uint32_t (2..32) or uint64_t (33..64).
std::string systemc_port_type(unsigned bits);

// The SC_MODULE `wrapper_class` around the Verilated class `model_class`.
std::string systemc_wrapper_module(const hls::Design& d, const std::string& model_class, const std::string& wrapper_class);

// The wrapper header for the design whose module is `module_name`.
std::string systemc_wrapper_header(const hls::Design& d, const std::string& module_name);

}  // namespace polydat::sim
