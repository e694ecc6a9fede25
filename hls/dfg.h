// The dataflow graph HLS schedules: the IR function with its products
// flattened into scalar values (Pair and Proj become wiring), each value
// produced by one node, and the loop (if any) as state registers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hls/predicate.h"
#include "ir/graph.h"

namespace polydat::hls {

using ValueId = uint32_t;

enum class NodeKind : uint8_t {
  Input,     // a streamed input (in_NAME)
  Config,    // an effectively-const input (cfg_NAME)
  Constant,  // a literal
  State,     // a loop state register (one per scalar of the loop state)
  Op,        // an operation on scalars
};

// Where a value is computed in an FSM: before the loop, in its body, or after it.
enum class Region : uint8_t { Pre, Loop, Post };

struct Node {
  NodeKind kind = NodeKind::Op;
  ir::OpKind op = ir::OpKind::Add;  // Op: a scalar operation (Phi is a mux; Pow is expanded into Mul)
  ir::Ty ty;                        // a scalar: bool or an integer
  std::vector<ValueId> operands;    // unary: 1; binary: 2; Phi: true, false, condition
  uint64_t constant = 0;            // Constant: the bit pattern
  uint32_t index = 0;               // Input/Config: port; State: position in the loop state
  std::string name;                 // the source binding, when there is one
  ir::SourceLoc loc;
  Region region = Region::Pre;

  unsigned width() const { return ty.bits(); }
};

struct DfgPort {
  std::string name;
  ir::Ty ty;
  ValueId value;  // inputs: the Input/Config node; outputs: the value driven out
};

struct DfgLoop {
  std::vector<ValueId> state;  // State nodes
  std::vector<ValueId> init;   // their values on entry
  std::vector<ValueId> next;   // their values for the next iteration
  ValueId cond = 0;            // iterate while true
  ir::SourceLoc loc;
};

struct Dfg {
  std::string name;
  std::vector<Node> nodes;  // operands come before their users
  std::vector<DfgPort> inputs, configs, outputs;
  std::optional<DfgLoop> loop;

  bool is_op(ValueId v) const { return nodes[v].kind == NodeKind::Op; }
  // Whether an operation's second operand is a constant (shifts by a constant are wiring).
  bool constant_rhs(ValueId v) const;
  // Whether an operation has a constant operand where its cost depends on it:
  // the amount of a shift or rotation, either side of a multiplication.
  bool constant_operand(ValueId v) const;
  // Every value that outputs, the loop's next state or its guard need.
  std::vector<bool> live() const;
};

// Builds the DFG of function f (loop-free or with one loop, as single_loop_fsm
// accepted). `config_fields[i]` marks field i of the input struct as an
// effectively-const input. Refuses a variable exponent.
ir::Expected<Dfg, HlsError> build_dfg(const ir::CategoryIr& ir, ir::FuncId f, const std::vector<bool>& config_fields);

}  // namespace polydat::hls
