#include "tests/sim/cosim_support.h"

#include <random>
#include <sstream>
#include <stdexcept>

#include "frontend/compile.h"
#include "flow/pipeline.h"

namespace polydat::simtest {

Loaded load_kernel(const rtltest::Kernel& k, const hls::HlsOptions& options) {
  frontend::CompileOptions copts;
  copts.lib_paths = k.lib_paths;
  frontend::CompileResult r = frontend::compile_file(k.path.string(), copts);
  if (!r.ok()) return Loaded{nullptr, "does not compile: " + r.render_diagnostics()};
  auto opt = flow::optimize(r);
  if (!opt) return Loaded{nullptr, "the optimiser failed: " + opt.error()};
  std::vector<Param> params;
  for (const frontend::Port& p : r.kernel().params) params.push_back(Param{p.name, p.ty, p.is_extern, p.default_constant});
  auto d = flow::schedule(std::move(*opt), options);
  if (!d) return Loaded{nullptr, "refused by HLS (" + d.error().kind + "): " + d.error().message};
  flow::Emitted e = flow::emit(std::move(*d));
  return Loaded{std::unique_ptr<SimKernel>(new SimKernel{k, std::move(params), std::move(e.config_fields), std::move(e.ir),
                                                         std::move(e.design), std::move(e.module)}),
                ""};
}

Loaded load_kernel(const std::string& key, const hls::HlsOptions& options) {
  const std::optional<rtltest::Kernel> k = rtltest::find_kernel(key);
  if (!k) return Loaded{nullptr, "no kernel " + key};
  return load_kernel(*k, options);
}

std::vector<Loaded> load_all_kernels() {
  std::vector<Loaded> all;
  for (const rtltest::Kernel& source : rtltest::all_kernels()) all.push_back(load_kernel(source));
  return all;
}

std::vector<sim::ModelRequest> model_requests(const std::vector<Loaded>& loaded) {
  std::vector<sim::ModelRequest> requests;
  for (const Loaded& l : loaded)
    if (l.kernel) requests.push_back({&l.kernel->design, &l.kernel->module, std::nullopt});
  return requests;
}

std::vector<Loaded> load_all_with_models(std::string_view engine, const std::string& cache) {
  const flow::EngineInfo* info = flow::find_engine(engine);
  if (!info || !info->prebuild) throw std::runtime_error("no engine builds model sets as " + std::string(engine));
  std::vector<Loaded> loaded = load_all_kernels();
  auto built = info->prebuild(model_requests(loaded), cache);
  if (!built) throw std::runtime_error("the models could not be built as one program: " + built.error());
  return loaded;
}

ir::Value value_of(const ir::Ty& ty, uint64_t pattern) {
  return ty.is_bool() ? ir::Value::boolean(pattern != 0) : ir::Value::integer(ty.kind(), pattern);
}

std::vector<ir::Value> default_configs(const SimKernel& k) {
  std::vector<ir::Value> out;
  for (const Param& p : k.params)
    if (p.is_extern) out.push_back(value_of(p.ty, p.default_value ? p.default_value->bits() : 0));
  return out;
}

namespace {

// The values a datapath most often gets wrong: zero, one, all ones, and the
// sign boundary (the most negative and the most positive) of signed types.
std::vector<uint64_t> edge_values(const ir::Ty& ty) {
  const unsigned w = ty.bits();
  const uint64_t ones = ir::truncate_bits(~uint64_t{0}, w);
  std::vector<uint64_t> v = {0, 1, ones};
  if (ty.is_signed_int()) {
    v.push_back(uint64_t{1} << (w - 1));
    v.push_back(ones >> 1);
  }
  return v;
}

// One field: the evaluation index, a full-width random pattern (twice as
// likely: the bulk of the coverage), or an edge value.
uint64_t draw_pattern(const ir::Ty& ty, size_t index, std::mt19937_64& rng) {
  if (ty.is_bool()) return rng() & 1;
  switch (rng() % 4) {
    case 0: return index;
    case 1:
    case 2: return rng();
    default: {
      const std::vector<uint64_t> edges = edge_values(ty);
      return edges[rng() % edges.size()];
    }
  }
}

}  // namespace

sim::Batch draw_batch(const SimKernel& k, std::vector<ir::Value> configs, size_t n, uint64_t seed,
                      TripLimits limits) {
  sim::Batch batch;
  batch.configs = std::move(configs);
  std::mt19937_64 rng(seed);
  // The interpreter with an iteration limit tells an evaluation within it from a longer one.
  flow::EngineOptions usual, occasional;
  usual.max_iterations = limits.usual;
  occasional.max_iterations = limits.occasional;
  auto interpreter = [&k](const flow::EngineOptions& o) {
    auto made = make_engine("interp", k, o);
    if (!made) throw std::runtime_error(made.error());
    return std::move(*made);
  };
  const std::unique_ptr<sim::Engine> short_runs = interpreter(usual), long_runs = interpreter(occasional);
  sim::Batch probe;
  probe.configs = batch.configs;
  for (size_t i = 0; i < n; ++i) {
    std::vector<uint64_t> patterns;
    for (const Param& p : k.params)
      if (!p.is_extern) patterns.push_back(draw_pattern(p.ty, i, rng));
    std::vector<ir::Value> row;
    sim::Engine& within = (i + 1) % limits.occasional_every == 0 ? *long_runs : *short_runs;
    for (unsigned mask_bits : {64u, 8u, 4u, 1u, 0u}) {
      row.clear();
      size_t next = 0;
      for (const Param& p : k.params)
        if (!p.is_extern) row.push_back(value_of(p.ty, ir::truncate_bits(patterns[next++], mask_bits)));
      if (!k.is_fsm()) break;
      probe.inputs = {row};
      if (within.run(probe)) break;
    }
    batch.inputs.push_back(std::move(row));
  }
  return batch;
}

ir::Expected<std::unique_ptr<sim::Engine>, std::string> make_engine(std::string_view name, const SimKernel& k,
                                                                   const flow::EngineOptions& options) {
  return flow::make_engine(name, flow::EngineSubject{&k.ir, k.config_fields, &k.design, &k.module}, options);
}

ir::Expected<sim::EngineRun, std::string> run_oracle(const SimKernel& k, const sim::Batch& batch) {
  auto oracle = make_engine("interp", k);
  if (!oracle) return oracle.error();
  return (*oracle)->run(batch);
}

CosimRun cosimulate(const SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                    const flow::EngineOptions& options, std::string_view engine) {
  auto e = make_engine(engine, k, options);
  if (!e) {
    CosimRun refused;
    refused.error = e.error();
    return refused;
  }
  return cosimulate(**e, k, batch, expected, options.stall == 0);
}

CosimRun cosimulate(sim::Engine& engine, const SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                    bool free_flow) {
  const hls::Design& d = k.design;
  CosimRun out;
  auto got = engine.run(batch);
  out.built_now = engine.built_now();
  if (!got) {
    out.error = got.error();
    return out;
  }
  out.run = std::move(*got);
  out.report = sim::compare(d, batch, expected, out.run, free_flow);
  out.post_reset = engine.post_reset();
  return out;
}

flow::EngineOptions test_options(double stall, uint64_t seed) {
  flow::EngineOptions o;
  o.stall = stall;
  o.seed = seed;
  o.cache = POLYDAT_TEST_CACHE;
  return o;
}

std::optional<std::string> replace_first(const std::string& text, const std::string& on_line, const std::string& from,
                                         const std::string& to) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const size_t at = line.find(from);
    if (line.find(on_line) != std::string::npos && at != std::string::npos)
      return text.substr(0, start + at) + to + text.substr(start + at + from.size());
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace polydat::simtest
