// The Runner's scenario: the steps chosen (a scenario by name, `default`, or
// every phase), each step run in order (phases, includes, set:/bindings:
// scopes, do_while/do_until), and for_each loops over a comprehension's
// tuples, each variable classed structural or parametric for --explain.
#include <algorithm>

#include "frontend/diagnostics.h"
#include "workload/runner_detail.h"
#include "workload/values.h"
#include "text/plural.h"

namespace polydat::workload::runner_detail {

namespace {

constexpr int kMaxDepth = 256;  // steps inside loops, scopes and included scenarios

bool mentions_var(const std::string& text, const std::string& var) {
  return text.find("{" + var + "}") != std::string::npos;
}

}  // namespace

ir::Expected<std::vector<Step>, std::string> Runner::scenario_steps() {
  const Scenario* sc = nullptr;
  if (!o_.scenario.empty()) {
    sc = w_.find_scenario(o_.scenario);
    if (!sc) {
      std::vector<std::string> names;
      for (const Scenario& s : w_.scenarios) names.push_back(s.name);
      std::string msg = w_.path + ": error: no scenario '" + o_.scenario + "' in this workload";
      const std::string close = frontend::closest_name(o_.scenario, names);
      if (!close.empty()) msg += " (did you mean '" + close + "'?)";
      else if (!names.empty()) {
        msg += "; it has:";
        for (const std::string& n : names) msg += " " + n;
      }
      return msg + " [unknown-scenario]";
    }
  } else {
    sc = w_.find_scenario("default");
  }
  if (sc) return sc->steps;
  std::vector<Step> all;
  for (const PhaseDef& p : w_.phases) {
    Step s;
    s.kind = Step::Kind::Phase;
    s.phase = p.name;
    s.at = p.at;
    all.push_back(std::move(s));
  }
  return all;
}

Seeding Runner::seeding(ScopeMode m, Seeding dflt) {
  return m == ScopeMode::Clean ? Seeding::Clean : m == ScopeMode::Inherit ? Seeding::Inherit : dflt;
}

Status Runner::exec_steps(const std::vector<Step>& steps, Frame& frame, int depth) {
  if (depth > kMaxDepth)
    return render_workload_error(w_.path, w_.text, steps.empty() ? Mark{} : steps.front().at,
                                 "scenario steps (includes counted) nest more than " + std::to_string(kMaxDepth) +
                                     " levels deep",
                                 "nesting-too-deep");
  for (const Step& s : steps) {
    if (closed_) return {};
    Status st;
    switch (s.kind) {
      case Step::Kind::Phase: {
        const PhaseDef* p = w_.find_phase(s.phase);
        if (!p) return render_workload_error(w_.path, w_.text, s.at, "no phase '" + s.phase + "'", "unknown-phase");
        st = run_phase(*p, frame, depth);
        break;
      }
      case Step::Kind::ForEach: {
        Frame loop(&frame, "for_each " + loop_text(s.loop), seeding(s.loop_scope, Seeding::Clean));
        st = for_each(s.loop, loop, seeding(s.iter_scope, Seeding::Inherit), depth,
                      [&](Frame& iter) { return exec_steps(s.body, iter, depth + 1); },
                      body_texts(s.body, 0));
        break;
      }
      case Step::Kind::DoWhile:
      case Step::Kind::DoUntil: st = do_loop(s, frame, depth); break;
      case Step::Kind::Include: {
        // Transparent: the included scenario's steps run here, in this scope.
        const Scenario* sc = w_.find_scenario(s.scenario);
        if (!sc) return render_workload_error(w_.path, w_.text, s.at, "no scenario '" + s.scenario + "'", "unknown-scenario");
        if (explain_) tree_ += indent(depth) + "scenario " + s.scenario + "\n";
        st = exec_steps(sc->steps, frame, depth + (explain_ ? 1 : 0) + 1);
        break;
      }
      case Step::Kind::Scope: st = run_scope(s, frame, depth); break;
    }
    if (!st) return st;
  }
  return {};
}

// `set:` (variables over its steps, as a loop variable is) or `bindings:`
// (a kernel of its own whose outputs its steps read); `scenarios:` alone.
Status Runner::run_scope(const Step& s, Frame& frame, int depth) {
  if (s.set.empty() && !s.bindings) return exec_steps(s.body, frame, depth);
  Frame scope(&frame, s.bindings ? "bindings" : "set", Seeding::Inherit);
  std::string label;
  for (const auto& [name, field] : s.set) {
    // Like a param: `{name}` of the scopes around it is filled in first.
    auto v = set_value(field, scope);
    if (!v) return v.error();
    label += (label.empty() ? "" : " ") + name + "=" + op_text(*v);
    scope.set_var(name, std::move(*v), field.at);
  }
  if (s.bindings) {
    auto c = compile("bindings", s.at, {fragment_of(*s.bindings, scope, false)}, frame);
    if (!c) return c.error();
    if (auto a = scope.attach(*c); !a) return a.error();
  }
  if (explain_) tree_ += indent(depth) + (s.bindings ? "bindings" + describe(scope) : "set " + label) + "\n";
  return exec_steps(s.body, scope, depth + 1);
}

// A `set:` value: its text with `{name}` of params and variables filled in, typed as a param's.
ir::Expected<ir::Value, std::string> Runner::set_value(const Field& f, Frame& frame) {
  FrameLookup look(frame, 0);
  auto t = embed::interpolate_via_kernel(f.text, look);
  if (look.error()) return *look.error();
  if (!t) return field_error(f, t.error().to_string(), "field");
  return param_value(*t);
}

// The texts of a phase that are compiled: its bindings, its ops' bindings,
// and the expressions of inline bindings and `if:` (a loop variable written
// `{v}` in any of them is substituted before compiling: structural).
std::vector<std::string> Runner::phase_texts(const PhaseDef& p) {
  std::vector<std::string> out;
  if (p.bindings) out.push_back(p.bindings->text);
  std::vector<InlineBinding> inlines;
  for (const OpDef& op : p.ops) {
    if (op.bindings) out.push_back(op.bindings->text);
    if (op.condition) out.push_back(op.condition->text);
    for (const auto& [name, field] : op.fields) (void)parse_template(field, "", inlines);
  }
  for (const InlineBinding& b : inlines) out.push_back(b.expr);
  return out;
}

// The bindings texts inside these steps (for a loop variable's class).
std::vector<std::string> Runner::body_texts(const std::vector<Step>& steps, int depth) {
  std::vector<std::string> out;
  if (depth > kMaxDepth) return out;
  for (const Step& s : steps) {
    if (s.kind == Step::Kind::Phase) {
      if (const PhaseDef* p = w_.find_phase(s.phase)) {
        auto texts = phase_texts(*p);
        out.insert(out.end(), texts.begin(), texts.end());
      }
      continue;
    }
    if (s.bindings) out.push_back(s.bindings->text);
    for (const auto& [name, field] : s.set) out.push_back(field.text);
    const Scenario* sc = s.kind == Step::Kind::Include ? w_.find_scenario(s.scenario) : nullptr;
    auto inner = body_texts(sc ? sc->steps : s.body, depth + 1);
    out.insert(out.end(), inner.begin(), inner.end());
  }
  return out;
}

Status Runner::do_loop(const Step& s, Frame& frame, int depth) {
  const bool until = s.kind == Step::Kind::DoUntil;
  Frame loop(&frame, std::string(until ? "do_until " : "do_while ") + s.spec.text, seeding(s.loop_scope, Seeding::Clean));
  if (explain_) tree_ += indent(depth) + loop.label() + (s.counter ? " (counter " + *s.counter + ")" : "") + "\n";
  for (uint64_t i = 0;; ++i) {
    {
      // The condition reads the loop as it is now (what the iterations before wrote), with the counter set.
      Frame probe(&loop, "condition", Seeding::Inherit);
      if (s.counter) probe.set_var(*s.counter, ir::Value::integer(ir::TyKind::U64, i), s.at);
      auto c = eval_condition(s.spec, probe);
      if (!c) return c.error();
      if (*c == until && !checking_) break;  // checking: the body is checked once whatever the condition says
    }
    if (i >= o_.max_loop_iterations)
      return render_workload_error(w_.path, w_.text, s.spec.content.line ? s.spec.content : s.at,
                                   "this loop ran " + text::counted(i, "iteration") + " without its condition ending it",
                                   "loop-limit");
    Frame iter(&loop, "iteration " + std::to_string(i), seeding(s.iter_scope, Seeding::Clean));
    if (s.counter) iter.set_var(*s.counter, ir::Value::integer(ir::TyKind::U64, i), s.at);
    if (auto st = exec_steps(s.body, iter, depth + 1); !st) return st;
    if (explain_ || checking_ || closed_) break;
  }
  return {};
}

// Each combination of a `for_each` clause list: "a in SPEC, b in SPEC(a)...".
std::string Runner::loop_text(const LoopSpec& l) {
  std::string t;
  for (const Field& f : l.entries) t += (t.empty() ? "" : "; ") + f.text;
  return t;
}

// Where a comprehension's error points: the field the place counts in.
Mark Runner::spec_mark(const LoopSpec& ls, const comprehension::Place& at) const {
  const Field* f = &ls.entries.front();
  if (at.part == comprehension::Part::Entry && at.entry < ls.entries.size()) f = &ls.entries[at.entry];
  if (at.part == comprehension::Part::Where && ls.where) f = &*ls.where;
  if (at.part == comprehension::Part::Order && ls.order) f = &*ls.order;
  Mark m = f->content.line ? f->content : f->at;
  const size_t nl = f->text.rfind('\n', at.offset ? at.offset - 1 : 0);
  if (f->literal_block && nl != std::string::npos && nl < at.offset) {  // a block's later line: its own column
    m.line += static_cast<uint32_t>(std::count(f->text.begin(), f->text.begin() + static_cast<long>(nl) + 1, '\n'));
    m.col += static_cast<uint32_t>(at.offset - nl - 1);
  } else {
    m.col += static_cast<uint32_t>(std::min(at.offset, f->text.size()));
  }
  return m;
}

std::string Runner::spec_error(const LoopSpec& ls, const comprehension::SpecError& e) const {
  return render_workload_error(w_.path, w_.text, spec_mark(ls, e.at), ls.key + ": " + e.message, e.kind);
}

// The comprehension a loop key writes (its text, the list form's sub-spaces, the sibling where: and order:).
ir::Expected<comprehension::Comprehension, std::string> Runner::comprehension_of(const LoopSpec& ls) const {
  std::vector<std::string> texts;
  for (const Field& f : ls.entries) texts.push_back(f.text);
  auto c = ls.list ? comprehension::parse_entries(texts) : comprehension::parse(texts.front());
  if (!c) return spec_error(ls, c.error());
  if (ls.where)
    if (auto st = comprehension::set_where(*c, ls.where->text); !st) return spec_error(ls, st.error());
  if (ls.order)
    if (auto st = comprehension::set_order(*c, ls.order->text); !st) return spec_error(ls, st.error());
  return std::move(*c);
}

// Each tuple of a `for_each` comprehension, in nb-rs's order, runs `body` in an iteration of `loop`.
Status Runner::for_each(const LoopSpec& ls, Frame& loop, Seeding iter_seeding, int depth,
                        const std::function<Status(Frame&)>& body, const std::vector<std::string>& texts) {
  for (const Field& f : ls.entries)
    if (auto st = plannable(f, f.text, loop); !st) return st;
  if (ls.where)
    if (auto st = plannable(*ls.where, ls.where->text, loop); !st) return st;
  auto c = comprehension_of(ls);
  if (!c) return c.error();
  if (explain_) {
    tree_ += indent(depth) + ls.key + " " + loop_text(ls) + "\n";
    for (const std::string& var : comprehension::coordinate_names(*c)) {
      bool structural = false;
      for (const std::string& t : texts) structural = structural || mentions_var(t, var);
      tree_ += indent(depth + 1) + "variable " + var + ": " +
               (structural ? "structural (in bindings text: its scopes recompile per iteration)"
                           : "parametric (read only: the kernels are reused, the variable set per iteration)") +
               "\n";
    }
  }
  FrameLookup outer(loop, 0);
  comprehension::Env env{outer, cursor_extents(loop), false, [&](const comprehension::SpecError& e) {
                           if (!checking_) s_.warnings.push_back(spec_error(ls, e));
                         }};
  auto tuples = comprehension::evaluate(*c, env);
  if (outer.error()) return *outer.error();
  if (!tuples) return spec_error(ls, tuples.error());
  for (const comprehension::Tuple& t : *tuples) {
    std::string label = "iteration";
    for (const auto& [n, v] : t) label += " " + n + "=" + op_text(v);
    Frame iter(&loop, label, iter_seeding);
    for (const auto& [n, v] : t) iter.set_var(n, v, ls.at);
    if (auto st = body(iter); !st) return st;
    if (explain_ || closed_) break;
  }
  return {};
}

}  // namespace polydat::workload::runner_detail
