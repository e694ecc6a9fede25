#include "tests/systemc/systemc_support.h"

#include <stdexcept>

namespace polydat::sctest {

flow::EngineOptions test_options(const simtest::SimKernel& k, double stall, uint64_t seed) {
  flow::EngineOptions o = simtest::test_options(stall, seed);
  o.cache = POLYDAT_SC_TEST_CACHE;
  o.kernel_file = k.source.path.string();
  o.lib_paths = k.source.lib_paths;
  return o;
}

std::unique_ptr<sim::SystemCEngine> make_systemc(const simtest::SimKernel& k, const flow::EngineOptions& options) {
  auto made = simtest::make_engine("systemc", k, options);
  if (!made) throw std::runtime_error(made.error());
  auto* systemc = dynamic_cast<sim::SystemCEngine*>(made->get());
  if (!systemc) throw std::runtime_error("the registry's systemc engine is a " + (*made)->name());
  made->release();
  return std::unique_ptr<sim::SystemCEngine>(systemc);
}

ScRun cosimulate(const simtest::SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                 const flow::EngineOptions& options) {
  const std::unique_ptr<sim::SystemCEngine> engine = make_systemc(k, options);
  ScRun out;
  out.cosim = simtest::cosimulate(*engine, k, batch, expected, options.stall == 0);
  out.reference = engine->reference_check();
  return out;
}

uint64_t seed_of(const std::string& key) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

}  // namespace polydat::sctest
