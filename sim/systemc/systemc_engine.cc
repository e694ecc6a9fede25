#include "sim/systemc/systemc_engine.h"

#include <fmt/core.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "ir/library_fn.h"
#include "rtl/emit_sv.h"
#include "sim/systemc/sc_testbench.h"
#include "sim/systemc/wrapper.h"
#include "sim/build_support.h"
#include "sim/verilator/model_set.h"
#include "sim/verilator/testbench_io.h"
#include "sim/verilator/verilator_engine.h"

namespace polydat::sim {

namespace fs = std::filesystem;

namespace {

// The project's own libraries the testbench links for its reference model
// (paths from meson, sim/systemc/meson.build), and the include root.
std::vector<std::string> reference_libraries() {
  std::vector<std::string> libs;
  std::istringstream words(POLYDAT_SC_REFERENCE_LIBS);
  for (std::string w; words >> w;) libs.push_back(w);
  return libs;
}

// Changes whenever a library is rebuilt, so a stale testbench is never reused.
std::string library_stamp(const std::vector<std::string>& libs) {
  std::string stamp;
  for (const std::string& l : libs) {
    std::error_code ec;
    const auto size = fs::file_size(l, ec);
    const auto time = fs::last_write_time(l, ec).time_since_epoch().count();
    stamp += fmt::format("// {} {} {}\n", l, ec ? 0 : size, ec ? 0 : time);
  }
  return stamp;
}

// " -fsanitize=…" when this build is sanitized: its libraries need the runtimes.
std::string sanitizer_runtime() {
  const std::string flag = POLYDAT_SC_SANITIZE;
  return flag.empty() ? flag : " " + flag;
}

// The testbench's compile and link flags: the project's headers and the reference model's libraries.
std::vector<std::string> testbench_flags() {
  std::string libs;
  for (const std::string& l : reference_libraries()) libs += l + " ";
  // SystemC 2.3.4 exports the C++17 API only: verilator's default (gnu++17) suits it.
  // The reference model links the IR library, whose library functions call OpenSSL and PCRE2.
  return {"-CFLAGS", std::string("-I") + POLYDAT_SC_INCLUDE_ROOT, "-LDFLAGS",
          libs + std::string(ir::kLibraryLinkFlags) + " -lsystemc -pthread -latomic" + sanitizer_runtime()};
}

std::vector<std::string> systemc_flags(const std::string& trace) {
  const TraceKind kind =
      trace.empty() ? TraceKind::None : (fs::path(trace).extension() == ".vcd" ? TraceKind::Vcd : TraceKind::Fst);
  std::vector<std::string> flags = verilator_flags(kind);
  for (std::string& f : flags)
    if (f == "--cc") f = "--sc";
  for (const std::string& f : testbench_flags()) flags.push_back(f);
  return flags;
}

// How an engine and a model set know a model: its SystemVerilog and its testbench.
std::string model_key(const std::string& sv, const std::string& testbench) { return "systemc\n" + sv + "\n" + testbench; }

// The standalone testbench, stamped with the libraries it links.
std::string stamped_testbench(const hls::Design& d, const std::string& module) {
  return systemc_testbench_cpp(d, module) + library_stamp(reference_libraries());
}

std::string joined(const std::vector<std::string>& v, char by) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : std::string(1, by)) + s;
  return out;
}

}  // namespace

ir::Expected<bool, std::string> prebuild_systemc_models(const std::vector<ModelRequest>& requests, fs::path cache) {
  if (cache.empty()) cache = default_cache_dir();
  ModelSet set;
  set.systemc = true;
  set.flags = testbench_flags();
  const std::string stamp = library_stamp(reference_libraries());
  return prebuild_model_set(
      requests, cache / "systemc", std::move(set),
      MemberRecipe{[](const hls::Design& d, const rtl::Module& m) { return model_key(m.text, stamped_testbench(d, m.name)); },
                   [&](const hls::Design& d, const std::string& cls) {
                     TestbenchSource tb = systemc_testbench_source(d, cls, cls + "_sc");
                     tb.body += stamp;  // a rebuilt library makes a new set
                     return tb;
                   }});
}

