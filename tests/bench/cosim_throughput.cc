#include "cosim_throughput.h"

#include <fmt/core.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/compile.h"
#include "hls/design.h"
#include "flow/pipeline.h"
#include "sim/cosim.h"
#include "flow/engines.h"
#include "sim/verilator/bare_model.h"

namespace polydat::bench {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct KernelUnderBench {
  std::string file;     // relative to the source root
  uint64_t evaluations;  // FSMs take many cycles per evaluation: fewer
};

// What `polydat cosim` simulates: the optimised IR (the oracle), its design and its module.
struct Synthesized {
  frontend::CompileResult compiled;
  std::optional<flow::Emitted> emitted;
};

// Compile, optimise, synthesize with the default options, as `polydat hls` does.
std::unique_ptr<Synthesized> synthesize(const std::string& file) {
  auto s = std::make_unique<Synthesized>();
  s->compiled = frontend::compile_file(std::string(POLYDAT_SOURCE_ROOT) + "/" + file);
  if (!s->compiled.ok()) {
    fmt::print("  {}: does not compile\n{}", file, s->compiled.render_diagnostics());
    return nullptr;
  }
  auto opt = flow::optimize(s->compiled);
  if (!opt) {
    fmt::print("  {}: the optimiser failed ({})\n", file, opt.error());
    return nullptr;
  }
  auto d = flow::schedule(std::move(*opt));
  if (!d) {
    fmt::print("  {}: cannot make hardware ({})\n", file, d.error().message);
    return nullptr;
  }
  s->emitted = flow::emit(std::move(*d));
  return s;
}

// As `polydat cosim --cycles N`: the first streamed input takes 0..N-1, the
// other ports their defaults (zero when they have none).
sim::Batch batch_for(const frontend::Unit& kernel, uint64_t evaluations) {
  sim::Batch batch;
  std::vector<ir::Value> held;
  bool first_streamed = true;
  std::optional<size_t> iterated;
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const frontend::Port& p = kernel.params[i];
    if (p.is_extern) {
      batch.configs.push_back(p.default_constant ? *p.default_constant : ir::Value::zero(p.ty));
    } else if (first_streamed) {
      first_streamed = false;
      iterated = i;
    } else {
      held.push_back(p.default_constant ? *p.default_constant : ir::Value::zero(p.ty));
    }
  }
  for (uint64_t n = 0; n < evaluations; ++n) {
    std::vector<ir::Value> row;
    if (iterated) row.push_back(ir::Value::integer(kernel.params[*iterated].ty.kind(), n));
    row.insert(row.end(), held.begin(), held.end());
    batch.inputs.push_back(std::move(row));
  }
  return batch;
}

// The bare driver holds what the batch holds: the configs, and the inputs after the first.
sim::BareHeld held_of(const sim::Batch& batch) {
  sim::BareHeld h;
  for (const ir::Value& c : batch.configs) h.configs.push_back(c.bits());
  if (!batch.inputs.empty())
    for (size_t i = 1; i < batch.inputs[0].size(); ++i) h.inputs.push_back(batch.inputs[0][i].bits());
  return h;
}

std::string design_label(const hls::Design& d) {
  if (d.kind == hls::DesignKind::Pipeline) return fmt::format("pipe {}", d.stages);
  return fmt::format("fsm {}", d.states.size());
}

double mcycles_per_s(uint64_t cycles, double seconds) { return seconds > 0 ? cycles / seconds / 1e6 : 0.0; }

constexpr int kRepeats = 5;  // each timed run is the best of these (runs of 10 ms are noisy)

struct Measured {
  std::string kernel, design;
  uint64_t evaluations = 0, cycles = 0;
  double oracle = 0, cosim = 0, fixed = 0, bare = 0, build = 0;
  bool cached = false;
  bool agrees = false;  // every result and cycle claim as the oracle and the report say
};

// The run with the best wall time of kRepeats runs of the engine on `batch`, or why it failed.
ir::Expected<sim::EngineRun, std::string> best_run(sim::Engine& engine, const sim::Batch& batch) {
  std::optional<sim::EngineRun> best;
  for (int i = 0; i < kRepeats; ++i) {
    auto run = engine.run(batch);
    if (!run) return run.error();
    if (!best || run->seconds < best->seconds) best = std::move(*run);
  }
  return *std::move(best);
}

