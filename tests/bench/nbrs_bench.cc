#include "nbrs_bench.h"

#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "frontend/compile.h"
#include "ir/interp.h"
#include "ir/pass_pipeline.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::bench {

namespace {

struct NbrsKernel {
  std::string file;      // in tests/bench/nbrs
  std::string pulled;    // the one output nb-rs's bench reads
  double p3_ns, pull_ns;  // nb-rs docs/sysref/17_performance_results.md, "P3 JIT Results": Raw, Pull
};

constexpr uint64_t kBatch = 100'000;

// 64-bit multiplies one evaluation executes on x86-64 (beyond the batch's once-only work): each Mul, and a Div or
// Mod by a constant that is not a power of two as its multiply-high (a Mod adds
// the multiply back). A division by a variable counts apart.
struct MulCount {
  uint64_t muls = 0, divisions = 0;
};
// Only the work that varies per evaluation counts: what depends on a streamed
// input (not an extern: that work runs once per batch).
std::vector<bool> per_evaluation(const ir::CategoryIr& g, const std::vector<bool>& is_extern) {
  std::vector<bool> varies(g.objects().size(), false);
  const ir::ObjectId input = g.func(g.entry()).input;
  for (bool changed = true; changed;) {  // to a fixpoint: a product varies when any part does
    changed = false;
    for (const ir::Morphism& m : g.morphisms()) {
      if (g.owner(m.target) != g.entry() || varies[m.target.v]) continue;
      const bool v = m.source == input
                         ? m.op.kind != ir::OpKind::Proj || m.op.index() >= is_extern.size() || !is_extern[m.op.index()]
                         : static_cast<bool>(varies[m.source.v]);
      if (v) varies[m.target.v] = changed = true;
    }
  }
  return varies;
}

MulCount count_multiplies(const ir::CategoryIr& g, const std::vector<bool>& is_extern) {
  MulCount c;
  const std::vector<bool> varies = per_evaluation(g, is_extern);
  for (const ir::Morphism& m : g.morphisms()) {
    if (g.owner(m.target) != g.entry() || !varies[m.target.v]) continue;
    const ir::OpKind k = m.op.kind;
    if (k != ir::OpKind::Mul && k != ir::OpKind::Div && k != ir::OpKind::Mod) continue;
    const ir::Object& src = g.object(m.source);
    const ir::Value* divisor = nullptr;
    if (src.ty.is_product() && src.ty.arity() == 2)
      for (const ir::Morphism& p : g.morphisms())
        if (p.target == m.source && p.op.kind == ir::OpKind::Pair && p.op.slot() == 1 && g.object(p.source).value)
          divisor = &*g.object(p.source).value;
    if (k == ir::OpKind::Mul) {
      ++c.muls;
    } else if (!divisor) {
      ++c.divisions;
    } else if (const uint64_t d = divisor->bits(); d & (d - 1)) {
      c.muls += k == ir::OpKind::Mod ? 2 : 1;
    }
  }
  return c;
}

// The time of one 64-bit multiply at full throughput: eight independent chains of imul.
double ns_per_multiply() {
  constexpr uint64_t kRounds = 20'000'000;
  const uint64_t m = 0x9E3779B97F4A7C15ull;
  uint64_t x[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const double s = best_of(3, [&] {
    for (uint64_t i = 0; i < kRounds; ++i)
      for (uint64_t& v : x) asm volatile("imul %1, %0" : "+r"(v) : "r"(m));
  });
  return s / (kRounds * 8) * 1e9;
}

struct Figures {
  double ns = 0;
  uint64_t muls = 0;
  bool agrees = false;
};

// The kernel with `outputs` (empty: its own), its externs at their defaults, cycles 0..kBatch.
std::optional<Figures> measure(const std::string& path, const std::vector<std::string>& outputs, std::string& why) {
  frontend::CompileOptions o;
  o.outputs = outputs;
  const frontend::CompileResult r = frontend::compile_file(path, o);
  if (!r.ok()) {
    why = r.render_diagnostics();
    return std::nullopt;
  }
  auto opt = ir::optimize(*r.ir);
  if (!opt) {
    why = opt.error().message;
    return std::nullopt;
  }
  sim::LowerOptions lower;
  std::vector<ir::Value> fixed;
  for (const frontend::Port& p : r.kernel().params) {
    lower.batch_invariant.push_back(p.is_extern);
    fixed.push_back(p.default_constant ? *p.default_constant : ir::Value::zero(p.ty));
  }
  auto k = sim::NativeKernel::compile(*opt, opt->entry(), lower);
  if (!k) {
    why = k.error();
    return std::nullopt;
  }
  const ir::Ty in_ty = opt->object(opt->func(opt->entry()).input).ty;
  const ir::Ty out_ty = opt->object(opt->func(opt->entry()).output).ty;
  std::vector<ir::Value> inputs;
  for (uint64_t c = 0; c < kBatch; ++c) {
    fixed[0] = ir::Value::integer(ir::TyKind::U64, c);  // the first port is the cycle
    inputs.push_back(ir::Value::structure(in_ty, fixed));
  }
  const sim::RecordLayout& il = (*k)->inputs();
  const sim::RecordLayout& ol = (*k)->outputs();
  sim::RecordBuffer in_buf, out_buf;
  unsigned char* in_words = in_buf.at(il.size, kBatch);
  unsigned char* out_words = out_buf.at(ol.size, kBatch);
  for (uint64_t i = 0; i < kBatch; ++i)
    sim::store_record(il, inputs[i], in_words + i * il.size);
  Figures f;
  f.ns = best_of(5, [&] { (*k)->run(in_words, out_words, kBatch); }) / kBatch * 1e9;
  std::vector<bool> is_extern;
  for (const frontend::Port& p : r.kernel().params) is_extern.push_back(p.is_extern);
  f.muls = count_multiplies(*opt, is_extern).muls;
  ir::Interpreter interp(*opt);
  f.agrees = true;
  for (uint64_t i = 0; i < kBatch && f.agrees; i += 997)
    f.agrees = sim::load_record(ol, out_ty, out_words + i * ol.size) ==
               *interp.run(inputs[i]);
  return f;
}

}  // namespace

void bench_nbrs_kernels() {
  const std::vector<NbrsKernel> kernels{{"d1_keyvalue", "out", 42, 42},
                                        {"a1", "out", 260, 260},
                                        {"c1_deep_chain", "out", 988, 987},
                                        {"d4", "u_out", 136, 135},
                                        {"c5_multi_root", "ak25", 883, 7}};
  const double mul_ns = ns_per_multiply();
  fmt::print("\nnb-rs's perf kernels (tests/bench/nbrs), LLVM engine, one thread, batches of {}, best of 5\n", kBatch);
  fmt::print("  nb-rs P3: its Cranelift JIT, docs/sysref/17_performance_results.md (Raw: all nodes; Pull: one output)\n");
  fmt::print("  limit: 64-bit multiplies per evaluation x {:.3f} ns (this core's imul throughput, measured)\n", mul_ns);
  fmt::print("  {:<14} {:<8} {:>9} {:>9} {:>9} {:>6} {:>8} {:>9}  {}\n", "kernel", "outputs", "nb-rs ns", "ours ns",
             "nb-rs/us", "muls", "limit ns", "us/limit", "agrees");
  for (const NbrsKernel& k : kernels) {
    const std::string path = std::string(POLYDAT_SOURCE_ROOT) + "/tests/bench/nbrs/" + k.file + ".gk";
    for (const bool one : {false, true}) {
      std::string why;
      const auto f = measure(path, one ? std::vector<std::string>{k.pulled} : std::vector<std::string>{}, why);
      if (!f) {
        fmt::print("  {}: {}\n", k.file, why);
        continue;
      }
      const double nbrs = one ? k.pull_ns : k.p3_ns;
      const double limit = static_cast<double>(f->muls) * mul_ns;
      fmt::print("  {:<14} {:<8} {:>9.0f} {:>9.1f} {:>8.1f}x {:>6} {:>8.1f} {:>8.2f}x  {}\n", k.file,
                 one ? k.pulled : "all", nbrs, f->ns, nbrs / f->ns, f->muls, limit, limit > 0 ? f->ns / limit : 0.0,
                 f->agrees ? "yes" : "NO");
    }
  }
  print_load_average();
}

}  // namespace polydat::bench
