// Ahead-of-time: a kernel as an object file and a C header, so a host program
// runs the generator without LLVM at run time.
#pragma once

#include <filesystem>
#include <string>

#include "ir/expected.h"
#include "ir/graph.h"

namespace polydat::sim {

struct EmittedObject {
  std::filesystem::path object, header;
  std::string prefix;         // the C names: PREFIX_inputs, PREFIX_outputs, PREFIX_run
  bool uses_runtime = false;  // the kernel builds strings: link libpolydat_rt.a too
};

// Writes DIR/NAME.o and DIR/NAME.h for `f` (optimize()'s output), NAME the kernel's name as a C identifier.
ir::Expected<EmittedObject, std::string> emit_object(const ir::CategoryIr& ir, ir::FuncId f,
                                                     const std::filesystem::path& dir, const std::string& kernel);

}  // namespace polydat::sim
