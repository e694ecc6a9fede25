// `make bench`, SystemC co-simulation throughput: the same batch, free flow,
// through the Verilator harness and through the SystemC harness (with its
// in-simulation reference model, and without it), in simulated M cycles/s,
// with the ratio in one run. Each timing is the best of three runs of the
// cached models (build time excluded).
#include <fmt/core.h>

#include <algorithm>

#include "tests/systemc/systemc_support.h"

using namespace polydat;

namespace {

struct Measured {
  double seconds = 1e30;
  uint64_t cycles = 0;
  bool ok = true;
};

Measured best_of_three(const char* engine_name, const simtest::SimKernel& k, const sim::Batch& batch,
                       const sim::EngineRun& expected, const flow::EngineOptions& options) {
  Measured m;
  for (int i = 0; i < 3; ++i) {
    auto engine = simtest::make_engine(engine_name, k, options);
    if (!engine) {
      fmt::print("  {}: {}\n", k.source.key, engine.error());
      return Measured{0, 0, false};
    }
    auto run = (*engine)->run(batch);
    if (!run) {
      fmt::print("  {}: {}\n", k.source.key, run.error());
      return Measured{0, 0, false};
    }
    m.seconds = std::min(m.seconds, run->seconds);
    m.cycles = run->cycles;
    m.ok = m.ok && sim::compare(k.design, batch, expected, *run, true).ok();
  }
  return m;
}

double mcycles(const Measured& m) { return m.seconds > 0 ? m.cycles / m.seconds / 1e6 : 0; }

}  // namespace

int main() {
  fmt::print("\nSystemC co-simulation throughput against the Verilator harness (free flow, cached models,\n"
             "process start and file I/O included, best of 3; M simulated cycles/s)\n");
  fmt::print("{:<18} {:>8} {:>9} {:>10} {:>10} {:>12} {:>10} {:>7}\n", "kernel", "evals", "cycles", "verilator",
             "systemc", "systemc-noref", "vl/sc", "agree");
  bool all_ok = true;
  const std::pair<const char*, size_t> kernels[] = {
      {"rtl/ids_hash", 200'000}, {"rtl/two_ops", 200'000}, {"corpus/sum_to_n", 20'000}, {"rtl/pcg_fsm", 20'000}};
  for (const auto& [key, n] : kernels) {
    const simtest::Loaded loaded = simtest::load_kernel(key);
    if (!loaded.kernel) {
      fmt::print("  {}: {}\n", key, loaded.why);
      all_ok = false;
      continue;
    }
    const simtest::SimKernel& k = *loaded.kernel;
    const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), n, 1);
    const auto expected = simtest::run_oracle(k, batch);
    if (!expected) continue;
    flow::EngineOptions vo = simtest::test_options(0.0, 1);
    vo.cache = POLYDAT_SC_TEST_CACHE;
    const Measured vl = best_of_three("verilator", k, batch, *expected, vo);
    const Measured sc = best_of_three("systemc", k, batch, *expected, sctest::test_options(k, 0.0, 1));
    flow::EngineOptions no_ref = sctest::test_options(k, 0.0, 1);
    no_ref.kernel_file.clear();
    const Measured sc_bare = best_of_three("systemc", k, batch, *expected, no_ref);
    const bool ok = vl.ok && sc.ok && sc_bare.ok;
    all_ok = all_ok && ok;
    fmt::print("{:<18} {:>8} {:>9} {:>10.2f} {:>10.2f} {:>12.2f} {:>10.1f} {:>7}\n", key, n, vl.cycles, mcycles(vl),
               mcycles(sc), mcycles(sc_bare), sc.seconds > 0 ? sc.seconds / vl.seconds : 0.0, ok ? "yes" : "NO");
  }
  fmt::print("vl/sc: how many times longer the SystemC harness takes than the Verilator harness for the same run.\n");
  return all_ok ? 0 : 1;
}
