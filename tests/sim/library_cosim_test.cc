// Every library function `polydat functions` lists as hardware: the kernel
// `polydat functions --example NAME` prints, synthesized and co-simulated in
// Verilator against the interpreter, free-flowing and under random stalls.
// A Verilator model a function, about 3 minutes on two cores with a cold
// cache: `make test-slow`, so `make test` stays under its half hour.
#include <doctest/doctest.h>
#include <fmt/core.h>

#include <filesystem>
#include <fstream>

#include "frontend/library.h"
#include "frontend/library_examples.h"
#include "tests/sim/cosim_support.h"

using namespace polydat;

namespace {

constexpr size_t kEvaluations = 2'000;

void check_clean(const simtest::SimKernel& k, const simtest::CosimRun& r, size_t n) {
  CHECK_MESSAGE(r.error.empty(), r.error);
  if (!r.error.empty()) return;
  INFO(sim::render(r.report, k.design));
  CHECK(r.report.ok());
  CHECK(r.report.compared == n);
  CHECK(r.report.mismatches == 0);
  CHECK(r.report.missing.empty());
}

}  // namespace

TEST_CASE("library: every hardware function co-simulates with the interpreter") {
  const std::filesystem::path dir = std::filesystem::path(POLYDAT_TEST_CACHE) / "library_examples";
  std::filesystem::create_directories(dir);
  size_t done = 0;
  uint64_t seed = 0x1b7a;
  for (const frontend::LibraryFunction& f : frontend::library_functions()) {
    if (!f.hardware) continue;
    CAPTURE(f.name);
    // Not NAME.gk: a kernel file named like a module it calls would resolve the call to itself.
    const std::filesystem::path path = dir / ("call_" + f.name + ".gk");
    std::ofstream(path) << frontend::example_kernel(f);
    const simtest::Loaded loaded = simtest::load_kernel(rtltest::Kernel{"library/" + f.name, f.name, path, {}});
    REQUIRE_MESSAGE(loaded.kernel, loaded.why);
    const simtest::SimKernel& k = *loaded.kernel;
    const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, ++seed);
    auto expected = simtest::run_oracle(k, batch);
    REQUIRE_MESSAGE(expected.ok(), (expected.ok() ? "" : expected.error()));
    check_clean(k, simtest::cosimulate(k, batch, *expected, simtest::test_options(0.0, seed)), kEvaluations);
    check_clean(k, simtest::cosimulate(k, batch, *expected, simtest::test_options(0.3, seed)), kEvaluations);
    ++done;
  }
  MESSAGE(done << " hardware functions co-simulated");
  CHECK(done >= 70);
}
