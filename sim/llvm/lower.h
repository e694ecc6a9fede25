// IR -> LLVM IR: a kernel's entry function as `i64 run(const In*, Out*, i64 n)`
// over the plain C records of record_layout.h, with exactly the semantics of
// LANGUAGE.md. It returns n, or the index of the first evaluation whose loop
// ran past ir::kMaxLoopIterations (the interpreter's limit): those before it are done. Only this file and native_kernel.cc include LLVM headers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace polydat::sim {

// A lowered kernel's entry points. The batch function runs on a caller's
// state (the string buffers kept between calls: zeroed bytes, as many as
// `PREFIX_state_size()` says), so threads share one compiled kernel:
//   size_t PREFIX_run_state(void* state, const In*, Out*, size_t n)
//   void PREFIX_release_state(void* state)    frees a state's buffers (it stays usable)
//   size_t PREFIX_state_size(void)
// and the same on a state of the module's own, for one caller at a time:
//   size_t PREFIX_run(const In*, Out*, size_t n);  void PREFIX_release(void)
struct KernelSymbols {
  std::string run, release, run_state, release_state, state_size;
  explicit KernelSymbols(const std::string& prefix)
      : run(prefix + "_run"), release(prefix + "_release"), run_state(prefix + "_run_state"),
        release_state(prefix + "_release_state"), state_size(prefix + "_state_size") {}
};

// The prefix of the JIT's modules.
inline constexpr const char* kJitPrefix = "polydat";

// How the batch function may treat its input.
struct LowerOptions {
  // Per component of the entry's input (its ports, in order): true when every
  // record of a batch holds the same value there (an extern). Those values are
  // read once, from the first record, and the work that depends only on them
  // and on constants runs once per batch instead of once per evaluation.
  std::vector<bool> batch_invariant;
};

// Expects optimize()'s output (calls inlined). An error names what cannot be lowered.
ir::Expected<std::unique_ptr<llvm::Module>, std::string> lower_kernel(llvm::LLVMContext& ctx, const ir::CategoryIr& ir,
                                                                      ir::FuncId f, const std::string& module_name,
                                                                      const KernelSymbols& symbols,
                                                                      const LowerOptions& options = {});

}  // namespace polydat::sim
