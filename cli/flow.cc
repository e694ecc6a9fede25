#include "cli/flow.h"

#include <fmt/core.h>

#include <algorithm>

#include "flow/engines.h"
#include "hls/report.h"

namespace polydat::cli {

bool compile_kernel(const std::string& file, const std::vector<std::string>& lib_paths, frontend::CompileResult& r,
                    const std::vector<std::string>& outputs) {
  frontend::CompileOptions copts;
  copts.lib_paths = lib_paths;
  copts.outputs = outputs;
  if (auto refused = wrong_kind(file, FileKind::Kernel)) {
    fmt::print(stderr, "{}", *refused);
    return false;
  }
  r = frontend::compile_file(file, copts);
  frontend::Diagnostics in_file;  // the rest point into the sources and are shown as the frontend renders them
  for (const frontend::Diagnostic& d : r.diagnostics().list()) {
    if (outputs_option_error(d)) {
      fmt::print(stderr, "error: --outputs: {} [usage]\n", d.message);
      continue;
    }
    if (d.severity == frontend::Severity::Error) in_file.error(d.kind, d.span, d.message);
    else in_file.warning(d.kind, d.span, d.message);
    in_file.last().notes = d.notes;
  }
  fmt::print(stderr, "{}", frontend::render_all(in_file, r.program->sources));
  return r.ok();
}

bool outputs_option_error(const frontend::Diagnostic& d) {
  return d.kind == frontend::DiagKind::UnknownOutput && d.span.file == frontend::kNoFile;
}

int compile_failure_status(const frontend::CompileResult& r) {
  if (!r.program) return kUserError;
  const auto& list = r.diagnostics().list();
  return std::any_of(list.begin(), list.end(), outputs_option_error) ? kUsageError : kUserError;
}

std::optional<flow::Optimized> optimized(const frontend::CompileResult& r) {
  auto o = flow::optimize(r);
  if (!o) {
    fmt::print(stderr, "error: internal: the optimiser failed ({})\n", o.error());
    return std::nullopt;
  }
  return std::move(*o);
}

std::optional<CycleRange> cycles_option(const std::string& text) {
  auto range = parse_cycles(text);
  if (!range) fmt::print(stderr, "error: --cycles takes N or A..B (half-open, A <= B), not '{}'\n", text);
  return range;
}

std::optional<sim::Batch> batch_of(const Stimulus& stimulus, const KernelDesign& k, CycleRange range) {
  auto rows = stimulus.rows(range);
  if (!rows) return std::nullopt;
  sim::Batch batch;
  for (const std::vector<ir::Value>& fields : *rows) {
    std::vector<ir::Value> streamed, configs;
    for (size_t i = 0; i < fields.size(); ++i) (k.config_fields[i] ? configs : streamed).push_back(fields[i]);
    if (batch.inputs.empty()) batch.configs = std::move(configs);  // the same for every evaluation
    batch.inputs.push_back(std::move(streamed));
  }
  return batch;
}

std::optional<sim::EngineRun> oracle_run(const KernelDesign& k, const sim::Batch& batch) {
  auto oracle = flow::make_engine("interp", flow::subject_of(k));
  auto run = (*oracle)->run(batch);
  if (!run) {
    fmt::print(stderr, "error: the interpreter: {}\n", run.error());
    return std::nullopt;
  }
  return std::move(*run);
}

std::optional<hls::HlsOptions> hls_options(const HlsArgs& args) {
  hls::HlsOptions o;
  if (!hls::parse_target(args.target, o.target)) {
    fmt::print(stderr, "error: --target is ice40 or generic, not '{}'\n", args.target);
    return std::nullopt;
  }
  if (args.clock_ns) {
    if (!(*args.clock_ns > 0)) {
      fmt::print(stderr, "error: --clock-ns must be positive\n");
      return std::nullopt;
    }
    o.clock_ns = *args.clock_ns;
  }
  if (args.max_mul) {
    if (*args.max_mul == 0) {
      fmt::print(stderr, "error: --max-mul must be at least 1\n");
      return std::nullopt;
    }
    o.max_mul = *args.max_mul;
  }
  o.dsp_limit = args.dsp;
  o.ii = args.ii;
  return o;
}

namespace {
// An error or warning the HLS flow found at `at`; inside a module, notes name the user's calls that lead there.
void print_found_at(const frontend::CompileResult& r, const ir::SourceLoc& at, const std::string& message,
                    std::string_view kind, bool error, const std::string& fallback_file) {
  const frontend::SourceMap& sources = r.program->sources;
  if (!at.line || at.file >= sources.size()) {
    fmt::print(stderr, "{}{}: {} [{}]\n", fallback_file.empty() ? "" : fallback_file + ": ", error ? "error" : "warning",
               message, kind);
    return;
  }
  const frontend::Span span{at.file, at.start, at.end};
  fmt::print(stderr, "{}", error ? frontend::render_error_at(sources, span, message, kind)
                                 : frontend::render_warning_at(sources, span, message, kind));
  for (const frontend::Program::CallSite& c : r.program->call_sites_reaching(at.file, at.start))
    fmt::print(stderr, "{}", frontend::render_note_at(sources, c.at, "inside " + c.chain + ", called here"));
}
}  // namespace

ir::Expected<KernelDesign, int> design_for(const HlsArgs& args, const hls::HlsOptions& options,
                                       frontend::CompileResult& r) {
  if (!compile_kernel(args.file, args.lib_paths, r)) return kUserError;
  auto opt = optimized(r);
  if (!opt) return kUserError;
  auto d = flow::schedule(std::move(*opt), options);
  if (!d) {
    print_found_at(r, d.error().loc, "cannot make hardware: " + d.error().message, d.error().kind, true, "");
    return kUserError;
  }
  if (args.max_mul && d->design.kind == hls::DesignKind::Pipeline)
    fmt::print(stderr, "{}: warning: --max-mul has no effect: '{}' is a pipeline, and only an FSM shares multipliers\n",
               args.file, r.kernel().name);
  if (auto miss = hls::timing_warning(d->design)) {
    print_found_at(r, miss->at, miss->message, "timing", args.strict, args.file);
    if (args.strict) return kDoesNotFit;
  }
  return flow::emit(std::move(*d));
}

}  // namespace polydat::cli
