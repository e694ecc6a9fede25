// The interpreter: the reference semantics every other engine is judged against.
// Clear before fast: values are boxed, loops are driven from their LoopPlan,
// calls and loops run on an explicit stack (no host recursion).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ir/expected.h"
#include "ir/graph.h"
#include "ir/value.h"

namespace polydat::ir {

enum class InterpErrorKind : uint8_t {
  IterationLimit,     // a loop took more back edges than the limit allows
  NonCanonicalLoop,   // a loop shape without a LoopPlan
  InputTypeMismatch,  // the input value is not of the function's input type
};

// The stable kebab-case name users see, as for compile diagnostics ("iteration-limit").
std::string_view interp_error_name(InterpErrorKind k);

struct InterpError {
  InterpErrorKind kind;
  std::string message;
  SourceLoc loc;
};

// The one iteration rule of every software engine: a loop may take this many
// back edges in one run (a nested loop's count restarts each time it is
// entered); one more is the error IterationLimit, never a hang.
inline constexpr uint64_t kMaxLoopIterations = 1'000'000;

struct InterpOptions {
  // Back edges one execution of one loop may take before it is reported.
  uint64_t max_iterations = kMaxLoopIterations;
};

class Interpreter {
 public:
  explicit Interpreter(const CategoryIr& ir, InterpOptions options = {});
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  Expected<Value, InterpError> run(FuncId f, const Value& input);
  Expected<Value, InterpError> run(const Value& input) { return run(ir_.entry(), input); }

  // Back edges taken (loop iterations, summed over every loop run) in the last
  // run: a single-loop kernel's trip count, which hardware latency depends on.
  uint64_t last_iterations() const { return last_iterations_; }

 private:
  struct Program;
  Expected<const Program*, InterpError> program(FuncId f);

  const CategoryIr& ir_;
  InterpOptions options_;
  std::vector<uint32_t> local_;  // object -> slot in its function's frame
  std::map<uint32_t, std::unique_ptr<Program>> programs_;
  uint64_t last_iterations_ = 0;
};

// One-shot convenience.
Expected<Value, InterpError> evaluate(const CategoryIr& ir, FuncId f, const Value& input,
                                      InterpOptions options = {});

}  // namespace polydat::ir
