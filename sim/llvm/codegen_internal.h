// Internal to sim/llvm: what the JIT and the object writer share.
#pragma once

#include <llvm/Support/Error.h>
#include <llvm/Target/TargetMachine.h>

#include <string>

namespace llvm {
class Module;
}

namespace polydat::sim {

// Initialises the native target once per process.
void init_llvm();
// An LLVM error as text (consumes it).
std::string error_text(llvm::Error e);
// LLVM's O2 pipeline, as clang -O2 runs it, for `tm`'s target.
void optimize_o2(llvm::Module& m, llvm::TargetMachine* tm);

}  // namespace polydat::sim
