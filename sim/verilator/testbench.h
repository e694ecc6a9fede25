// The C++ testbench a kernel's Verilator model is built with: it drives the
// valid/ready handshakes (with seeded random stalls), records when each input
// is accepted and each result taken, and writes what it saw to a file.
#pragma once

#include <string>

#include "hls/design.h"

namespace polydat::sim {

// The testbench source for a design whose module is `module_name`.
//   usage: sim DATA OUT SEED STALL MAX_IDLE [TRACE]
// (TRACE is written when the model is built with --trace-fst or --trace.)
// DATA: "N INPUTS CONFIGS", the config values, then N lines of input values.
// OUT:  "POSTRESET ..." (the outputs right after reset), "A cycle" per accepted
// input, "R cycle v..." per result taken, then "END cycles" (or "HANG cycle").
std::string testbench_cpp(const hls::Design& d, const std::string& module_name);

}  // namespace polydat::sim
