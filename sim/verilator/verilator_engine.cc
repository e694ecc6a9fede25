#include "sim/verilator/verilator_engine.h"

#include <fmt/core.h>
#include <sys/wait.h>
#include <xxhash.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "rtl/emit_sv.h"
#include "sim/verilator/testbench.h"

namespace polydat::sim {

namespace fs = std::filesystem;

fs::path default_cache_dir() {
  if (const char* p = std::getenv("POLYDAT_CACHE"); p && *p) return p;
  if (const char* p = std::getenv("XDG_CACHE_HOME"); p && *p) return fs::path(p) / "polydat";
  if (const char* p = std::getenv("HOME"); p && *p) return fs::path(p) / ".cache" / "polydat";
  return fs::temp_directory_path() / "polydat-cache";
}

namespace {
// The verilator invocation; its flags are part of the cache key.
enum class TraceKind { None, Fst, Vcd };

TraceKind trace_kind(const std::string& file) {
  if (file.empty()) return TraceKind::None;
  return fs::path(file).extension() == ".vcd" ? TraceKind::Vcd : TraceKind::Fst;
}

std::vector<std::string> verilator_flags(TraceKind trace) {
  std::vector<std::string> f = {"--cc", "--exe", "--build", "-j", "2", "-Wno-fatal", "--x-assign", "unique",
                                "--x-initial", "unique", "-MAKEFLAGS", "OPT_FAST=-O1 OPT_GLOBAL=-O1 OPT_SLOW=-O1"};
  if (trace == TraceKind::Fst) f.push_back("--trace-fst");
  if (trace == TraceKind::Vcd) f.push_back("--trace");
  return f;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs a command line through the shell; its output goes to `log`.
int shell(const std::string& command, const fs::path& log) {
  const int status = std::system((command + " > " + quote(log.string()) + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string tail(const std::string& text, size_t lines) {
  size_t at = text.size(), n = 0;
  while (at > 0 && n <= lines) {
    at = text.rfind('\n', at - 1);
    if (at == std::string::npos) return text;
    ++n;
  }
  return text.substr(at + 1);
}
}  // namespace

VerilatorEngine::VerilatorEngine(const hls::Design& design, VerilatorOptions options)
    : design_(design), options_(std::move(options)), module_(rtl::module_name(design)) {
  if (options_.cache.empty()) options_.cache = default_cache_dir();
  sv_ = options_.sv ? *options_.sv : rtl::emit_sv(design_);
  tb_ = testbench_cpp(design_, module_);
}

ir::Expected<fs::path, std::string> VerilatorEngine::prepare() {
  if (!binary_.empty()) return binary_;
  const TraceKind trace = trace_kind(options_.trace);
  std::string key_text = sv_ + "\n//tb\n" + tb_;
  for (const std::string& f : verilator_flags(trace)) key_text += " " + f;
  const uint64_t key = XXH3_64bits(key_text.data(), key_text.size());
  const fs::path dir = options_.cache / "verilator" / fmt::format("{}-{:016x}", module_, key);
  const fs::path binary = dir / "obj" / "sim";
  if (fs::exists(binary)) {
    binary_ = binary;
    return binary_;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create the cache folder " + dir.string() + ": " + ec.message();
  std::ofstream(dir / (module_ + ".sv")) << sv_;
  std::ofstream(dir / "tb.cpp") << tb_;
  std::string cmd = "verilator";
  for (const std::string& f : verilator_flags(trace)) cmd += " " + quote(f);
  cmd += " --top-module " + module_ + " --Mdir " + quote((dir / "obj").string()) + " -o sim " +
         quote((dir / (module_ + ".sv")).string()) + " " + quote((dir / "tb.cpp").string());
  const fs::path log = dir / "build.log";
  if (shell(cmd, log) != 0 || !fs::exists(binary))
    return "verilator could not build the model (" + log.string() + "):\n" + tail(read_text(log), 15);
  built_now_ = true;
  binary_ = binary;
  return binary_;
}

ir::Expected<EngineRun, std::string> VerilatorEngine::run(const Batch& batch) {
  auto bin = prepare();
  if (!bin) return bin.error();
  const fs::path work = binary_.parent_path().parent_path();
  const fs::path data = work / fmt::format("data-{}.txt", options_.seed);
  const fs::path result = work / fmt::format("result-{}.txt", options_.seed);
  {
    std::ofstream d(data);
    d << batch.inputs.size() << " " << design_.dfg.inputs.size() << " " << batch.configs.size() << "\n";
    for (const ir::Value& c : batch.configs) d << c.bits() << " ";
    d << "\n";
    for (const auto& row : batch.inputs) {
      for (const ir::Value& v : row) d << v.bits() << " ";
      d << "\n";
    }
  }
  std::string cmd = quote(binary_.string()) + " " + quote(data.string()) + " " + quote(result.string()) + " " +
                    std::to_string(options_.seed) + " " + fmt::format("{}", options_.stall) + " " +
                    std::to_string(options_.max_idle);
  if (!options_.trace.empty()) cmd += " " + quote(options_.trace);
  const auto t0 = std::chrono::steady_clock::now();
  const int status = shell(cmd, work / "run.log");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (status != 0) return "the model exited with status " + std::to_string(status) + ": " + read_text(work / "run.log");
  EngineRun run;
  run.seconds = seconds;
  std::ifstream in(result);
  std::string tag;
  const auto& outs = design_.dfg.outputs;
  while (in >> tag) {
    if (tag == "POSTRESET") {
      std::getline(in, post_reset_);
    } else if (tag == "A") {
      uint64_t c;
      in >> c;
      run.accepted_at.push_back(c);
    } else if (tag == "R") {
      uint64_t c;
      in >> c;
      run.delivered_at.push_back(c);
      std::vector<ir::Value> row;
      for (const hls::DfgPort& o : outs) {
        unsigned long long bits;
        in >> bits;
        row.push_back(o.ty.is_bool() ? ir::Value::boolean(bits != 0) : ir::Value::integer(o.ty.kind(), bits));
      }
      run.outputs.push_back(std::move(row));
    } else if (tag == "HANG") {
      uint64_t c;
      in >> c;
      return fmt::format("no result for {} cycles: the design hangs at cycle {} after {} of {} results",
                         options_.max_idle, c, run.outputs.size(), batch.inputs.size());
    } else if (tag == "END") {
      in >> run.cycles;
    }
  }
  return run;
}

}  // namespace polydat::sim
