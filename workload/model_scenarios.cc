// The workload loader's phases and scenarios: loop keys (for_each, for,
// for_combinations) and scope modes, each phase, each scenario's steps
// (capped in depth), and the checks across them: every include names a
// scenario without a cycle, every phase step names a phase.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <functional>

#include "workload/model_detail.h"

namespace polydat::workload::model_detail {

namespace {

constexpr int kMaxStepDepth = 64;  // scenario steps nested in loops

}  // namespace

ScopeMode Loader::scope_mode(const Entry& e, const std::string& key) const {
  if (e.value.IsNull()) return ScopeMode::Default;
  const Field f = required_scalar(e, key, "clean or inherit");
  if (f.text == "clean") return ScopeMode::Clean;
  if (f.text == "inherit") return ScopeMode::Inherit;
  fail(f.at, key, in_quotes(e.key) + " is clean or inherit, not " + in_quotes(f.text), "bad-value");
}

// for_each / for / for_combinations: a clause text, a list of sub-spaces, or a map NAME: SPEC.
LoopSpec Loader::read_loop(const Entry& e, const std::string& key) {
  LoopSpec loop;
  loop.at = e.key_at;
  loop.key = e.key;
  const YAML::Node& v = e.value;
  if (v.IsScalar()) {
    loop.entries.push_back(scalar_field(v, e.value_at, key));
  } else if (v.IsSequence()) {
    loop.list = true;
    const std::vector<YAML::Node> list = items(v, key, e.key_at, in_quotes(e.key));
    if (list.empty()) fail(e.value_at, key, in_quotes(e.key) + " lists no clauses", "bad-spec");
    for (size_t i = 0; i < list.size(); ++i) {
      const Mark at = mark(list[i], e.value_at);
      if (!list[i].IsScalar())
        fail(at, indexed(key, i), "an item of " + in_quotes(e.key) + " is a clause text (\"v in SPEC\"), not " +
                                      shape(list[i]),
             "not-a-scalar");
      loop.entries.push_back(scalar_field(list[i], at, indexed(key, i)));
    }
  } else if (v.IsMap()) {  // NAME: SPEC, one cartesian sub-space
    Field f;
    f.key = key;
    f.at = f.content = e.value_at;
    for (const Entry& c : entries(v, key, e.key_at, in_quotes(e.key))) {
      const Field spec = required_scalar(c, join_key(key, c.key), "a clause's values");
      f.text += (f.text.empty() ? "" : ", ") + c.key + " in " + spec.text;
    }
    if (f.text.empty()) fail(e.value_at, key, in_quotes(e.key) + " names no variables", "bad-spec");
    loop.entries.push_back(std::move(f));
  } else {
    fail(e.value_at, key, in_quotes(e.key) + " is a clause text (\"v in SPEC\"), a list of them or a map, not " +
                              shape(v),
         "not-a-scalar");
  }
  return loop;
}

void Loader::read_phases(const Entry& section) {
  if (section.value.IsNull()) return;
  for (const Entry& p : entries(section.value, "phases", section.key_at, "phases")) {
    const std::string key = join_key("phases", p.key);
    PhaseDef phase;
    phase.name = p.key;
    phase.at = p.key_at;
    if (!p.value.IsNull()) {
      const Entry* loop = nullptr;
      const Entry* ops = nullptr;
      std::optional<Field> where, order;
      const Entry* where_key = nullptr;
      const std::vector<Entry> fields = entries(p.value, key, p.key_at, "phase " + in_quotes(p.key));
      for (const Entry& e : fields) {
        const std::string field_key = join_key(key, e.key);
        if (e.key == "cycles") {
          phase.cycles = optional_scalar(e, field_key);
        } else if (e.key == "bindings") {
          phase.bindings = read_bindings(e, field_key);
        } else if (contains(kOpsKeys, e.key)) {
          if (ops) fail_twice(e, *ops, "the phase's ops", field_key);
          ops = &e;
        } else if (e.key == "for_each" || e.key == "for") {
          if (loop) fail_twice(e, *loop, "the phase's loop", field_key);
          loop = &e;
          phase.for_each = read_loop(e, field_key);
        } else if (e.key == "where" || e.key == "order") {
          (e.key == "where" ? where : order) = required_scalar(e, field_key, e.key == "where" ? "a predicate" : "an order");
          where_key = &e;
        } else if (e.key == "loop_scope") {
          phase.loop_scope = scope_mode(e, field_key);
        } else if (e.key == "iter_scope") {
          phase.iter_scope = scope_mode(e, field_key);
        } else if (e.key == "tags") {
          phase.tags = required_scalar(e, field_key, "a tag filter (\"key:value,...\") selecting top-level ops");
        } else if (e.key == "adapter" || e.key == "driver") {
          check_adapter(e, field_key);
        } else if (e.key != "description") {
          other_key(e, field_key, "phase " + in_quotes(p.key), kPhaseKeys);
        }
      }
      if (where_key && !loop)
        fail(where_key->key_at, join_key(key, where_key->key),
             in_quotes(where_key->key) + " goes beside the phase's for_each (or for)", "missing-key");
      if (phase.for_each) {
        phase.for_each->where = where;
        phase.for_each->order = order;
      }
      if (ops) {
        if (phase.tags)
          fail(phase.tags->at, join_key(key, "tags"),
               "a phase runs its own ops or selects top-level ops with tags:, not both", "conflicting-keys");
        read_ops(*ops, join_key(key, ops->key), p.key, -1, Tags{{"phase", p.key}}, phase.ops);
      }
    }
    w_.phases.push_back(std::move(phase));
  }
}

void Loader::read_scenarios(const Entry& section) {
  if (section.value.IsNull()) return;
  for (const Entry& s : entries(section.value, "scenarios", section.key_at, "scenarios")) {
    const std::string key = join_key("scenarios", s.key);
    Scenario scenario;
    scenario.name = s.key;
    scenario.at = s.key_at;
    if (s.value.IsScalar()) {  // one step: a phase's name
      scenario.steps.push_back(read_step(s.value, mark(s.value, s.key_at), indexed(key, 0), 1));
    } else if (!s.value.IsNull()) {
      const std::vector<YAML::Node> list = items(s.value, key, s.key_at, "scenario " + in_quotes(s.key));
      for (size_t i = 0; i < list.size(); ++i)
        scenario.steps.push_back(read_step(list[i], mark(list[i], s.value_at), indexed(key, i), 1));
    }
    w_.scenarios.push_back(std::move(scenario));
  }
}

// The steps a loop or scope runs: its `phases:` list.
std::vector<Step> Loader::read_body(const Entry& phases, const std::string& key, int depth) {
  std::vector<Step> body;
  if (phases.value.IsScalar()) {
    body.push_back(read_step(phases.value, phases.value_at, indexed(key, 0), depth + 1));
    return body;
  }
  const std::vector<YAML::Node> list = items(phases.value, key, phases.key_at, "a step's phases");
  for (size_t i = 0; i < list.size(); ++i)
    body.push_back(read_step(list[i], mark(list[i], phases.value_at), indexed(key, i), depth + 1));
  return body;
}

// A step: a phase's name, `phase: NAME`, `scenario: NAME`, `scenarios: [...]`,
// a loop (for_each/for/for_combinations, do_while, do_until) or a scope
// (set:, bindings:) over `phases:`.
Step Loader::read_step(const YAML::Node& n, Mark at, const std::string& key, int depth) {
  if (depth > kMaxStepDepth)
    fail(at, key, "scenario steps are nested more than " + std::to_string(kMaxStepDepth) + " levels deep",
         "nesting-too-deep");
  count(1, at);
  Step step;
  step.at = at;
  if (n.IsScalar()) {
    step.kind = Step::Kind::Phase;
    step.phase = n.Scalar();
    return step;
  }
  if (!n.IsMap())
    fail(at, key,
         "a scenario step is a phase's name, or a map: a loop (for_each, do_while, do_until), scenario:, set: or "
         "bindings: with phases, not " + std::string(shape(n)),
         "not-a-scalar");
  const std::vector<Entry> fields = entries(n, key, at, "a scenario step");
  const Entry* kind = nullptr;
  for (const Entry& e : fields) {
    if (!contains(kStepKinds, e.key)) continue;
    if (kind) {
      const bool spelling = (e.key == "for" || e.key == "for_each") && (kind->key == "for" || kind->key == "for_each");
      if (spelling) fail_twice(e, *kind, "the step's loop", join_key(key, e.key));
      fail(e.key_at, join_key(key, e.key),
           "a step is one thing: " + in_quotes(e.key) + " and " + in_quotes(kind->key) + " cannot be in the same step",
           "conflicting-keys");
    }
    kind = &e;
  }
  if (!kind) {
    if (fields.empty()) fail(at, key, "an empty scenario step", "missing-key");
    for (const Entry& e : fields)
      if (contains(kForStepKeys, e.key) || contains(kDoStepKeys, e.key))
        fail(at, key,
             "this step has " + in_quotes(e.key) + " but no loop (for_each, do_while, do_until), set: or bindings: "
             "for it",
             "missing-key");
    const Entry& e = fields.front();
    fail(e.key_at, join_key(key, e.key),
         in_quotes(e.key) + " is not a scenario step; a step is a phase's name or a map with one of " +
             join(kStepKinds, ", ") + suggestion(e.key, kStepKinds),
         "unknown-key");
  }
  const std::string& k = kind->key;
  const std::string kind_key = join_key(key, k);
  auto only = [&](const std::vector<std::string>& allowed, const std::string& what) {
    for (const Entry& e : fields)
      if (!contains(allowed, e.key))
        fail(e.key_at, join_key(key, e.key),
             in_quotes(e.key) + " is not a key of " + what + "; its keys are " + join(allowed, ", ") +
                 suggestion(e.key, allowed),
             "unknown-key");
  };
  auto body_of = [&](bool required) -> const Entry* {
    for (const Entry& e : fields)
      if (e.key == "phases") return &e;
    if (required) fail(at, key, "a " + k + " step needs phases: the steps it runs", "missing-key");
    return nullptr;
  };
  if (k == "phase") {
    only({"phase"}, "a phase step");
    step.kind = Step::Kind::Phase;
    step.phase = required_scalar(*kind, kind_key, "a phase's name").text;
    return step;
  }
  if (k == "scenario") {
    only({"scenario"}, "an include step");
    step.kind = Step::Kind::Include;
    step.scenario = required_scalar(*kind, kind_key, "a scenario's name").text;
    return step;
  }
  if (k == "scenarios") {  // several includes, or steps of any shape, in one place
    only({"scenarios"}, "an include step");
    step.kind = Step::Kind::Scope;
    const std::vector<YAML::Node> list =
        kind->value.IsScalar() ? std::vector<YAML::Node>{kind->value} : items(kind->value, kind_key, kind->key_at, "scenarios");
    for (size_t i = 0; i < list.size(); ++i) {
      const Mark item_at = mark(list[i], kind->value_at);
      if (list[i].IsScalar()) {
        Step inc;
        inc.kind = Step::Kind::Include;
        inc.at = item_at;
        inc.scenario = list[i].Scalar();
        step.body.push_back(std::move(inc));
      } else {
        step.body.push_back(read_step(list[i], item_at, indexed(kind_key, i), depth + 1));
      }
    }
    return step;
  }
  if (k == "set" || k == "bindings") {
    only(kScopeStepKeys, "a " + k + " step");
    step.kind = Step::Kind::Scope;
    if (k == "set") step.set = read_set(*kind, kind_key);
    else step.bindings = read_bindings(*kind, kind_key);
    if (const Entry* phases = body_of(false)) step.body = read_body(*phases, join_key(key, "phases"), depth);
    if (step.body.empty())
      w_.warnings.push_back(w_.path + ":" + std::to_string(kind->key_at.line) + ":" +
                            std::to_string(kind->key_at.col) + ": warning: this " + k +
                            ": step has no phases: nothing reads what it sets [no-op-step]");
    return step;
  }
  const bool is_for = k == "for_each" || k == "for" || k == "for_combinations";
  only(is_for ? kForStepKeys : kDoStepKeys, "a " + k + " step");
  for (const Entry& e : fields) {
    const std::string field_key = join_key(key, e.key);
    if (&e == kind) {
      if (is_for) step.loop = read_loop(e, field_key);
      else step.spec = required_scalar(e, field_key, "a condition");
    } else if (e.key == "where" || e.key == "order") {
      (e.key == "where" ? step.loop.where : step.loop.order) =
          required_scalar(e, field_key, e.key == "where" ? "a predicate" : "an order");
    } else if (e.key == "counter") {
      if (auto f = optional_scalar(e, field_key)) step.counter = f->text;
    } else if (e.key == "loop_scope") {
      step.loop_scope = scope_mode(e, field_key);
    } else if (e.key == "iter_scope") {
      step.iter_scope = scope_mode(e, field_key);
    }
  }
  step.kind = is_for ? Step::Kind::ForEach : k == "do_while" ? Step::Kind::DoWhile : Step::Kind::DoUntil;
  step.body = read_body(*body_of(true), join_key(key, "phases"), depth);
  return step;
}

// `set: {NAME: VALUE, ...}` or `set: "NAME=VALUE"`.
std::vector<std::pair<std::string, Field>> Loader::read_set(const Entry& e, const std::string& key) {
  std::vector<std::pair<std::string, Field>> out;
  if (e.value.IsScalar()) {
    Field f = scalar_field(e.value, e.value_at, key);
    const size_t eq = f.text.find('=');
    if (eq == std::string::npos)
      fail(f.at, key, "set: as text is NAME=VALUE, not " + in_quotes(f.text), "bad-value");
    std::string name = f.text.substr(0, eq);
    std::string value = f.text.substr(eq + 1);
    auto trim = [](std::string& t) {
      while (!t.empty() && t.back() == ' ') t.pop_back();
      while (!t.empty() && t.front() == ' ') t.erase(0, 1);
    };
    trim(name);
    trim(value);
    if (!frontend_identifier(name)) fail(f.at, key, "set: sets a name, not " + in_quotes(name), "bad-value");
    f.text = value;
    out.emplace_back(name, std::move(f));
    return out;
  }
  for (const Entry& v : entries(e.value, key, e.key_at, "set")) {
    if (!frontend_identifier(v.key)) fail(v.key_at, join_key(key, v.key), "set: sets a name, not " + in_quotes(v.key), "bad-value");
    out.emplace_back(v.key, required_scalar(v, join_key(key, v.key), "a value"));
  }
  if (out.empty()) fail(e.value_at, key, "set: sets no names", "bad-value");
  return out;
}

bool Loader::frontend_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Every `scenario: NAME` names a scenario, and no scenario includes itself.
void Loader::resolve_includes() {
  std::vector<std::string> names;
  for (const Scenario& s : w_.scenarios) names.push_back(s.name);
  std::vector<std::string> path;
  std::set<std::string> done;
  std::function<void(const Scenario&)> visit = [&](const Scenario& sc) {
    if (done.count(sc.name)) return;
    path.push_back(sc.name);
    std::function<void(const std::vector<Step>&, const std::string&)> walk = [&](const std::vector<Step>& steps,
                                                                                const std::string& key) {
      for (size_t i = 0; i < steps.size(); ++i) {
        const Step& st = steps[i];
        if (st.kind == Step::Kind::Include) {
          const Scenario* target = w_.find_scenario(st.scenario);
          if (!target)
            fail(st.at, indexed(key, i),
                 "no scenario " + in_quotes(st.scenario) + " to include" +
                     (names.empty() ? std::string() : suggestion(st.scenario, names)),
                 "unknown-scenario");
          if (std::find(path.begin(), path.end(), st.scenario) != path.end())
            fail(st.at, indexed(key, i),
                 "scenario " + in_quotes(st.scenario) + " includes itself: " + join(path, " -> ") + " -> " + st.scenario,
                 "include-cycle");
          visit(*target);
        }
        walk(st.body, join_key(indexed(key, i), "phases"));
      }
    };
    walk(sc.steps, "scenarios." + sc.name);
    path.pop_back();
    done.insert(sc.name);
  };
  for (const Scenario& s : w_.scenarios) visit(s);
}

// Every phase step names a phase of `phases:`.
void Loader::check_phases(const Step& step, const std::string& key) const {
  if (step.kind == Step::Kind::Phase) {
    if (w_.find_phase(step.phase)) return;
    std::vector<std::string> names;
    for (const PhaseDef& p : w_.phases) names.push_back(p.name);
    std::string message = "unknown phase " + in_quotes(step.phase);
    if (names.empty()) message += "; the workload defines no phases";
    else message += suggestion(step.phase, names);
    fail(step.at, key, message, "unknown-phase");
  }
  for (size_t i = 0; i < step.body.size(); ++i) check_phases(step.body[i], indexed(join_key(key, "phases"), i));
}

}  // namespace polydat::workload::model_detail