SystemCEngine::SystemCEngine(const hls::Design& design, const rtl::Module& module, SystemCOptions options)
    : RtlEngine(design, module, options.sv), options_(std::move(options)) {
  if (options_.cache.empty()) options_.cache = default_cache_dir();
  wrapper_ = systemc_wrapper_header(design_, module_);
  tb_ = stamped_testbench(design_, module_);
}

fs::path SystemCEngine::wrapper_path() const {
  return binary_.empty() ? fs::path() : binary_.parent_path().parent_path() / (module_ + "_sc.h");
}

void SystemCEngine::write_wrapper() const {
  if (!fs::exists(wrapper_path())) std::ofstream(wrapper_path()) << wrapper_;
}

ir::Expected<fs::path, std::string> SystemCEngine::prepare() {
  if (!binary_.empty()) return binary_;
  if (options_.trace.empty())
    if (std::optional<ModelSetRef> in_set = find_in_model_sets(model_key(sv_, tb_))) {
      binary_ = in_set->binary;
      member_ = in_set->member;
      write_wrapper();
      return binary_;
    }
  auto built = build_cached(options_.cache / "systemc",
                            ModelBuild{module_, sv_, tb_, "sc_tb.cpp", "sim", systemc_flags(options_.trace)});
  if (!built) return built.error();
  built_now_ = built->built_now;
  binary_ = built->binary;
  write_wrapper();
  return binary_;
}

ir::Expected<EngineRun, std::string> SystemCEngine::run(const Batch& batch) {
  auto bin = prepare();
  if (!bin) return bin.error();
  reference_check_ = {};
  const fs::path work = binary_.parent_path().parent_path();
  const fs::path data = work / run_file_name("data", member_, options_.seed);
  const fs::path result = work / run_file_name("result", member_, options_.seed);
  write_batch(data, design_, batch, Protocol::Words);
  const std::string kernel = options_.kernel_file.empty() ? "-" : options_.kernel_file;
  const std::string libs = options_.lib_paths.empty() ? "-" : joined(options_.lib_paths, ':');
  std::vector<std::string> cmd = model_command(binary_, member_);
  cmd.insert(cmd.end(), {data.string(), result.string(), std::to_string(options_.seed), fmt::format("{}", options_.stall),
                         std::to_string(options_.max_idle), kernel, libs});
  if (!options_.trace.empty()) cmd.push_back(options_.trace);
  // The testbench's own verdict (CHECKED) and the reference model's failure (REFERROR).
  return run_testbench(cmd, work, result, "the SystemC model", design_, batch, options_.max_idle, post_reset_,
                          [&](const std::string& tag, std::istream& is) -> std::string {
                            if (tag == "REFERROR") {
                              std::string message;
                              std::getline(is, message);
                              return "the reference model in the SystemC testbench:" + message;
                            }
                            if (tag == "CHECKED") {
                              long long first = -1;
                              is >> reference_check_.compared >> reference_check_.mismatches >> first;
                              reference_check_.ran = true;
                              if (first >= 0) reference_check_.first_mismatch = static_cast<uint64_t>(first);
                            }
                            return "";
                          },
                          Protocol::Words, options_.progress);
}

std::optional<SelfCheck> SystemCEngine::self_check() const {
  if (options_.kernel_file.empty()) return std::nullopt;  // no reference model was compiled in
  const ReferenceCheck& c = reference_check_;
  if (!c.ran) return SelfCheck{false, "the reference model did not run"};
  return SelfCheck{c.ok(), fmt::format("{} results checked inside the simulation, {} mismatches", c.compared, c.mismatches)};
}

}  // namespace polydat::sim
