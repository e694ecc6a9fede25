#include "streaming_bench.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_timing.h"

namespace polydat::bench {

namespace {
namespace fs = std::filesystem;

struct ProcessFigures {
  bool ok = false;
  double seconds = 0;
  long peak_kb = 0;  // the process's VmHWM, the last sample before it exits
};

// VmHWM (the peak resident set of the process's own memory) from /proc. Not
// getrusage: a forked child's ru_maxrss counts the parent's pages it
// inherited before exec, and this bench is larger than what it measures.
long peak_kb_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

// Runs `argv` with stdout to `out_path`, stderr discarded.
ProcessFigures run_to(const std::vector<std::string>& argv, const std::string& out_path) {
  ProcessFigures f;
  const auto t0 = BenchClock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_WRONLY);
    if (out < 0 || null < 0) _exit(127);
    dup2(out, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  if (pid < 0) return f;
  int status = 0;
  // Sampled every 2 ms until it exits (a zombie's /proc entry has no memory figures).
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0) return f;
    f.peak_kb = std::max(f.peak_kb, peak_kb_of(pid));
    usleep(2000);
  }
  f.seconds = seconds_between(t0, BenchClock::now());
  f.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return f;
}
}  // namespace

void bench_streaming() {
  const std::string kernel = std::string(POLYDAT_SOURCE_ROOT) + "/examples/ids.gk";
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const fs::path file = fs::temp_directory_path() / "polydat-bench-stream.csv";
  fmt::print("\nStreaming: polydat eval examples/ids.gk --engine llvm --format csv --threads T --cycles N > SINK\n");
  fmt::print("  (one run each, the process timed whole: JIT compile and start included)\n");
  fmt::print("  {:>11} {:>7} {:>10} {:>8} {:>12} {:>8} {:>9}\n", "cycles", "threads", "sink", "s", "lines/s", "MB/s",
             "peak MB");
  for (const uint64_t cycles : {uint64_t{1'000'000}, uint64_t{100'000'000}})
    for (const unsigned threads : {1u, cores})
      for (const std::string sink : {"/dev/null", "file"}) {
        if (sink == "file" && cycles < 100'000'000) continue;
        const std::string target = sink == "file" ? file.string() : sink;
        const ProcessFigures f =
            run_to({POLYDAT_EXE, "eval", kernel, "--engine", "llvm", "--format", "csv", "--threads",
                    std::to_string(threads), "--cycles", std::to_string(cycles)},
                   target);
        const double bytes = sink == "file" ? static_cast<double>(fs::file_size(file)) : 0;
        std::error_code ec;
        if (sink == "file") fs::remove(file, ec);
        if (!f.ok) {
          fmt::print("  {:>11} {:>7} {:>10}  (the run failed)\n", cycles, threads, sink);
          continue;
        }
        const double lines = static_cast<double>(cycles) + 1;
        fmt::print("  {:>11} {:>7} {:>10} {:>8.2f} {:>12.3g} {:>8} {:>9.1f}\n", cycles, threads, sink, f.seconds,
                   lines / f.seconds, bytes > 0 ? fmt::format("{:.0f}", bytes / f.seconds / 1e6) : "-",
                   static_cast<double>(f.peak_kb) / 1024);
      }
  // The first line at once: the whole pipeline ends when head has its line (best of 5).
  const std::string head = std::string("'") + POLYDAT_EXE + "' eval '" + kernel +
                           "' --engine llvm --format csv --cycles 100000000 | head -1 > /dev/null";
  const double first_line = best_of(5, [&] { run_to({"/bin/sh", "-c", head}, "/dev/null"); });
  fmt::print("  polydat eval ... --cycles 100000000 | head -1: {:.3f} s (best of 5)\n", first_line);
  print_load_average();
}

void bench_workload_run() {
  const std::string workload = std::string(POLYDAT_SOURCE_ROOT) + "/tests/bench/workloads/short_lines.yaml";
  fmt::print("\nWorkloads: polydat run tests/bench/workloads/short_lines.yaml n=N --engine E -q > /dev/null\n");
  fmt::print("  (one run each, one thread, the process timed whole: compile and start included)\n");
  fmt::print("  {:>11} {:>7} {:>8} {:>12} {:>9}\n", "lines", "engine", "s", "lines/s", "peak MB");
  for (const auto& [lines, engine] : std::vector<std::pair<uint64_t, std::string>>{
           {1'000'000, "interp"}, {1'000'000, "llvm"}, {100'000'000, "llvm"}}) {
    const ProcessFigures f =
        run_to({POLYDAT_EXE, "run", workload, "n=" + std::to_string(lines), "--engine", engine, "-q"}, "/dev/null");
    if (!f.ok) {
      fmt::print("  {:>11} {:>7}  (the run failed)\n", lines, engine);
      continue;
    }
    fmt::print("  {:>11} {:>7} {:>8.2f} {:>12.3g} {:>9.1f}\n", lines, engine, f.seconds,
               static_cast<double>(lines) / f.seconds, static_cast<double>(f.peak_kb) / 1024);
  }
  print_load_average();
}

}  // namespace polydat::bench
