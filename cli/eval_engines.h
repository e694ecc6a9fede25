// The engines behind `eval`, chunk by chunk: row r of a run is the kernel at
// cycle `first_cycle + r` (or its one evaluation, when no input is iterated),
// and a chunk's results are output records in the plain C layout. An engine is
// shared by the threads; each thread evaluates through an evaluator of its own.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "cli/stimulus.h"
#include "frontend/compile.h"
#include "sim/llvm/record_layout.h"

namespace polydat::cli {

struct ChunkResult {
  const unsigned char* records = nullptr;  // `done` output records, valid until the evaluator's next call
  size_t done = 0;
  std::optional<std::string> error;  // why row first + done did not evaluate: the full message, as printed
};

class RowEvaluator {
 public:
  virtual ~RowEvaluator() = default;
  virtual ChunkResult evaluate(uint64_t first_row, size_t count) = 0;
};

class EvalEngine {
 public:
  virtual ~EvalEngine() = default;
  virtual std::unique_ptr<RowEvaluator> evaluator() const = 0;
  virtual const sim::RecordLayout& outputs() const = 0;
};

// The interpreter, the oracle: its errors point at the kernel's source.
std::unique_ptr<EvalEngine> interpreter_engine(const frontend::CompileResult& r, const Stimulus& stimulus,
                                               uint64_t first_cycle);
// Native code: one JIT-compiled kernel, a state per evaluator. nullptr after printing why it cannot run the kernel.
std::unique_ptr<EvalEngine> llvm_engine(const frontend::CompileResult& r, const Stimulus& stimulus,
                                        uint64_t first_cycle);

}  // namespace polydat::cli
