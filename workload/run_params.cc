#include "workload/run_params.h"

#include <algorithm>

#include "frontend/diagnostics.h"

namespace polydat::workload {

namespace {

// nb-rs's activity parameters that change nothing a stdout run prints:
// noted on stderr with the reason.
struct Noted {
  const char* name;
  const char* reason;
};
constexpr Noted kNoted[] = {
    {"concurrency", "ops run one at a time, in cycle order (nb-rs's order at concurrency=1)"},
    {"stanza_concurrency", "ops run one at a time, in cycle order"},
    {"sc", "ops run one at a time, in cycle order"},
    {"schedule", "scenario steps run one after another"},
    {"rate", "ops are not paced against the clock"},
    {"stanzarate", "ops are not paced against the clock"},
    {"errors", "a stdout op cannot fail, so there is nothing to route"},
    {"tui", "progress goes to stderr as a line"},
    {"metrics", "no metrics are recorded"},
    {"summary", "no reports are written"},
    {"latency-cadences", "no metrics are recorded"},
    {"latency_cadences", "no metrics are recorded"},
    {"jobname", "no metrics are pushed"},
    {"instance", "no metrics are pushed"},
    {"prompush_apikeyfile", "no metrics are pushed"},
    {"profiler", "polydat does not profile its runs"},
    {"profiler_callgraph", "polydat does not profile its runs"},
    {"trace", "there is no trace router"},
    {"kernel_opt", "kernels are compiled whole"},
    {"color", "lines are written as rendered"},
};

// nb-rs's parameters polydat refuses by name, with what to do instead.
struct Refused {
  const char* name;
  const char* instead;
};
constexpr Refused kRefused[] = {
    {"op", "inline workloads (op=) are not supported: write the op in a workload file"},
    {"dryrun", "dry runs are not supported: --explain prints the scope tree"},
    {"resume", "there are no checkpoints to resume from"},
    {"resume_latest", "there are no checkpoints to resume from"},
    {"force_retry_failed", "there are no checkpoints to resume from"},
    {"limit", "limit= is not supported"},
};

// Acted on here.
constexpr const char* kActed[] = {"workload", "scenario", "cycles", "adapter", "driver", "seq", "tags",
                                  "format",   "filename", "separator", "header", "fields"};

const Noted* noted(std::string_view name) {
  for (const Noted& n : kNoted)
    if (name == n.name) return &n;
  return nullptr;
}

const Refused* refused(std::string_view name) {
  for (const Refused& r : kRefused)
    if (name == r.name) return &r;
  return nullptr;
}

std::string refusal(const std::string& name, const Refused& r) {
  return "error: " + name + "=: " + r.instead + " [unsupported-parameter]";
}

bool acted(std::string_view name) {
  return std::find(std::begin(kActed), std::end(kActed), name) != std::end(kActed);
}

bool declared(const Workload& w, std::string_view name) {
  return std::any_of(w.params.begin(), w.params.end(), [&](const auto& p) { return p.first == name; });
}

std::string unrecognized(const std::string& name, const Workload& w) {
  std::vector<std::string> known;
  for (const char* k : kActed) known.emplace_back(k);
  for (const Noted& n : kNoted) known.emplace_back(n.name);
  for (const auto& [p, f] : w.params) known.push_back(p);
  std::string msg = "unrecognized parameter '" + name + "='";  // nb-rs's words, its runner's guard
  const std::string near = frontend::closest_name(name, known);
  if (!near.empty()) msg += ". Did you mean '" + near + "='?";
  return "error: " + msg + " [unknown-parameter]";
}

}  // namespace

namespace {
// nb-rs's quote elision: one pair of matching outer quotes ('...' or "...") is dropped.
std::string unquoted(const std::string& s) {
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front()) return s.substr(1, s.size() - 2);
  return s;
}
}  // namespace

ir::Expected<std::vector<Assignment>, std::string> split_assignments(const std::vector<std::string>& words) {
  std::vector<Assignment> out;
  for (const std::string& word : words) {
    const std::string a = unquoted(word);  // 'cursor=0..53%' as nb-rs reads it, and cursor='0..53%' below
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      return "error: '" + word + "' is not NAME=VALUE (workload=FILE, scenario=NAME, and params as NAME=VALUE) [usage]";
    out.emplace_back(a.substr(0, eq), unquoted(a.substr(eq + 1)));
  }
  return out;
}

