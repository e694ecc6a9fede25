// The workload top on a board: wrapped as a module with the kernel interface
// (records as results: entry, op, cycle, data), so the board top
// (boards/board_top.h) streams each record over the UART as one line of hex
// fields; and such a line parsed back into a record.
#pragma once

#include <string>

#include "boards/qor_wrapper.h"
#include "hwtop/decode.h"
#include "hwtop/lower.h"

namespace polydat::hwtop {

struct StreamModule {
  boards::KernelPorts ports;  // out_entry, out_op, out_cycle, out_data
  std::string sv;             // the wrapper, the top and the scope modules
  unsigned cycle_width = 1;   // out_cycle: enough for the longest phase's cycles
};

StreamModule stream_module(const HwWorkload& hw);

// "ENTRY OP CYCLE DATA" in hex, as the board top sends a record.
ir::Expected<Record, DecodeError> parse_board_line(const StreamModule& m, const std::string& line);

}  // namespace polydat::hwtop
