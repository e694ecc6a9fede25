// Model sets (sim/verilator/model_set.h): several kernels' models, and a
// planted fault, built as one program; each engine made afterwards runs its
// own member (not a neighbour's, not a build of its own) and a fault inside
// the set is still caught.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include "rtl/emit_sv.h"
#include "sim/verilator/verilator_engine.h"
#include "tests/sim/cosim_support.h"

using namespace polydat;
using simtest::CosimRun;

namespace {

namespace fs = std::filesystem;

constexpr size_t kEvaluations = 300;

// A cache of this test's own, emptied, so the set is built here.
fs::path fresh_cache() {
  const fs::path dir = fs::path(POLYDAT_TEST_CACHE) / "model-set-test";
  fs::remove_all(dir);
  return dir;
}

std::vector<fs::path> folders(const fs::path& dir) {
  std::vector<fs::path> out;
  if (fs::exists(dir))
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) out.push_back(e.path());
  return out;
}

}  // namespace

TEST_CASE("model set: three kernels and a planted fault in one program, each engine runs its own member") {
  std::vector<simtest::Loaded> loaded;
  for (const char* key : {"rtl/two_ops", "corpus/sum_to_n", "rtl/with_cfg"}) {
    loaded.push_back(simtest::load_kernel(key));
    REQUIRE_MESSAGE(loaded.back().kernel, loaded.back().why);
  }
  const simtest::SimKernel& two_ops = *loaded[0].kernel;
  const std::optional<std::string> fault = simtest::replace_first(two_ops.module.text, "assign ", " ^ ", " | ");
  REQUIRE(fault.has_value());
  std::vector<sim::ModelRequest> requests = simtest::model_requests(loaded);
  requests.push_back({&two_ops.design, &two_ops.module, *fault});

  const fs::path cache = fresh_cache();
  auto built = sim::prebuild_verilator_models(requests, cache);
  REQUIRE_MESSAGE(built.ok(), (built.ok() ? "" : built.error()));
  CHECK(*built);
  // Asked again, the set is found on disk, not rebuilt.
  auto again = sim::prebuild_verilator_models(requests, cache);
  REQUIRE(again.ok());
  CHECK_FALSE(*again);
  const std::vector<fs::path> sets = folders(cache / "verilator");
  REQUIRE(sets.size() == 1);
  CHECK(sets[0].filename().string().rfind("set4-", 0) == 0);

  auto run = [&](const simtest::SimKernel& k, std::optional<std::string> sv, uint64_t seed) {
    const sim::Batch batch = simtest::draw_batch(k, simtest::default_configs(k), kEvaluations, seed);
    auto expected = simtest::run_oracle(k, batch);
    REQUIRE(expected.ok());
    flow::EngineOptions o = simtest::test_options(0.2, seed);
    o.cache = cache;
    o.sv = std::move(sv);
    return simtest::cosimulate(k, batch, *expected, o);
  };
  for (size_t i = 0; i < loaded.size(); ++i) {
    const simtest::SimKernel& k = *loaded[i].kernel;
    CAPTURE(k.source.key);
    const CosimRun r = run(k, std::nullopt, 40 + i);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    CHECK(r.report.ok());
    CHECK(r.report.compared == kEvaluations);
    CHECK(r.post_reset == sim::expected_post_reset(k.design));
    CHECK_FALSE(r.built_now);
  }
  // The planted member is the faulty model, and the clean one next to it is not.
  const CosimRun mutant = run(two_ops, *fault, 50);
  REQUIRE_MESSAGE(mutant.error.empty(), mutant.error);
  CHECK(mutant.report.mismatches > 0);
  // No engine built a model of its own: the set is still the only folder.
  CHECK(folders(cache / "verilator").size() == 1);

  // The program refuses a member it does not hold.
  const fs::path program = sets[0] / "obj" / "sim";
  const int status = std::system(("'" + program.string() + "' Pm9 x y 1 0 10 2>/dev/null").c_str());
  CHECK(WEXITSTATUS(status) == 2);
}
