// The SystemC testbench a kernel's `verilator --sc` model is built with:
// sc_main with an sc_clock, the wrapper of the design (wrapper.h), a driver
// thread feeding the inputs with the valid/ready protocol (seeded random
// stalls), a monitor thread taking the results, and a reference-model module
// that evaluates every accepted input with the interpreter inside the
// simulation; the monitor checks each result against it.
#pragma once

#include <string>

#include "hls/design.h"
#include "sim/verilator/testbench.h"

namespace polydat::sim {

// The testbench around the Verilated class `model_class`, its wrapper (the
// SC_MODULE `wrapper_class`) among its includes, to be built into a program
// with testbench_units and testbench_entry(..., "sc_main").
TestbenchSource systemc_testbench_source(const hls::Design& d, const std::string& model_class,
                                         const std::string& wrapper_class);

// The standalone testbench program (the wrapper inlined) for the design whose module is `module_name`.
//   usage: sim DATA OUT SEED STALL MAX_IDLE KERNEL LIBS [TRACE]
// DATA, and the POSTRESET, A, R, END and HANG lines of OUT: as the Verilator
// testbench's (sim/verilator/testbench.h). KERNEL: the kernel file the
// reference model compiles ("-": no reference model); LIBS: its -L folders
// joined by ':' ("-": none). OUT also gets "CHECKED compared mismatches
// first" (first: the first wrong evaluation, or -1) from the monitor's
// checks, or "REFERROR message" when the reference model cannot run.
std::string systemc_testbench_cpp(const hls::Design& d, const std::string& module_name);

}  // namespace polydat::sim
