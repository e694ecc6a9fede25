// Internal to workload/: the Runner that walks a workload's scenario, shared
// by its files: runner.cc (the entry points, the walk, the output),
// runner_scopes.cc (kernels and field values), runner_steps.cc (scenario
// steps and loops), runner_phases.cc (phases and their stanzas) and
// plan_walk.cc (plan mode: phases recorded for hardware, not run).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/value.h"
#include "workload/comprehension.h"
#include "workload/cursors.h"
#include "workload/frame.h"
#include "workload/model.h"
#include "workload/op_template.h"
#include "workload/runner.h"
#include "workload/subcontext.h"
#include "workload/tag_filter.h"

namespace polydat::workload {

struct WorkloadPlan;  // plan.h; only plan_walk.cc fills one

namespace runner_detail {

using Status = ir::Expected<void, std::string>;

// A phase's ops with their inline bindings, as fragments of the phase's kernel.
struct PreparedOps {
  std::vector<PreparedOp> ops;
  std::vector<Fragment> fragments;
};

class Runner {
 public:
  Runner(const Workload& w, const RunOptions& o, const std::function<bool(const std::string&)>* sink, bool explain,
         WorkloadPlan* plan = nullptr);

  ir::Expected<RunSummary, std::string> run();

  const std::string& tree() const { return tree_; }

 private:
  // ---- the run (runner.cc)
  void note_ignored_keys();
  static std::string not_acted_reason(const std::string& key);
  Status walk();

  // ---- scopes and fields (runner_scopes.cc)
  Fragment fragment_of(const Field& f, const Frame& vars, bool no_shadow);
  ir::Expected<std::shared_ptr<const CompiledScope>, std::string> compile(const std::string& label, Mark at,
                                                                          const std::vector<Fragment>& frags,
                                                                          const Frame& parent);
  ir::Expected<PreparedOps, std::string> prepare_ops(const std::vector<OpDef>& ops, const Frame& vars);
  std::string field_error(const Field& f, const std::string& message, const char* kind);
  ir::Expected<ir::Value, std::string> eval_field(const Field& f, Frame& frame);
  ir::Expected<uint64_t, std::string> eval_count(const Field& f, Frame& frame);
  ir::Expected<bool, std::string> eval_condition(const Field& f, Frame& frame);

  // ---- scenario (runner_steps.cc)
  ir::Expected<std::vector<Step>, std::string> scenario_steps();
  static Seeding seeding(ScopeMode m, Seeding dflt);
  Status exec_steps(const std::vector<Step>& steps, Frame& frame, int depth);
  Status run_scope(const Step& s, Frame& frame, int depth);
  ir::Expected<ir::Value, std::string> set_value(const Field& f, Frame& frame);
  static std::vector<std::string> phase_texts(const PhaseDef& p);
  std::vector<std::string> body_texts(const std::vector<Step>& steps, int depth);
  Status do_loop(const Step& s, Frame& frame, int depth);
  static std::string loop_text(const LoopSpec& l);
  Mark spec_mark(const LoopSpec& ls, const comprehension::Place& at) const;
  std::string spec_error(const LoopSpec& ls, const comprehension::SpecError& e) const;
  ir::Expected<comprehension::Comprehension, std::string> comprehension_of(const LoopSpec& ls) const;
  Status for_each(const LoopSpec& ls, Frame& loop, Seeding iter_seeding, int depth,
                  const std::function<Status(Frame&)>& body, const std::vector<std::string>& texts);

  // ---- phases (runner_phases.cc)
  Status run_phase(const PhaseDef& p, Frame& frame, int depth);
  Status run_phase_body(const PhaseDef& p, Frame& parent, int depth);
  ir::Expected<std::optional<CursorRange>, std::string> cursor_driven(Frame& f, const Field* cycles, const std::string& what);
  static bool is_auto(const Field& f);
  ir::Expected<std::vector<size_t>, std::string> stanza_of(const std::vector<PreparedOp>& ops);
  const std::vector<OpDef>& top_ops(const TagFilter* filter);
  Status check_ops(const PreparedOps& ops, const Frame& f);
  Status run_top_level(Frame& root, const PreparedOps& ops);

  // ---- plan mode (plan_walk.cc)
  static std::optional<std::string> cell_in(const std::string& text, const Frame& f);
  Status plannable(const Field& f, const std::string& text, const Frame& frame);
  static std::string iteration_of(const Frame& f);
  Status record_plan_entry(const PhaseDef& p, Frame& f, const std::vector<PreparedOp>& ops,
                           const std::vector<size_t>& stanza, uint64_t cycles);

  // ---- output (runner.cc)
  Status run_ordinals(Frame& f, const std::vector<PreparedOp>& ops, const std::vector<size_t>& lut, uint64_t first,
                      uint64_t end);
  ir::Expected<ir::Value, std::string> value_of(Frame& f, const std::string& name, uint64_t cycle, const OpDef& op);
  Status render(const PreparedOp& op, Frame& f, uint64_t cycle);
  Status render_line(const PreparedOp& op, Frame& f, uint64_t cycle);
  void flush();
  void report_progress() const;  // o_.progress with where the run is

  // ---- explain (runner.cc)
  static std::string indent(int depth) { return std::string(2 * depth, ' '); }
  std::string describe(const Frame& f);

  const Workload& w_;
  const RunOptions& o_;
  const std::function<bool(const std::string&)>* sink_;
  bool explain_;
  bool checking_ = false;  // the pass before the run: scopes compiled and checked, nothing rendered
  bool header_done_ = false;
  bool phase_selects_ = false;                    // some phase picks top-level ops by tags:
  std::deque<std::vector<OpDef>> selections_;     // the ops tag filters kept (PreparedOp points into them)
  WorkloadPlan* plan_;  // plan mode: phases are recorded, not run
  std::vector<std::string> lib_paths_;
  std::map<std::string, std::shared_ptr<const CompiledScope>> cache_;
  RunSummary s_;
  uint64_t phase_base_ = 0, phase_cycles_ = 0;  // s_.cycles as the phase run going began, and its cycles
  std::string buf_;
  uint64_t flushed_ = 0;  // bytes handed to the sink
  bool closed_ = false;
  std::string tree_;
};

}  // namespace runner_detail

}  // namespace polydat::workload
