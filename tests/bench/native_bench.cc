#include "native_bench.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "cli/stimulus.h"
#include "cli/values.h"
#include "frontend/compile.h"
#include "ir/interp.h"
#include "ir/pass_pipeline.h"
#include "native_vs_hand.h"
#include "sim/llvm/native_kernel.h"

namespace polydat::bench {

namespace {
namespace fs = std::filesystem;

constexpr uint64_t kNativeCap = 100'000;      // records in one native run call, at most
constexpr uint64_t kInterpreterCap = 20'000;  // interpreter evaluations per run, at most
constexpr double kNativeRunSeconds = 0.02;    // each side's run is sized to about this long
constexpr double kInterpreterRunSeconds = 0.1;
constexpr int kNativeRepeats = 5, kInterpreterRepeats = 3;  // best of these

// How a corpus kernel is run: `// corpus: cycles A..B [set NAME=VALUE]... [lib DIR]...`.
struct RunSpec {
  uint64_t begin = 0, end = uint64_t{1} << 32;  // a file without the line counts freely
  std::vector<std::string> sets, libs;
};

RunSpec run_spec(const fs::path& file) {
  std::ifstream in(file);
  std::string line, word, arg;
  std::getline(in, line);
  RunSpec spec;
  if (line.rfind("// corpus:", 0) != 0) return spec;
  std::istringstream words(line.substr(10));
  while (words >> word >> arg) {
    if (word == "cycles") {
      if (auto r = cli::parse_cycles(arg)) spec.begin = r->begin, spec.end = std::max(r->end, r->begin + 1);
    } else if (word == "set") {
      spec.sets.push_back(arg);
    } else if (word == "lib") {
      spec.libs.push_back((file.parent_path() / arg).string());
    }
  }
  return spec;
}

bool has_loops(const ir::CategoryIr& ir) {
  for (ir::ObjectId o : ir.objects_of(ir.entry()))
    if (ir.object(o).kind == ir::ObjectKind::LoopMerge) return true;
  return false;
}

bool fits(const ir::Ty& ty, uint64_t v) {
  if (!ty.is_int()) return false;
  const unsigned value_bits = ty.is_signed_int() ? ty.bits() - 1 : ty.bits();
  return value_bits >= 64 || v < (uint64_t{1} << value_bits);
}

// The entry's input values for `count` evaluations: the iterated port counts up
// from the first cycle, through the corpus line's range again and again when the
// kernel loops (so trip counts stay those of the corpus) or the count would not
// fit the port; the other ports take their set values or defaults. `period` is
// how often the values repeat (1 when they count freely: nothing to keep whole).
std::optional<std::vector<ir::Value>> inputs_for(const frontend::Unit& kernel, const RunSpec& spec,
                                                 const ir::Ty& in_ty, bool loops, uint64_t count,
                                                 uint64_t& period) {
  std::optional<cli::Stimulus> stimulus;
  try {
    stimulus = cli::Stimulus::make(kernel, spec.sets);
  } catch (const cli::UsageError&) {
  }
  if (!stimulus) return std::nullopt;
  const auto record = [&](std::vector<ir::Value> fields) {
    return in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(fields));
  };
  const std::optional<size_t> iterated = stimulus->iterated();
  const bool counts_freely = iterated && !loops && fits(kernel.params[*iterated].ty, spec.begin + count - 1);
  period = counts_freely || !iterated ? 1 : std::min(count, spec.end - spec.begin);
  std::vector<ir::Value> distinct;
  for (uint64_t c = 0; c < period; ++c) {
    auto fields = stimulus->at(spec.begin + c);
    if (!fields) return std::nullopt;
    distinct.push_back(record(std::move(*fields)));
  }
  std::vector<ir::Value> out;
  out.reserve(count);
  if (!counts_freely) {
    for (uint64_t n = 0; n < count; ++n) out.push_back(distinct[n % period]);
    return out;
  }
  auto fields = *stimulus->at(spec.begin);
  const ir::TyKind kind = kernel.params[*iterated].ty.kind();
  for (uint64_t n = 0; n < count; ++n) {
    fields[*iterated] = ir::Value::integer(kind, spec.begin + n);  // as parse_value reads a cycle that fits
    out.push_back(record(fields));
  }
  return out;
}

// The output fields on which two results differ, or both whole when they are not records of scalars.
std::string differences(const sim::RecordLayout& layout, const ir::Value& expected, const ir::Value& got) {
  const auto& want = expected.elems();
  const auto& have = got.elems();
  if (want.size() != have.size() || want.size() != layout.fields.size())
    return "the interpreter gives " + ir::render(expected) + ", native " + ir::render(got);
  std::string out;
  for (size_t i = 0; i < want.size(); ++i)
    if (!(want[i] == have[i]))
      out += fmt::format("{}{} is {} on the interpreter, {} native", out.empty() ? "" : "; ", layout.fields[i].name,
                         ir::render(want[i]), ir::render(have[i]));
  return out;
}

struct CorpusFigures {
  std::string kernel;
  bool loops = false;
  uint64_t interpreter_evals = 0, native_evals = 0;
  double interpreter_ns = 0, native_ns = 0, jit_ms = 0;
  bool agrees = false;
  std::string disagreement = {};  // the first evaluation on which the engines differ
};

std::optional<CorpusFigures> bench_corpus_kernel(const fs::path& file) {
  const RunSpec spec = run_spec(file);
  frontend::CompileOptions options;
  options.lib_paths = spec.libs;
  const frontend::CompileResult r = frontend::compile_file(file.string(), options);
  if (!r.ok()) return std::nullopt;  // the corpus's kernels that must not compile
  const std::string name = file.stem().string();
  const auto failed = [&](const std::string& why) {
    fmt::print("  {}: {}\n", name, why);
    return std::nullopt;
  };
  auto opt = ir::optimize(*r.ir);
  if (!opt) return failed("the optimiser failed: " + opt.error().message);
  const ir::CategoryIr& g = *opt;
  CorpusFigures f{name, has_loops(g)};
  std::unique_ptr<sim::NativeKernel> native;
  std::string why;
  f.jit_ms = 1e3 * time_once([&] {
    auto k = sim::NativeKernel::compile(g, g.entry());
    if (k) native = std::move(*k);
    else why = k.error();
  });
  if (!native) return failed("the native backend cannot compile it: " + why);

  const ir::Ty in_ty = g.object(g.func(g.entry()).input).ty;
  const ir::Ty out_ty = g.object(g.func(g.entry()).output).ty;
  uint64_t period = 1;
  auto inputs = inputs_for(r.kernel(), spec, in_ty, f.loops, kNativeCap, period);
  if (!inputs) return failed("no inputs for it");

  ir::Interpreter interp(g);
  std::vector<ir::Value> expected;
  bool interpreter_failed = false;
  const auto interpret = [&](uint64_t n) {
    expected.clear();
    for (uint64_t i = 0; i < n; ++i) {
      auto v = interp.run((*inputs)[i]);
      interpreter_failed |= !v.ok();
      expected.push_back(v ? *std::move(v) : ir::Value());
    }
  };
  f.interpreter_evals = count_for(kInterpreterRunSeconds, kInterpreterCap, period, interpret);
  f.interpreter_ns = best_of(kInterpreterRepeats, [&] { interpret(f.interpreter_evals); }) / f.interpreter_evals * 1e9;
  if (interpreter_failed) return failed("the interpreter stops on an error");

  const sim::RecordLayout& in_layout = native->inputs();
  const sim::RecordLayout& out_layout = native->outputs();
  // Records in 8-byte words, so every field is aligned; strings point into `inputs`.
  std::vector<uint64_t> in_words(in_layout.size * kNativeCap / 8 + 1), out_words(out_layout.size * kNativeCap / 8 + 1);
  auto* in_bytes = reinterpret_cast<unsigned char*>(in_words.data());
  auto* out_bytes = reinterpret_cast<unsigned char*>(out_words.data());
  for (uint64_t i = 0; i < kNativeCap; ++i) sim::store_record(in_layout, (*inputs)[i], in_bytes + i * in_layout.size);
  const auto run_native = [&](uint64_t n) { native->run(in_bytes, out_bytes, n); };
  f.native_evals = count_for(kNativeRunSeconds, kNativeCap, period, run_native);
  f.native_ns = best_of(kNativeRepeats, [&] { run_native(f.native_evals); }) / f.native_evals * 1e9;

  f.agrees = true;
  for (uint64_t i = 0; i < std::min(f.native_evals, f.interpreter_evals) && f.agrees; ++i) {
    const ir::Value got = sim::load_record(out_layout, out_ty, out_bytes + i * out_layout.size);
    f.agrees = got == expected[i];
    if (!f.agrees) f.disagreement = "on " + ir::render((*inputs)[i]) + ": " + differences(out_layout, expected[i], got);
  }
  return f;
}

std::vector<fs::path> kernels_under_bench() {
  const fs::path root = POLYDAT_SOURCE_ROOT;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(root / "tests" / "corpus"))
    if (e.path().extension() == ".gk") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  files.push_back(root / "examples" / "ids.gk");
  return files;
}

