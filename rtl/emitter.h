// Internal to rtl/: the emitter of one module's SystemVerilog, its members
// defined by part: emit_sv.cc (the interface, declarations and signals),
// emit_units.cc (operations and functional units), emit_pipeline.cc and
// emit_fsm.cc (the control of each kind of design).
#pragma once

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hls/design.h"
#include "rtl/emit_sv.h"

namespace polydat::rtl {

using hls::Design;
using hls::DesignKind;
using hls::Dfg;
using hls::NodeKind;
using hls::ValueId;
using hls::Op;
using ir::OpKind;

// A source name as part of an identifier: anything else than [A-Za-z0-9_] becomes '_'.
std::string ident(const std::string& name);
// "[w-1:0] " before a name, or nothing for one bit.
std::string range(unsigned w);
std::string literal(unsigned w, uint64_t bits);
// The smallest k with 2^k >= w (log2 of a power of two).
unsigned log2_exact(unsigned w);

class Emitter {
 public:
  explicit Emitter(const Design& d);

  std::string run();

 private:
  void line(const std::string& s = {}) { out_ += s + "\n"; }

  const hls::Node& node(ValueId v) const { return g_.nodes[v]; }
  unsigned width(ValueId v) const { return node(v).width; }
  std::string suffix(ValueId v) const { return node(v).name.empty() ? "" : "_" + ident(node(v).name); }
  std::string wire(ValueId v) const { return "v" + std::to_string(v) + suffix(v); }
  bool scheduled(ValueId v) const { return g_.is_logic(v) && d_.live[v]; }
  std::string state_reg(ValueId s) const { return "s" + std::to_string(node(s).index) + "_" + ident(node(s).name); }

  // ---- the header, the interface and the declarations (emit_sv.cc) ----

  void header();
  void ports();
  // popcount, clz and ctz at each (operand, result) width used, as loops Yosys
  // and Verilator accept; a table as a case.
  void helper_functions();
  void declarations();

  // ---- where a value is read (emit_sv.cc) ----

  // The signal carrying value v during control step `at` (a pipeline stage or an FSM state).
  std::string signal(ValueId v, uint32_t at);
  // Wiring is rebuilt in each step that reads it, from that step's signals.
  std::string wiring(ValueId v, uint32_t at);
  // The register carrying v into step `at`: a pipeline's copy from the stage
  // before, or an FSM's register bound to v.
  std::string registered(ValueId v, uint32_t at);

  static std::string part(const std::string& x, unsigned lo, unsigned len);

  // ---- the datapath: one assignment per operation (emit_units.cc) ----

  void datapath();
  std::string expression(ValueId v);
  static std::string compare(const std::vector<std::string>& a, const char* op, bool sgn);
  // The divisor's bit pattern when it is a constant.
  std::optional<uint64_t> constant_divisor(ValueId v) const;
  // RISC-V: x / 0 is all ones, x % 0 is x; signed MIN / -1 is MIN, MIN % -1 is 0.
  // A constant divisor drops the cases it cannot meet.
  static std::string divide(Op op, const std::vector<std::string>& a, unsigned w, bool sgn,
                            std::optional<uint64_t> divisor);
  // A shift at or beyond the width gives 0 (or all sign bits for >> on a signed value).
  std::string shift(ValueId v, const std::vector<std::string>& a, unsigned w, bool sgn) const;
  // Rotation by k % width (the width is a power of two).
  std::string rotate(ValueId v, const std::vector<std::string>& a, unsigned w) const;
  std::string counter_function(OpKind op, unsigned in_w, unsigned out_w);
  std::string rom_function(ValueId v);

  // ---- functional units over several cycles or states (emit_units.cc) ----

  // Bits of a counter holding 0 .. n.
  static unsigned counter_width(unsigned n);
  static std::string iterative_name(int unit) { return "it" + std::to_string(unit); }
  // A shift-and-add multiplier: the operands are latched at the end of its
  // start state, then one multiplier bit per cycle adds the multiplicand
  // (shifted one place further each cycle) into the product. A constant
  // multiplier's bits come from a table indexed by the step counter.
  void iterative_multiplier(int unit);
  // An unsigned restoring divider: the operands are latched at the end of its
  // start state, then one quotient bit per cycle for w cycles; x / 0 gives all
  // ones and x % 0 gives x, as RISC-V asks.
  void iterative_divider(int unit);
  // "[w-1:0]" or "[0]".
  static std::string range_index(unsigned w);

  // Multipliers an FSM shares across states (DSP blocks, --max-mul), a pipeline across slots.
  bool shared_multiplier(size_t u) const;
  static std::string shared_name(size_t u) { return "mul" + std::to_string(u); }
  // Operand widths and the product's: the widest of the operations bound to the unit.
  std::array<unsigned, 3> shared_widths(size_t u) const;
  // One `*`, its operands chosen by the state (the last operation's by default: the
  // schedule never uses the unit twice in a state); each operation reads its low bits.
  void shared_multiplier_body(size_t u);

  // ---- a pipeline's control and registers (emit_pipeline.cc) ----

  void pipeline_control();
  // Bits of the slot counter of a pipeline at an II above 1, and the test for slot k.
  unsigned phase_width() const { return std::max(1u, log2_exact(d_.ii)); }
  std::string in_slot(uint32_t k) const { return fmt::format("phase == {}", literal(phase_width(), k)); }
  // The condition under which a shared unit serves the operation at `step`.
  std::string serves(uint32_t step) const;
  // Pipeline registers written at the end of stage `stage`'s slot, under `indent`.
  void register_loads(const std::vector<const hls::Register*>& regs, const std::string& indent);
  // Runs of consecutive held bits of a register: (lowest bit of the value, length).
  static std::vector<std::pair<unsigned, unsigned>> runs(uint64_t bits);
  // A register holding only some of v's bits, at v's width (the bits it does
  // not hold are never read; zero keeps them defined).
  std::string padded(ValueId v, uint32_t at, const hls::Register& r);
  // What register r loads: its bits of value v in the stage it ends.
  std::string register_input(const hls::Register& r);

  // ---- an FSM's control (emit_fsm.cc) ----

  void state_encoding();
  void fsm_control();
  // Registers written at the end of state s (the values it computes that live on).
  std::vector<std::string> latches(uint32_t s);
  void state_body(uint32_t s, bool idle, bool done);
  uint32_t next_state(uint32_t s) const;

  const Design& d_;
  const Dfg& g_;
  const PortNames ports_;
  std::map<std::pair<ValueId, uint32_t>, size_t> pipeline_regs_;  // (value, stage it ends) -> register
  std::map<std::pair<uint32_t, ValueId>, std::string> wiring_names_;  // (step, wiring value) -> its wire
  std::map<std::pair<uint32_t, ValueId>, std::string> wiring_;        // (step, wiring value) -> its assignment
  std::map<std::pair<uint32_t, ValueId>, std::string> padded_names_;  // (step, value) -> its partial register at full width
  std::map<std::string, std::string> functions_;                      // helper functions by name
  std::string out_;
};

}  // namespace polydat::rtl