std::optional<std::string> refused_param(const std::vector<Assignment>& assignments) {
  for (const auto& [name, value] : assignments)
    if (const Refused* x = refused(name)) return refusal(name, *x);
  return std::nullopt;
}

std::optional<std::string> take_workload(std::vector<Assignment>& assignments) {
  std::optional<std::string> file;
  for (auto it = assignments.begin(); it != assignments.end();) {
    if (it->first == "workload") {
      file = it->second;
      it = assignments.erase(it);
    } else {
      ++it;
    }
  }
  return file;
}

namespace {

// One nb-rs setting as the run takes it: from the command line, else from the
// workload's params (nb-rs reads both, the command line winning).
struct Setting {
  std::string name, value;
  const Field* param = nullptr;  // from the workload's params: where
};

// Which of the workload's params nb-rs reads as its own settings.
bool setting_from_params(std::string_view name) {
  return name == "adapter" || name == "driver" || name == "seq" || name == "tags" || name == "format" ||
         name == "separator" || name == "header" || name == "fields" || name == "filename" || noted(name);
}

}  // namespace

ir::Expected<ResolvedParams, std::string> resolve_params(const std::vector<Assignment>& assignments, const Workload& w,
                                                         ParamUse use, RunOptions& o, RenderSettings render) {
  ResolvedParams r;
  std::vector<Setting> settings;
  for (const auto& [name, field] : w.params)
    if (setting_from_params(name)) settings.push_back(Setting{name, field.text, &field});
  auto set = [&](const std::string& name, const std::string& value) {
    for (Setting& s : settings)
      if (s.name == name) {
        s = Setting{name, value, nullptr};
        return;
      }
    settings.push_back(Setting{name, value, nullptr});
  };
  for (const auto& [name, value] : assignments) {
    if (declared(w, name)) {  // a param the workload declares: its text, and nb-rs's setting if it is one
      o.overrides.emplace_back(name, value);
      if (setting_from_params(name)) set(name, value);
      continue;
    }
    if (const Refused* x = refused(name)) return refusal(name, *x);
    if (!noted(name) && !acted(name)) return unrecognized(name, w);
    if (name == "scenario") o.scenario = value;
    else if (name == "cycles") o.overrides.emplace_back(name, value);
    else set(name, value);
  }
  for (const Setting& st : settings) {
    // A refusal names where the setting came from: the command line, or the params line.
    auto refuse = [&](const std::string& message, const std::string& kind) -> std::string {
      if (st.param) return render_workload_error(w.path, w.text, st.param->content, "params." + st.name + ": " + message, kind);
      return "error: " + st.name + "=" + st.value + ": " + message + " [" + kind + "]";
    };
    const std::string& name = st.name;
    const std::string& value = st.value;
    if (const Noted* n = noted(name)) {
      r.notes.push_back((st.param ? "params." + name + " (line " + std::to_string(st.param->at.line) + ")" : name + "=" + value) +
                        " is not acted on: " + n->reason);
      continue;
    }
    const bool render_option = name == "format" || name == "filename" || name == "separator" || name == "header" ||
                               name == "fields";
    if (render_option && use == ParamUse::Hardware) {
      if (st.param) continue;  // the workload's own choice for its lines; this command prints none
      return refuse("it sets how lines are printed; this command builds hardware and prints none (use it with run or "
                    "cosim)",
                    "not-applicable");
    }
    if (name == "adapter" || name == "driver") {
      if (value != "stdout")
        return refuse("this runner renders ops with nb-rs's stdout adapter only (adapter=stdout)", "unsupported-adapter");
    } else if (name == "seq") {
      auto s = parse_sequencer(value);
      if (!s) return refuse(s.error(), "bad-value");
      o.sequencer = *s;
    } else if (name == "tags") {
      auto t = TagFilter::parse(value);
      if (!t) return refuse(t.error().message + " (at character " + std::to_string(t.error().offset + 1) + ")", t.error().kind);
      o.tags = std::move(*t);
    } else if (name == "filename") {
      r.filename = value;
    } else if (name == "format") {
      render.format = value;
    } else if (name == "separator") {
      render.separator = value;
    } else if (name == "header") {
      render.header = value;
    } else if (name == "fields") {
      render.fields = value;
    }
  }
  if (render.format || render.separator || render.header || render.fields) {
    auto opts = render_options(render);
    if (!opts) return "error: " + opts.error().option + "=: " + opts.error().message + " [" + opts.error().kind + "]";
    o.render = *opts;
  }
  return r;
}

}  // namespace polydat::workload
