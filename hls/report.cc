#include "hls/report.h"

#include <fmt/core.h>

#include <map>
#include <nlohmann/json.hpp>

#include "text/plural.h"

namespace polydat::hls {

namespace {
struct UnitCount {
  uint32_t count = 0;
  double area = 0;
};

// Units grouped by class and width, in a stable order.
std::map<std::pair<std::string, unsigned>, UnitCount> unit_table(const Design& d) {
  std::map<std::pair<std::string, unsigned>, UnitCount> t;
  for (const FunctionalUnit& u : d.units) {
    auto& c = t[{std::string(unit_class_name(u.cls)), u.width}];
    ++c.count;
    c.area += u.area;
  }
  return t;
}

std::string step_name(const Design& d, uint32_t step) {
  return d.kind == DesignKind::Pipeline ? fmt::format("stage {}", step) : d.states.at(step).name;
}

}  // namespace

std::string latency_formula(const Design& d) {
  if (d.kind == DesignKind::Pipeline || d.loop_steps == 0) return fmt::format("{}", d.latency(0));
  return fmt::format("1 + {} + {}*(t+1) + {}", d.pre_steps, d.loop_steps, d.post_steps);
}

std::string op_label(const Design& d, ValueId v) { return node_label(d.dfg, v) + (d.is_dsp(v) ? " (DSP)" : ""); }

std::string report_text(const Design& d) {
  std::string out;
  out += fmt::format("kernel {}: {} for {} at {:.2f} ns\n", d.dfg.name,
                     d.kind == DesignKind::Pipeline ? "pipeline" : "FSM", target_name(d.target), d.clock_ns);
  if (d.kind == DesignKind::Pipeline) {
    out += fmt::format("  stages: {}\n  latency: {}\n  initiation interval: {}\n", d.stages, text::counted(d.stages, "cycle"), d.ii);
  } else if (d.loop_steps == 0) {  // a loop-free FSM (iterative units): the latency is one number
    out += fmt::format("  states: {} (idle, {} computing, done)\n", d.states.size(), d.pre_steps + d.post_steps);
    out += fmt::format("  latency: {}\n", text::counted(d.latency(0), "cycle"));
  } else {
    out += fmt::format("  states: {} (idle, {} before the loop, {} per iteration, {} after, done)\n", d.states.size(),
                       d.pre_steps, d.loop_steps, d.post_steps);
    out += fmt::format("  latency: {} cycles, t the loop's back edges taken (t = 0: {})\n", latency_formula(d),
                       d.latency(0));
    out += fmt::format("    1 leaving idle, {} before the loop, {} per pass of the body (t+1 passes), {} after\n",
                       d.pre_steps, d.loop_steps, d.post_steps);
  }
  if (d.kind == DesignKind::Fsm) out += "  initiation interval: latency + 1 (a new input once the result is taken)\n";
  out += "  units:\n";
  for (const auto& [key, c] : unit_table(d))
    out += fmt::format("    {:>3} x {} {}-bit (area {:.0f})\n", c.count, key.first, key.second, c.area);
  size_t regs = d.registers.size();
  if (d.kind == DesignKind::Fsm) regs += (d.dfg.loop ? d.dfg.loop->state.size() : 0) + d.dfg.outputs.size();
  out += fmt::format("  registers: {} ({})\n", regs, text::counted(d.register_bits(), "bit"));
  const Resources r = d.resources();
  out += fmt::format("  resources (model): {:.0f} LUTs, {:.0f} flip-flops, {:.0f} carries, {} DSPs", r.luts, r.ffs,
                     r.carries, r.dsps);
  if (d.capacity)
    out += fmt::format(" (the {} has {} LUTs, {} flip-flops, {} DSPs)", d.capacity->device, d.capacity->luts,
                       d.capacity->ffs, d.capacity->dsps);
  out += "\n";
  if (!d.fallback.empty()) out += "  not II 1: " + d.fallback + "\n";
  if (!d.ii_search.empty()) out += "  II search: " + ii_search_text(d) + "\n";
  const double slack = d.clock_ns - d.critical_path_ns;
  out += fmt::format("  critical path: {:.2f} ns against {:.2f} ns (slack {:.2f} ns{})\n", d.critical_path_ns, d.clock_ns,
                     slack, slack < 0 ? ", NEGATIVE: the model predicts the clock is missed" : "");
  out += "  schedule:\n";
  std::map<uint32_t, std::vector<ValueId>> by_step;
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (d.dfg.is_logic(v) && d.live[v]) by_step[d.place[v].step].push_back(v);
  for (const auto& [step, ops] : by_step) {
    out += fmt::format("    {}:\n", step_name(d, step));
    for (ValueId v : ops) {
      const Placement& p = d.place[v];
      const std::string& name = d.dfg.nodes[v].name;
      out += fmt::format("      v{:<5} {:<14} {:6.2f} .. {:6.2f} ns{}\n", v, op_label(d, v), p.start_ns, p.finish_ns,
                         name.empty() ? "" : "  (" + name + ")");
    }
  }
  return out;
}

std::string report_json(const Design& d) {
  nlohmann::ordered_json j;
  j["kernel"] = d.dfg.name;
  j["kind"] = d.kind == DesignKind::Pipeline ? "pipeline" : "fsm";
  j["target"] = std::string(target_name(d.target));
  j["clock_ns"] = d.clock_ns;
  if (d.kind == DesignKind::Pipeline) {
    j["stages"] = d.stages;
    j["latency_cycles"] = d.stages;
    j["initiation_interval"] = d.ii;
  } else {
    j["states"] = d.states.size();
    j["pre_loop_steps"] = d.pre_steps;
    j["loop_steps"] = d.loop_steps;
    j["post_loop_steps"] = d.post_steps;
    j["latency_formula"] = latency_formula(d);
    j["latency_cycles_at_zero_iterations"] = d.latency(0);
  }
  nlohmann::ordered_json units = nlohmann::ordered_json::array();
  for (const auto& [key, c] : unit_table(d))
    units.push_back({{"kind", key.first}, {"width", key.second}, {"count", c.count}, {"area", c.area}});
  j["units"] = units;
  size_t regs = d.registers.size();
  if (d.kind == DesignKind::Fsm) regs += (d.dfg.loop ? d.dfg.loop->state.size() : 0) + d.dfg.outputs.size();
  j["registers"] = regs;
  j["register_bits"] = d.register_bits();
  const Resources r = d.resources();
  j["resources"] = {{"luts", r.luts}, {"ffs", r.ffs}, {"carries", r.carries}, {"dsps", r.dsps}};
  if (d.capacity)
    j["capacity"] = {{"device", d.capacity->device}, {"luts", d.capacity->luts}, {"ffs", d.capacity->ffs},
                     {"dsps", d.capacity->dsps}};
  if (!d.fallback.empty()) j["fallback"] = d.fallback;
  if (!d.ii_search.empty()) {
    nlohmann::ordered_json trials = nlohmann::ordered_json::array();
    for (const IiTrial& t : d.ii_search)
      trials.push_back({{"ii", t.ii}, {"cells", t.cells}, {"dsps", t.dsps}, {"fits", t.fits}});
    j["ii_search"] = trials;
  }
  j["critical_path_ns"] = d.critical_path_ns;
  j["slack_ns"] = d.clock_ns - d.critical_path_ns;
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v) {
    if (!d.dfg.is_logic(v) || !d.live[v]) continue;
    const Placement& p = d.place[v];
    ops.push_back({{"value", v}, {"op", op_label(d, v)}, {"name", d.dfg.nodes[v].name}, {"step", step_name(d, p.step)},
                   {"start_ns", p.start_ns}, {"finish_ns", p.finish_ns}, {"unit", p.unit},
                   {"line", d.dfg.nodes[v].loc.line}});
  }
  j["operations"] = ops;
  return j.dump(2) + "\n";
}

