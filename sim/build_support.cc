#include "sim/build_support.h"

#include <fmt/core.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace polydat::sim {

namespace fs = std::filesystem;

namespace {

// Whether an executable of this name is on $PATH.
bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  return false;
}

}  // namespace

std::vector<std::string> model_flags() { return {"-Wno-fatal", "--x-assign", "unique", "--x-initial", "unique"}; }

std::vector<std::string> verilator_flags(TraceKind trace) {
  // Every model compiles the same Verilator runtime (verilated.cpp, its
  // threads) and often the same testbench: through ccache, when installed,
  // they compile once and a model builds in about half the time (2.2 s
  // against 4.5 s for a small corpus kernel).
  static const bool ccache = on_path("ccache");
  std::string make = "OPT_FAST=-O1 OPT_GLOBAL=-O1 OPT_SLOW=-O1";
  if (ccache) make += " OBJCACHE=ccache";
  std::vector<std::string> f = {"--cc", "--exe", "--build", "-j", "2"};
  for (const std::string& m : model_flags()) f.push_back(m);
  f.insert(f.end(), {"-MAKEFLAGS", make});
  if (trace == TraceKind::Fst) f.push_back("--trace-fst");
  if (trace == TraceKind::Vcd) f.push_back("--trace");
  return f;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int shell(const std::string& command, const fs::path& log) {
  const int status = std::system((command + " > " + quote(log.string()) + " 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int run_program(const std::vector<std::string>& argv, const fs::path& log) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, args[0], &files, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) return 128;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 128;
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

ir::Expected<BuiltModel, std::string> build_cached(const fs::path& cache_root, const ModelBuild& m) {
  std::string key_text = m.sv + "\n//" + m.driver_file + "\n" + m.driver;
  for (const std::string& f : m.flags) key_text += " " + f;
  const uint64_t key = XXH3_64bits(key_text.data(), key_text.size());
  const fs::path dir = cache_root / fmt::format("{}-{:016x}", m.module, key);
  const fs::path binary = dir / "obj" / m.exe;
  if (fs::exists(binary)) return BuiltModel{binary, false};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create the cache folder " + dir.string() + ": " + ec.message();
  std::ofstream(dir / (m.module + ".sv")) << m.sv;
  std::ofstream(dir / m.driver_file) << m.driver;
  std::string cmd = "verilator";
  for (const std::string& f : m.flags) cmd += " " + quote(f);
  cmd += " --top-module " + m.module + " --Mdir " + quote((dir / "obj").string()) + " -o " + m.exe + " " +
         quote((dir / (m.module + ".sv")).string()) + " " + quote((dir / m.driver_file).string());
  const fs::path log = dir / "build.log";
  if (shell(cmd, log) != 0 || !fs::exists(binary))
    return "verilator could not build the model (" + log.string() + "):\n" + tail(read_text(log), 15);
  return BuiltModel{binary, true};
}

}  // namespace polydat::sim
