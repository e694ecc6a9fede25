#include "hwtop/board_stream.h"

#include <fmt/core.h>

#include <sstream>

#include "hwtop/emit_top.h"

namespace polydat::hwtop {

StreamModule stream_module(const HwWorkload& hw) {
  StreamModule m;
  uint64_t longest = 1;
  for (const HwEntry& e : hw.entries) longest = std::max(longest, e.plan->cycles);
  while (m.cycle_width < 64 && (uint64_t{1} << m.cycle_width) < longest) ++m.cycle_width;
  m.ports.module = "workload_stream";
  m.ports.outputs = {{"out_entry", hw.entry_width, "entry"},
                     {"out_op", hw.op_width, "op"},
                     {"out_cycle", m.cycle_width, "cycle"},
                     {"out_data", hw.payload_width, "data"}};
  auto range = [](unsigned w) { return w > 1 ? fmt::format("[{}:0] ", w - 1) : std::string(); };
  m.sv = fmt::format(R"(// The workload top with the kernel interface: each record is a result.
/* verilator lint_off UNUSEDSIGNAL */
module workload_stream (
  input  logic clk,
  input  logic rst,
  input  logic in_valid,
  output logic in_ready,
  output logic out_valid,
  input  logic out_ready,
  output logic {}out_entry,
  output logic {}out_op,
  output logic {}out_cycle,
  output logic {}out_data
);
  logic [63:0] cycle;
  logic done;
  assign in_ready = 1'b1;
  assign out_cycle = cycle[{}:0];
  {} u_top (.clk(clk), .rst(rst), .rec_valid(out_valid), .rec_ready(out_ready), .rec_entry(out_entry),
      .rec_op(out_op), .rec_cycle(cycle), .rec_data(out_data), .done(done));
endmodule

{})",
                     range(hw.entry_width), range(hw.op_width), range(m.cycle_width), range(hw.payload_width),
                     m.cycle_width - 1, hw.top, emit_all(hw));
  return m;
}

ir::Expected<Record, DecodeError> parse_board_line(const StreamModule& m, const std::string& line) {
  std::istringstream in(line);
  std::string entry, op, cycle, data, extra;
  if (!(in >> entry >> op >> cycle >> data) || (in >> extra))
    return DecodeError{"a board line is four hex fields, not '" + line + "'"};
  const std::vector<std::string> fields = {entry, op, cycle, data};
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].size() != (m.ports.outputs[i].width + 3) / 4 ||
        fields[i].find_first_not_of("0123456789abcdef") != std::string::npos)
      return DecodeError{"field " + std::to_string(i + 1) + " of board line '" + line + "' is not " +
                         std::to_string((m.ports.outputs[i].width + 3) / 4) + " lowercase hex digits"};
  auto r = parse_record_line("R " + std::to_string(std::stoull(entry, nullptr, 16)) + " " +
                             std::to_string(std::stoull(op, nullptr, 16)) + " " +
                             std::to_string(std::stoull(cycle, nullptr, 16)) + " " + data);
  if (!r) return DecodeError{r.error()};
  return *r;
}

}  // namespace polydat::hwtop
