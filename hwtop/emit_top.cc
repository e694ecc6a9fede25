#include "hwtop/emit_top.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>
#include <set>

#include "text/plural.h"

namespace polydat::hwtop {

using workload::ValueSource;

namespace {

std::string range(unsigned w) { return w > 1 ? fmt::format("[{}:0] ", w - 1) : ""; }

std::string literal(unsigned width, uint64_t bits) { return fmt::format("{}'h{:x}", width, bits); }

std::string cell_reg(const std::string& cell, uint32_t depth) { return fmt::format("c_{}_{}", cell, depth); }
// The view a stage read, held while the records are emitted (the write has landed in c_ by then).
std::string read_reg(const std::string& cell, uint32_t depth) { return fmt::format("r_{}_{}", cell, depth); }

// `v` (a signal of type `from`) at `to` bits: sign- or zero-extended (conversions only widen).
std::string widened(const std::string& v, const ir::Ty& from, unsigned to) {
  const unsigned w = std::max(1u, from.bits());
  if (w >= to) return v;
  return from.is_signed_int() ? fmt::format("{{{{{}{{{}[{}]}}}}, {}}}", to - w, v, w - 1, v)
                              : fmt::format("{{{}'d0, {}}}", to - w, v);
}

// Where cell `c` is owned in entry `e`'s chain, and as what (nullopt: not in this chain).
std::optional<std::pair<uint32_t, const workload::OwnCell*>> owner_in(const HwEntry& e, const HwCell& c) {
  const auto& chain = e.plan->chain;
  for (uint32_t d = 0; d < chain.size(); ++d) {
    if (chain[d].label != c.owner) continue;
    for (const workload::OwnCell& oc : chain[d].cells)
      if (oc.name == c.name) return std::make_pair(d, &oc);
  }
  return std::nullopt;
}
std::string seed_reg(const std::string& cell, uint32_t depth) { return fmt::format("sd_{}_{}", cell, depth); }

class TopEmitter {
 public:
  explicit TopEmitter(const HwWorkload& hw) : hw_(hw) {}

  std::string run() {
    stage_width_ = 1;
    size_t most = 1;
    for (const HwEntry& e : hw_.entries) most = std::max(most, e.stages.size() + 1);
    while ((size_t{1} << stage_width_) < most) ++stage_width_;
    mod_width_ = 1;
    while ((size_t{1} << mod_width_) < std::max<size_t>(hw_.modules.size(), 2)) ++mod_width_;
    uint64_t longest = 0;  // the counters count up to a phase's cycles
    for (const HwEntry& e : hw_.entries) longest = std::max(longest, e.host ? 0 : e.plan->cycles);
    cycle_width_ = 1;
    while (cycle_width_ < 64 && (uint64_t{1} << cycle_width_) <= longest) ++cycle_width_;
    size_t stanza = 1;  // the longest stanza: one op per stanza needs no position register
    for (const HwEntry& e : hw_.entries) stanza = std::max(stanza, e.host ? 1 : e.plan->stanza.size());
    spos_width_ = 0;
    while ((size_t{1} << spos_width_) < stanza) ++spos_width_;
    header();
    declarations();
    instances();
    shape();
    stage_inputs();
    records();
    sequencer();
    out_ += "endmodule\n";
    return out_;
  }

 private:
  void line(const std::string& s) { out_ += s + "\n"; }

  std::string pc(size_t e) const { return fmt::format("{}'d{}", hw_.entry_width, e); }

  // `cycle`: the counter a Cycle source reads (the issue side's, for a streamed stage's inputs).
  std::string expr(const HwEntry& e, const ValueSource& s, const char* cycle = "cyc64") const {
    switch (s.kind) {
      case ValueSource::Kind::Const: return literal(std::max(1u, s.ty.bits()), value_bits(s.value));
      case ValueSource::Kind::Cycle: return cycle;
      case ValueSource::Kind::Cell: return cell_reg(s.name, s.depth);
      case ValueSource::Kind::Output:
        for (const HwStage& st : e.stages)
          if (st.plan->depth == s.depth) {
            const HwModule& m = hw_.modules[st.module];
            for (size_t i = 0; i < m.design.dfg.outputs.size(); ++i)
              if (m.design.dfg.outputs[i].name == s.name) return fmt::format("m{}_{}", st.module, m.out_ports[i]);
          }
        break;
    }
    return "'0";
  }

