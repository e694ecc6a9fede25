#include "workload/runner.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "frontend/diagnostics.h"
#include "sim/llvm/native_embed.h"
#include "workload/batch_phase.h"
#include "workload/comprehension.h"
#include "workload/cursors.h"
#include "workload/frame.h"
#include "workload/op_template.h"
#include "workload/plan.h"
#include "workload/render.h"
#include "workload/subcontext.h"
#include "workload/values.h"

namespace polydat::workload {

namespace {

using Status = ir::Expected<void, std::string>;

constexpr size_t kFlushBytes = 1 << 16;
constexpr uint64_t kProgressEvery = 1 << 16;
constexpr uint64_t kBatchCycles = 4096;
constexpr int kMaxDepth = 256;            // steps inside loops, scopes and included scenarios

// A phase's ops with their inline bindings, as fragments of the phase's kernel.
struct PreparedOps {
  std::vector<PreparedOp> ops;
  std::vector<Fragment> fragments;
};

// `{name}` in bindings text replaced by the value of a param or loop variable
// `name` (structural substitution); other braces are left to the kernel.
std::string substitute_vars(const std::string& text, const Frame& f) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      out += "{{";
      i += 2;
      continue;
    }
    if (text[i] == '{') {
      const size_t close = text.find('}', i + 1);
      if (close == std::string::npos) {  // no more placeholders: the rest as it is
        out.append(text, i, std::string::npos);
        break;
      }
      {
        const std::string name = text.substr(i + 1, close - i - 1);
        if (is_identifier(name))
          if (const ir::Value* v = f.find_var(name)) {
            out += op_text(*v);
            i = close + 1;
            continue;
          }
      }
    }
    out += text[i++];
  }
  return out;
}

bool mentions_var(const std::string& text, const std::string& var) {
  return text.find("{" + var + "}") != std::string::npos;
}

class Runner {
 public:
  Runner(const Workload& w, const RunOptions& o, const std::function<bool(const std::string&)>* sink, bool explain,
         WorkloadPlan* plan = nullptr)
      : w_(w), o_(o), sink_(sink), explain_(explain), plan_(plan) {
    lib_paths_.push_back(std::filesystem::path(w.path).parent_path().string());
    for (const PhaseDef& p : w.phases) phase_selects_ = phase_selects_ || p.tags.has_value();
    for (const std::string& p : o.lib_paths) lib_paths_.push_back(p);
  }

