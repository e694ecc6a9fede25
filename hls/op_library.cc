#include "hls/op_library.h"

#include <algorithm>
#include <cmath>

namespace polydat::hls {

std::string_view target_name(Target t) { return t == Target::Ice40 ? "ice40" : "generic"; }

bool parse_target(std::string_view name, Target& out) {
  if (name == "ice40") out = Target::Ice40;
  else if (name == "generic") out = Target::Generic;
  else return false;
  return true;
}

// iCE40: 48 MHz, the UP5K's internal oscillator. Generic: a 1 GHz ASIC-like target.
double default_clock_ns(Target t) { return t == Target::Ice40 ? kIce40ClockNs : 1.0; }

// iCE40: the `reg` rows of docs/ice40-calibration.csv (4.39 ns at every width).
double register_overhead_ns(Target t) { return t == Target::Ice40 ? 4.4 : 0.0; }

// iCE40: a 44-bit carry chain chained after a LUT level, modelled at 18.7 ns
// plus the 4.4 ns overhead, ran at 40 MHz (25 ns) inside the hash pipeline:
// the register-to-chain routing of a dense design.
double routing_margin_ns(Target t) { return t == Target::Ice40 ? 3.0 : 0.0; }

std::string_view unit_class_name(UnitClass c) {
  switch (c) {
    case UnitClass::Wire: return "wire";
    case UnitClass::Logic: return "logic";
    case UnitClass::Adder: return "adder";
    case UnitClass::Equal: return "equal";
    case UnitClass::Shifter: return "shifter";
    case UnitClass::Counter: return "counter";
    case UnitClass::Mul: return "mul";
    case UnitClass::Dsp: return "dsp";
    case UnitClass::Div: return "div";
  }
  return "?";
}

OpShape shape_of(const Dfg& g, ValueId v, bool dsp) {
  const Node& n = g.nodes[v];
  OpShape s;
  s.op = n.op;
  s.width = n.width;
  s.operands = static_cast<unsigned>(n.operands.size());
  s.operand_width = 1;
  for (size_t i = 0; i < n.operands.size(); ++i)
    if (!(n.op == Op::Mux && i == 0) && !(n.op == Op::Add && i == 2))
      s.operand_width = std::max(s.operand_width, g.nodes[n.operands[i]].width);
  s.constant_rhs = g.constant_rhs(v) || (n.op == Op::Mul && !n.operands.empty() && g.is_constant(n.operands[0]));
  s.dsp = dsp;
  return s;
}

namespace {

unsigned ceil_log(double base, double x) {
  unsigned k = 0;
  for (double reach = 1; reach < x; reach *= base) ++k;
  return k;
}

// LUT4 levels for a function of `inputs` inputs, and LUT4s for one such output.
unsigned lut_levels(unsigned inputs) { return std::max(1u, ceil_log(4, inputs)); }
double luts_for(unsigned inputs) { return inputs <= 1 ? 1.0 : std::ceil((inputs - 1) / 3.0); }

// iCE40, fitted to nextpnr-ice40 on a UP5K (docs/ice40-calibration.md; the
// measurements in docs/ice40-calibration.csv, from `make calibrate`). A delay
// is what the operator adds to a register-to-register path (register_overhead_ns).
// One LUT level alone costs 0 to 1.2 ns (it replaces the LUT a flip-flop is
// entered through); a level chained behind another costs 2.1 more (`lut2`).
constexpr double kLutLevel = 1.0, kLutNextLevel = 2.1;
// A carry chain: 0.34 ns a bit; subtraction and comparison need ~b first (a LUT level).
constexpr double kCarryPerBit = 0.34;

OpCost ice40(const OpShape& s) {
  const double w = std::max(1u, s.width), ow = std::max(1u, s.operand_width);
  auto logic = [&](unsigned inputs, double outputs) {
    const unsigned levels = lut_levels(inputs);
    return OpCost{UnitClass::Logic, kLutLevel + kLutNextLevel * (levels - 1), outputs * luts_for(inputs), 0};
  };
  switch (s.op) {
    case Op::Slice: case Op::Concat: case Op::ZExt: case Op::SExt: return {UnitClass::Wire, 0, 0, 0};
    case Op::Not: return logic(1, w);
    case Op::And: case Op::Or: case Op::Xor: return logic(s.operands, w);
    case Op::Mux: return logic(3, w);
    case Op::AndReduce: case Op::OrReduce: case Op::XorReduce: return logic(static_cast<unsigned>(ow), 1);
    case Op::Rom: {
      const unsigned index = static_cast<unsigned>(ow);
      const unsigned levels = index <= 4 ? 1 : 1 + ceil_log(4, std::ldexp(1.0, static_cast<int>(index) - 4));
      return {UnitClass::Logic, kLutLevel + kLutNextLevel * (levels - 1),
              w * (index <= 4 ? 1.0 : std::ldexp(1.0, static_cast<int>(index) - 4) * 4.0 / 3.0), 0};
    }
    case Op::Eq: case Op::Ne:  // a tree of LUTs
      return {UnitClass::Equal, 0.07 * ow + 1.05 * std::log2(std::max(2.0, ow)), 0.7 * ow, 0};
    case Op::Add:  // the sum LUT is the one a flip-flop is entered through; 0.8 ns to leave the chain
      return {UnitClass::Adder, 0.8 + kCarryPerBit * w, w, w};
    case Op::Sub: case Op::Neg:
      if (s.constant_rhs) return {UnitClass::Adder, kCarryPerBit * w, w, w};
      return {UnitClass::Adder, 2.75 + 0.35 * w, 1.9 * w, w};
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      if (s.constant_rhs) return {UnitClass::Adder, 1.2 + kCarryPerBit * ow, ow, ow};
      return {UnitClass::Adder, 2.75 + 0.35 * ow, 1.9 * ow, ow};
    case Op::Popcount: case Op::Clz: case Op::Ctz:  // measured: popcount, as rtl/emit_sv.cc writes it
      return {UnitClass::Counter, 0.19 * ow + 3.26 * std::log2(std::max(2.0, ow)), 1.0 * ow + 0.012 * ow * ow, 0};
    case Op::Shl: case Op::Shr: case Op::Rotl: case Op::Rotr:  // measured: shl, with its amount >= width test
      return {UnitClass::Shifter, 8.9 + 0.41 * w, 4.1 * w + 0.05 * w * w, 0};
    case Op::Mul:
      // icestorm's UP5K timing: an unpipelined 16 x 16 SB_MAC16, A/B to O[31].
      if (s.dsp) return {UnitClass::Dsp, 9.05, 0, 0};
      if (s.constant_rhs) return {UnitClass::Mul, 0.71 * w + 1.6 * std::log2(std::max(2.0, w)), 0.6 * w * w, 0};
      return {UnitClass::Mul, 0.51 * w + 4.5 * std::log2(std::max(2.0, w)), 1.2 * ow * ow, 0};
    case Op::Div: case Op::Mod:  // an array of w subtractors, each a carry chain: ~w^2
      if (s.constant_rhs) return {UnitClass::Div, 2.6 * w + 0.36 * w * w, 1.2 * w * w, 0};
      return {UnitClass::Div, 7.6 * w + 0.385 * w * w, 2.0 * w + 1.45 * w * w, w * w};
  }
  return {UnitClass::Wire, 0, 0, 0};
}

// Generic: a fan-out-of-4 inverter ~15 ps; an adder ~log2(w) levels.
OpCost generic(const OpShape& s) {
  const double w = std::max(1u, s.width), ow = std::max(1u, s.operand_width);
  const double lw = std::log2(std::max(2.0, w)), low = std::log2(std::max(2.0, ow));
  switch (s.op) {
    case Op::Slice: case Op::Concat: case Op::ZExt: case Op::SExt: return {UnitClass::Wire, 0, 0, 0};
    case Op::Not: case Op::And: case Op::Or: case Op::Xor: case Op::Mux:
      return {UnitClass::Logic, 0.03 * std::max(1.0, std::ceil(std::log2(std::max(2u, s.operands)))), 2 * w, 0};
    case Op::AndReduce: case Op::OrReduce: case Op::XorReduce: case Op::Rom:
      return {UnitClass::Logic, 0.03 * low, 2 * ow, 0};
    case Op::Add: case Op::Sub: case Op::Neg: return {UnitClass::Adder, 0.05 + 0.04 * lw, 8 * w, 0};
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: return {UnitClass::Adder, 0.05 + 0.04 * low, 8 * ow, 0};
    case Op::Eq: case Op::Ne: return {UnitClass::Equal, 0.03 + 0.03 * low, 2 * ow, 0};
    case Op::Popcount: case Op::Clz: case Op::Ctz: return {UnitClass::Counter, 0.05 + 0.06 * low, 10 * ow, 0};
    case Op::Shl: case Op::Shr: case Op::Rotl: case Op::Rotr: return {UnitClass::Shifter, 0.03 + 0.04 * lw, 0, 0};
    case Op::Mul:
      if (s.constant_rhs) return {UnitClass::Mul, 0.05 + 0.12 * lw, 24 * w, 0};
      return {UnitClass::Mul, 0.1 + 0.2 * lw, 6 * ow * ow, 0};
    case Op::Div: case Op::Mod: return {UnitClass::Div, 0.1 + 0.06 * w, 10 * w * w, 0};
  }
  return {UnitClass::Wire, 0, 0, 0};
}

}  // namespace

OpCost op_cost(Target t, const OpShape& s) {
  if (t != Target::Ice40) return generic(s);
  OpCost c = ice40(s);
  // Chained behind another operator, a LUT level costs 2.9 ns, not 1.2 (`lut2`,
  // `chain_xor_add`); a carry chain pays the routing into its first carry, and
  // out of its last one (a carry chain read by another in its step: 6 ns in
  // the hash pipeline, where the model had said 2.5).
  if (c.unit == UnitClass::Wire) return c;
  const bool lut = c.unit == UnitClass::Logic || c.unit == UnitClass::Equal;
  c.chain_ns = lut ? 2.5 : 2.5;
  c.out_ns = lut ? 0.0 : 3.5;
  return c;
}

OpCost op_cost(Target t, Op op, unsigned width, bool constant_rhs) {
  OpShape s;
  s.op = op;
  s.width = width;
  s.operand_width = width;
  s.operands = op == Op::Mux ? 3 : 2;
  s.constant_rhs = constant_rhs;
  if (op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge) s.width = 1;
  return op_cost(t, s);
}

// iCE40: measured in the splitmix64 pipeline, a 34-bit xor read by twenty
// adders reached them 3.6 ns after it, against 1.8 ns for a net with one reader.
double fanout_routing_ns(Target t, uint32_t readers) {
  if (t != Target::Ice40 || readers <= 2) return 0;
  return std::min(4.0, 0.2 * (readers - 2));
}

double schedule_period_ns(Target t, double clock_ns) {
  return std::max(clock_ns - register_overhead_ns(t) - routing_margin_ns(t), 0.25 * clock_ns);
}

}  // namespace polydat::hls
