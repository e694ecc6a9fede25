// embed::Kernel on native code: `KernelOptions{.engine = sim::native_engine()}`.
// The kernel is JIT-compiled once; every Kernel forked from it runs on a
// state of its own (NativeKernel::State), so threads share the compiled code.
#pragma once

#include "frontend/embed.h"

namespace polydat::sim {

embed::ProgramFactory native_engine();

}  // namespace polydat::sim
