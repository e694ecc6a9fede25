// A kernel compiled to native code with LLVM (O2, no fast-math, no FMA
// contraction) and run through ORC's LLJIT: batches of plain C records in,
// records out, bit for bit what the interpreter computes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph.h"
#include "sim/llvm/record_layout.h"

namespace polydat::sim {

class NativeKernel {
 public:
  // Lowers, optimises and JIT-compiles `f` (optimize()'s output: calls inlined).
  static ir::Expected<std::unique_ptr<NativeKernel>, std::string> compile(const ir::CategoryIr& ir, ir::FuncId f);
  // The same, compiled once per process for each distinct IR (keyed by a hash
  // of its text dump and the function): a second request returns the first kernel.
  static ir::Expected<std::shared_ptr<const NativeKernel>, std::string> cached(const ir::CategoryIr& ir, ir::FuncId f);
  ~NativeKernel();

  const RecordLayout& inputs() const { return in_; }
  const RecordLayout& outputs() const { return out_; }
  // n evaluations: `in` holds n input records, `out` room for n output records.
  // Returns n, or the index of the first evaluation whose loop ran past
  // ir::kMaxLoopIterations (the interpreter's rule); the records before it are written.
  size_t run(const void* in, void* out, size_t n) const { return run_(in, out, n); }
  // Through Values: the entry's input values in, their output values out, as
  // many as ran (fewer than the inputs when the iteration limit stopped one).
  std::vector<ir::Value> evaluate(const std::vector<ir::Value>& inputs) const;

 private:
  struct Jit;
  NativeKernel() = default;
  std::unique_ptr<Jit> jit_;
  size_t (*run_)(const void*, void*, size_t) = nullptr;
  void (*release_)() = nullptr;  // frees the strings held between runs; before the JIT goes
  RecordLayout in_, out_;
  ir::Ty in_ty_, out_ty_;
};

}  // namespace polydat::sim
