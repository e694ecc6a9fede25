#include <fmt/core.h>

#include <unistd.h>

#include <chrono>

#include "cli/commands.h"
#include "cli/ordered_run.h"
#include "workload/model.h"
#include "workload/runner.h"

namespace polydat::cli {

int run_command(const RunArgs& args) {
  using namespace polydat::workload;
  RunOptions o;
  const auto format = parse_line_format(args.format);
  if (!format) {
    fmt::print(stderr, "error: --format is stmt, csv or jsonl, not '{}'\n", args.format);
    return kUsageError;
  }
  o.format = *format;
  if (args.engine == "llvm") o.native = true;
  else if (args.engine != "interp") {
    fmt::print(stderr, "error: --engine is interp or llvm, not '{}'\n", args.engine);
    return kUsageError;
  }
  o.lib_paths = args.lib_paths;
  if (!workload_assignments(args.assignments, o)) return kUsageError;
  auto w = load_workload_file(args.file);
  if (!w) {
    fmt::print(stderr, "{}", w.error().rendered);
    return kUserError;
  }
  if (args.explain) {
    auto t = explain_workload(*w, o);
    if (!t) {
      fmt::print(stderr, "{}{}", t.error(), t.error().ends_with('\n') ? "" : "\n");
      return kUserError;
    }
    fmt::print("{}", t->tree);
    return kOk;
  }
  auto out = OutputFile::open(args.output);
  if (!out) return kUserError;
  const auto start = std::chrono::steady_clock::now();
  const bool tty = !args.quiet && isatty(STDERR_FILENO);
  bool progress_shown = false;
  if (tty)
    o.progress = [&](uint64_t cycles, uint64_t ops) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (s < 1) return;
      fmt::print(stderr, "\r{} cycles, {} ops, {:.1f} s", cycles, ops, s);
      progress_shown = true;
    };
  auto r = run_workload(*w, o, [&](const std::string& text) { return out->write(text); });
  if (progress_shown) fmt::print(stderr, "\r\033[K");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!r) {
    fmt::print(stderr, "{}{}", r.error(), r.error().ends_with('\n') ? "" : "\n");
    return kUserError;
  }
  if (!args.quiet)
    for (const std::string& warning : r->warnings) fmt::print(stderr, "warning: {}\n", warning);
  if (out->closed()) return kOk;
  fmt::print(stderr, "polydat run: all phases complete: {} phase runs, {} cycles, {} ops ({} skipped by if:), {} kernels compiled, {:.3f} s\n",
             r->phases, r->cycles, r->ops, r->skipped, r->compiles, secs);
  return kOk;
}

}  // namespace polydat::cli
