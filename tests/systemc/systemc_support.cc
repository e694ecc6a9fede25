#include "tests/systemc/systemc_support.h"

namespace polydat::sctest {

sim::SystemCOptions test_options(const simtest::SimKernel& k, double stall, uint64_t seed) {
  sim::SystemCOptions o;
  o.stall = stall;
  o.seed = seed;
  o.cache = POLYDAT_SC_TEST_CACHE;
  o.kernel_file = k.source.path.string();
  o.lib_paths = k.source.lib_paths;
  return o;
}

ScRun cosimulate(const simtest::SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                 sim::SystemCOptions options) {
  const bool free_flow = options.stall == 0;
  sim::SystemCEngine engine(k.design, std::move(options));
  ScRun out;
  auto got = engine.run(batch);
  out.cosim.built_now = engine.built_now();
  if (!got) {
    out.cosim.error = got.error();
    return out;
  }
  out.cosim.run = std::move(*got);
  out.cosim.report = sim::compare(k.design, batch, expected, out.cosim.run, free_flow);
  out.cosim.post_reset = engine.post_reset();
  out.reference = engine.reference_check();
  return out;
}

uint64_t seed_of(const std::string& key) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

}  // namespace polydat::sctest
