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

// iCE40: 48 MHz, the UP5K's internal oscillator. Most boards run from a
// 12 MHz oscillator, where a design scheduled for 20.8 ns has slack to spare;
// at 48 MHz a 64-bit addition (21.8 ns) or comparison (25.2 ns) alone is
// already longer than the period (docs/ice40-calibration.md). Generic: a
// 1 GHz ASIC-like target.
double default_clock_ns(Target t) { return t == Target::Ice40 ? 20.8 : 1.0; }

// iCE40: the `reg` rows of docs/ice40-calibration.csv (4.39 ns at every
// width). The scheduler chains operators against the whole period; this is
// what a real register-to-register path adds to the chain.
double register_overhead_ns(Target t) { return t == Target::Ice40 ? 4.4 : 0.0; }

std::string_view unit_class_name(UnitClass c) {
  switch (c) {
    case UnitClass::Wire: return "wire";
    case UnitClass::Logic: return "logic";
    case UnitClass::Adder: return "adder";
    case UnitClass::Equal: return "equal";
    case UnitClass::Shifter: return "shifter";
    case UnitClass::Counter: return "counter";
    case UnitClass::Mul: return "mul";
    case UnitClass::Div: return "div";
  }
  return "?";
}

namespace {
// delay = base + per_bit * w + per_log2 * log2(w) + per_sq * w^2 (ns, never
// below 0), area = a_base + a_bit * w + a_sq * w^2, w the operator's width.
//  - iCE40 (LUT4s): fitted to nextpnr-ice40 on a UP5K, docs/ice40-calibration.md
//    (the measurements: docs/ice40-calibration.csv, from `make calibrate`). A
//    delay is what the operator adds to a register-to-register path
//    (register_overhead_ns). Multiplications are modelled by their LUT
//    implementations (shift-and-add for a constant): where Yosys puts one in
//    SB_MAC16s (11 to 32 bits) nextpnr does not time the DSP, and the LUT
//    delay is the bound used.
//  - generic: a fan-out-of-4 inverter ~15 ps; an adder ~log2(w) levels.
struct Model {
  UnitClass unit;
  double base, per_bit, per_log2, per_sq;  // delay
  double a_base, a_bit, a_sq;              // area
};

Model ice40(ir::OpKind op, bool constant_rhs) {
  using K = ir::OpKind;
  switch (op) {
    case K::Add:  // the carry chain, 0.34 ns a bit (the sum LUT is the one a flip-flop is entered through)
      return {UnitClass::Adder, 0, 0.34, 0, 0, 0, 1, 0};
    case K::Sub: case K::Neg: case K::Lt: case K::Gt: case K::Le: case K::Ge:  // a LUT level first (~b)
      return {UnitClass::Adder, 2.75, 0.35, 0, 0, 0, 1.9, 0};
    case K::Eq: case K::Neq:  // a tree of LUTs
      return {UnitClass::Equal, 0, 0.07, 1.05, 0, 0, 0.7, 0};
    case K::Popcount: case K::Clz: case K::Ctz:  // measured: popcount, as rtl/emit_sv.cc writes it
      return {UnitClass::Counter, 0, 0.19, 3.26, 0, 0, 1.0, 0.012};
    case K::And: case K::Or: case K::Xor: case K::Not: case K::Phi:
      // One LUT level: 0 to 1.2 ns alone (it replaces the LUT a flip-flop is
      // entered through), 2.9 ns chained behind another LUT level (lut2).
      return {UnitClass::Logic, 0.8, 0, 0, 0, 0, 1, 0};
    case K::Shl: case K::Shr: case K::Rotl: case K::Rotr:  // measured: shl, with its amount >= width test
      if (constant_rhs) return {UnitClass::Wire, 0, 0, 0, 0, 0, 0, 0};
      return {UnitClass::Shifter, 8.9, 0.41, 0, 0, 0, 4.1, 0.05};
    case K::Mul:
      if (constant_rhs)  // shift-and-add
        return {UnitClass::Mul, 0, 0.71, 1.6, 0, 0, 0, 0.6};
      return {UnitClass::Mul, 0, 0.51, 4.5, 0, 0, 0, 1.2};
    case K::Div: case K::Mod:  // an array of w subtractors, each a carry chain: ~w^2
      if (constant_rhs) return {UnitClass::Div, 0, 2.6, 0, 0.36, 0, 0, 1.2};  // measured: % 10
      return {UnitClass::Div, 0, 7.6, 0, 0.385, 0, 2.0, 1.45};
    default:  // Cast, Pair, Proj and the rest are wiring here
      return {UnitClass::Wire, 0, 0, 0, 0, 0, 0, 0};
  }
}

Model generic(ir::OpKind op, bool constant_rhs) {
  using K = ir::OpKind;
  switch (op) {
    case K::Add: case K::Sub: case K::Neg: case K::Lt: case K::Gt: case K::Le: case K::Ge:
      return {UnitClass::Adder, 0.05, 0, 0.04, 0, 0, 8, 0};
    case K::Eq: case K::Neq:
      return {UnitClass::Equal, 0.03, 0, 0.03, 0, 0, 2, 0};
    case K::Popcount: case K::Clz: case K::Ctz:
      return {UnitClass::Counter, 0.05, 0, 0.06, 0, 0, 10, 0};
    case K::And: case K::Or: case K::Xor: case K::Not: case K::Phi:
      return {UnitClass::Logic, 0.03, 0, 0, 0, 0, 2, 0};
    case K::Shl: case K::Shr: case K::Rotl: case K::Rotr:
      if (constant_rhs) return {UnitClass::Wire, 0, 0, 0, 0, 0, 0, 0};
      return {UnitClass::Shifter, 0.03, 0, 0.04, 0, 0, 0, 0};
    case K::Mul:
      if (constant_rhs)  // shift-and-add: a tree of adders
        return {UnitClass::Mul, 0.05, 0, 0.12, 0, 0, 24, 0};
      return {UnitClass::Mul, 0.1, 0, 0.2, 0, 0, 0, 6};
    case K::Div: case K::Mod:
      return {UnitClass::Div, 0.1, 0.06, 0, 0, 0, 0, 10};
    default:  // Cast, Pair, Proj and the rest are wiring here
      return {UnitClass::Wire, 0, 0, 0, 0, 0, 0, 0};
  }
}
}  // namespace

OpCost op_cost(Target t, ir::OpKind op, unsigned width, bool constant_rhs) {
  const Model m = t == Target::Ice40 ? ice40(op, constant_rhs) : generic(op, constant_rhs);
  const double w = std::max(1u, width);
  const double delay =
      std::max(0.0, m.base + m.per_bit * w + m.per_log2 * std::log2(std::max(2.0, w)) + m.per_sq * w * w);
  const double area = m.a_base + m.a_bit * w + m.a_sq * w * w;
  return OpCost{m.unit, m.unit == UnitClass::Wire ? 0 : delay, area};
}

}  // namespace polydat::hls
