// polydat cosim: the kernel's SystemVerilog simulated cycle by cycle against
// the interpreter, with the report's latency and II checked.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/progress.h"
#include "cli/stimulus.h"
#include "cli/values.h"
#include "difftest/cosim_case.h"
#include "difftest/report.h"
#include "frontend/diagnostics.h"
#include "hls/report.h"
#include "ir/interp.h"
#include "sim/cosim.h"
#include "flow/engines.h"

namespace polydat::cli {

namespace {

// The command line that runs the same co-simulation, over `cycles`.
std::string reproducer(const CosimArgs& a, const std::string& cycles) {
  std::string cmd = "polydat cosim " + a.hls.file + (a.sim == "verilator" ? "" : " --sim " + a.sim) + " --cycles " + cycles;
  for (const std::string& s : a.sets) cmd += " --set " + s;
  if (a.hls.target != "ice40") cmd += " --target " + a.hls.target;
  if (a.hls.clock_ns) cmd += fmt::format(" --clock-ns {}", *a.hls.clock_ns);
  if (a.hls.max_mul) cmd += fmt::format(" --max-mul {}", *a.hls.max_mul);
  if (a.hls.dsp) cmd += fmt::format(" --dsp {}", *a.hls.dsp);
  if (a.hls.ii) cmd += fmt::format(" --ii {}", *a.hls.ii);
  for (const std::string& l : a.hls.lib_paths) cmd += " -L " + l;
  return cmd + fmt::format(" --stall {} --seed {}", a.stall, a.seed);
}

std::vector<std::string> tracing_engines() {
  std::vector<std::string> names;
  for (const flow::EngineInfo& e : flow::engines())
    if (e.traces) names.push_back(e.name);
  return names;
}

// What a simulator engine gave, with what the summary says about it.
struct SimRun {
  sim::EngineRun run;
  std::string post_reset;
  bool built_now = false;
  double build_s = 0;
  std::string reference;  // the SystemC reference model's own verdict, when there is one
  bool reference_ok = true;
};

ir::Expected<SimRun, std::string> simulate(const CosimArgs& args, const KernelDesign& k, const sim::Batch& batch) {
  flow::EngineOptions o;
  o.stall = args.stall;
  o.seed = args.seed;
  o.trace = args.trace;
  o.kernel_file = args.hls.file;  // SystemC's reference model compiles it inside the simulation
  o.lib_paths = args.hls.lib_paths;
  ProgressLine line("cosim " + args.hls.file + " on " + args.sim, "results", progress_wanted(args.quiet));
  o.progress = [&line](uint64_t done, uint64_t total) { line.update(done, total); };
  auto engine = flow::make_engine(args.sim, flow::subject_of(k), o);
  if (!engine) return engine.error();
  const auto t0 = std::chrono::steady_clock::now();
  if (auto built = (*engine)->build(); !built) return built.error();
  SimRun r;
  r.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  auto got = (*engine)->run(batch);
  if (!got) return got.error();
  r.run = std::move(*got);
  r.post_reset = (*engine)->post_reset();
  r.built_now = (*engine)->built_now();
  if (std::optional<sim::SelfCheck> c = (*engine)->self_check()) {
    r.reference_ok = c->ok;
    r.reference = c->summary;
  }
  return r;
}

// A stop of the interpreter at `cycle`, as eval words it: the cycle, and the kernel's line when the IR has one.
std::string stop_message(const frontend::CompileResult& r, const ir::InterpError& e, uint64_t cycle) {
  const std::string message = fmt::format("the oracle (the interpreter) stopped: {} (at cycle {})", e.message, cycle);
  const std::string kind(ir::interp_error_name(e.kind));
  if (e.loc.line && e.loc.file < r.program->sources.size())
    return frontend::render_error_at(r.program->sources, frontend::Span{e.loc.file, e.loc.start, e.loc.end}, message, kind);
  return fmt::format("error: {} [{}]\n", message, kind);
}

// The interpreter on the batch, the oracle the simulation is checked against, one evaluation at a time so
// that a stop names its cycle (evaluation i is the kernel at cycle first + i).
ir::Expected<sim::EngineRun, std::string> oracle(const frontend::CompileResult& r, const KernelDesign& k,
                                                 const sim::Batch& batch, uint64_t first, ProgressLine& line) {
  const ir::Ty in_ty = k.ir.object(k.ir.func(k.ir.entry()).input).ty;
  ir::Interpreter interp(k.ir);
  sim::EngineRun run;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < batch.inputs.size(); ++i) {
    std::vector<ir::Value> fields;
    size_t next_in = 0, next_cfg = 0;
    for (bool config : k.config_fields) fields.push_back(config ? batch.configs.at(next_cfg++) : batch.inputs[i].at(next_in++));
    auto out = interp.run(in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(fields)));
    if (!out) return stop_message(r, out.error(), first + i);
    run.outputs.push_back(out->ty().is_product() ? out->elems() : std::vector<ir::Value>{*out});
    run.iterations.push_back(interp.last_iterations());
    if (i % 4096 == 0) line.update(i, batch.inputs.size());
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return run;
}

// Why design_for gave no design, for the report (design_for printed it already).
difftest::Case no_design(const CosimArgs& a, const hls::HlsOptions& options, const frontend::CompileResult& r) {
  if (auto refused = wrong_kind(a.hls.file, FileKind::Kernel))
    return difftest::cosim_error(a.hls.file, a.sim, "frontend", *refused, {});
  if (!r.ok()) return difftest::cosim_error(a.hls.file, a.sim, "frontend", r.render_diagnostics(), {});
  auto hw = flow::hardware(r, options);
  if (!hw) return difftest::cosim_error(a.hls.file, a.sim, "hardware", "cannot make hardware: " + hw.error().message + " [" + hw.error().kind + "]", {});
  return difftest::cosim_error(a.hls.file, a.sim, "timing", "the model predicts the clock is missed (--strict)", {});
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The co-simulation; `verdict` receives its case for the reports (unless the command line is wrong).
int cosim_run(const CosimArgs& args, difftest::Case& verdict) {
  if (!args.board.empty()) return board_cosim_command(args);
  auto range = cycles_option(args.cycles);
  if (!range) return kUsageError;
  if (!args.trace.empty() && !flow::find_engine(args.sim)->traces) {
    fmt::print(stderr, "error: --trace needs --sim {} (the {} engine writes no trace)\n",
               fmt::join(tracing_engines(), " or "), args.sim);
    return kUsageError;
  }
  auto options = hls_options(args.hls);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto k = design_for(args.hls, *options, r);
  if (!k) {
    verdict = no_design(args, *options, r);
    return k.error();
  }
  auto stimulus = stimulus_for(r.kernel(), args.sets);
  if (!stimulus) {
    verdict = difftest::cosim_error(args.hls.file, args.sim, "stimulus", "the stimulus of --cycles and --set could not be made (stderr says why)", {});
    return stimulus.error();
  }
  auto batch = batch_of(*stimulus, *k, *range);
  if (!batch) {
    verdict = difftest::cosim_error(args.hls.file, args.sim, "stimulus", "the batch of --cycles could not be made (stderr says why)", {});
    return kUserError;
  }

  ProgressLine line("cosim " + args.hls.file + ": the oracle (the interpreter)", "evaluations", progress_wanted(args.quiet));
  auto expected = oracle(r, *k, *batch, range->begin, line);
  line.clear();
  if (!expected) {
    fmt::print(stderr, "{}", expected.error());
    verdict = difftest::cosim_error(args.hls.file, args.sim, "oracle", expected.error(), {reproducer(args, args.cycles)});
    return kUserError;
  }
  auto got = simulate(args, *k, *batch);
  if (!got) {
    fmt::print(stderr, "error: {}\n  reproduce: {}\n", got.error(), reproducer(args, args.cycles));
    verdict = difftest::cosim_error(args.hls.file, args.sim, "engine-failure", got.error(), {reproducer(args, args.cycles)});
    return kUserError;
  }
  const bool free_flow = args.stall == 0;
  const sim::CosimReport rep = sim::compare(k->design, *batch, *expected, got->run, free_flow);
  const bool reset_ok = got->post_reset == sim::expected_post_reset(k->design);

  fmt::print("cosim {} on {}: {} ({})\n", args.hls.file, args.sim, hls::summary_line(k->design),
             got->built_now ? fmt::format("model built in {:.1f} s", got->build_s) : "model from the cache");
  if (stimulus->iterated())
    fmt::print("  stimulus: {} = {}..{}, stall {}, seed {}\n", r.kernel().params[*stimulus->iterated()].name,
               range->begin, range->end, args.stall, args.seed);
  else
    fmt::print("  stimulus: one evaluation (no streamed input), stall {}, seed {}\n", args.stall, args.seed);
  fmt::print("{}", sim::render(rep, k->design));
  if (!free_flow) fmt::print("  latency and II: checked under free flow only (--stall 0)\n");
  fmt::print("  after reset: {}\n", reset_ok ? "ready, no result, outputs zero"
                                               : "WRONG (in_ready out_valid outputs:" + got->post_reset + ")");
  if (!got->reference.empty()) fmt::print("  reference model: {}\n", got->reference);
  if (!args.trace.empty()) fmt::print("  trace: {}\n", args.trace);
  if (rep.first) {
    const uint64_t at = range->begin + rep.first->evaluation;
    fmt::print("  reproduce the evaluation: {}\n", reproducer(args, fmt::format("{}..{}", at, at + 1)));
  }
  const bool ok = rep.ok() && reset_ok && got->reference_ok;
  if (!ok) fmt::print("  reproduce the run: {}\n", reproducer(args, args.cycles));
  fmt::print("  result: {}\n", ok ? "PASS" : "FAIL");
  std::vector<std::string> replay;
  if (rep.first) {
    const uint64_t at = range->begin + rep.first->evaluation;
    replay.push_back(reproducer(args, fmt::format("{}..{}", at, at + 1)));
  }
  replay.push_back(reproducer(args, args.cycles));
  const difftest::CosimVerdict v{rep, reset_ok ? "" : "in_ready out_valid outputs:" + got->post_reset + ", not" + sim::expected_post_reset(k->design),
                                 got->reference_ok ? "" : got->reference};
  verdict = difftest::cosim_case(args.hls.file, args.sim, v, std::move(replay));
  return ok ? kOk : kUserError;
}

}  // namespace

int cosim_command(const CosimArgs& args) {
  const bool reports = !args.junit.empty() || !args.json.empty();
  if (reports && !args.board.empty()) {
    fmt::print(stderr, "error: --junit and --json are for a kernel's co-simulation; with --board the board top's UART "
                       "lines are checked as a whole, so no report [usage]\n");
    return kUsageError;
  }
  // Checked first: a co-simulation can be long, and CI wants its report or an error at once.
  if (auto e = difftest::check_writable({args.junit, args.json})) {
    fmt::print(stderr, "error: {}\n", *e);
    return kUserError;
  }
  const auto t0 = std::chrono::steady_clock::now();
  difftest::Case verdict{args.hls.file, args.sim, difftest::Outcome::Error, "internal", "no verdict", "", {}, 0, 0};
  const int status = cosim_run(args, verdict);
  if (!reports || status == kUsageError) return status;
  const difftest::Report report{"polydat cosim", {verdict}, seconds_since(t0)};
  if (auto e = difftest::write_reports(report, args.junit, args.json)) {
    fmt::print(stderr, "error: {}\n", *e);
    return kUserError;
  }
  return status;
}

}  // namespace polydat::cli
