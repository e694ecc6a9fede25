// single_loop_fsm: whether a function can become hardware, and in which shape.
#pragma once

#include <string>

#include "ir/expected.h"
#include "ir/graph.h"

namespace polydat::hls {

// A refusal: a stable kind, the reason, and where in the source.
struct HlsError {
  std::string kind;  // "two-loops", "nested-loops", "no-hardware-width", "not-inlined"
  std::string message;
  ir::SourceLoc loc;
};

enum class DesignKind : uint8_t { Pipeline, Fsm };

// Accepts f (after inlining) iff its loop structure has at most one strongly
// connected component and that component exactly one merge, and every value
// has a hardware width (bool or an integer). A loop-free function becomes a
// pipeline, a single-loop one an FSM with a datapath.
ir::Expected<DesignKind, HlsError> single_loop_fsm(const ir::CategoryIr& ir, ir::FuncId f);

}  // namespace polydat::hls
