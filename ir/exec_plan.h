// The order in which a function's morphisms run, shared by every engine that
// executes the IR (the interpreter, the native backend): a block per loop
// level, each loop block's head (the guard and what leaves the loop) first.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph.h"
#include "ir/loops.h"

namespace polydat::ir {

struct ExecStep {
  bool is_loop;  // a whole nested loop, or one morphism
  uint32_t id;   // the loop's index in ExecPlan::loops, or the morphism's id
};

struct ExecPlan {
  // Block 0 is the function's body; block i + 1 the body of loop i. Steps are
  // in topological order; LoopEnter is the loop's step, LoopBack is left to
  // the loop driver.
  std::vector<std::vector<ExecStep>> blocks;
  // Per block: its first heads[b] steps compute the loop's guard and every
  // value read from outside the loop (LANGUAGE.md: the body runs only while
  // the guard holds, and the exit reads the state whose guard failed).
  std::vector<size_t> heads;
  std::vector<LoopPlan> loops;  // enclosing loops before the loops inside them
};

struct ExecPlanError {
  std::string message;
  SourceLoc loc;
};

// Fails on a loop without a canonical plan.
Expected<ExecPlan, ExecPlanError> exec_plan(const CategoryIr& ir, FuncId f);

}  // namespace polydat::ir
