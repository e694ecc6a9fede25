// A kernel compiled to native code with LLVM (O2, no fast-math, no FMA
// contraction) and run through ORC's LLJIT: batches of plain C records in,
// records out, bit for bit what the interpreter computes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph.h"
#include "sim/llvm/lower.h"
#include "sim/llvm/record_layout.h"

namespace polydat::sim {

class NativeKernel {
 public:
  // Lowers, optimises and JIT-compiles `f` (optimize()'s output: calls inlined).
  // With `options.batch_invariant`, a batch's records must agree on those ports (externs).
  static ir::Expected<std::unique_ptr<NativeKernel>, std::string> compile(const ir::CategoryIr& ir, ir::FuncId f,
                                                                          const LowerOptions& options = {});
  // The same, compiled once per process for each distinct IR (keyed by a hash
  // of its text dump and the function): a second request returns the first kernel.
  static ir::Expected<std::shared_ptr<const NativeKernel>, std::string> cached(const ir::CategoryIr& ir, ir::FuncId f);
  ~NativeKernel();

  // The string buffers one caller keeps between runs (seed 001's program/state
  // split): one compiled kernel, a state per thread.
  class State {
   public:
    State(State&&) noexcept = default;
    State& operator=(State&&) noexcept = default;
    ~State() { release(); }
    void release() {  // frees the buffers (the strings of the last run's outputs too)
      if (release_ && !bytes_.empty()) release_(bytes_.data());
    }

   private:
    friend class NativeKernel;
    State(size_t size, void (*release)(void*)) : bytes_((size + 7) / 8), release_(release) {}
    std::vector<uint64_t> bytes_;
    void (*release_)(void*) = nullptr;
  };
  State make_state() const { return State(state_size_, release_state_); }

  const RecordLayout& inputs() const { return in_; }
  const ir::Ty& output_type() const { return out_ty_; }
  const RecordLayout& outputs() const { return out_; }
  // n evaluations: `in` holds n input records, `out` room for n output records.
  // Returns n, or the index of the first evaluation whose loop ran past
  // ir::kMaxLoopIterations (the interpreter's rule); the records before it are written.
  // This overload runs on the kernel's own state: one caller at a time.
  size_t run(const void* in, void* out, size_t n) const { return run_(in, out, n); }
  // On the caller's state: callers with states of their own run at once.
  size_t run(State& state, const void* in, void* out, size_t n) const {
    return run_state_(state.bytes_.data(), in, out, n);
  }
  // Through Values: the entry's input values in, their output values out, as
  // many as ran (fewer than the inputs when the iteration limit stopped one).
  std::vector<ir::Value> evaluate(const std::vector<ir::Value>& inputs) const;

 private:
  struct Jit;
  NativeKernel() = default;
  std::unique_ptr<Jit> jit_;
  size_t (*run_)(const void*, void*, size_t) = nullptr;
  void (*release_)() = nullptr;  // frees the strings held between runs; before the JIT goes
  size_t (*run_state_)(void*, const void*, void*, size_t) = nullptr;
  void (*release_state_)(void*) = nullptr;
  size_t state_size_ = 0;
  RecordLayout in_, out_;
  ir::Ty in_ty_, out_ty_;
};

}  // namespace polydat::sim
