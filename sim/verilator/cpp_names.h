// How Verilator's generated C++ (and SystemC) spells the names of the
// SystemVerilog rtl::emit_module writes: what testbenches of the model use.
#pragma once

#include <string>

#include "hls/design.h"
#include "rtl/emit_sv.h"

namespace polydat::sim {

// Each "__" becomes "___05F" (so the port out__x is top->out___05Fx, the module a__b the class Va___05Fb).
std::string verilator_cpp_name(const std::string& sv_name);
// The port names as a C++ or SystemC testbench of the Verilated model writes them.
rtl::PortNames verilator_cpp_port_names(const hls::Design& design);

}  // namespace polydat::sim