std::optional<Measured> bench_kernel(const KernelUnderBench& k) {
  const auto s = synthesize(k.file);
  if (!s) return std::nullopt;
  const hls::Design& d = s->emitted->design;
  const sim::Batch batch = batch_for(s->compiled.kernel(), k.evaluations);
  Measured m{s->compiled.kernel().name, design_label(d), k.evaluations};
  const auto failed = [&](const std::string& why) {
    fmt::print("  {}: {}\n", k.file, why);
    return std::nullopt;
  };

  flow::EngineOptions vo;
  vo.cache = POLYDAT_BENCH_CACHE;
  const flow::EngineSubject subject = flow::subject_of(*s->emitted);
  auto made = flow::make_engine("verilator", subject, vo);
  if (!made) return failed(made.error());
  sim::Engine& engine = **made;
  sim::BareModel bare(d, s->emitted->module, POLYDAT_BENCH_CACHE);
  // Builds first, timed apart: the figures are of running models only.
  auto t0 = Clock::now();
  if (auto built = engine.build(); !built) return failed(built.error());
  if (auto built = bare.prepare(); !built) return failed(built.error());
  m.build = seconds_since(t0);
  m.cached = !engine.built_now() && !bare.built_now();

  auto oracle = flow::make_engine("interp", subject);
  if (!oracle) return failed(oracle.error());
  auto expected = (*oracle)->run(batch);
  if (!expected) return failed(expected.error());
  // The harness and the bare model take turns, so a busy spell on the machine slows both.
  std::optional<sim::EngineRun> got;
  std::optional<sim::BareRun> ceiling;
  for (int i = 0; i < kRepeats; ++i) {
    auto run = engine.run(batch);
    if (!run) return failed(run.error());
    if (!got || run->seconds < got->seconds) got = std::move(*run);
    auto bare_run = bare.run(got->cycles, held_of(batch));
    if (!bare_run) return failed(bare_run.error());
    if (bare_run->results == 0) return failed("the bare model delivered no result");
    if (!ceiling || bare_run->seconds < ceiling->seconds) ceiling = *bare_run;
  }
  const sim::CosimReport rep = sim::compare(d, batch, *expected, *got, /*free_flow=*/true);
  if (!rep.ok()) fmt::print("  {}: the co-simulation disagrees with the oracle:\n{}", k.file, sim::render(rep, d));
  // One evaluation: what every run pays whatever its length (process start, reset, files).
  auto one = best_run(engine, sim::Batch{{batch.inputs.front()}, batch.configs});
  if (!one) return failed(one.error());
  m.agrees = rep.ok();
  m.cycles = rep.cycles;
  m.oracle = rep.oracle_seconds;
  m.cosim = rep.engine_seconds;
  m.fixed = one->seconds;
  m.bare = ceiling->seconds;
  return m;
}
}  // namespace

void bench_cosim_throughput() {
  std::vector<Measured> rows;
  for (const KernelUnderBench& k : {KernelUnderBench{"examples/ids.gk", 200'000},
                                    KernelUnderBench{"tests/corpus/stdlib_splitmix64.gk", 200'000},
                                    KernelUnderBench{"tests/rtl/kernels/pcg_fsm.gk", 20'000}})
    if (auto m = bench_kernel(k)) rows.push_back(*m);

  fmt::print("\nCo-simulation throughput: `polydat cosim` (free flow) against the bare Verilated model\n");
  fmt::print("(same SystemVerilog, same verilator flags), same simulated cycles; M cycles/s; best of {}\n", kRepeats);
  // Other work on the machine slows the short runs most: say how busy it was.
  if (double load[1]; getloadavg(load, 1) == 1) fmt::print("(load average {:.2f} at the end)\n", load[0]);
  fmt::print("  {:<18} {:>7} {:>7} {:>8} {:>9} {:>9} {:>7} {:>9} {:>7} {:>10} {:>7}\n", "kernel", "design", "evals",
             "cycles", "oracle s", "cosim s", "cosim", "bare s", "bare", "bare/cosim", "agrees");
  for (const Measured& m : rows)
    fmt::print("  {:<18} {:>7} {:>7} {:>8} {:>9.3f} {:>9.4f} {:>7.2f} {:>9.4f} {:>7.2f} {:>9.1f}x {:>7}\n", m.kernel,
               m.design, m.evaluations, m.cycles, m.oracle, m.cosim, mcycles_per_s(m.cycles, m.cosim), m.bare,
               mcycles_per_s(m.cycles, m.bare), m.bare > 0 && m.cosim > 0 ? m.cosim / m.bare : 0.0,
               m.agrees ? "yes" : "NO");

  fmt::print("\nWhere the harness's time goes: a 1-evaluation run (process start, reset, files), the model's\n");
  fmt::print("own cycles (the bare run), and the rest per evaluation (input file, stall draws, cycle records)\n");
  fmt::print("  {:<18} {:>9} {:>9} {:>9} {:>10}   {}\n", "kernel", "fixed s", "model s", "rest s", "rest ns/ev",
             "model builds (not in the figures)");
  for (const Measured& m : rows) {
    const double rest = m.cosim - m.fixed - m.bare;
    fmt::print("  {:<18} {:>9.4f} {:>9.4f} {:>9.4f} {:>10.0f}   {:.1f} s{}\n", m.kernel, m.fixed, m.bare, rest,
               rest / m.evaluations * 1e9, m.build, m.cached ? " (cached)" : "");
  }
}

}  // namespace polydat::bench
