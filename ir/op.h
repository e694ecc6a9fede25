// The operation carried by a morphism: the seed's Core set plus what the language needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ir/ids.h"

namespace polydat::ir {

enum class OpKind : uint8_t {
  Pair, Proj,                                // products (structural)
  Add, Sub, Mul, Div, Mod, Neg,              // arithmetic, wrapping; RISC-V division
  Eq, Neq, Lt, Gt, Le, Ge,                   // comparisons
  And, Or, Xor, Not,                         // logical on bool, bitwise on integers
  Shl, Shr, Rotl, Rotr, Pow,                 // shifts, rotates, power
  Cast, Popcount, Clz, Ctz,                  // conversions and bit counts
  ToStr, Concat, FormatDec, Hex, FormatRadix, FormatFixed,  // text (software engines only)
  Sqrt, Exp, Ln, Sin, Cos, Tan, Asin, Acos, Atan, Atan2,  // the C library's, on floats
  Floor, Ceil, Round, Trunc, Abs,            // exact float rounding (Round: half away from zero)
  Phi,                                       // (t, f, cond) -> cond ? t : f
  Call,                                      // a named function
  LibFn,                                     // a library function of ir/library_fn.h (software engines only)
  Rom,                                       // index -> the graph's constant table a, entry index % size
  LoopEnter, LoopBack, LoopExit,             // the inline loop (merge enter, back edge, exit)
  Output,                                    // the one identity-shaped morphism: x -> ret
};

inline constexpr int kNumOpKinds = static_cast<int>(OpKind::Output) + 1;

struct Operation {
  OpKind kind = OpKind::Output;
  uint32_t a = 0;  // Pair: slot; Proj: index; Call: callee; LibFn: the registry index; Rom: the table
  uint32_t b = 0;  // Pair: arity

  static Operation simple(OpKind k) { return {k, 0, 0}; }
  static Operation pair(uint32_t slot, uint32_t arity) { return {OpKind::Pair, slot, arity}; }
  static Operation proj(uint32_t index) { return {OpKind::Proj, index, 0}; }
  static Operation call(FuncId f) { return {OpKind::Call, f.v, 0}; }
  static Operation library(uint32_t fn) { return {OpKind::LibFn, fn, 0}; }
  static Operation rom(uint32_t table) { return {OpKind::Rom, table, 0}; }

  uint32_t slot() const { return a; }
  uint32_t arity() const { return b; }
  uint32_t index() const { return a; }
  FuncId callee() const { return FuncId(a); }
  uint32_t library_fn() const { return a; }
  uint32_t rom() const { return a; }

  friend bool operator==(const Operation&, const Operation&) = default;
};

// How the hardware flow takes an operation; the interpreter and the LLVM backend take every one.
enum class HardwareForm : uint8_t {
  Unit,     // a datapath unit of hls/ (an operator, a comparator, a multiplexer)
  Wiring,   // products, projections, the loop's edges, the output: wires and state registers, no unit
  Inlined,  // gone before HLS: optimize() inlines every call
  None,     // refused with a located error: text, floats, tables of floats, the software-only library
};
std::string_view hardware_form_name(HardwareForm f);

// The registry of operations, one row per OpKind in enum order: its name as dumps print it and its
// hardware form (the typing rules are ir/typing.h's table). tests/flow/op_registry_test.cc runs an
// example of every row through the interpreter, LLVM, HLS and the SystemVerilog emitter.
struct OpInfo {
  OpKind kind;
  std::string_view name;
  HardwareForm hardware;
};
const OpInfo& op_info(OpKind k);

// The operation's name as dumps print it ("Add", "Pair", "LoopBack").
std::string_view op_name(OpKind k);
std::optional<OpKind> op_from_name(std::string_view name);

}  // namespace polydat::ir
