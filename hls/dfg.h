// The dataflow graph HLS works on: the IR function with its products
// flattened, as a graph of bit vectors. Every value has a width of 1 to 64
// bits and is produced by one node; an operation's semantics depend only on
// its operands' bits, its width and its flags (no types). The loop, if any,
// is a set of state registers. The HLS passes rewrite this graph (narrowing,
// strength reduction, multiplier and adder lowering) before scheduling.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hls/predicate.h"
#include "ir/graph.h"

namespace polydat::hls {

using ValueId = uint32_t;

inline constexpr unsigned kMaxWidth = 64;

enum class NodeKind : uint8_t {
  Input,     // a streamed input (in_NAME)
  Config,    // an effectively-const input (cfg_NAME)
  Constant,  // a literal
  State,     // a loop state register (one per scalar of the loop state)
  Op,        // an operation
};

// The operations. Operands and results are unsigned bit vectors; `sgn` selects
// the signed reading where an operation has one. Unless said otherwise the
// operands have the result's width.
enum class Op : uint8_t {
  // Wiring: no logic.
  Slice,   // bits [lo, lo + width) of operand 0 (lo in `param`)
  Concat,  // the operands, the first most significant; width: the sum
  ZExt,    // operand 0 zero-extended to the width
  SExt,    // operand 0 sign-extended to the width
  // One level of logic per bit.
  Not,
  And, Or, Xor,  // two or more operands
  Mux,           // (cond: 1 bit, if true, if false)
  // Reductions of operand 0 (any width) to one bit.
  AndReduce, OrReduce, XorReduce,
  // Comparisons of two operands of one width, to one bit; ordered ones read `sgn`.
  Eq, Ne, Lt, Le, Gt, Ge,
  // Carry chains, wrapping at the width.
  Add,  // a + b, or a + b + c with c one bit (a carry in)
  Sub,  // a - b
  Neg,  // 0 - a
  // Wider units.
  Mul,       // the low `width` bits of the product; operands of any width up to it, zero-extended;
             // `param` 1: bound to a DSP block
  Div, Mod,  // RISC-V: x / 0 all ones, x % 0 = x; signed MIN / -1 = MIN, MIN % -1 = 0
  Shl, Shr,  // by operand 1 (any width, unsigned); an amount >= width gives 0 (Shr sgn: the sign)
  Rotl, Rotr,  // by operand 1 modulo the width (a power of two)
  Popcount, Clz, Ctz,  // of operand 0 (any width); clz(0) = ctz(0) = its width
  Rom,  // table[operand 0]: a constant table indexed by a narrow value (entries in `table`)
};

std::string_view op_name(Op op);
// Slice, Concat, ZExt, SExt: no logic, and nothing a register needs to hold.
bool is_wiring(Op op);

// Where a value is computed in an FSM: before the loop, in its body, or after it.
enum class Region : uint8_t { Pre, Loop, Post };

struct Node {
  NodeKind kind = NodeKind::Op;
  Op op = Op::Add;
  unsigned width = 1;
  bool sgn = false;               // Lt, Le, Gt, Ge, Shr, Div, Mod: signed
  std::vector<ValueId> operands;  // Mux: (cond, if true, if false)
  uint64_t constant = 0;          // Constant: the bits
  uint32_t param = 0;             // Slice: the lowest bit taken; Mul: 1 for a DSP block
  std::vector<uint64_t> table;    // Rom: 2^(operand width) entries
  uint32_t index = 0;             // Input/Config: port; State: position in the loop state
  std::string name;               // the source binding, when there is one
  ir::SourceLoc loc;
  Region region = Region::Pre;

  bool is_op() const { return kind == NodeKind::Op; }
};

struct DfgPort {
  std::string name;
  ir::Ty ty;
  ValueId value;  // inputs: the Input/Config node; outputs: the value driven out (the port's width)
};

struct DfgLoop {
  std::vector<ValueId> state;  // State nodes
  std::vector<ValueId> init;   // their values on entry
  std::vector<ValueId> next;   // their values for the next iteration
  ValueId cond = 0;            // iterate while true (one bit)
  ir::SourceLoc loc;
};

struct Dfg {
  std::string name;
  std::vector<Node> nodes;  // operands come before their users
  std::vector<DfgPort> inputs, configs, outputs;
  std::optional<DfgLoop> loop;

  bool is_op(ValueId v) const { return nodes[v].kind == NodeKind::Op; }
  // An operation that is logic (not wiring).
  bool is_logic(ValueId v) const { return is_op(v) && !is_wiring(nodes[v].op); }
  bool is_constant(ValueId v) const { return nodes[v].kind == NodeKind::Constant; }
  unsigned width(ValueId v) const { return nodes[v].width; }
  // Whether an operation's second operand is a constant.
  bool constant_rhs(ValueId v) const;
  // Every value that outputs, the loop's next state or its guard need.
  std::vector<bool> live() const;
  // Every value that depends on a streamed input (in a pipeline: held in registers, so reset to 0).
  std::vector<bool> streamed() const;
};

// The values v reads through wiring: v itself unless it is a Slice, Concat or
// extension, else the non-wiring values those read (sorted, each once).
std::vector<ValueId> through_wiring(const Dfg& g, ValueId v);

// Where each bit of v comes from, seen through wiring: a bit of a
// non-wiring value, or a constant bit (value kConstantBit, bit 0 or 1).
inline constexpr ValueId kConstantBit = ~ValueId{0};
struct BitSource {
  ValueId value;
  unsigned bit;
};
std::vector<BitSource> bit_sources(const Dfg& g, ValueId v);

// Builds the DFG of function f (loop-free or with one loop, as single_loop_fsm
// accepted). `config_fields[i]` marks field i of the input struct as an
// effectively-const input. Refuses what has no bit-vector form (floats, strings).
ir::Expected<Dfg, HlsError> build_dfg(const ir::CategoryIr& ir, ir::FuncId f, const std::vector<bool>& config_fields);

// Pre: does not depend on the loop state; Loop: depends on it and feeds the
// next state or the guard; Post: depends on it and feeds only the outputs.
// Every pass that rewrites the graph calls it again on its result.
void classify_regions(Dfg& g);

// Why g breaks the graph's rules (empty when it keeps them): operands before
// users, widths in 1..64 and as each operation requires, ports and loop
// values in range and of matching widths.
std::vector<std::string> check_dfg(const Dfg& g);

// The node's text in dumps and reports: "Add 17", "Slice 10 [3]", "Lt.s 64".
std::string node_label(const Dfg& g, ValueId v);

// The whole graph as text, one node per line (tests, --dump).
std::string dump(const Dfg& g);

}  // namespace polydat::hls
