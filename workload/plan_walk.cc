// Plan mode: the Runner walks the scenario as `polydat run` does, but each
// phase run becomes a PlanEntry (plan.h) instead of running its cycles, and a
// scenario field that depends on a shared cell is refused (only the hardware
// knows its value).
#include "workload/plan.h"

#include <cctype>
#include <vector>

#include "workload/runner_detail.h"
#include "workload/values.h"

namespace polydat::workload {

namespace runner_detail {

// Plan mode: the first name in `text` that is a shared cell, or a binding
// that reads one: only the hardware knows its value as the scenario runs.
std::optional<std::string> Runner::cell_in(const std::string& text, const Frame& f) {
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      const std::string word = text.substr(i, j - i);
      const auto it = f.visible().find(word);
      if (it != f.visible().end() &&
          (it->second.kind == VisibleName::Kind::Cell || (it->second.kind == VisibleName::Kind::Binding && it->second.reads_cell)))
        return word;
      i = j;
    } else {
      ++i;
    }
  }
  return std::nullopt;
}

// Plan mode refuses a scenario field whose value depends on a shared cell.
Status Runner::plannable(const Field& f, const std::string& text, const Frame& frame) {
  if (!plan_) return {};
  if (auto cell = cell_in(text, frame))
    return field_error(f, "'" + f.key + "' reads '" + *cell + "', which depends on a shared cell the hardware computes: "
                              "the host cannot plan the scenario", "hw-scenario");
  return {};
}

// The loop variables of the iterations around `f`: "table=t_small k=10".
std::string Runner::iteration_of(const Frame& f) {
  std::vector<const Frame*> chain;
  for (const Frame* g = &f; g; g = g->parent()) chain.push_back(g);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Frame& g = **it;
    if (g.label().rfind("iteration", 0) != 0) continue;
    std::string part;
    for (const auto& [n, v] : g.vars()) part += (part.empty() ? "" : " ") + n + "=" + op_text(v);
    if (part.empty()) part = "#" + g.label().substr(g.label().find(' ') + 1);
    out += (out.empty() ? "" : "; ") + part;
  }
  return out;
}

// Plan mode: the phase run becomes an entry of the plan (its kernels, where
// each name comes from), with no cycles run.
Status Runner::record_plan_entry(const PhaseDef& p, Frame& f, const std::vector<PreparedOp>& ops,
                                 const std::vector<size_t>& stanza, uint64_t cycles) {
  auto e = plan_entry(w_, f, ops, stanza, cycles);
  if (!e) return e.error();
  e->phase = p.name;
  e->at = p.at;
  e->iteration = iteration_of(f);
  plan_->entries.push_back(std::move(*e));
  ++s_.phases;
  s_.cycles += cycles;
  return {};
}

}  // namespace runner_detail

using runner_detail::Runner;

ir::Expected<WorkloadPlan, std::string> plan_workload(const Workload& w, const RunOptions& options) {
  WorkloadPlan plan;
  Runner r(w, options, nullptr, false, &plan);
  auto s = r.run();
  if (!s) return s.error();
  plan.summary = std::move(*s);
  return plan;
}

}  // namespace polydat::workload
