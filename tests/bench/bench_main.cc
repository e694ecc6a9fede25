// `make bench`: figures measured in one run, reported as ratios. Never a test.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <cstdint>
#include <vector>

#include "../ir/example_kernel.h"
#include "cosim_throughput.h"
#include "native_bench.h"
#include "nbrs_bench.h"
#include "streaming_bench.h"
#include "frontend/compile.h"
#include "hls/design.h"
#include "ir/pass_pipeline.h"
#include "flow/pipeline.h"
#include "rtl/emit_sv.h"
#include "ir/builder.h"
#include "ir/interp.h"
#include "ir/mermaid.h"
#include "ir/scc.h"
#include "ir/topo.h"
#include "ir/validate.h"

using namespace polydat;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The example kernel written by hand in C++: the reference for the interpreter's cost.
uint64_t hand_written(uint64_t x) {
  auto rotl = [](uint64_t v, int k) { return (v << k) | (v >> (64 - k)); };
  uint64_t h = rotl(x, 32) ^ 0xC73AB174C5ECD5A2ull;
  h ^= rotl(h, 49) ^ rotl(h, 24);
  h *= 0x9FB21C651E98DF25ull;
  h ^= (h >> 35) + 8;
  h *= 0x9FB21C651E98DF25ull;
  h ^= h >> 28;
  return h % 1000;
}

ir::CategoryIr chain(int links) {
  ir::IrBuilder b;
  ir::FuncId f = *b.declare("chain", ir::Ty::u64(), ir::Ty::u64(), {});
  ir::FnBuilder fb = *b.build_fn(f);
  ir::ObjectId one = *fb.constant(ir::Value::integer(ir::TyKind::U64, 1), {});
  ir::ObjectId x = fb.input();
  for (int i = 0; i < links; ++i) x = *fb.binop(ir::OpKind::Add, x, one, ir::Dest::fresh(), {});
  (void)fb.output(x, std::nullopt, {});
  (void)fb.finish();
  return *std::move(b).seal(f);
}

void bench_ir_scale() {
  fmt::print("IR scale: build+seal, topo_order, sccs, validate, to_mermaid (a chain of Add links)\n");
  fmt::print("  {:>9} {:>10} {:>10} {:>10} {:>10} {:>10}  {:>14}\n", "morphisms", "build ms", "topo ms", "scc ms",
             "valid. ms", "mermaid ms", "ns/morphism");
  for (int links : {333, 3'333, 33'333}) {
    auto t0 = Clock::now();
    const ir::CategoryIr g = chain(links);
    const double build = seconds_since(t0);
    t0 = Clock::now();
    const auto order = ir::topo_order(g, g.entry());
    const double topo = seconds_since(t0);
    t0 = Clock::now();
    const auto comps = ir::sccs(g, g.entry());
    const double scc = seconds_since(t0);
    t0 = Clock::now();
    const auto v = ir::validate(g);
    const double valid = seconds_since(t0);
    t0 = Clock::now();
    const std::string text = ir::to_mermaid(g);
    const double dump = seconds_since(t0);
    const double n = static_cast<double>(g.morphisms().size());
    fmt::print("  {:>9} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f}  {:>14.0f}\n", g.morphisms().size(),
               build * 1e3, topo * 1e3, scc * 1e3, valid * 1e3, dump * 1e3,
               (build + topo + scc + valid + dump) / n * 1e9);
    if (order.size() != g.morphisms().size() || !v.empty() || text.empty() || comps.empty()) fmt::print("  (unexpected result)\n");
  }
}

