// The workload top in SystemVerilog: the scope modules instantiated and wired
// by name, the shared cells' registers (a view per frame, seeded as the
// scenario's scopes begin), and a sequencer that steps through the entries:
// per cycle it feeds in_cycle and the per-cycle imports to each stage, waits
// for the results, writes the cells through, then emits the record of the
// cycle's op (the entry's stanza at the cycle, when its `if:` holds) on
//   rec_valid/rec_ready, rec_entry, rec_op, rec_cycle, rec_data
// and raises `done` after the last entry.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "hwtop/lower.h"

namespace polydat::hwtop {

std::string emit_top(const HwWorkload& hw);

// Every module's SystemVerilog, then the top's: one text to verilate or synthesize.
std::string emit_all(const HwWorkload& hw);

// The files `polydat emit-sv` writes: one per scope module, and the top.
std::vector<std::pair<std::string, std::string>> sv_files(const HwWorkload& hw);

}  // namespace polydat::hwtop
