// The operator library: each operation's delay and area per target, as data.
#pragma once

#include <string>
#include <string_view>

#include "hls/dfg.h"

namespace polydat::hls {

enum class Target : uint8_t { Ice40, Generic };

std::string_view target_name(Target t);
bool parse_target(std::string_view name, Target& out);
// The iCE40 target's default period, stated once (about 48 MHz; `polydat synth` without --freq asks for 48).
inline constexpr double kIce40ClockNs = 20.8;
// The default clock period of a target, in ns.
double default_clock_ns(Target t);
// The period of a register-to-register path with no operator on it (clock to
// output, routing, setup; on iCE40 also the LUT every flip-flop is entered
// through), in ns: what a chain of operators adds its delays to. The
// scheduler fills each step to the clock period minus this. 0 where it is not
// modelled (the generic target).
double register_overhead_ns(Target t);
// What routing adds to a step's paths in a full design, beyond the isolated
// operator probes the library is fitted to (iCE40: measured on pipelined
// multiplier trees, docs/hls.md); the scheduler keeps it free in every step.
double routing_margin_ns(Target t);

// What kind of hardware unit an operation needs; units of one class and width can be shared.
enum class UnitClass : uint8_t {
  Wire,     // no logic: slices, concatenations, extensions
  Logic,    // LUT levels: and, or, xor, not, mux, reductions, tables
  Adder,    // add, sub, neg, ordered comparison: a carry chain
  Equal,    // == and !=
  Shifter,  // shifts and rotates by a variable amount
  Counter,  // popcount, clz, ctz
  Mul,      // multiplication in logic
  Dsp,      // multiplication in a DSP block (iCE40 SB_MAC16: up to 16 x 16 bits)
  Div,      // division and remainder
};

std::string_view unit_class_name(UnitClass c);

// What an operation's cost depends on besides its kind.
struct OpShape {
  Op op = Op::Add;
  unsigned width = 1;          // the result's
  unsigned operand_width = 1;  // the widest operand's
  unsigned operands = 2;       // how many
  bool constant_rhs = false;   // the second operand is a constant (a multiplication: either one)
  bool dsp = false;            // a multiplication meant for a DSP block
};

// The shape of node v of g.
OpShape shape_of(const Dfg& g, ValueId v, bool dsp);

struct OpCost {
  UnitClass unit;
  double delay_ns;  // through the operator, combinational
  double area;      // estimate in the target's unit (iCE40: LUT4s; generic: NAND2 gate equivalents)
  double carries = 0;  // iCE40: SB_CARRY cells
  double chain_ns = 0;  // routing before it when it is chained after another operator in its step
  double out_ns = 0;    // routing after it when another operator of its step reads it
  bool merges = false;  // it folds into the LUT of the operator it reads (an inverted sum): no delay, no routing
};

OpCost op_cost(Target t, const OpShape& s);
// The usual two-operand shape at one width (the calibration's probes).
OpCost op_cost(Target t, Op op, unsigned width, bool constant_rhs);

// The part of the clock period a step's chain of operations may fill: the
// period less the register-to-register overhead of the target.
double schedule_period_ns(Target t, double clock_ns);

// Routing added after an operation whose result `readers` operations of its step read.
double fanout_routing_ns(Target t, uint32_t readers);

}  // namespace polydat::hls
