// SystemVerilog for a bound design: one module with the kernel interface
// (clk, rst, cfg_*, in_valid/in_ready/in_*, out_valid/out_ready/out_*),
// deterministic text in the subset Verilator and Yosys 0.23 both accept.
#pragma once

#include <string>

#include "hls/design.h"

namespace polydat::rtl {

// The module's name for a kernel name (a valid SystemVerilog identifier).
std::string module_name(const std::string& kernel);

std::string emit_sv(const hls::Design& design);

}  // namespace polydat::rtl