  void header() {
    line("// The workload top: " + text::counted(hw_.modules.size(), "scope module") + ", " +
         text::counted(hw_.entries.size(), "entry", "entries") + ", " + text::counted(hw_.cells.size(), "shared cell") + ".");
    line("// A cell's view or seed at a depth no entry reads is left for synthesis to remove.");
    line("/* verilator lint_off UNUSEDSIGNAL */");
    line("module " + hw_.top + " (");
    line("  input  logic clk,");
    line("  input  logic rst,");
    line("  output logic rec_valid,");
    line("  input  logic rec_ready,");
    line("  output logic " + range(hw_.entry_width) + "rec_entry,");
    line("  output logic " + range(hw_.op_width) + "rec_op,");
    line("  output logic [63:0] rec_cycle,");
    line("  output logic " + range(hw_.payload_width) + "rec_data,");
    line("  output logic done");
    line(");");
  }

  void declarations() {
    line("  localparam logic [2:0] S_BEGIN = 3'd0, S_ISSUE = 3'd1, S_WAIT = 3'd2, S_EMIT = 3'd3, S_NEXT = 3'd4, S_DONE = 3'd5;");
    line("  logic released;  // S_EMIT with the cycle's record handled: the stages' results are taken");
    // A register between rec_ready and the modules' out_ready: no path from the consumer into the pipelines.
    line("  logic sent;  // the cycle's record was taken, or its `if:` failed");
    line("  logic [2:0] state;");
    line("  logic " + range(hw_.entry_width) + "pc;");
    line("  logic " + range(stage_width_) + "stg, n_stages;");
    line("  logic " + range(hw_.op_width) + "cur_op;  // the op this cycle renders: the entry's stanza at this cycle");
    if (spos_width_ > 0)
      line("  logic " + range(spos_width_) + "spos, spos_last;  // the cycle's place in the entry's stanza, and the stanza's last place");
    line("  logic " + range(mod_width_) + "cur_mod;");
    // The cycle counters are as wide as the longest phase needs; kernels and records see 64 bits.
    line("  logic " + range(cycle_width_) + "cyc, n_cycles;  // the cycle whose result is handled");
    line("  logic " + range(cycle_width_) + "icyc;  // a streamed entry: the next cycle to issue");
    line("  logic [63:0] cyc64, icyc64;");
    if (cycle_width_ < 64) {
      line(fmt::format("  assign cyc64 = {{{}'d0, cyc}};", 64 - cycle_width_));
      line(fmt::format("  assign icyc64 = {{{}'d0, icyc}};", 64 - cycle_width_));
    } else {
      line("  assign cyc64 = cyc;");
      line("  assign icyc64 = icyc;");
    }
    line("  logic gate, cur_in_ready, cur_out_valid, streamed, stream_issue;");
    line("  logic " + range(hw_.payload_width) + "payload;");
    for (const HwCell& c : hw_.cells)
      for (uint32_t d = c.owner_depth; d <= hw_.max_depth; ++d)
        line("  logic " + range(c.ty.bits()) + cell_reg(c.name, d) + ", " + seed_reg(c.name, d) + ";");
    for (const auto& [cell, d] : stage_reads())
      line("  logic " + range(cell_width(cell)) + read_reg(cell, d) + ";");
    if (!stage_reads().empty()) {
      line("  always_ff @(posedge clk)");
      line("    if (state != S_EMIT) begin");
      for (const auto& [cell, d] : stage_reads()) line("      " + read_reg(cell, d) + " <= " + cell_reg(cell, d) + ";");
      line("    end");
    }
  }

