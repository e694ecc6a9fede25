// IR -> LLVM IR: a kernel's entry function as `i64 run(const In*, Out*, i64 n)`
// over the plain C records of record_layout.h, with exactly the semantics of
// LANGUAGE.md. It returns n, or the index of the first evaluation whose loop
// ran past ir::kMaxLoopIterations (the interpreter's limit): those before it are done. Only this file and native_kernel.cc include LLVM headers.
#pragma once

#include <memory>
#include <string>

#include "ir/expected.h"
#include "ir/graph.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace polydat::sim {

// A lowered kernel's two entry points: `PREFIX_run`, the batch function, and
// `void PREFIX_release(void)`, which frees the string buffers the module keeps
// between calls (a later run allocates them afresh).
struct KernelSymbols {
  std::string run, release;
  explicit KernelSymbols(const std::string& prefix) : run(prefix + "_run"), release(prefix + "_release") {}
};

// The prefix of the JIT's modules.
inline constexpr const char* kJitPrefix = "polydat";

// Expects optimize()'s output (calls inlined). An error names what cannot be lowered.
ir::Expected<std::unique_ptr<llvm::Module>, std::string> lower_kernel(llvm::LLVMContext& ctx, const ir::CategoryIr& ir,
                                                                      ir::FuncId f, const std::string& module_name,
                                                                      const KernelSymbols& symbols);

}  // namespace polydat::sim
