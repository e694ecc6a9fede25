#include <fmt/core.h>

#include <algorithm>

#include "rtl/emitter.h"

namespace polydat::rtl {

void Emitter::state_encoding() {
  const unsigned bits = std::max(1u, log2_exact(static_cast<unsigned>(d_.states.size())));
  for (size_t s = 0; s < d_.states.size(); ++s)
    line(fmt::format("  localparam logic {}S_{} = {};", range(bits), d_.states[s].name, literal(bits, s)));
  line("  logic " + range(bits) + "state;");
}

void Emitter::fsm_control() {
  const uint32_t idle = d_.idle_state(), done = d_.done_state();
  line("  assign in_ready = state == S_IDLE;");
  line("  assign out_valid = state == S_DONE;");
  line("  always_ff @(posedge clk) begin");
  line("    if (rst) begin");
  line("      state <= S_IDLE;");
  for (const hls::Register& r : d_.registers) line("      " + r.name + " <= '0;");
  if (g_.loop)
    for (ValueId s : g_.loop->state) line("      " + state_reg(s) + " <= '0;");
  for (const std::string& o : ports_.outputs) line("      " + o + " <= '0;");
  line("    end else begin");
  line("      unique case (state)");
  for (uint32_t s = 0; s < d_.states.size(); ++s) {
    line("        S_" + d_.states[s].name + ": begin");
    state_body(s, s == idle, s == done);
    line("        end");
  }
  line("        default: state <= S_IDLE;");
  line("      endcase");
  line("    end");
  line("  end");
}

std::vector<std::string> Emitter::latches(uint32_t s) {
  std::vector<std::string> out;
  for (ValueId v = 0; v < g_.nodes.size(); ++v) {
    if (d_.reg_of.empty() || d_.reg_of[v] < 0) continue;
    const hls::Register& r = d_.registers[static_cast<size_t>(d_.reg_of[v])];
    const uint32_t def = node(v).kind == NodeKind::Input ? 0 : d_.place[v].step;
    if (def == s) out.push_back(r.name + " <= " + signal(v, s) + ";");
  }
  return out;
}

void Emitter::state_body(uint32_t s, bool idle, bool done) {
  const std::string in = "          ";
  const hls::DfgLoop* loop = g_.loop ? &*g_.loop : nullptr;
  auto load_state = [&](const std::vector<ValueId>& from, const std::string& pad) {
    for (size_t i = 0; i < loop->state.size(); ++i)
      line(pad + state_reg(loop->state[i]) + " <= " + signal(from[i], s) + ";");
  };
  auto latch_outputs = [&](const std::string& pad) {
    for (size_t i = 0; i < g_.outputs.size(); ++i)
      line(pad + ports_.outputs[i] + " <= " + signal(g_.outputs[i].value, s) + ";");
  };
  if (done) {
    line(in + "if (out_ready) state <= S_IDLE;");
    return;
  }
  if (idle) {
    line(in + "if (in_valid) begin");
    for (const std::string& l : latches(s)) line(in + "  " + l);
    if (loop && s == d_.entry_state()) load_state(loop->init, in + "  ");
    line(in + "  state <= S_" + d_.states[next_state(s)].name + ";");
    line(in + "end");
    return;
  }
  for (const std::string& l : latches(s)) line(in + l);
  if (loop && s == d_.entry_state()) load_state(loop->init, in);
  if (loop && s == d_.loop_state(d_.loop_steps - 1)) {
    line(in + "if (" + signal(loop->cond, s) + ") begin");
    load_state(loop->next, in + "  ");
    line(in + "  state <= S_" + d_.states[d_.loop_state(0)].name + ";");
    line(in + "end else begin");
    if (s == d_.finish_state()) latch_outputs(in + "  ");
    line(in + "  state <= S_" + d_.states[d_.post_steps ? d_.post_state(0) : d_.done_state()].name + ";");
    line(in + "end");
    return;
  }
  if (s == d_.finish_state()) latch_outputs(in);
  line(in + "state <= S_" + d_.states[next_state(s)].name + ";");
}

uint32_t Emitter::next_state(uint32_t s) const {
  for (const hls::FsmTransition& t : d_.transitions)
    if (t.from == s && t.cond != hls::Cond::LoopDone) return t.to;
  return d_.idle_state();
}

}  // namespace polydat::rtl
