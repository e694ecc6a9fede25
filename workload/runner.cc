// `polydat run` and `--explain`: the Runner's walk of the workload scope and
// its scenario (checked once before the first line is written), the lines
// rendered and handed to the sink, and the scope tree described.
#include "workload/runner.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "workload/batch_phase.h"
#include "workload/render.h"
#include "workload/runner_detail.h"
#include "workload/values.h"

namespace polydat::workload {

namespace runner_detail {

namespace {

constexpr size_t kFlushBytes = 1 << 16;
constexpr uint64_t kProgressEvery = 1 << 16;
constexpr uint64_t kBatchCycles = 4096;

}  // namespace

Runner::Runner(const Workload& w, const RunOptions& o, const std::function<bool(const std::string&)>* sink,
               bool explain, WorkloadPlan* plan)
    : w_(w), o_(o), sink_(sink), explain_(explain), plan_(plan) {
  lib_paths_.push_back(std::filesystem::path(w.path).parent_path().string());
  for (const PhaseDef& p : w.phases) phase_selects_ = phase_selects_ || p.tags.has_value();
  for (const std::string& p : o.lib_paths) lib_paths_.push_back(p);
}

ir::Expected<RunSummary, std::string> Runner::run() {
  note_ignored_keys();
  for (const std::string& w : w_.warnings) s_.warnings.push_back(w);
  if (!explain_ && !plan_) {
    // Every scope the scenario reaches is compiled and checked before the
    // first line is written: a typo in the last phase stops the run here.
    checking_ = true;
    if (auto st = walk(); !st) return st.error();
    checking_ = false;
    const RunSummary checked = s_;
    s_ = RunSummary{};
    s_.compiles = checked.compiles;
    s_.warnings = checked.warnings;
  }
  if (auto st = walk(); !st && !closed_) {
    flush();
    return st.error();
  }
  flush();
  return s_;
}

// Keys nb-rs acts on and this runner does not, once each by name, with their lines.
void Runner::note_ignored_keys() {
  std::map<std::string, std::string> ignored;
  std::vector<std::string> order;
  for (const IgnoredKey& k : w_.ignored) {
    const size_t dot = k.key.find_last_of('.');
    const std::string name = dot == std::string::npos ? k.key : k.key.substr(dot + 1);
    if (!ignored.count(name)) order.push_back(name);
    std::string& lines = ignored[name];
    lines += (lines.empty() ? "" : ", ") + std::to_string(k.at.line);
  }
  for (const std::string& name : order)
    s_.warnings.push_back("'" + name + "' (line" + (ignored[name].find(',') == std::string::npos ? " " : "s ") +
                          ignored[name] + ") is not acted on: " + not_acted_reason(name));
}

// What a stdout run here does instead of what nb-rs does with the key.
std::string Runner::not_acted_reason(const std::string& key) {
  if (key == "concurrency" || key == "stanza_concurrency" || key == "threads")
    return "ops run one at a time, in cycle order (nb-rs's order with concurrency=1)";
  if (key == "rate" || key == "stanzarate" || key == "delay") return "this runner does not pace ops against the clock";
  if (key == "report" || key == "status_metrics" || key == "readouts" || key == "metrics" || key == "instrument" ||
      key == "start-timers" || key == "stop-timers" || key == "emit")
    return "this runner records no metrics and writes no reports";
  if (key == "errors") return "a stdout op cannot fail, so there is nothing to route";
  if (key == "checkpoint") return "this runner does not checkpoint or resume";
  return "it configures nb-rs's adapters or result checks, which a stdout run does not have";
}

// The whole run once: the workload scope, then the scenario (or the top-level ops).
Status Runner::walk() {
  Frame root(nullptr, "workload", Seeding::Inherit);
  std::set<std::string> overridden;
  for (const auto& [name, field] : w_.params) {
    std::string text = field.text;
    for (const auto& [k, v] : o_.overrides)
      if (k == name) text = v, overridden.insert(k);
    root.set_var(name, param_value(text), field.at);
  }
  for (const auto& [k, v] : o_.overrides)
    if (!overridden.count(k) && !root.find_var(k)) root.set_var(k, param_value(v));
  const bool top_level_ops = w_.phases.empty();
  std::vector<Fragment> frags;
  if (w_.bindings) frags.push_back(fragment_of(*w_.bindings, root, false));
  PreparedOps top;
  const std::vector<OpDef>& selected = top_ops(nullptr);
  if (top_level_ops && !w_.ops.empty() && selected.empty())
    return render_workload_error(w_.path, w_.text, {}, "tags= selects none of the workload's ops", "no-ops-selected");
  if (top_level_ops && !selected.empty()) {
    auto p = prepare_ops(selected, root);
    if (!p) return p.error();
    top = std::move(*p);
    frags.insert(frags.end(), top.fragments.begin(), top.fragments.end());
  }
  if (!frags.empty()) {
    auto c = compile("workload", Mark{1, 1}, frags, root);
    if (!c) return c.error();
    if (auto a = root.attach(*c); !a) return a.error();
  }
  if (explain_) tree_ += "workload" + describe(root) + "\n";
  if (top_level_ops) {
    if (plan_ && !w_.ops.empty())
      return render_workload_error(w_.path, w_.text, w_.ops.front().at,
                                   "top-level ops (a workload without phases) do not become hardware; put them in a phase",
                                   "hw-scenario");
    if (w_.ops.empty()) return {};
    return run_top_level(root, top);
  }
  if (!w_.ops.empty() && !checking_ && !phase_selects_)
    s_.warnings.push_back("the top-level ops are not run: this workload has phases (run them from a phase)");
  if (o_.tags && !checking_ && !phase_selects_)
    s_.warnings.push_back("tags= selects among the top-level ops; the phases run their own ops, unfiltered (as nb-rs)");
  auto steps = scenario_steps();
  if (!steps) return steps.error();
  return exec_steps(*steps, root, 1);
}

// Cycles first..end-1, each evaluating the scope's kernel and rendering its op of the stanza.
Status Runner::run_ordinals(Frame& f, const std::vector<PreparedOp>& ops, const std::vector<size_t>& lut, uint64_t first,
                            uint64_t end) {
  uint64_t c = first;
  phase_base_ = s_.cycles;
  phase_cycles_ = end - first;
  if (o_.render.format == LineFormat::Stmt && o_.render.fields.empty() && f.scope() && f.scope()->native) {
    if (auto batch = BatchPhase::plan(f, ops, lut, f.scope()->native)) {
      while (c < end && !closed_) {
        const size_t n = static_cast<size_t>(std::min<uint64_t>(end - c, kBatchCycles));
        const BatchPhase::Done d = batch->render(c, n, buf_);
        c += d.rows;
        s_.cycles += d.rows;
        s_.ops += d.lines;
        s_.skipped += d.skipped;
        if (o_.progress) report_progress();
        if (buf_.size() >= kFlushBytes) flush();
        if (d.rows < n) break;  // a loop past the limit: the op-by-op path below reports it
      }
    }
  }
  for (; c < end && !closed_; ++c) {
    if (auto e = f.evaluate(c, true); !e) return e.error();
    if (auto st = render(ops[lut[c % lut.size()]], f, c); !st) return st;
    ++s_.cycles;
  }
  return {};
}

ir::Expected<ir::Value, std::string> Runner::value_of(Frame& f, const std::string& name, uint64_t cycle, const OpDef& op) {
  auto v = f.lookup(name, cycle);
  if (!v) return v.error();
  if (!*v) return unbound_op_name(w_, op, name);
  return **v;
}

// One op's line; on an error nothing of it is kept.
Status Runner::render(const PreparedOp& op, Frame& f, uint64_t cycle) {
  const size_t mark = buf_.size();
  Status st = render_line(op, f, cycle);
  if (!st) buf_.resize(mark);
  return st;
}

Status Runner::render_line(const PreparedOp& op, Frame& f, uint64_t cycle) {
  if (op.condition) {
    auto v = value_of(f, *op.condition, cycle, *op.def);
    if (!v) return v.error();
    if (!truthy(*v)) {
      ++s_.skipped;
      return {};
    }
  }
  if (!header_done_) {  // nb-rs's header row: once per run, before the first line
    render_header(op, o_.render, buf_);
    header_done_ = true;
  }
  auto st = render_op_line(op, o_.render, [&](const std::string& name) { return value_of(f, name, cycle, *op.def); }, buf_);
  if (!st) return st;
  ++s_.ops;
  if (o_.progress && s_.ops % kProgressEvery == 0) report_progress();
  if (buf_.size() >= kFlushBytes) flush();
  return {};
}

void Runner::report_progress() const {
  o_.progress(RunProgress{s_.cycles, s_.ops, s_.phases, s_.cycles - phase_base_, phase_cycles_});
}

void Runner::flush() {
  if (buf_.empty() || closed_ || !sink_) {
    buf_.clear();
    return;
  }
  if (!(*sink_)(buf_)) closed_ = true;
  flushed_ += buf_.size();
  buf_.clear();
}

std::string Runner::describe(const Frame& f) {
  const CompiledScope* c = f.scope();
  if (!c) return ": no kernel (reads through to the scopes around it)";
  const ScopeModule& m = c->module;
  std::string s = ":";
  auto list = [&](const char* what, const std::vector<std::string>& names) {
    if (names.empty()) return;
    s += std::string(" ") + what + " [";
    for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
    s += "];";
  };
  list("imports once", m.imports);
  list("imports per cycle", m.cycle_imports);
  std::vector<std::string> cells, wts, outs;
  for (const OwnCell& oc : m.cells) cells.push_back((oc.combine == frontend::Combine::Last ? std::string("shared") : "shared(" + std::string(frontend::combine_name(oc.combine)) + ")") + " " + oc.name + ": " + ir::ty_label(oc.ty));
  for (const WriteThrough& wt : m.write_throughs) wts.push_back(wt.cell);
  for (const auto& [name, v] : m.names)
    if (v.kind == VisibleName::Kind::Binding) outs.push_back(name + (v.dynamic ? "" : " (per scope)"));
  list("cells", cells);
  list("writes through", wts);
  list("outputs", outs);
  if (!s.empty() && s.back() == ';') s.pop_back();
  return s == ":" ? std::string() : s;
}

}  // namespace runner_detail

using runner_detail::Runner;

ir::Expected<RunSummary, std::string> run_workload(const Workload& w, const RunOptions& options,
                                                   const std::function<bool(const std::string&)>& sink) {
  Runner r(w, options, &sink, false);
  return r.run();
}

ir::Expected<Explanation, std::string> explain_workload(const Workload& w, const RunOptions& options) {
  Runner r(w, options, nullptr, true);
  auto s = r.run();
  if (!s) return s.error();
  return Explanation{r.tree()};
}

}  // namespace polydat::workload