void bench_interpreter() {
  const ir::CategoryIr k = cli::build_example_kernel(1000);
  ir::Interpreter interp(k);
  const ir::Ty in = k.object(k.func(k.entry()).input).ty;
  constexpr uint64_t kEvals = 200'000;
  uint64_t sum_i = 0, sum_h = 0;
  auto t0 = Clock::now();
  for (uint64_t c = 0; c < kEvals; ++c)
    sum_i += interp.run(ir::Value::structure(in, {ir::Value::integer(ir::TyKind::U64, c)}))->elems()[0].as_u64();
  const double ti = seconds_since(t0);
  t0 = Clock::now();
  for (uint64_t c = 0; c < kEvals * 100; ++c) sum_h += hand_written(c);
  const double th = seconds_since(t0) / 100;
  const uint64_t sum_check = [&] {
    uint64_t s = 0;
    for (uint64_t c = 0; c < kEvals; ++c) s += hand_written(c);
    return s;
  }();
  fmt::print("\nInterpreter on the example kernel, id := mod(hash(cycle), 1000), {} evaluations\n", kEvals);
  fmt::print("  interpreter      {:>10.1f} ns/eval\n", ti / kEvals * 1e9);
  fmt::print("  hand-written C++ {:>10.2f} ns/eval\n", th / kEvals * 1e9);
  fmt::print("  ratio            {:>10.0f}x slower than hand-written (the oracle is clear, not fast)\n", ti / th);
  fmt::print("  results agree: {} (checksum {})\n", sum_i == sum_check ? "yes" : "NO", sum_h % 997);
}
// A kernel of about `ops` operations: a chain of bindings mixing add, xor,
// rotate and multiply by a constant, each reading the two before it.
std::string generated_kernel(int ops) {
  std::string k = "input cycle: u64\nb0 := cycle ^ 0x9E3779B97F4A7C15\nb1 := rotl(cycle, 7) + 1\n";
  const int bindings = ops / 3;
  for (int i = 2; i < bindings; ++i)
    k += fmt::format("b{} := (b{} + rotl(b{}, {})) ^ (b{} * 3)\n", i, i - 1, i - 2, i % 63 + 1, i - 2);
  k += fmt::format("output b{}\n", bindings - 1);
  return k;
}

void bench_compile_time() {
  fmt::print("\nCompile time against kernel size (generated chains; one run each)\n");
  fmt::print("  {:>8} {:>10} {:>10} {:>10} {:>10} {:>10}  {:>8} {:>7}\n", "ops", "frontend", "optimize", "hls",
             "emit-sv", "total ms", "us/op", "stages");
  for (int ops : {100, 1'000, 10'000}) {
    const std::string text = generated_kernel(ops);
    auto t0 = Clock::now();
    const frontend::CompileResult r = frontend::compile_source("gen.gk", text);
    const double front = seconds_since(t0);
    if (!r.ok()) {
      fmt::print("  (the generated kernel does not compile)\n");
      return;
    }
    t0 = Clock::now();
    auto opt = flow::optimize(r);
    const double optimize = seconds_since(t0);
    if (!opt) {
      fmt::print("  (the optimiser failed: {})\n", opt.error());
      return;
    }
    t0 = Clock::now();
    auto s = flow::schedule(std::move(*opt));
    const double synth = seconds_since(t0);
    t0 = Clock::now();
    std::optional<flow::Emitted> e;
    if (s) e = flow::emit(std::move(*s));
    const double emit = seconds_since(t0);
    size_t scheduled = 0;
    if (e)
      for (hls::ValueId v = 0; v < e->design.dfg.nodes.size(); ++v) scheduled += e->design.dfg.is_op(v) && e->design.live[v];
    const double total = front + optimize + synth + emit;
    fmt::print("  {:>8} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f} {:>10.1f}  {:>8.1f} {:>7}\n", scheduled, front * 1e3,
               optimize * 1e3, synth * 1e3, emit * 1e3, total * 1e3, total / std::max<size_t>(1, scheduled) * 1e6,
               e ? e->design.stages : 0);
  }
}
}  // namespace

// `polydat-bench [SECTION...]`: only those sections (all without arguments).
int main(int argc, char** argv) {
  const std::vector<std::pair<std::string, void (*)()>> sections{
      {"ir", bench_ir_scale},          {"interpreter", bench_interpreter},       {"compile", bench_compile_time},
      {"cosim", bench::bench_cosim_throughput}, {"native", bench::bench_native_backend},
      {"nbrs", bench::bench_nbrs_kernels}, {"streaming", bench::bench_streaming}, {"workload", bench::bench_workload_run}};
  const std::vector<std::string> wanted(argv + 1, argv + argc);
  for (const auto& [name, run] : sections)
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end()) run();
  return 0;
}