  void instances() {
    for (size_t i = 0; i < hw_.modules.size(); ++i) {
      const HwModule& m = hw_.modules[i];
      const hls::Dfg& g = m.design.dfg;
      line(fmt::format("  logic m{0}_in_valid, m{0}_in_ready, m{0}_out_valid, m{0}_out_ready;", i));
      for (size_t k = 0; k < g.configs.size(); ++k) line(fmt::format("  logic {}m{}_{};", range(g.configs[k].ty.bits()), i, m.cfg_ports[k]));
      for (size_t k = 0; k < g.inputs.size(); ++k) line(fmt::format("  logic {}m{}_{};", range(g.inputs[k].ty.bits()), i, m.in_ports[k]));
      for (size_t k = 0; k < g.outputs.size(); ++k) line(fmt::format("  logic {}m{}_{};", range(g.outputs[k].ty.bits()), i, m.out_ports[k]));
      std::string conn = fmt::format("  {} u_m{} (.clk(clk), .rst(rst)", m.name, i);
      for (const std::string& p : m.cfg_ports) conn += fmt::format(", .{0}(m{1}_{0})", p, i);
      conn += fmt::format(", .in_valid(m{0}_in_valid), .in_ready(m{0}_in_ready)", i);
      for (const std::string& p : m.in_ports) conn += fmt::format(", .{0}(m{1}_{0})", p, i);
      conn += fmt::format(", .out_valid(m{0}_out_valid), .out_ready(m{0}_out_ready)", i);
      for (const std::string& p : m.out_ports) conn += fmt::format(", .{0}(m{1}_{0})", p, i);
      line(conn + ");");
      line(fmt::format("  assign m{0}_in_valid = (state == S_ISSUE || stream_issue) && cur_mod == {1}'d{0};", i, mod_width_));
      line(fmt::format("  assign m{0}_out_ready = released && m{0}_out_valid;", i));
    }
  }

  // Per entry: its cycles, stages, ops, and which module the current stage is.
  void shape() {
    line("  always_comb begin");
    line("    n_cycles = '0;");
    line("    n_stages = '0;");
    line("    cur_op = '0;");
    if (spos_width_ > 0) line("    spos_last = '0;");
    line("    cur_mod = '0;");
    line("    streamed = 1'b0;");
    line("    case (pc)");
    for (size_t e = 0; e < hw_.entries.size(); ++e) {
      const HwEntry& he = hw_.entries[e];
      // A phase run left on the host (--partition) takes no cycles here.
      std::string s = fmt::format("      {}: begin n_cycles = {}'d{}; n_stages = {}'d{};", pc(e), cycle_width_, he.host ? 0 : he.plan->cycles,
                                  stage_width_, he.stages.size());
      if (he.streamed) s += " streamed = 1'b1;";
      if (!he.host) s += stanza_table(he);
      if (!he.stages.empty()) {
        s += " case (stg)";
        for (size_t k = 0; k < he.stages.size(); ++k) s += fmt::format(" {}'d{}: cur_mod = {}'d{};", stage_width_, k, mod_width_, he.stages[k].module);
        s += " default: ; endcase";
      }
      line(s + " end");
    }
    line("      default: ;");
    line("    endcase");
    line("  end");
    line("  // A streamed entry issues its next cycle whenever the module is ready, while results are handled.");
    line("  assign stream_issue = streamed && icyc != n_cycles &&");
    line("                        (state == S_WAIT || state == S_EMIT);");
    line("  assign released = state == S_EMIT && sent;");
    line("  always_comb begin");
    line("    cur_in_ready = 1'b0;");
    line("    cur_out_valid = 1'b0;");
    line("    case (cur_mod)");
    for (size_t i = 0; i < hw_.modules.size(); ++i)
      line(fmt::format("      {}'d{}: begin cur_in_ready = m{}_in_ready; cur_out_valid = m{}_out_valid; end", mod_width_, i, i, i));
    line("      default: ;");
    line("    endcase");
    line("  end");
  }

  // Each module's cfg_ and in_ ports, driven per entry from what its stage reads.
  void stage_inputs() {
    for (size_t i = 0; i < hw_.modules.size(); ++i) {
      const HwModule& m = hw_.modules[i];
      const hls::Dfg& g = m.design.dfg;
      if (g.configs.empty() && g.inputs.empty()) continue;
      line("  always_comb begin");
      for (const std::string& p : m.cfg_ports) line(fmt::format("    m{}_{} = '0;", i, p));
      for (const std::string& p : m.in_ports) line(fmt::format("    m{}_{} = '0;", i, p));
      line("    case (pc)");
      for (size_t e = 0; e < hw_.entries.size(); ++e) {
        const HwEntry& he = hw_.entries[e];
        for (const HwStage& st : he.stages) {
          if (st.module != i) continue;
          std::string s = "      " + pc(e) + ": begin";
          auto drive = [&](const std::vector<hls::DfgPort>& ports, const std::vector<std::string>& names,
                           const std::vector<std::pair<std::string, ValueSource>>& a,
                           const std::vector<std::pair<std::string, ValueSource>>& b, bool streamed) {
            for (size_t k = 0; k < ports.size(); ++k) {
              const ValueSource* src = nullptr;
              for (const auto* list : {&a, &b})
                for (const auto& [n, v] : *list)
                  if (n == ports[k].name) src = &v;
              if (src) s += fmt::format(" m{}_{} = {};", i, names[k], port_value(he, *src, ports[k].ty, streamed));
            }
          };
          drive(g.configs, m.cfg_ports, st.plan->externs, st.plan->inputs, he.streamed);
          drive(g.inputs, m.in_ports, st.plan->inputs, st.plan->externs, he.streamed);
          line(s + " end");
        }
      }
      line("      default: ;");
      line("    endcase");
      line("  end");
    }
  }

