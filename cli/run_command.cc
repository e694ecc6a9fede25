#include <fmt/core.h>

#include <unistd.h>

#include <chrono>

#include "cli/commands.h"
#include "cli/ordered_run.h"
#include "cli/progress.h"
#include "workload/model.h"
#include "workload/run_params.h"
#include "workload/runner.h"
#include "text/plural.h"

namespace polydat::cli {

int run_command(const RunArgs& args) {
  using namespace polydat::workload;
  RunOptions o;
  if (args.engine == "llvm") o.native = true;
  else if (args.engine != "interp") {
    fmt::print(stderr, "error: --engine is interp or llvm, not '{}'\n", args.engine);
    return kUsageError;
  }
  o.lib_paths = args.lib_paths;
  // nb-rs's form `run workload=FILE ...` beside `run FILE ...`.
  std::vector<std::string> words = args.assignments;
  words.insert(words.end(), args.sets.begin(), args.sets.end());  // --set NAME=VALUE is an assignment
  std::string file = args.file;
  if (file.find('=') != std::string::npos) {
    words.insert(words.begin(), file);
    file.clear();
  }
  auto assignments = split_assignments(words);
  if (!assignments) {
    fmt::print(stderr, "{}\n", assignments.error());
    return kUsageError;
  }
  if (auto named = take_workload(*assignments)) {
    if (!file.empty()) {
      fmt::print(stderr, "error: two workloads: '{}' and workload={} [usage]\n", file, *named);
      return kUsageError;
    }
    file = *named;
  }
  if (file.empty()) {
    if (auto refused = refused_param(*assignments)) {  // nb-rs's `run op=...`, which has no file
      fmt::print(stderr, "{}\n", *refused);
      return kUsageError;
    }
    fmt::print(stderr, "error: which workload? polydat run FILE.yaml (or workload=FILE.yaml) [usage]\n");
    return kUsageError;
  }
  if (auto refused = wrong_kind(file, FileKind::Workload)) {
    fmt::print(stderr, "{}", *refused);
    return kUsageError;
  }
  auto w = load_workload_file(file);
  if (!w) {
    fmt::print(stderr, "{}", w.error().rendered);
    return kUserError;
  }
  RenderSettings flags;
  if (args.format_given) {
    if (!parse_line_format(args.format)) {
      fmt::print(stderr, "error: --format {}: the formats are {} [unknown-format]\n", args.format, line_format_names());
      return kUsageError;
    }
    flags.format = args.format;
  }
  auto params = resolve_params(*assignments, *w, ParamUse::Lines, o, flags);
  if (!params) {
    fmt::print(stderr, "{}\n", params.error());
    return kUsageError;
  }
  std::string output = args.output;
  if (params->filename) {
    if (!output.empty()) {
      fmt::print(stderr, "error: -o {} and filename={}: one place for the lines [usage]\n", output, *params->filename);
      return kUsageError;
    }
    output = *params->filename == "stdout" ? "" : *params->filename;
  }
  if (!args.quiet)
    for (const std::string& note : params->notes) fmt::print(stderr, "note: {}\n", note);
  if (args.explain) {
    auto t = explain_workload(*w, o);
    if (!t) {
      fmt::print(stderr, "{}{}", t.error(), t.error().ends_with('\n') ? "" : "\n");
      return kUserError;
    }
    fmt::print("{}", t->tree);
    return kOk;
  }
  auto out = OutputFile::open(output);
  if (!out) return kUserError;
  const auto start = std::chrono::steady_clock::now();
  ProgressLine progress("run " + file, "cycles", progress_wanted(args.quiet));
  o.progress = [&](const workload::RunProgress& p) {
    progress.update(p.phase_done, p.phase_cycles,
                    fmt::format("phase run {}; {} {} so far", p.phase_runs, grouped(p.ops), p.ops == 1 ? "op" : "ops"));
  };
  auto r = run_workload(*w, o, [&](const std::string& text) { return out->write(text); });
  progress.clear();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r) {
    fmt::print(stderr, "{}{}", r.error(), r.error().ends_with('\n') ? "" : "\n");
    return kUserError;
  }
  if (!args.quiet)
    for (const std::string& warning : r->warnings) fmt::print(stderr, "warning: {}\n", warning);
  if (out->closed()) return kOk;
  fmt::print(stderr, "polydat run: all phases complete: {}, {}, {} ({} skipped by if:), {} compiled, {:.3f} s\n",
             text::counted(r->phases, "phase run"), text::counted(r->cycles, "cycle"), text::counted(r->ops, "op"), r->skipped,
             text::counted(r->compiles, "kernel"), secs);
  return kOk;
}

}  // namespace polydat::cli
