// The kernel pipeline as typed stage results, each made from the one before:
// the checked program and its IR, the optimised IR with its config fields, the
// scheduled design, the emitted module. Commands, the workload hardware top,
// differential testing and the tests go through these; only schedule() calls
// hls::synthesize.
#pragma once

#include <string>
#include <vector>

#include "frontend/compile.h"
#include "hls/design.h"
#include "ir/expected.h"
#include "ir/graph.h"
#include "rtl/emit_sv.h"

namespace polydat::flow {

// Which fields of the entry's input struct are externs: the cfg_ ports of the hardware.
std::vector<bool> config_fields(const frontend::CompileResult& checked);

// The optimised IR, what every engine but the interpreter-on-source runs.
struct Optimized {
  ir::CategoryIr ir;
  std::vector<bool> config_fields;
};

// ir::optimize on a checked program (ok()); its error is a compiler bug: the passes refused their own output.
ir::Expected<Optimized, std::string> optimize(const frontend::CompileResult& checked);

// Predicate, schedule and binding: the design `polydat hls` reports, with the IR it was made from.
struct Scheduled : Optimized {
  hls::Design design;
};

ir::Expected<Scheduled, hls::HlsError> schedule(Optimized optimized, const hls::HlsOptions& options = {});

// The design as SystemVerilog, emitted once: text, name and ports.
struct Emitted : Scheduled {
  rtl::Module module;
};

Emitted emit(Scheduled scheduled);

// compile, optimise, schedule and emit in one call, for callers that want the module or the first refusal.
struct HardwareError {
  std::string kind;  // the frontend's "compile", "optimize", or the HLS refusal's kind
  std::string message;
  ir::SourceLoc loc;  // for HLS refusals
};
ir::Expected<Emitted, HardwareError> hardware(const frontend::CompileResult& checked, const hls::HlsOptions& options = {});

}  // namespace polydat::flow
