// Generated kernels on the native backend against the interpreter: 1,200
// random well-typed kernels (every operation, cast and loop shape, counted
// from their IR), each compared on edge-heavy random inputs.
// NATIVE_GEN_FIRST / NATIVE_GEN_KERNELS move the seed window (for soak runs
// and for reproducing one kernel); the default window is fixed.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "tests/llvm/generated_support.h"
#include "tests/llvm/ir_coverage.h"
#include "difftest/kernel_generator.h"
#include "tests/llvm/native_support.h"

using namespace polydat;
using namespace polydat::nativetest;
using namespace polydat::difftest;

namespace {

constexpr uint64_t kKernels = 1200;
constexpr size_t kInputsPerKernel = 128;

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 10) : fallback;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TEST_CASE("native: generated kernels agree with the interpreter, covering every operation and loop shape") {
  const uint64_t first = env_or("NATIVE_GEN_FIRST", 0);
  const uint64_t kernels = env_or("NATIVE_GEN_KERNELS", kKernels);
  Coverage coverage;
  size_t evaluations = 0, failures = 0;
  double t_front = 0, t_jit = 0, t_compare = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t seed = first; seed < first + kernels; ++seed) {
    const GeneratedKernel g = generate_kernel(seed);
    if (std::getenv("NATIVE_GEN_SHOW")) fprintf(stderr, "%s\n", g.text.c_str());
    auto t0 = std::chrono::steady_clock::now();
    const Compiled c = compile_text("gen.gk", g.text);
    t_front += seconds_since(t0);
    if (!c.ir) {
      ++failures;
      FAIL_CHECK("the frontend refuses generated kernel " << seed << " (a generator bug):\n"
                                                          << g.text << "\n" << c.diagnostics);
      continue;
    }
    t0 = std::chrono::steady_clock::now();
    auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
    t_jit += seconds_since(t0);
    if (!k) {
      ++failures;
      FAIL_CHECK("the native backend refuses generated kernel " << seed << ": " << k.error() << "\n" << g.text);
      continue;
    }
    t0 = std::chrono::steady_clock::now();
    std::mt19937_64 rng(seed);
    size_t compared = 0;
    const std::string diff =
        differences(*c.ir, **k, random_inputs(input_type(*c.ir), kInputsPerKernel, rng), compared, kIterationLimit);
    t_compare += seconds_since(t0);
    if (!diff.empty() || compared != kInputsPerKernel) ++failures;
    CHECK_MESSAGE(diff.empty(), "generated kernel " << seed << ": " << diff << "\n" << g.text);
    CHECK_MESSAGE(compared == kInputsPerKernel, "generated kernel " << seed << ": the interpreter refused "
                                                                    << kInputsPerKernel - compared << " inputs\n"
                                                                    << g.text);
    evaluations += compared;
    coverage.add_optimized(*c.ir);
    if (c.front.ir) coverage.add_frontend(*c.front.ir);
    coverage.add_features(g.features);
    if (failures >= 20) break;  // enough to read
  }
  MESSAGE(kernels << " generated kernels, " << evaluations << " evaluations compared in " << seconds_since(start)
                  << " s (frontend+optimize " << t_front << " s, JIT " << t_jit << " s, interpreter+native "
                  << t_compare << " s); " << coverage.count("loop") << " loops, "
                  << coverage.count("loop:nested-in-body") << " nested, " << coverage.count("loop:sequential")
                  << " kernels with sequential loops");
  if (std::getenv("NATIVE_GEN_COVERAGE")) fprintf(stderr, "%s", coverage.summary().c_str());
  if (first == 0 && kernels >= kKernels) {  // a narrower window need not cover everything
    for (const std::string& key : coverage.missing(required_coverage())) FAIL_CHECK("never generated: " << key);
  }
}

TEST_CASE("native: the generator is deterministic") {
  for (uint64_t seed : {0u, 1u, 977u}) CHECK(generate_kernel(seed).text == generate_kernel(seed).text);
  CHECK(generate_kernel(1).text != generate_kernel(2).text);
}

// The harness can fail: a generated kernel compared against the native code
// of the same kernel with one operator changed.
TEST_CASE("native: the comparison catches a generated kernel with one operator changed") {
  size_t mutants = 0, caught = 0;
  for (uint64_t seed = 0; mutants < 40; ++seed) {
    const GeneratedKernel g = generate_kernel(seed);
    // The first addition of a top-level binding ("\nb7 := ...", usually an
    // output), not a loop counter's step "c3 = c3 + 1".
    const size_t line = g.text.find("\nb");
    size_t at = line == std::string::npos ? line : g.text.find(" + ", line);
    while (at != std::string::npos && g.text.compare(at, 5, " + 1;") == 0) at = g.text.find(" + ", at + 1);
    if (at == std::string::npos || g.text.find('\n', line + 1) < at) continue;
    std::string changed = g.text;
    changed.replace(at, 3, " - ");
    const Compiled right = compile_text("gen.gk", g.text), wrong = compile_text("gen.gk", changed);
    REQUIRE(right.ir);
    REQUIRE(wrong.ir);
    auto k = sim::NativeKernel::compile(*wrong.ir, wrong.ir->entry());
    REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error()));
    std::mt19937_64 rng(seed);
    size_t compared = 0;
    const std::vector<ir::Value> inputs = random_inputs(input_type(*right.ir), kInputsPerKernel, rng);
    const std::string diff = differences(*right.ir, **k, inputs, compared, kIterationLimit);
    ++mutants;
    if (diff.find("the interpreter gives") != std::string::npos) ++caught;
  }
  MESSAGE(caught << " of " << mutants << " mutants caught");
  // Many changes to random code are invisible: x - 0.0, a loop variable the
  // yield never reads, a loop whose guard is always false, NaN either way.
  CHECK(caught >= mutants / 3);
}

