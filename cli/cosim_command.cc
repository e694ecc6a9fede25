// polydat cosim: the kernel's SystemVerilog simulated cycle by cycle against
// the interpreter, with the report's latency and II checked.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/stimulus.h"
#include "cli/values.h"
#include "hls/report.h"
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

}  // namespace

int cosim_command(const CosimArgs& args) {
  if (!args.board.empty()) return board_cosim_command(args);
  auto range = cycles_option(args.cycles);
  if (!range) return kUsageError;
  if (!args.trace.empty() && !flow::find_engine(args.sim)->traces) {
    fmt::print(stderr, "error: --trace needs --sim {} (the {} engine writes no trace)\n",
               fmt::join(tracing_engines(), " or "), args.sim);
    return kUsageError;
  }
  if (!(args.stall >= 0 && args.stall < 1)) {
    fmt::print(stderr, "error: --stall is a probability in [0, 1)\n");
    return kUsageError;
  }
  auto options = hls_options(args.hls);
  if (!options) return kUsageError;
  frontend::CompileResult r;
  auto k = design_for(args.hls, *options, r);
  if (!k) return kUserError;
  auto stimulus = stimulus_for(r.kernel(), args.sets);
  if (!stimulus) return stimulus.error();
  auto batch = batch_of(*stimulus, *k, *range);
  if (!batch) return kUserError;

  auto expected = oracle_run(*k, *batch);
  if (!expected) return kUserError;
  auto got = simulate(args, *k, *batch);
  if (!got) {
    fmt::print(stderr, "error: {}\n  reproduce: {}\n", got.error(), reproducer(args, args.cycles));
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
  return ok ? kOk : kUserError;
}

}  // namespace polydat::cli
