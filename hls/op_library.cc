#include "hls/op_library.h"

#include <cmath>

namespace polydat::hls {

std::string_view target_name(Target t) { return t == Target::Ice40 ? "ice40" : "generic"; }

bool parse_target(std::string_view name, Target& out) {
  if (name == "ice40") out = Target::Ice40;
  else if (name == "generic") out = Target::Generic;
  else return false;
  return true;
}

// iCE40 UP5K at 48 MHz (the boards' usual clock); generic: a 1 GHz ASIC-like target.
double default_clock_ns(Target t) { return t == Target::Ice40 ? 20.8 : 1.0; }

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
// Linear models, delay = base + per_bit * width (or per log2 width), area =
// a_base + a_bit * width (+ a_sq * width^2). First estimates:
//  - iCE40: a LUT4 level with local routing ~1.0 ns; the carry chain ~0.1 ns
//    per bit after ~1.5 ns of entry and exit (nextpnr's UP5K timing model);
//    multiplications wider than 16 bits cannot use one SB_MAC16 and are
//    built from LUTs; division is an array of w subtractors. Calibration
//    against nextpnr reports is later work (the FPGA issue).
//  - generic: a fan-out-of-4 inverter ~15 ps; an adder ~log2(w) levels.
struct Model {
  UnitClass unit;
  double base, per_bit, per_log2;  // delay
  double a_base, a_bit, a_sq;      // area
};

Model model(Target t, ir::OpKind op, bool constant_rhs) {
  using K = ir::OpKind;
  const bool ice = t == Target::Ice40;
  switch (op) {
    case K::Add: case K::Sub: case K::Neg: case K::Lt: case K::Gt: case K::Le: case K::Ge:
      return ice ? Model{UnitClass::Adder, 1.5, 0.1, 0, 0, 1, 0} : Model{UnitClass::Adder, 0.05, 0, 0.04, 0, 8, 0};
    case K::Eq: case K::Neq: case K::Popcount: case K::Clz: case K::Ctz:
      if (op == K::Eq || op == K::Neq)
        return ice ? Model{UnitClass::Equal, 0.5, 0, 1.0, 0, 0.4, 0} : Model{UnitClass::Equal, 0.03, 0, 0.03, 0, 2, 0};
      return ice ? Model{UnitClass::Counter, 1.0, 0, 2.0, 0, 2, 0} : Model{UnitClass::Counter, 0.05, 0, 0.06, 0, 10, 0};
    case K::And: case K::Or: case K::Xor: case K::Not: case K::Phi:
      return ice ? Model{UnitClass::Logic, 1.0, 0, 0, 0, 1, 0} : Model{UnitClass::Logic, 0.03, 0, 0, 0, 2, 0};
    case K::Shl: case K::Shr: case K::Rotl: case K::Rotr:
      if (constant_rhs) return Model{UnitClass::Wire, 0, 0, 0, 0, 0, 0};
      return ice ? Model{UnitClass::Shifter, 0.5, 0, 1.2, 0, 0, 0} : Model{UnitClass::Shifter, 0.03, 0, 0.04, 0, 0, 0};
    case K::Mul:
      if (constant_rhs)  // shift-and-add: a tree of adders
        return ice ? Model{UnitClass::Mul, 1.5, 0.1, 1.5, 0, 3, 0} : Model{UnitClass::Mul, 0.05, 0, 0.12, 0, 24, 0};
      return ice ? Model{UnitClass::Mul, 4.0, 0.4, 0, 0, 0, 1.3} : Model{UnitClass::Mul, 0.1, 0, 0.2, 0, 0, 6};
    case K::Div: case K::Mod:
      return ice ? Model{UnitClass::Div, 2.0, 2.0, 0, 0, 0, 1.1} : Model{UnitClass::Div, 0.1, 0.06, 0, 0, 0, 10};
    default:  // Cast, Pair, Proj and the rest are wiring here
      return Model{UnitClass::Wire, 0, 0, 0, 0, 0, 0};
  }
}
}  // namespace

OpCost op_cost(Target t, ir::OpKind op, unsigned width, bool constant_rhs) {
  const Model m = model(t, op, constant_rhs);
  const double w = std::max(1u, width);
  const double delay = m.base + m.per_bit * w + m.per_log2 * std::log2(std::max(2.0, w));
  const double area = m.a_base + m.a_bit * w + m.a_sq * w * w;
  return OpCost{m.unit, m.unit == UnitClass::Wire ? 0 : delay, area};
}

}  // namespace polydat::hls