  ir::Expected<RunSummary, std::string> run() {
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

  const std::string& tree() const { return tree_; }

 private:
  // Keys nb-rs acts on and this runner does not, once each by name, with their lines.
  void note_ignored_keys() {
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
  static std::string not_acted_reason(const std::string& key) {
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
  Status walk() {
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


  // ---- scopes ----

  Fragment fragment_of(const Field& f, const Frame& vars, bool no_shadow) {
    return Fragment{substitute_vars(f.text, vars), f.content, f.literal_block, no_shadow};
  }

  ir::Expected<std::shared_ptr<const CompiledScope>, std::string> compile(const std::string& label, Mark at,
                                                                          const std::vector<Fragment>& frags,
                                                                          const Frame& parent) {
    // Every piece with its length first: no two different inputs give one key.
    std::string key;
    auto add = [&](const std::string& piece) { key += std::to_string(piece.size()) + ':' + piece; };
    add(label);
    for (const Fragment& f : frags) {
      add(f.text);
      add(std::to_string(f.content.line) + ',' + std::to_string(f.content.col) + ',' + std::to_string(f.prefix) +
          (f.no_shadow ? "!" : "") + (f.literal_block ? "|" : ""));
    }
    for (const auto& [name, v] : parent.visible()) {
      add(name);
      add(ir::ty_label(v.ty) + ',' + std::to_string(static_cast<int>(v.kind)) + (v.dynamic ? "d" : "") +
          (v.is_const ? "c" : "") + std::to_string(static_cast<int>(v.combine)));
    }
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    ParentView pv{parent.visible(), w_.path, w_.text};
    SubcontextBuilder b(std::move(pv), label, at);
    for (const Fragment& f : frags) b.body(f);
    b.import_free_names();
    b.lib_paths(lib_paths_);
    auto m = b.finalize();
    if (!m) return m.error().rendered;
    for (const std::string& d : m->diagnostics) s_.warnings.push_back(d);
    embed::KernelOptions ko;
    ko.compile = m->options;
    ko.outputs = m->options.outputs;
    std::shared_ptr<const sim::NativeKernel> native;  // the same JIT compile, for phases run in batches
    if (o_.native) ko.engine = sim::native_engine([&](std::shared_ptr<const sim::NativeKernel> k) { native = std::move(k); });
    auto k = embed::Kernel::compile(m->source, ko);
    if (!k) return render_workload_error(w_.path, w_.text, at, label + ": the kernel does not run on this engine: " + k.error().to_string(), "engine");
    auto c = std::make_shared<CompiledScope>(CompiledScope{std::move(*m), std::move(*k), {}, {}, nullptr});
    const std::vector<std::string> outs = c->prototype.output_names();
    for (size_t i = 0; i < outs.size(); ++i) c->output_index[outs[i]] = i;
    for (const WriteThrough& wt : c->module.write_throughs) c->write_output.push_back(c->output_index.at(wt.output));
    c->native = std::move(native);
    ++s_.compiles;
    cache_.emplace(key, c);
    return std::shared_ptr<const CompiledScope>(c);
  }

  ir::Expected<PreparedOps, std::string> prepare_ops(const std::vector<OpDef>& ops, const Frame& vars) {
    PreparedOps p;
    std::vector<InlineBinding> inlines;
    std::set<int> blocks;  // a block's bindings join the kernel once, however many of its ops run there
    for (const OpDef& op : ops) {
      if (op.block >= 0 && blocks.insert(op.block).second)
        if (const auto& b = w_.blocks.at(static_cast<size_t>(op.block)).bindings) p.fragments.push_back(fragment_of(*b, vars, true));
      PreparedOp po;
      po.def = &op;
      for (const auto& [name, field] : op.fields) {
        auto t = parse_template(field, "__inline_", inlines, op.map_form);
        if (!t) return render_workload_error(w_.path, w_.text, t.error().at, t.error().message, "op-template");
        po.fields.emplace_back(name, std::move(*t));
      }
      if (op.condition) {
        const std::string text = std::string(op.condition->text);
        std::string_view c = text;
        while (!c.empty() && std::isspace(static_cast<unsigned char>(c.front()))) c.remove_prefix(1);
        while (!c.empty() && std::isspace(static_cast<unsigned char>(c.back()))) c.remove_suffix(1);
        if (c.size() > 1 && c.front() == '{' && c.back() == '}') c = c.substr(1, c.size() - 2);
        if (is_identifier(c) && c != "true" && c != "false") {
          po.condition = std::string(c);
        } else {
          Mark at = op.condition->content;
          if (at.line) at.col += static_cast<uint32_t>(c.data() - text.data());  // past blanks and a brace
          InlineBinding b{"__if_" + std::to_string(inlines.size()), std::string(c), at};
          po.condition = b.name;
          inlines.push_back(std::move(b));
        }
      }
      if (op.bindings) p.fragments.push_back(fragment_of(*op.bindings, vars, true));
      p.ops.push_back(std::move(po));
    }
    for (const InlineBinding& b : inlines) {
      const std::string head = b.name + " := ";
      p.fragments.push_back(
          Fragment{head + substitute_vars(b.expr, vars), b.at, false, true, static_cast<uint32_t>(head.size())});
    }
    return p;
  }

  // ---- fields ----

  std::string field_error(const Field& f, const std::string& message, const char* kind) {
    return render_workload_error(w_.path, w_.text, f.content.line ? f.content : f.at, message, kind);
  }

  ir::Expected<ir::Value, std::string> eval_field(const Field& f, Frame& frame) {
    if (auto st = plannable(f, f.text, frame); !st) return st.error();
    std::string text = f.text;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.erase(0, 1);
    FrameLookup look(frame, 0);
    std::string expr;
    if (text.size() > 2 && text.front() == '{' && text.back() == '}' && text.find('{', 1) == std::string::npos &&
        !is_identifier(text.substr(1, text.size() - 2))) {
      // `{expr}`: the names in it become literals of their values.
      const std::string inner = text.substr(1, text.size() - 2);
      size_t i = 0;
      while (i < inner.size()) {
        if (std::isalpha(static_cast<unsigned char>(inner[i])) || inner[i] == '_') {
          size_t j = i;
          while (j < inner.size() && (std::isalnum(static_cast<unsigned char>(inner[j])) || inner[j] == '_')) ++j;
          const std::string word = inner.substr(i, j - i);
          size_t k = j;
          while (k < inner.size() && inner[k] == ' ') ++k;
          std::optional<ir::Value> v;
          if (k >= inner.size() || inner[k] != '(') v = look.lookup(word);
          std::optional<std::string> lit = v ? gk_literal(*v) : std::nullopt;
          expr += lit ? *lit : word;
          i = j;
        } else if (inner[i] == '"') {
          const size_t end = inner.find('"', i + 1);
          const size_t stop = end == std::string::npos ? inner.size() : end + 1;
          expr += inner.substr(i, stop - i);
          i = stop;
        } else {
          expr += inner[i++];
        }
      }
    } else {
      auto t = embed::interpolate_via_kernel(text, look);
      if (look.error()) return *look.error();
      if (!t) return field_error(f, t.error().to_string(), "field");
      expr = *t;
    }
    if (look.error()) return *look.error();
    // A count with a K/M/B suffix (nb-rs writes cycles as 10K, 1M).
    if (!expr.empty() && std::isdigit(static_cast<unsigned char>(expr.front()))) {
      const char last = expr.back();
      const uint64_t scale = last == 'K' || last == 'k' ? 1000 : last == 'M' ? 1000000 : last == 'B' || last == 'G' ? 1000000000 : 1;
      std::string digits = scale == 1 ? expr : expr.substr(0, expr.size() - 1);
      digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
      if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 19) {
        const unsigned __int128 n = static_cast<unsigned __int128>(std::stoull(digits)) * scale;
        if (n <= UINT64_MAX) return ir::Value::integer(ir::TyKind::U64, static_cast<uint64_t>(n));
      }
    }
    auto v = embed::eval_const_expr(expr);
    if (!v) return field_error(f, "'" + expr + "' (from '" + text + "'): " + v.error().message, "field");
    return *v;
  }

  ir::Expected<uint64_t, std::string> eval_count(const Field& f, Frame& frame) {
    auto v = eval_field(f, frame);
    if (!v) return v.error();
    const ir::Value& x = *v;
    if (x.ty().is_int() && !(x.ty().is_signed_int() && x.as_i64() < 0)) return x.as_u64();
    return field_error(f, "'" + f.key + "' must be a count (a non-negative integer), not " + op_text(x) + " (" +
                              ir::ty_label(x.ty()) + ")", "bad-count");
  }

  ir::Expected<bool, std::string> eval_condition(const Field& f, Frame& frame) {
    auto v = eval_field(f, frame);
    if (!v) return v.error();
    return truthy(*v);
  }

  // ---- scenario ----

  ir::Expected<std::vector<Step>, std::string> scenario_steps() {
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

  static Seeding seeding(ScopeMode m, Seeding dflt) {
    return m == ScopeMode::Clean ? Seeding::Clean : m == ScopeMode::Inherit ? Seeding::Inherit : dflt;
  }

  Status exec_steps(const std::vector<Step>& steps, Frame& frame, int depth) {
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
  Status run_scope(const Step& s, Frame& frame, int depth) {
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
  ir::Expected<ir::Value, std::string> set_value(const Field& f, Frame& frame) {
    FrameLookup look(frame, 0);
    auto t = embed::interpolate_via_kernel(f.text, look);
    if (look.error()) return *look.error();
    if (!t) return field_error(f, t.error().to_string(), "field");
    return param_value(*t);
  }

  // The texts of a phase that are compiled: its bindings, its ops' bindings,
  // and the expressions of inline bindings and `if:` (a loop variable written
  // `{v}` in any of them is substituted before compiling: structural).
  static std::vector<std::string> phase_texts(const PhaseDef& p) {
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
  std::vector<std::string> body_texts(const std::vector<Step>& steps, int depth) {
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

  Status do_loop(const Step& s, Frame& frame, int depth) {
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
                                     "this loop ran " + std::to_string(i) + " iterations without its condition ending it",
                                     "loop-limit");
      Frame iter(&loop, "iteration " + std::to_string(i), seeding(s.iter_scope, Seeding::Clean));
      if (s.counter) iter.set_var(*s.counter, ir::Value::integer(ir::TyKind::U64, i), s.at);
      if (auto st = exec_steps(s.body, iter, depth + 1); !st) return st;
      if (explain_ || checking_ || closed_) break;
    }
    return {};
  }

  // Each combination of a `for_each` clause list: "a in SPEC, b in SPEC(a)...".
  static std::string loop_text(const LoopSpec& l) {
    std::string t;
    for (const Field& f : l.entries) t += (t.empty() ? "" : "; ") + f.text;
    return t;
  }

  // Where a comprehension's error points: the field the place counts in.
  Mark spec_mark(const LoopSpec& ls, const comprehension::Place& at) const {
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

  std::string spec_error(const LoopSpec& ls, const comprehension::SpecError& e) const {
    return render_workload_error(w_.path, w_.text, spec_mark(ls, e.at), ls.key + ": " + e.message, e.kind);
  }

  // The comprehension a loop key writes (its text, the list form's sub-spaces, the sibling where: and order:).
  ir::Expected<comprehension::Comprehension, std::string> comprehension_of(const LoopSpec& ls) const {
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
  Status for_each(const LoopSpec& ls, Frame& loop, Seeding iter_seeding, int depth,
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

  // ---- phases ----

  Status run_phase(const PhaseDef& p, Frame& frame, int depth) {
    if (!p.for_each) return run_phase_body(p, frame, depth);
    Frame loop(&frame, "phase " + p.name + " loop", seeding(p.loop_scope, Seeding::Clean));
    return for_each(*p.for_each, loop, seeding(p.iter_scope, Seeding::Inherit), depth,
                    [&](Frame& iter) { return run_phase_body(p, iter, depth + 1); }, phase_texts(p));
  }

  Status run_phase_body(const PhaseDef& p, Frame& parent, int depth) {
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
      tree_ += indent(depth) + "phase " + p.name + " (" + std::to_string(cycles) + " cycles" +
               (*drive ? ", from " + std::to_string(first) + ": cursor " + (*drive)->cursor : std::string()) + ")" +
               describe(f) + "\n";
      return {};
    }
    if (length == 0) {
      s_.warnings.push_back("phase '" + p.name + "' has no ops: nothing runs (nb-rs skips it too)");
      return {};
    }
    if (plan_) {
      auto e = plan_entry(w_, f, ops->ops, *stanza, cycles);
      if (!e) return e.error();
      e->phase = p.name;
      e->at = p.at;
      e->iteration = iteration_of(f);
      plan_->entries.push_back(std::move(*e));
      ++s_.phases;
      s_.cycles += cycles;
      return {};
    }
    ++s_.phases;
    if (o_.phase_run_starts) o_.phase_run_starts(flushed_ + buf_.size(), s_.ops);
    return run_ordinals(f, ops->ops, *stanza, first, first + cycles);
  }

  // nb-rs's rule: a scope whose own kernel declares a cursor runs the cursor's
  // ordinals, whatever `cycles` says (a `cycles` given is noted, not acted on).
  // Plan mode refuses it (workload/cursors.h).
  ir::Expected<std::optional<CursorRange>, std::string> cursor_driven(Frame& f, const Field* cycles, const std::string& what) {
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

  static bool is_auto(const Field& f) {
    std::string t = f.text;
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    return t.empty() || t == "===auto" || t == "==auto";
  }

  // nb-rs's stanza: cycle c runs op lut[c % lut.size()], the ops' ratios laid out by seq=.
  ir::Expected<std::vector<size_t>, std::string> stanza_of(const std::vector<PreparedOp>& ops) {
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
  const std::vector<OpDef>& top_ops(const TagFilter* filter) {
    if (!o_.tags && !filter) return w_.ops;
    auto& kept = selections_.emplace_back();
    for (const OpDef& op : w_.ops)
      if ((!o_.tags || o_.tags->matches(op.tags)) && (!filter || filter->matches(op.tags))) kept.push_back(op);
    return kept;
  }

  // Cycles first..end-1, each evaluating the scope's kernel and rendering its op of the stanza.
  Status run_ordinals(Frame& f, const std::vector<PreparedOp>& ops, const std::vector<size_t>& lut, uint64_t first,
                      uint64_t end) {
    uint64_t c = first;
    if (o_.render.format == LineFormat::Stmt && o_.render.fields.empty() && f.scope() && f.scope()->native) {
      if (auto batch = BatchPhase::plan(f, ops, lut, f.scope()->native)) {
        while (c < end && !closed_) {
          const size_t n = static_cast<size_t>(std::min<uint64_t>(end - c, kBatchCycles));
          const BatchPhase::Done d = batch->render(c, n, buf_);
          c += d.rows;
          s_.cycles += d.rows;
          s_.ops += d.lines;
          s_.skipped += d.skipped;
          if (o_.progress) o_.progress(s_.cycles, s_.ops);
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

  // Checking: every name an op shows or tests is visible from its scope.
  Status check_ops(const PreparedOps& ops, const Frame& f) {
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
  Status run_top_level(Frame& root, const PreparedOps& ops) {
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
      tree_ += "  top-level ops (" + std::to_string(cycles) + " cycles, one op each in turn)\n";
      return {};
    }
    ++s_.phases;
    return run_ordinals(root, ops.ops, *stanza, 0, cycles);  // a cursor here does not drive them (nb-rs)
  }

  // Plan mode: the first name in `text` that is a shared cell, or a binding
  // that reads one: only the hardware knows its value as the scenario runs.
  static std::optional<std::string> cell_in(const std::string& text, const Frame& f) {
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
  Status plannable(const Field& f, const std::string& text, const Frame& frame) {
    if (!plan_) return {};
    if (auto cell = cell_in(text, frame))
      return field_error(f, "'" + f.key + "' reads '" + *cell + "', which depends on a shared cell the hardware computes: "
                                "the host cannot plan the scenario", "hw-scenario");
    return {};
  }

  // The loop variables of the iterations around `f`: "table=t_small k=10".
  static std::string iteration_of(const Frame& f) {
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

  // ---- output ----

  ir::Expected<ir::Value, std::string> value_of(Frame& f, const std::string& name, uint64_t cycle, const OpDef& op) {
    auto v = f.lookup(name, cycle);
    if (!v) return v.error();
    if (!*v) return unbound_op_name(w_, op, name);
    return **v;
  }

  // One op's line; on an error nothing of it is kept.
  Status render(const PreparedOp& op, Frame& f, uint64_t cycle) {
    const size_t mark = buf_.size();
    Status st = render_line(op, f, cycle);
    if (!st) buf_.resize(mark);
    return st;
  }

  Status render_line(const PreparedOp& op, Frame& f, uint64_t cycle) {
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
    if (o_.progress && s_.ops % kProgressEvery == 0) o_.progress(s_.cycles, s_.ops);
    if (buf_.size() >= kFlushBytes) flush();
    return {};
  }

  void flush() {
    if (buf_.empty() || closed_ || !sink_) {
      buf_.clear();
      return;
    }
    if (!(*sink_)(buf_)) closed_ = true;
    flushed_ += buf_.size();
    buf_.clear();
  }

  // ---- explain ----

  static std::string indent(int depth) { return std::string(2 * depth, ' '); }

  std::string describe(const Frame& f) {
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
  std::string buf_;
  uint64_t flushed_ = 0;  // bytes handed to the sink
  bool closed_ = false;
  std::string tree_;
};

}  // namespace

ir::Expected<RunSummary, std::string> run_workload(const Workload& w, const RunOptions& options,
                                                   const std::function<bool(const std::string&)>& sink) {
  Runner r(w, options, &sink, false);
  return r.run();
}

ir::Expected<WorkloadPlan, std::string> plan_workload(const Workload& w, const RunOptions& options) {
  WorkloadPlan plan;
  Runner r(w, options, nullptr, false, &plan);
  auto s = r.run();
  if (!s) return s.error();
  plan.summary = std::move(*s);
  return plan;
}

ir::Expected<Explanation, std::string> explain_workload(const Workload& w, const RunOptions& options) {
  Runner r(w, options, nullptr, true);
  auto s = r.run();
  if (!s) return s.error();
  return Explanation{r.tree()};
}

}  // namespace polydat::workload
