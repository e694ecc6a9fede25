// Shared by the native-backend suites: a kernel compiled both ways, inputs
// drawn for it, and the comparison of the native engine with the interpreter.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "difftest/random_values.h"
#include "frontend/compile.h"
#include "ir/graph.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::nativetest {

struct Compiled {
  std::string diagnostics;                     // when the frontend or the optimiser failed
  std::optional<ir::CategoryIr> ir;            // optimize()'s output
  frontend::CompileResult front;
};
Compiled compile_text(const std::string& name, const std::string& text);
Compiled compile_path(const std::string& path, const std::vector<std::string>& lib_paths);

using difftest::random_scalar;  // edges favoured (difftest/random_values.h)

// Runs `inputs` through the interpreter (skipping those it refuses, e.g. past
// its iteration limit) and the native kernel; the first disagreement in words,
// or "" when every kept input agrees. `compared` counts the kept inputs.
std::string differences(const ir::CategoryIr& ir, const sim::NativeKernel& k, const std::vector<ir::Value>& inputs,
                        size_t& compared, uint64_t max_iterations = 100'000);

}  // namespace polydat::nativetest
