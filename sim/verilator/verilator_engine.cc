#include "sim/verilator/verilator_engine.h"

#include <fmt/core.h>

#include <chrono>
#include <cstdlib>
#include <fstream>

#include "rtl/emit_sv.h"
#include "sim/build_support.h"
#include "sim/verilator/model_set.h"
#include "sim/verilator/testbench.h"
#include "sim/verilator/testbench_io.h"

namespace polydat::sim {

namespace fs = std::filesystem;

fs::path default_cache_dir() {
  if (const char* p = std::getenv("POLYDAT_CACHE"); p && *p) return p;
  if (const char* p = std::getenv("XDG_CACHE_HOME"); p && *p) return fs::path(p) / "polydat";
  if (const char* p = std::getenv("HOME"); p && *p) return fs::path(p) / ".cache" / "polydat";
  return fs::temp_directory_path() / "polydat-cache";
}

namespace {
TraceKind trace_kind(const std::string& file) {
  if (file.empty()) return TraceKind::None;
  return fs::path(file).extension() == ".vcd" ? TraceKind::Vcd : TraceKind::Fst;
}

// How an engine and a model set know a model: its SystemVerilog and its testbench.
std::string model_key(const std::string& sv, const std::string& testbench) { return "verilator\n" + sv + "\n" + testbench; }
}  // namespace

ir::Expected<bool, std::string> prebuild_verilator_models(const std::vector<ModelRequest>& requests, fs::path cache) {
  if (cache.empty()) cache = default_cache_dir();
  return prebuild_model_set(
      requests, cache / "verilator", ModelSet{},
      MemberRecipe{[](const hls::Design& d, const rtl::Module& m) { return model_key(m.text, testbench_cpp(d, m.name)); },
                   [](const hls::Design& d, const std::string& cls) { return testbench_source(d, cls); }});
}

VerilatorEngine::VerilatorEngine(const hls::Design& design, const rtl::Module& module, VerilatorOptions options)
    : RtlEngine(design, module, options.sv), options_(std::move(options)) {
  if (options_.cache.empty()) options_.cache = default_cache_dir();
  tb_ = testbench_cpp(design_, module_);
}

ir::Expected<fs::path, std::string> VerilatorEngine::prepare() {
  if (!binary_.empty()) return binary_;
  if (options_.trace.empty())
    if (std::optional<ModelSetRef> in_set = find_in_model_sets(model_key(sv_, tb_))) {
      binary_ = in_set->binary;
      member_ = in_set->member;
      return binary_;
    }
  auto built = build_cached(options_.cache / "verilator",
                            ModelBuild{module_, sv_, tb_, "tb.cpp", "sim", verilator_flags(trace_kind(options_.trace))});
  if (!built) return built.error();
  built_now_ = built->built_now;
  binary_ = built->binary;
  return binary_;
}

ir::Expected<EngineRun, std::string> VerilatorEngine::run(const Batch& batch) {
  auto bin = prepare();
  if (!bin) return bin.error();
  const fs::path work = binary_.parent_path().parent_path();
  const fs::path data = work / run_file_name("data", member_, options_.seed);
  const fs::path result = work / run_file_name("result", member_, options_.seed);
  write_batch(data, design_, batch, Protocol::Words);
  std::vector<std::string> cmd = model_command(binary_, member_);
  cmd.insert(cmd.end(), {data.string(), result.string(), std::to_string(options_.seed), fmt::format("{}", options_.stall),
                         std::to_string(options_.max_idle)});
  if (!options_.trace.empty()) cmd.push_back(options_.trace);
  return run_testbench(cmd, work, result, "the model", design_, batch, options_.max_idle, post_reset_, {},
                       Protocol::Words, options_.progress);
}

}  // namespace polydat::sim
