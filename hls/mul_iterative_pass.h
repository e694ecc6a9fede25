// Multiplications made iterative. When the design at II 1 would not fit the
// device (synthesize() decides), each wide multiplication becomes a
// shift-and-add unit that steps through one multiplier bit per cycle: one
// adder and its registers in place of a tree of hundreds of adders. A kernel
// with one is a loop-free FSM (hls/design.h).
#pragma once

#include "hls/dfg.h"

namespace polydat::hls {

// Mul's param for a multiplication computed by an iterative unit (1 is a DSP block).
inline constexpr uint32_t kMulIterative = 2;

struct MulIterativeOptions {
  unsigned min_width = 17;  // narrower products stay combinational (a few rows of adders)
};

// Every live multiplication not on a DSP block and at least min_width bits wide, marked iterative.
Dfg mul_iterative_pass(const Dfg& g, const MulIterativeOptions& options = {});

// An iterative multiplication's operands: the multiplicand (shifted left a bit
// a cycle) and the multiplier (whose bits are stepped through); a constant
// operand is the multiplier, so its bits come from a table and need no register.
struct IterativeOperands {
  ValueId multiplicand, multiplier;
};
IterativeOperands iterative_operands(const Dfg& g, ValueId v);
// Whether its multiplier is a constant (its bits need no register).
bool constant_multiplier(const Dfg& g, ValueId v);

// The multiplier bits the unit steps through: those below the product's width
// (of a constant, up to its highest one).
unsigned iterative_steps(const Dfg& g, ValueId v);

}  // namespace polydat::hls
