// polydat bench: ns per evaluation on the interpreter and on native code,
// measured in one run, and their ratio.
#include <fmt/core.h>

#include <chrono>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/stimulus.h"
#include "cli/values.h"
#include "ir/interp.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::cli {

namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

int bench_command(const BenchArgs& args) {
  auto range = cycles_option(args.cycles);
  if (!range) return kUsageError;
  frontend::CompileResult r;
  if (!compile_kernel(args.file, args.lib_paths, r, args.outputs)) return compile_failure_status(r);
  auto stimulus = stimulus_for(r.kernel(), args.sets);
  if (!stimulus) return stimulus.error();
  auto optimized_kernel = optimized(r);
  if (!optimized_kernel) return kUserError;
  const ir::CategoryIr* opt = &optimized_kernel->ir;
  const ir::Ty in_ty = opt->object(opt->func(opt->entry()).input).ty;
  auto records = stimulus->records(*range, in_ty);
  if (!records) return kUserError;
  const std::vector<ir::Value>& inputs = *records;

  ir::Interpreter interp(*opt);
  std::vector<ir::Value> expected;
  auto t0 = Clock::now();
  for (const ir::Value& in : inputs) {
    auto out = interp.run(in);
    if (!out) {
      fmt::print(stderr, "error: the interpreter: {}\n", out.error().message);
      return kUserError;
    }
    expected.push_back(std::move(*out));
  }
  const double interp_s = seconds_since(t0);

  t0 = Clock::now();
  sim::LowerOptions lower;  // as eval compiles it: the externs' work once per batch
  for (const frontend::Port& p : r.kernel().params) lower.batch_invariant.push_back(p.is_extern);
  auto kernel = sim::NativeKernel::compile(*opt, opt->entry(), lower);
  if (!kernel) {
    fmt::print(stderr, "error: the llvm engine cannot run this kernel: {}\n", kernel.error());
    return kUserError;
  }
  const double compile_s = seconds_since(t0);
  // The records are packed once; the timed part is the batch call alone, best of three.
  const sim::RecordLayout& il = (*kernel)->inputs();
  const sim::RecordLayout& ol = (*kernel)->outputs();
  sim::RecordBuffer in_buf, out_buf;
  unsigned char* in_bytes = in_buf.at(il.size, inputs.size());
  unsigned char* out_bytes = out_buf.at(ol.size, inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) sim::store_record(il, inputs[i], in_bytes + i * il.size);
  double native_s = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    t0 = Clock::now();
    (*kernel)->run(in_bytes, out_bytes, inputs.size());
    native_s = std::min(native_s, seconds_since(t0));
  }
  size_t disagree = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    disagree += !(sim::load_record(ol, expected[i].ty(), out_bytes + i * ol.size) == expected[i]);

  const double n = static_cast<double>(inputs.size());
  fmt::print("bench {}: {} evaluation{}\n", args.file, inputs.size(), inputs.size() == 1 ? "" : "s");
  fmt::print("  interpreter: {:10.1f} ns/eval\n", interp_s / n * 1e9);
  fmt::print("  llvm:        {:10.1f} ns/eval (JIT compile {:.1f} ms, O2)\n", native_s / n * 1e9, compile_s * 1e3);
  fmt::print("  llvm / interpreter: {:.0f}x faster\n", native_s > 0 ? interp_s / native_s : 0.0);
  fmt::print("  outputs agree: {}\n", disagree == 0 ? "yes" : fmt::format("NO ({} differ)", disagree));
  return disagree == 0 ? kOk : kUserError;
}

}  // namespace polydat::cli
