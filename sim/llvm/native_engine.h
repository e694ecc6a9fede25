// The LLVM backend as an engine: the kernel JIT-compiled once (per process, per
// distinct IR), a batch run through it as the interpreter engine runs one.
#pragma once

#include <memory>
#include <vector>

#include "ir/graph.h"
#include "sim/engine.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::sim {

class NativeEngine final : public Engine {
 public:
  // `config_fields[i]` marks field i of the entry's input struct as a cfg input; `ir` is optimize()'s output.
  NativeEngine(const ir::CategoryIr& ir, std::vector<bool> config_fields);
  std::string name() const override { return "llvm"; }
  ir::Expected<void, std::string> build() override;  // compiles (or finds the process's compiled kernel)
  ir::Expected<EngineRun, std::string> run(const Batch& batch) override;

 private:
  const ir::CategoryIr& ir_;
  std::vector<bool> config_fields_;
  std::shared_ptr<const NativeKernel> kernel_;
};

}  // namespace polydat::sim