std::optional<TimingMiss> timing_warning(const Design& d) {
  if (d.critical_path_ns <= d.clock_ns + 1e-9) return std::nullopt;
  ValueId worst = 0;
  for (ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (d.dfg.is_logic(v) && d.live[v] && d.place[v].finish_ns > d.place[worst].finish_ns) worst = v;
  const Node& n = d.dfg.nodes[worst];
  return TimingMiss{fmt::format("the model predicts the clock is missed: {:.2f} ns against {:.2f} ns ({:.1f} MHz "
                                "against {:.1f}), slowest in {} at {}",
                                d.critical_path_ns, d.clock_ns, 1000.0 / d.critical_path_ns, 1000.0 / d.clock_ns,
                                step_name(d, d.place[worst].step), op_label(d, worst) + (n.name.empty() ? "" : " " + n.name)),
                    n.loc};
}

std::string ii_search_text(const Design& d) {
  std::string out;
  for (const IiTrial& t : d.ii_search)
    out += fmt::format("{}II {}: {:.0f} cells, {} DSPs, {}", out.empty() ? "" : "; ", t.ii, t.cells, t.dsps,
                       t.fits ? "fits" : "does not fit");
  if (!d.ii_search.back().fits)
    out += d.kind == DesignKind::Fsm ? fmt::format("; none fits: the iterative FSM ({:.0f} cells)", d.resources().cells())
                                     : fmt::format("; none fits: II {}, the smallest", d.ii);
  return out;
}

std::string summary_line(const Design& d) {
  if (d.kind == DesignKind::Pipeline)
    return fmt::format("pipeline, {} stage{}{}", d.stages, d.stages == 1 ? "" : "s", d.ii > 1 ? fmt::format(", II {}", d.ii) : "");
  return fmt::format("FSM, {} state{}", d.states.size(), d.states.size() == 1 ? "" : "s");
}

}  // namespace polydat::hls
