// The Runner's phases: a phase's scope (its bindings, its own ops or the
// top-level ops its tags: select), its stanza (nb-rs's ratios laid out by
// seq=), its cycles (or a cursor's ordinals), checked, explained, planned or
// run; and the top-level ops of a workload without phases.
#include <algorithm>

#include "workload/op_sequence.h"
#include "workload/runner_detail.h"
#include "workload/values.h"
#include "text/plural.h"

namespace polydat::workload::runner_detail {

Status Runner::run_phase(const PhaseDef& p, Frame& frame, int depth) {
  if (!p.for_each) return run_phase_body(p, frame, depth);
  Frame loop(&frame, "phase " + p.name + " loop", seeding(p.loop_scope, Seeding::Clean));
  return for_each(*p.for_each, loop, seeding(p.iter_scope, Seeding::Inherit), depth,
                  [&](Frame& iter) { return run_phase_body(p, iter, depth + 1); }, phase_texts(p));
}

Status Runner::run_phase_body(const PhaseDef& p, Frame& parent, int depth) {
  Frame f(&parent, "phase " + p.name, Seeding::Inherit);
  std::vector<Fragment> frags;
  if (p.bindings) frags.push_back(fragment_of(*p.bindings, f, false));
  const std::vector<OpDef>* phase_ops = &p.ops;
  if (p.tags) {  // a phase without ops of its own runs the top-level ops its filter selects
    auto filter = TagFilter::parse(p.tags->text);
    if (!filter) {
      Mark at = p.tags->content;
      at.col += static_cast<uint32_t>(filter.error().offset);
      return render_workload_error(w_.path, w_.text, at, filter.error().message, filter.error().kind);
    }
    phase_ops = &top_ops(&*filter);
    if (phase_ops->empty())
      return field_error(*p.tags, "tags: '" + p.tags->text + "' selects none of the workload's top-level ops",
                         "no-ops-selected");
  }
  auto ops = prepare_ops(*phase_ops, f);
  if (!ops) return ops.error();
  frags.insert(frags.end(), ops->fragments.begin(), ops->fragments.end());
  if (!frags.empty()) {
    auto c = compile("phase " + p.name, p.at, frags, parent);
    if (!c) return c.error();
    if (auto a = f.attach(*c); !a) return a.error();
  }
  auto stanza = stanza_of(ops->ops);
  if (!stanza) return stanza.error();
  // `cycles:` counts stanzas (nb-rs): the phase runs stanzas x stanza length ordinals.
  uint64_t stanzas = 1;
  if (p.cycles && !is_auto(*p.cycles)) {
    auto n = eval_count(*p.cycles, f);
    if (!n) return n.error();
    stanzas = *n;
  }
  const uint64_t length = stanza->size();
  if (length && stanzas > UINT64_MAX / length)
    return field_error(*p.cycles, std::to_string(stanzas) + " stanzas of " + std::to_string(length) +
                                      " ops are more cycles than a u64 counts", "bad-count");
  uint64_t first = 0, cycles = stanzas * length;
  auto drive = cursor_driven(f, p.cycles ? &*p.cycles : nullptr, "phase '" + p.name + "'");
  if (!drive) return drive.error();
  if (*drive) first = (*drive)->first, cycles = (*drive)->end - (*drive)->first;
  if (checking_) return check_ops(*ops, f);
  if (explain_) {
    tree_ += indent(depth) + "phase " + p.name + " (" + text::counted(cycles, "cycle") +
             (*drive ? ", from " + std::to_string(first) + ": cursor " + (*drive)->cursor : std::string()) + ")" +
             describe(f) + "\n";
    return {};
  }
  if (length == 0) {
    s_.warnings.push_back("phase '" + p.name + "' has no ops: nothing runs (nb-rs skips it too)");
    return {};
  }
  if (plan_) return record_plan_entry(p, f, ops->ops, *stanza, cycles);
  ++s_.phases;
  if (o_.phase_run_starts) o_.phase_run_starts(flushed_ + buf_.size(), s_.ops);
  return run_ordinals(f, ops->ops, *stanza, first, first + cycles);
}

// nb-rs's rule: a scope whose own kernel declares a cursor runs the cursor's
// ordinals, whatever `cycles` says (a `cycles` given is noted, not acted on).
// Plan mode refuses it (workload/cursors.h).
ir::Expected<std::optional<CursorRange>, std::string> Runner::cursor_driven(Frame& f, const Field* cycles,
                                                                     const std::string& what) {
  if (plan_)
    if (auto st = refuse_cursors_in_hardware(f); !st) return st.error();
  auto r = cursor_range(f);
  if (!r || !*r) return r;
  if (cycles && !checking_ && !explain_) {
    const std::string note = what + ": `cycles: " + cycles->text + "` (line " +
                             std::to_string(cycles->at.line) + ") is not acted on: cursor '" + (*r)->cursor +
                             "' sets the cycles it runs (nb-rs's rule)";
    if (std::find(s_.warnings.begin(), s_.warnings.end(), note) == s_.warnings.end()) s_.warnings.push_back(note);
  }
  return r;
}

bool Runner::is_auto(const Field& f) {
  std::string t = f.text;
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  return t.empty() || t == "===auto" || t == "==auto";
}

// nb-rs's stanza: cycle c runs op lut[c % lut.size()], the ops' ratios laid out by seq=.
ir::Expected<std::vector<size_t>, std::string> Runner::stanza_of(const std::vector<PreparedOp>& ops) {
  if (ops.empty()) return std::vector<size_t>{};
  std::vector<uint64_t> ratios;
  for (const PreparedOp& op : ops) {
    auto r = op_ratio({op.def->ratio ? &*op.def->ratio : nullptr});
    if (!r) return render_workload_error(w_.path, w_.text, r.error().at, r.error().message, "bad-ratio");
    ratios.push_back(*r);
  }
  auto seq = OpSequence::build(ratios, o_.sequencer);
  if (!seq) {
    const Mark at = seq.error().op ? ops[*seq.error().op].def->at : ops.front().def->at;
    return render_workload_error(w_.path, w_.text, at, seq.error().message, seq.error().kind);
  }
  return std::vector<size_t>(seq->slots().begin(), seq->slots().end());
}

// The top-level ops tags= keeps, and of those the ones `filter` (a phase's tags:) keeps.
const std::vector<OpDef>& Runner::top_ops(const TagFilter* filter) {
  if (!o_.tags && !filter) return w_.ops;
  auto& kept = selections_.emplace_back();
  for (const OpDef& op : w_.ops)
    if ((!o_.tags || o_.tags->matches(op.tags)) && (!filter || filter->matches(op.tags))) kept.push_back(op);
  return kept;
}

// Checking: every name an op shows or tests is visible from its scope.
Status Runner::check_ops(const PreparedOps& ops, const Frame& f) {
  for (const PreparedOp& op : ops.ops) {
    auto known = [&](const std::string& name) {
      return name == "cycle" || f.visible().count(name) > 0 || (f.scope() && f.scope()->output_index.count(name) > 0);
    };
    if (op.condition && !known(*op.condition)) return unbound_op_name(w_, *op.def, *op.condition);
    for (const auto& [field, t] : op.fields)
      for (const TemplatePart& part : t.parts)
        if (part.is_name && !known(part.text)) return unbound_op_name(w_, *op.def, part.text);
  }
  return {};
}

// Top-level ops: `cycles` (a param or cycles=N) counts ordinals, one op each; one stanza by default.
Status Runner::run_top_level(Frame& root, const PreparedOps& ops) {
  auto stanza = stanza_of(ops.ops);
  if (!stanza) return stanza.error();
  uint64_t cycles = stanza->size();
  if (const ir::Value* v = root.find_var("cycles")) {
    Field f;
    f.text = op_text(*v);
    f.key = "cycles";
    if (!is_auto(f)) {
      auto n = eval_count(f, root);
      if (!n) return n.error();
      cycles = *n;
    }
  }
  if (checking_) return check_ops(ops, root);
  if (explain_) {
    tree_ += "  top-level ops (" + text::counted(cycles, "cycle") + ", one op each in turn)\n";
    return {};
  }
  ++s_.phases;
  return run_ordinals(root, ops.ops, *stanza, 0, cycles);  // a cursor here does not drive them (nb-rs)
}

}  // namespace polydat::workload::runner_detail