  // What a stage's port is driven with: the source at the port's width. A cell is
  // read from c_ until the write lands, then from r_ (what it was) while the records go out.
  std::string port_value(const HwEntry& he, const ValueSource& src, const ir::Ty& port, bool streamed) const {
    const unsigned to = std::max(1u, port.bits());
    switch (src.kind) {
      case ValueSource::Kind::Const: {
        const unsigned w = std::max(1u, src.ty.bits());
        uint64_t bits = value_bits(src.value);
        if (src.ty.is_signed_int() && w < 64 && w < to && (bits >> (w - 1)) & 1) bits |= ~uint64_t{0} << w;
        return literal(to, to >= 64 ? bits : bits & ((uint64_t{1} << to) - 1));
      }
      case ValueSource::Kind::Cell:
        return "(state == S_EMIT ? " + widened(read_reg(src.name, src.depth), src.ty, to) + " : " +
               widened(cell_reg(src.name, src.depth), src.ty, to) + ")";
      default: return widened(expr(he, src, streamed ? "icyc64" : "cyc64"), src.ty, to);
    }
  }

  // An entry's row of the shape table: which op each place of its stanza renders.
  // A stanza of one place leaves spos alone (it stays 0) and names its op outright.
  std::string stanza_table(const HwEntry& he) const {
    const std::vector<size_t>& stanza = he.plan->stanza;
    if (stanza.size() == 1) return stanza[0] == 0 ? "" : fmt::format(" cur_op = {}'d{};", hw_.op_width, stanza[0]);
    std::string s = fmt::format(" spos_last = {}'d{}; case (spos)", spos_width_, stanza.size() - 1);
    for (size_t k = 0; k < stanza.size(); ++k)
      if (stanza[k] != 0) s += fmt::format(" {}'d{}: cur_op = {}'d{};", spos_width_, k, hw_.op_width, stanza[k]);
    return s + " default: ; endcase";
  }

  // Op k's gate and payload, as assignments ("" when it has neither: ungated, every value known to the host).
  std::string record_of(const HwEntry& he, size_t k) const {
    const HwOp& op = he.ops[k];
    std::string s;
    if (op.never) s += " gate = 1'b0;";
    else if (op.gate) s += " gate = " + truth(expr(he, *op.gate), op.gate->ty) + ";";
    for (const HwField& f : op.payload) s += fmt::format(" payload[{} +: {}] = {};", f.offset, f.width, expr(he, f.source));
    return s;
  }

  static std::string truth(const std::string& e, const ir::Ty& ty) {
    return ty.kind() == ir::TyKind::Bool ? e : "(" + e + " != '0)";
  }

  void records() {
    line("  always_comb begin");
    line("    gate = 1'b1;");
    line("    payload = '0;");
    line("    case (pc)");
    for (size_t e = 0; e < hw_.entries.size(); ++e) {
      const HwEntry& he = hw_.entries[e];
      if (he.host) continue;
      const std::set<size_t> used(he.plan->stanza.begin(), he.plan->stanza.end());
      // One op in the stanza: its record needs no case on cur_op.
      if (used.size() == 1) {
        if (const std::string r = record_of(he, *used.begin()); !r.empty()) line("      " + pc(e) + ": begin" + r + " end");
        continue;
      }
      std::string s;
      for (size_t k : used)
        if (const std::string r = record_of(he, k); !r.empty()) s += fmt::format(" {}'d{}: begin{} end", hw_.op_width, k, r);
      if (!s.empty()) line("      " + pc(e) + ": case (cur_op)" + s + " default: ; endcase");
    }
    line("      default: ;");
    line("    endcase");
    line("  end");
    line("  assign rec_valid = state == S_EMIT && !sent && gate;");
    line("  assign rec_entry = pc;");
    line("  assign rec_op = cur_op;");
    line("  assign rec_cycle = cyc64;");
    line("  assign rec_data = payload;");
    line("  assign done = state == S_DONE;");
  }

