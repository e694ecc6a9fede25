// The host's half of the workload top: the tagged records the hardware
// streams, turned back into the lines `polydat run` prints (the op templates
// and every value the host knows are here; the record carries the rest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hwtop/lower.h"
#include "ir/expected.h"
#include "workload/render.h"

namespace polydat::hwtop {

struct Record {
  uint32_t entry = 0, op = 0;
  uint64_t cycle = 0;
  std::vector<uint32_t> payload;  // rec_data in 32-bit words, least significant first
};

struct DecodeError {
  std::string message;
};

// The records' lines; an error names the first record that does not fit the design
// (an entry or op it lacks, a cycle out of order, an op other than the stanza's at that cycle).
// With --partition, `host_lines[k]` holds the lines of entry k when it runs
// on the host; they are put in place between the records.
ir::Expected<std::string, DecodeError> decode_records(const HwWorkload& hw, const std::vector<Record>& records,
                                                      workload::LineFormat format,
                                                      const std::vector<std::string>* host_lines = nullptr);

// A record as the simulators print it: "R ENTRY OP CYCLE HEX" (HEX: rec_data, most significant digit first).
ir::Expected<Record, std::string> parse_record_line(const std::string& line);

}  // namespace polydat::hwtop