double geometric_mean(const std::vector<double>& xs) {
  double log_sum = 0;
  for (double x : xs) log_sum += std::log(x);
  return xs.empty() ? 0.0 : std::exp(log_sum / xs.size());
}

// Sorts its argument: the median tells what an outlier does to the mean.
double median(std::vector<double>& xs) {
  std::sort(xs.begin(), xs.end());
  const size_t m = xs.size() / 2;
  return xs.empty() ? 0.0 : xs.size() % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
}

void print_group(const std::vector<CorpusFigures>& rows, bool loops) {
  fmt::print("  {:<22} {:>7} {:>11} {:>8} {:>10} {:>9} {:>8} {:>7}\n", loops ? "looping kernels" : "loop-free kernels",
             "interp.", "interp. ns", "native", "native ns", "ratio", "jit ms", "agrees");
  std::vector<double> ratios;
  for (const CorpusFigures& f : rows) {
    if (f.loops != loops) continue;
    ratios.push_back(f.interpreter_ns / f.native_ns);
    fmt::print("  {:<22} {:>7} {:>11.1f} {:>8} {:>10.2f} {:>8.0f}x {:>8.1f} {:>7}\n", f.kernel, f.interpreter_evals,
               f.interpreter_ns, f.native_evals, f.native_ns, ratios.back(), f.jit_ms, f.agrees ? "yes" : "NO");
  }
  if (ratios.empty()) return;
  const double mean = geometric_mean(ratios);
  const double middle = median(ratios);
  fmt::print("  geometric mean over {} {} kernels: {:.0f}x (median {:.0f}x, from {:.0f}x to {:.0f}x){}\n", ratios.size(),
             loops ? "looping" : "loop-free", mean, middle, ratios.front(), ratios.back(),
             loops ? "" : fmt::format("; goal >= 50x: {}", mean >= 50 ? "met" : "NOT met"));
}