  // What a cell's new frames start from when entry `he` begins (frames from first_new inward).
  void seeding(const HwEntry& he, std::string& s) const {
    const uint32_t deepest = static_cast<uint32_t>(he.plan->chain.size() - 1);
    for (const HwCell& c : hw_.cells) {
      const auto owner = owner_in(he, c);
      if (!owner) continue;  // not in this chain
      const uint32_t o = owner->first;
      const bool owner_new = he.first_new <= o;
      const uint32_t g = std::max(he.first_new, o + 1);
      // This entry's own declaration: a structural variable may give it another initial value.
      const std::string init = literal(c.ty.bits(), value_bits(owner->second->initial));
      if (owner_new) s += fmt::format(" {} <= {}; {} <= {};", cell_reg(c.name, o), init, seed_reg(c.name, o), init);
      if (g > deepest) continue;
      std::string from;
      if (owner_new && g == o + 1) from = init;
      else from = he.plan->chain[g].seeding == workload::Seeding::Inherit ? cell_reg(c.name, g - 1) : seed_reg(c.name, g - 1);
      for (uint32_t d = g; d <= deepest; ++d)
        s += fmt::format(" {} <= {}; {} <= {};", cell_reg(c.name, d), from, seed_reg(c.name, d), from);
    }
  }

  std::string combine(const HwCell& c, const std::string& cur, const std::string& v) const {
    const bool sgn = c.ty.is_signed_int();
    auto lt = [&](const std::string& a, const std::string& b) {
      return sgn ? "$signed(" + a + ") < $signed(" + b + ")" : a + " < " + b;
    };
    switch (c.combine) {
      case frontend::Combine::Last: return v;
      case frontend::Combine::Sum: return cur + " + " + v;
      case frontend::Combine::Min: return "(" + lt(v, cur) + ") ? " + v + " : " + cur;
      case frontend::Combine::Max: return "(" + lt(cur, v) + ") ? " + v + " : " + cur;
      case frontend::Combine::Count: return cur + " + " + literal(c.ty.bits(), 1);
    }
    return v;
  }

  void writes(const HwEntry& he, std::string& s) const {
    const uint32_t deepest = static_cast<uint32_t>(he.plan->chain.size() - 1);
    for (const HwStage& st : he.stages) {
      if (!st.plan->commits) continue;
      const HwModule& m = hw_.modules[st.module];
      for (const workload::WriteThrough& wt : st.plan->scope->module.write_throughs) {
        const auto cell = std::find_if(hw_.cells.begin(), hw_.cells.end(), [&](const HwCell& c) { return c.name == wt.cell; });
        const auto& outs = m.design.dfg.outputs;
        const size_t k = static_cast<size_t>(std::find_if(outs.begin(), outs.end(), [&](const hls::DfgPort& p) { return p.name == wt.output; }) - outs.begin());
        const std::string port = fmt::format("m{}_{}", st.module, m.out_ports[k]);
        // A comparison's u64 1 or 0 into a bool cell: its bit 0 (the subcontext admits only a 0 or 1).
        const bool to_bit = cell->ty.kind() == ir::TyKind::Bool && outs[k].ty.is_int();
        const std::string v = to_bit ? port + "[0]" : widened(port, outs[k].ty, cell->ty.bits());
        const uint32_t owner = owner_in(he, *cell)->first;
        for (uint32_t d = deepest + 1; d-- > owner;)
          s += fmt::format(" {} <= {};", cell_reg(cell->name, d), combine(*cell, cell_reg(cell->name, d), v));
      }
    }
  }

