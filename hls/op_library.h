// The operator library: each operation's delay and area per target, as data.
#pragma once

#include <string>
#include <string_view>

#include "ir/op.h"

namespace polydat::hls {

enum class Target : uint8_t { Ice40, Generic };

std::string_view target_name(Target t);
bool parse_target(std::string_view name, Target& out);
// The default clock period of a target, in ns.
double default_clock_ns(Target t);
// The period of a register-to-register path with no operator on it (clock to
// output, routing, setup; on iCE40 also the LUT every flip-flop is entered
// through), in ns: what a chain of operators adds its delays to. 0 where it
// is not modelled (the generic target).
double register_overhead_ns(Target t);

// What kind of hardware unit an operation needs; units of one class and width can be shared.
enum class UnitClass : uint8_t {
  Wire,     // no logic: casts, shifts and rotates by constants
  Logic,    // one LUT level: and, or, xor, not, mux
  Adder,    // add, sub, neg, ordered comparison
  Equal,    // == and !=, reductions
  Shifter,  // shifts and rotates by a variable amount
  Counter,  // popcount, clz, ctz
  Mul,      // multiplication
  Div,      // division and remainder
};

std::string_view unit_class_name(UnitClass c);

struct OpCost {
  UnitClass unit;
  double delay_ns;  // through the operator, combinational
  double area;      // estimate in the target's unit (iCE40: LUT4s; generic: NAND2 gate equivalents)
};

// The cost of `op` producing `width` bits; `constant_rhs` when the second
// operand is a constant (a shift by a constant is wiring, a multiplication by
// a constant is shift-and-add).
OpCost op_cost(Target t, ir::OpKind op, unsigned width, bool constant_rhs);

}  // namespace polydat::hls
