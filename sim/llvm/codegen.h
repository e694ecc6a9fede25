// Code generation for the host: the target machine (no FMA contraction), the
// O2 pipeline, and object files. Includes no LLVM header itself.
#pragma once

#include <filesystem>
#include <string>

#include "ir/expected.h"
#include "ir/graph.h"

namespace polydat::sim {

// An object file defining the entry points of lower.h's KernelSymbols
// (`<prefix>_run`, `<prefix>_run_state`, ...) for `f` (optimize()'s output), built for this
// host's architecture with a generic CPU.
ir::Expected<ir::Unit, std::string> write_object(const ir::CategoryIr& ir, ir::FuncId f, const std::string& prefix,
                                                 const std::filesystem::path& path);

}  // namespace polydat::sim