  void sequencer() {
    line("  always_ff @(posedge clk) begin");
    line("    if (rst) begin");
    line("      state <= S_BEGIN;");
    line("      pc <= '0;");
    line("      stg <= '0;");
    line("      sent <= 1'b0;");
    if (spos_width_ > 0) line("      spos <= '0;");
    line("      cyc <= '0;");
    line("      icyc <= '0;");
    for (const HwCell& c : hw_.cells)
      for (uint32_t d = c.owner_depth; d <= hw_.max_depth; ++d) {
        const std::string init = literal(c.ty.bits(), value_bits(c.initial));
        line(fmt::format("      {} <= {};", cell_reg(c.name, d), init));
        line(fmt::format("      {} <= {};", seed_reg(c.name, d), init));
      }
    line("    end else begin");
    line("      if (stream_issue && cur_in_ready) icyc <= icyc + 1'b1;");
    line("      case (state)");
    line("        S_BEGIN:");
    line(fmt::format("          if (pc == {}) state <= S_DONE;", pc(hw_.entries.size())));
    line("          else begin");
    line("            cyc <= '0;");
    line("            icyc <= '0;");
    line("            stg <= '0;");
    line("            sent <= 1'b0;");
    if (spos_width_ > 0) line("            spos <= '0;");
    line("            case (pc)");
    for (size_t e = 0; e < hw_.entries.size(); ++e) {
      std::string s;
      seeding(hw_.entries[e], s);
      if (!s.empty()) line("              " + pc(e) + ": begin" + s + " end");
    }
    line("              default: ;");
    line("            endcase");
    line("            state <= n_cycles == '0 ? S_NEXT : n_stages == '0 ? S_EMIT : streamed ? S_WAIT : S_ISSUE;");
    line("          end");
    line("        S_ISSUE: if (cur_in_ready) state <= S_WAIT;");
    line("        S_WAIT:");
    line("          if (cur_out_valid) begin");
    line("            if (stg + 1'b1 == n_stages) begin");
    line("              // The last stage's result: its write-throughs go into the cells before the records read them.");
    line("              case (pc)");
    for (size_t e = 0; e < hw_.entries.size(); ++e) {
      std::string s;
      writes(hw_.entries[e], s);
      if (!s.empty()) line("                " + pc(e) + ": begin" + s + " end");
    }
    line("                default: ;");
    line("              endcase");
    line("              state <= S_EMIT;");
    line("            end else begin");
    line("              stg <= stg + 1'b1;");
    line("              state <= S_ISSUE;");
    line("            end");
    line("          end");
    line("        S_EMIT:");
    line("          if (released) begin");
    line("            stg <= '0;");
    line("            sent <= 1'b0;");
    if (spos_width_ > 0) line("            spos <= spos == spos_last ? '0 : spos + 1'b1;");
    line("            if (cyc + 1'b1 == n_cycles) state <= S_NEXT;");
    line("            else begin");
    line("              cyc <= cyc + 1'b1;");
    line("              state <= n_stages == '0 ? S_EMIT : streamed ? S_WAIT : S_ISSUE;");
    line("            end");
    line("          end else if (!gate || rec_ready) sent <= 1'b1;");
    line("        S_NEXT: begin");
    line("          pc <= pc + 1'b1;");
    line("          state <= S_BEGIN;");
    line("        end");
    line("        default: ;");
    line("      endcase");
    line("    end");
    line("  end");
  }

  // The cell views some stage reads through a port.
  std::set<std::pair<std::string, uint32_t>> stage_reads() const {
    std::set<std::pair<std::string, uint32_t>> out;
    for (const HwEntry& e : hw_.entries)
      for (const HwStage& st : e.stages)
        for (const auto* list : {&st.plan->externs, &st.plan->inputs})
          for (const auto& [name, src] : *list)
            if (src.kind == ValueSource::Kind::Cell) out.emplace(src.name, src.depth);
    return out;
  }
  unsigned cell_width(const std::string& name) const {
    for (const HwCell& c : hw_.cells)
      if (c.name == name) return c.ty.bits();
    return 1;
  }

  const HwWorkload& hw_;
  std::string out_;
  unsigned stage_width_ = 1, mod_width_ = 1, cycle_width_ = 64;
  unsigned spos_width_ = 0;  // 0: every stanza has one place, and there is no spos
};

}  // namespace

std::string emit_top(const HwWorkload& hw) { return TopEmitter(hw).run(); }

std::string emit_all(const HwWorkload& hw) {
  std::string all;
  for (const HwModule& m : hw.modules) all += m.sv + "\n";
  return all + emit_top(hw);
}

std::vector<std::pair<std::string, std::string>> sv_files(const HwWorkload& hw) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const HwModule& m : hw.modules) files.emplace_back(m.name + ".sv", m.sv);
  files.emplace_back(hw.top + ".sv", emit_top(hw));
  return files;
}

}  // namespace polydat::hwtop
