// embed::Kernel on native code: `KernelOptions{.engine = sim::native_engine()}`.
// The kernel is JIT-compiled once; every Kernel forked from it runs on a
// state of its own (NativeKernel::State), so threads share the compiled code.
#pragma once

#include <functional>
#include <memory>

#include "frontend/embed.h"

namespace polydat::sim {

class NativeKernel;

embed::ProgramFactory native_engine();

// The same, with the kernel's externs batch-invariant (a caller that runs it
// in batches holds them fixed per batch), handing the compiled kernel to
// `keep` too: one JIT compile serves embed::Kernel and the caller's batches.
embed::ProgramFactory native_engine(std::function<void(std::shared_ptr<const NativeKernel>)> keep);

}  // namespace polydat::sim
