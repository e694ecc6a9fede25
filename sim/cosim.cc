#include "sim/cosim.h"

#include <fmt/core.h>

#include <algorithm>

#include "hls/report.h"
#include "text/plural.h"

namespace polydat::sim {

namespace {
std::string values_text(const std::vector<ir::Value>& vs) {
  std::string s;
  for (const ir::Value& v : vs) s += (s.empty() ? "" : ", ") + ir::render(v);
  return "(" + s + ")";
}
}  // namespace

CosimReport compare(const hls::Design& d, const Batch& batch, const EngineRun& oracle, const EngineRun& engine,
                    bool free_flow) {
  CosimReport r;
  r.free_flow = free_flow;
  r.cycles = engine.cycles;
  r.engine_seconds = engine.seconds;
  r.oracle_seconds = oracle.seconds;
  const size_t n = batch.inputs.size();
  if (engine.outputs.size() != n)
    r.missing = fmt::format("{} for {}", text::counted(engine.outputs.size(), "result"), text::counted(n, "input"));
  if (engine.accepted_at.size() != n)
    r.missing += (r.missing.empty() ? "" : "; ") + fmt::format("{} accepted of {}", text::counted(engine.accepted_at.size(), "input"), n);
  const size_t m = std::min(n, engine.outputs.size());
  for (size_t i = 0; i < m; ++i) {
    ++r.compared;
    if (engine.outputs[i] == oracle.outputs[i]) continue;
    if (r.mismatches++ == 0)
      r.first = Mismatch{i, batch.inputs[i], oracle.outputs[i], engine.outputs[i],
                         i < engine.delivered_at.size() ? engine.delivered_at[i] : 0};
  }
  // Results leave in input order: each delivered after its own acceptance and after the one before.
  for (size_t i = 0; i < std::min(m, engine.accepted_at.size()) && r.missing.empty(); ++i)
    if (engine.delivered_at[i] < engine.accepted_at[i] || (i && engine.delivered_at[i] <= engine.delivered_at[i - 1]))
      r.missing = fmt::format("result {} was delivered out of order", i);
  if (!free_flow || !r.missing.empty()) return r;
  for (size_t i = 0; i < m; ++i) {
    const uint64_t measured = engine.delivered_at[i] - engine.accepted_at[i];
    const uint64_t claimed = d.latency(i < oracle.iterations.size() ? oracle.iterations[i] : 0);
    r.min_latency = i ? std::min(r.min_latency, measured) : measured;
    r.max_latency = std::max(r.max_latency, measured);
    ++r.latency_checked;
    if (measured != claimed && r.latency_wrong++ == 0)
      r.latency_first_wrong = fmt::format("evaluation {}: latency {}, the report says {}", i, text::counted(measured, "cycle"), claimed);
    if (i == 0) continue;
    const uint64_t ii = engine.accepted_at[i] - engine.accepted_at[i - 1];
    r.min_ii = i == 1 ? ii : std::min(r.min_ii, ii);
    r.max_ii = std::max(r.max_ii, ii);
    const uint64_t claimed_ii = d.initiation_interval(oracle.iterations[i - 1]);
    if (ii != claimed_ii && r.latency_wrong++ == 0)
      r.latency_first_wrong =
          fmt::format("evaluation {}: accepted {} after the one before, the report says {}", i, text::counted(ii, "cycle"), claimed_ii);
  }
  return r;
}

std::string render(const CosimReport& r, const hls::Design& d) {
  std::string out;
  out += fmt::format("  evaluations compared: {}\n", r.compared);
  out += fmt::format("  mismatches: {}\n", r.mismatches);
  if (r.first) {
    out += fmt::format("  first mismatch: evaluation {} inputs {} expected {} got {} (delivered at cycle {})\n",
                       r.first->evaluation, values_text(r.first->inputs), values_text(r.first->expected),
                       values_text(r.first->actual), r.first->cycle);
  }
  if (!r.missing.empty()) out += "  handshake error: " + r.missing + "\n";
  if (r.free_flow && r.latency_checked) {
    const std::string claim = hls::latency_formula(d);
    out += fmt::format("  latency: {}..{} cycles measured, report {} ({})\n", r.min_latency, r.max_latency, claim,
                       r.latency_wrong ? "WRONG: " + r.latency_first_wrong : "agrees");
    out += fmt::format("  initiation interval: {}..{} cycles measured, report {}\n", r.min_ii, r.max_ii,
                       d.kind == hls::DesignKind::Pipeline ? std::to_string(d.ii) : "latency + 1");
  }
  out += fmt::format("  simulated cycles: {} ({:.2f} M cycles/s)\n", r.cycles,
                     r.engine_seconds > 0 ? static_cast<double>(r.cycles) / r.engine_seconds / 1e6 : 0.0);
  return out;
}

std::string expected_post_reset(const hls::Design& d) {
  // FSM outputs are registers reset to 0; a pipeline's are its last registers, and its constant and
  // cfg_* bits are masked by out_valid.
  std::string s = " 1 0";
  for (size_t i = 0; i < d.dfg.outputs.size(); ++i) s += " 0";
  return s;
}

}  // namespace polydat::sim
