#include "workload/runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

#include "frontend/diagnostics.h"
#include "sim/llvm/native_embed.h"
#include "workload/batch_phase.h"
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
constexpr size_t kMaxClauses = 64;        // for_each clauses nest one level each  // cycles per native call in a batched phase

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

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
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
    for (const std::string& p : o.lib_paths) lib_paths_.push_back(p);
  }

  ir::Expected<RunSummary, std::string> run() {
    // Keys this runner does not act on, once each by name, with the lines they are on.
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
      s_.warnings.push_back("'" + name + "' is accepted and ignored by this runner (line" +
                            (ignored[name].find(',') == std::string::npos ? " " : "s ") + ignored[name] + ")");
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
    if (top_level_ops && !w_.ops.empty()) {
      auto p = prepare_ops(w_.ops, root);
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
    Status st;
    if (top_level_ops) {
      if (plan_ && !w_.ops.empty())
        return render_workload_error(w_.path, w_.text, w_.ops.front().at,
                                     "top-level ops (a workload without phases) do not become hardware; put them in a phase",
                                     "hw-scenario");
      if (!w_.ops.empty()) st = run_top_level(root, top);
    } else {
      if (!w_.ops.empty())
        s_.warnings.push_back("the top-level ops are not run: this workload has phases (run them from a phase)");
      auto steps = scenario_steps();
      if (!steps) return steps.error();
      st = exec_steps(*steps, root, 1);
    }
    if (!st && !closed_) {
      flush();
      return st.error();
    }
    flush();
    return s_;
  }

  const std::string& tree() const { return tree_; }

 private:
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
    for (const OpDef& op : ops) {
      PreparedOp po;
      po.def = &op;
      for (const auto& [name, field] : op.fields) {
        auto t = parse_template(field, "__inline_", inlines);
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
          Frame loop(&frame, "for_each " + s.spec.text, seeding(s.loop_scope, Seeding::Clean));
          st = for_each(s.spec, loop, seeding(s.iter_scope, Seeding::Inherit), depth,
                        [&](Frame& iter) { return exec_steps(s.body, iter, depth + 1); },
                        body_texts(s.body));
          break;
        }
        case Step::Kind::DoWhile:
        case Step::Kind::DoUntil: st = do_loop(s, frame, depth); break;
      }
      if (!st) return st;
    }
    return {};
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
  std::vector<std::string> body_texts(const std::vector<Step>& steps) {
    std::vector<std::string> out;
    for (const Step& s : steps) {
      if (s.kind == Step::Kind::Phase) {
        if (const PhaseDef* p = w_.find_phase(s.phase)) {
          auto texts = phase_texts(*p);
          out.insert(out.end(), texts.begin(), texts.end());
        }
      } else {
        auto inner = body_texts(s.body);
        out.insert(out.end(), inner.begin(), inner.end());
      }
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
        if (*c == until) break;
      }
      if (i >= o_.max_loop_iterations)
        return render_workload_error(w_.path, w_.text, s.spec.content.line ? s.spec.content : s.at,
                                     "this loop ran " + std::to_string(i) + " iterations without its condition ending it",
                                     "loop-limit");
      Frame iter(&loop, "iteration " + std::to_string(i), seeding(s.iter_scope, Seeding::Clean));
      if (s.counter) iter.set_var(*s.counter, ir::Value::integer(ir::TyKind::U64, i), s.at);
      if (auto st = exec_steps(s.body, iter, depth + 1); !st) return st;
      if (explain_ || closed_) break;
    }
    return {};
  }

  // Each combination of a `for_each` clause list: "a in SPEC, b in SPEC(a)...".
  Status for_each(const Field& spec, Frame& loop, Seeding iter_seeding, int depth,
                  const std::function<Status(Frame&)>& body, const std::vector<std::string>& texts) {
    auto clauses = split_clauses(spec);
    if (!clauses) return clauses.error();
    if (clauses->size() > kMaxClauses)
      return field_error(spec, "a for_each of " + std::to_string(clauses->size()) + " clauses; at most " +
                                   std::to_string(kMaxClauses) + " nest", "bad-spec");
    if (explain_) {
      tree_ += indent(depth) + "for_each " + spec.text + "\n";
      for (const auto& [var, _] : *clauses) {
        bool structural = false;
        for (const std::string& t : texts) structural = structural || mentions_var(t, var);
        tree_ += indent(depth + 1) + "variable " + var + ": " +
                 (structural ? "structural (in bindings text: its scopes recompile per iteration)"
                             : "parametric (read only: the kernels are reused, the variable set per iteration)") +
                 "\n";
      }
    }
    std::vector<std::pair<std::string, ir::Value>> chosen;
    std::function<Status(size_t)> level = [&](size_t c) -> Status {
      if (c == clauses->size()) {
        std::string label = "iteration";
        for (const auto& [n, v] : chosen) label += " " + n + "=" + op_text(v);
        Frame iter(&loop, label, iter_seeding);
        for (const auto& [n, v] : chosen) iter.set_var(n, v, spec.at);
        return body(iter);
      }
      embed::MapLookup earlier;
      for (const auto& [n, v] : chosen) earlier.set(n, v);
      FrameLookup outer(loop, 0);
      embed::Layered look(earlier, outer);
      // Params and outer loop variables are substituted as text first (nb-rs substitutes params
      // when it loads a workload), so "v in {list}" iterates the list a param holds.
      std::string spec_text = (*clauses)[c].second;
      if (auto st = plannable(spec, spec_text, loop); !st) return st;
      for (const auto& [n, v] : chosen) spec_text = replace_all(spec_text, "{" + n + "}", op_text(v));
      auto values = embed::evaluate_spec(substitute_vars(spec_text, loop), look);
      if (outer.error()) return *outer.error();
      if (!values) return field_error(spec, "for_each '" + (*clauses)[c].first + "': " + values.error().to_string(), "bad-spec");
      for (const ir::Value& v : *values) {
        chosen.emplace_back((*clauses)[c].first, v);
        auto st = level(c + 1);
        chosen.pop_back();
        if (!st) return st;
        if (explain_ || closed_) break;
      }
      return {};
    };
    return level(0);
  }

  // "v in SPEC" clauses, split where ", NAME in " starts the next one.
  ir::Expected<std::vector<std::pair<std::string, std::string>>, std::string> split_clauses(const Field& f) {
    const std::string& t = f.text;
    std::vector<size_t> starts;  // where each clause's variable begins
    auto clause_at = [&](size_t i) -> std::optional<size_t> {  // the spec's start if "NAME in " is at i
      while (i < t.size() && t[i] == ' ') ++i;
      size_t j = i;
      while (j < t.size() && (std::isalnum(static_cast<unsigned char>(t[j])) || t[j] == '_')) ++j;
      if (j == i || !is_identifier(t.substr(i, j - i))) return std::nullopt;
      size_t k = j;
      while (k < t.size() && t[k] == ' ') ++k;
      if (k == j || t.compare(k, 3, "in ") != 0) return std::nullopt;
      return i;
    };
    int nest = 0;
    bool quoted = false;
    if (auto s = clause_at(0)) starts.push_back(*s);
    else return field_error(f, "a for_each clause reads 'NAME in SPEC'", "bad-spec");
    for (size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (c == '"') quoted = !quoted;
      if (quoted) continue;
      if (c == '(' || c == '[' || c == '{') ++nest;
      if ((c == ')' || c == ']' || c == '}') && nest > 0) --nest;
      if (c == ',' && nest == 0)
        if (auto s = clause_at(i + 1)) starts.push_back(*s);
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t n = 0; n < starts.size(); ++n) {
      size_t end = n + 1 < starts.size() ? t.rfind(',', starts[n + 1]) : t.size();
      const std::string clause = t.substr(starts[n], end - starts[n]);
      const size_t in = clause.find(" in ");
      std::string var = clause.substr(0, in);
      while (!var.empty() && var.back() == ' ') var.pop_back();
      std::string spec = clause.substr(in + 4);
      while (!spec.empty() && spec.front() == ' ') spec.erase(0, 1);
      out.emplace_back(var, spec);
    }
    return out;
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
    auto ops = prepare_ops(p.ops, f);
    if (!ops) return ops.error();
    frags.insert(frags.end(), ops->fragments.begin(), ops->fragments.end());
    if (!frags.empty()) {
      auto c = compile("phase " + p.name, p.at, frags, parent);
      if (!c) return c.error();
      if (auto a = f.attach(*c); !a) return a.error();
    }
    uint64_t cycles = 1;
    if (p.cycles) {
      auto n = eval_count(*p.cycles, f);
      if (!n) return n.error();
      cycles = *n;
    }
    if (explain_) {
      tree_ += indent(depth) + "phase " + p.name + " (" + std::to_string(cycles) + " cycles)" + describe(f) + "\n";
      return {};
    }
    if (plan_) {
      auto e = plan_entry(w_, f, ops->ops, cycles);
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
    uint64_t c = 0;
    if (o_.format == LineFormat::Stmt && f.scope() && f.scope()->native) {
      if (auto batch = BatchPhase::plan(f, ops->ops, f.scope()->native)) {
        while (c < cycles && !closed_) {
          const size_t n = static_cast<size_t>(std::min<uint64_t>(cycles - c, kBatchCycles));
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
    for (; c < cycles && !closed_; ++c) {
      if (auto e = f.evaluate(c, true); !e) return e.error();
      for (const PreparedOp& op : ops->ops)
        if (auto st = render(op, f, c); !st) return st;
      ++s_.cycles;
    }
    return {};
  }

  Status run_top_level(Frame& root, const PreparedOps& ops) {
    uint64_t cycles = ops.ops.size();
    if (const ir::Value* v = root.find_var("cycles")) {
      Field f;
      f.text = op_text(*v);
      f.key = "cycles";
      auto n = eval_count(f, root);
      if (!n) return n.error();
      cycles = *n;
    }
    if (explain_) {
      tree_ += "  top-level ops (" + std::to_string(cycles) + " cycles, one op each in turn)\n";
      return {};
    }
    ++s_.phases;
    for (uint64_t c = 0; c < cycles && !closed_; ++c) {
      if (auto e = root.evaluate(c, true); !e) return e.error();
      if (auto st = render(ops.ops[c % ops.ops.size()], root, c); !st) return st;
      ++s_.cycles;
    }
    return {};
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
    auto st = render_op_line(op, o_.format, [&](const std::string& name) { return value_of(f, name, cycle, *op.def); }, buf_);
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