void bench_native_vs_interpreter() {
  std::vector<CorpusFigures> rows;
  for (const fs::path& file : kernels_under_bench())
    if (auto f = bench_corpus_kernel(file)) rows.push_back(*f);
  double jit_total = 0;
  for (const CorpusFigures& f : rows) jit_total += f.jit_ms;

  fmt::print("\nNative backend (LLVM 15, ORC LLJIT, O2) against the interpreter, both on the optimised IR:\n");
  fmt::print("ns per evaluation; each side's run sized to ~{:.0f} / {:.0f} ms (at most {} / {} evaluations),\n",
             kInterpreterRunSeconds * 1e3, kNativeRunSeconds * 1e3, kInterpreterCap, kNativeCap);
  fmt::print("the native batch in one run call; best of {} / {}; ratio = interpreter / native\n", kInterpreterRepeats,
             kNativeRepeats);
  print_load_average();
  print_group(rows, false);
  print_group(rows, true);
  for (const CorpusFigures& f : rows)
    if (!f.agrees) fmt::print("  MISMATCH, {} {}\n", f.kernel, f.disagreement);
  fmt::print("  JIT compile time (lower, O2, codegen): {:.0f} ms for {} kernels, {:.1f} ms each on average\n", jit_total,
             rows.size(), rows.empty() ? 0.0 : jit_total / rows.size());
}

}  // namespace

void bench_native_backend() {
  bench_native_vs_interpreter();
  bench_native_vs_hand();
}

}  // namespace polydat::bench
