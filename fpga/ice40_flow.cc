#include "fpga/ice40_flow.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

namespace polydat::fpga {

namespace fs = std::filesystem;
using nlohmann::json;

// ---- running one tool ----

fs::path find_on_path(std::string_view tool) {
  auto runnable = [](const fs::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (tool.empty()) return {};
  if (tool.find('/') != std::string_view::npos) return runnable(fs::path(tool)) ? fs::path(tool) : fs::path();
  const char* env = std::getenv("PATH");
  const std::string path = env != nullptr ? env : "";
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string folder = path.substr(start, end - start);
    if (!folder.empty()) {
      const fs::path candidate = fs::path(folder) / tool;
      if (runnable(candidate)) return candidate;
    }
    start = end + 1;
  }
  return {};
}

std::string last_lines(const fs::path& file, size_t n) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  }
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) out += "  " + lines[i] + "\n";
  return out;
}

namespace {

// "its log /dir/yosys.log ends:\n  ...", for an error message.
std::string log_tail(const fs::path& log) {
  const std::string tail = last_lines(log, 8);
  if (tail.empty()) return fmt::format("its log {} is empty", log.string());
  return fmt::format("its log {} ends:\n{}", log.string(), tail);
}

}  // namespace

// ---- following a tool's log ----

LogStep::LogStep(std::string tool) : tool_(std::move(tool)) {}

void LogStep::feed(std::string_view chunk) {
  for (char c : chunk) {
    if (c == '\n') {
      line(partial_);
      partial_.clear();
    } else if (partial_.size() < 4096) {  // a runaway line is cut, never held whole
      partial_ += c;
    }
  }
}

namespace {

std::string trimmed(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const size_t e = s.find_last_not_of(" \t\r");
  std::string out(s.substr(b, e - b + 1));
  if (out.size() > 160) out = out.substr(0, 157) + "...";
  return out;
}

// "2.40.1. Executing ABC." : one or more numbers each ending in '.', then a space.
bool is_yosys_header(std::string_view l) {
  size_t i = 0;
  bool number = false;
  while (i < l.size()) {
    size_t j = i;
    while (j < l.size() && std::isdigit(static_cast<unsigned char>(l[j]))) ++j;
    if (j == i || j >= l.size() || l[j] != '.') break;
    number = true;
    i = j + 1;
  }
  return number && i < l.size() && l[i] == ' ';
}

// nextpnr's router table row, "      1000 |      106        763 |  106   763 |       218|  0.27  0.27|":
// its iteration count and the arcs still to route.
std::optional<std::string> router_row(std::string_view l) {
  std::vector<std::string> cells;
  size_t start = 0;
  for (size_t bar; (bar = l.find('|', start)) != std::string_view::npos; start = bar + 1)
    cells.push_back(trimmed(l.substr(start, bar - start)));
  auto number = [](const std::string& c) {
    return !c.empty() && std::all_of(c.begin(), c.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
  };
  if (cells.size() < 4 || !number(cells[0]) || !number(cells[3])) return std::nullopt;
  return fmt::format("router iteration {}, {} arcs left", cells[0], cells[3]);
}

}  // namespace

void LogStep::line(std::string_view l) {
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  if (tool_ == "yosys") {
    if (is_yosys_header(l)) phase_ = trimmed(l);
    return;
  }
  if (tool_ == "nextpnr-ice40" || tool_ == "nextpnr") {
    if (!l.starts_with("Info: ")) return;
    const std::string_view rest = l.substr(6);
    if (rest.empty()) return;
    if (rest[0] == ' ' || rest[0] == '\t') {
      if (phase_.empty() || rest[0] == '\t') return;  // the utilisation table
      const auto row = router_row(rest);
      const std::string d = row ? *row : trimmed(rest);
      if (!d.empty() && !d.starts_with("IterCnt") && !d.starts_with("|")) detail_ = d;
      return;
    }
    // A phase starts with a capital letter; "constrained ...", "promoting ...", the
    // slack histogram's "[ 123, 456) |**" and its legend do not.
    if (std::isupper(static_cast<unsigned char>(rest[0])) && !rest.starts_with("Checksum")) {
      phase_ = trimmed(rest);
      detail_.clear();
    }
    return;
  }
  if (const std::string t = trimmed(l); !t.empty()) phase_ = t;
}

std::string LogStep::step() const {
  if (detail_.empty()) return phase_;
  return phase_ + " " + detail_;
}

ir::Expected<int, std::string> run_tool(const std::vector<std::string>& argv, const fs::path& dir, const fs::path& log,
                                        uint32_t timeout_s, const ToolWatch* watch) {
  if (argv.empty()) return std::string("run_tool: no command");
  const fs::path exe = find_on_path(argv[0]);
  if (exe.empty()) {
    const char* env = std::getenv("PATH");
    return fmt::format("{} is not on PATH (PATH is \"{}\")", argv[0], env != nullptr ? env : "");
  }
  // Everything the child needs is built before fork: after it, only
  // async-signal-safe calls.
  const std::string exe_s = exe.string(), dir_s = dir.string(), log_s = log.string();
  const std::string exec_failed = fmt::format("polydat: cannot execute {}\n", exe_s);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Its own process group, so a timeout kills the tool with its children
    // (Yosys runs yosys-abc); and killed when we die, since a Ctrl-C at the
    // terminal no longer reaches that group.
    ::setpgid(0, 0);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(126);
    const int out = ::open(log_s.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    if (out < 0 || in < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) ::_exit(126);
    if (::chdir(dir_s.c_str()) != 0) ::_exit(126);
    ::execv(exe_s.c_str(), args.data());
    if (::write(2, exec_failed.data(), exec_failed.size()) < 0) ::_exit(127);
    ::_exit(127);
  }
  if (pid < 0) return fmt::format("cannot start {}: {}", argv[0], std::strerror(errno));
  ::setpgid(pid, pid);  // also in the parent, so a kill below cannot race the child's own call

  const auto started = std::chrono::steady_clock::now();
  const auto deadline = started + std::chrono::seconds(timeout_s);
  // Following the log: only what was appended since the last look is read.
  LogStep step(fs::path(argv[0]).filename().string());
  std::ifstream follow;
  auto next_report = started + (watch ? std::max(watch->every, std::chrono::milliseconds(1)) : std::chrono::hours(0));
  int ws = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &ws, WNOHANG);
    if (r == pid) break;
    if (watch && watch->report && std::chrono::steady_clock::now() >= next_report) {
      if (!follow.is_open()) follow.open(log, std::ios::binary);
      if (follow.is_open()) {
        follow.clear();  // past the end last time: read on from there
        char buf[65536];
        while (follow.read(buf, sizeof buf) || follow.gcount() > 0) step.feed(std::string_view(buf, follow.gcount()));
      }
      const auto now = std::chrono::steady_clock::now();
      const double elapsed = std::chrono::duration<double>(now - started).count();
      const std::string where = step.step();
      watch->report(fmt::format("{}: {:.0f} s, {}", argv[0], elapsed, where.empty() ? "starting" : where));
      while (next_report <= now) next_report += std::max(watch->every, std::chrono::milliseconds(1));
    }
    if (r < 0 && errno != EINTR) return fmt::format("waiting for {}: {}", argv[0], std::strerror(errno));
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &ws, 0);
      return fmt::format("{} timed out after {} s and was killed; {}", argv[0], timeout_s, log_tail(log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFSIGNALED(ws)) {
    const int sig = WTERMSIG(ws);
    return fmt::format("{} crashed (signal {}, {}); {}", argv[0], sig, ::strsignal(sig), log_tail(log));
  }
  return WEXITSTATUS(ws);
}

namespace {

// ---- small helpers ----

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; });
}

// One word for sh: as it is when it holds only safe characters, else in single quotes.
std::string shell_quote(const std::string& word) {
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_-.,/:=+@%", c) != nullptr;
  });
  if (safe) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) line += (line.empty() ? "" : " ") + shell_quote(a);
  return line;
}

bool write_file(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  return static_cast<bool>(out.flush());
}

std::optional<json> read_json(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  json j = json::parse(s.str(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

std::string fmt_mhz(double mhz) { return fmt::format("{}", mhz); }

// Cell type -> count from Yosys `stat -json`: the whole design (hierarchy
// included), else the top module.
std::map<std::string, uint64_t> stat_cells(const json& stat, const std::string& top) {
  std::map<std::string, uint64_t> cells;
  const json* by_type = nullptr;
  if (stat.contains("design") && stat["design"].contains("num_cells_by_type")) {
    by_type = &stat["design"]["num_cells_by_type"];
  } else if (stat.contains("modules") && stat["modules"].contains("\\" + top) &&
             stat["modules"]["\\" + top].contains("num_cells_by_type")) {
    by_type = &stat["modules"]["\\" + top]["num_cells_by_type"];
  }
  if (by_type != nullptr && by_type->is_object())
    for (auto it = by_type->begin(); it != by_type->end(); ++it)
      if (it.value().is_number_unsigned()) cells[it.key()] = it.value().get<uint64_t>();
  return cells;
}

uint32_t count_cells(const std::map<std::string, uint64_t>& cells, std::string_view prefix, bool exact) {
  uint64_t n = 0;
  for (const auto& [type, count] : cells)
    if (exact ? type == prefix : type.starts_with(prefix)) n += count;
  return static_cast<uint32_t>(std::min<uint64_t>(n, UINT32_MAX));
}

// The top module's port bits in Yosys' netlist JSON: the pins it needs.
std::optional<uint64_t> port_bits(const json& netlist, const std::string& top) {
  if (!netlist.contains("modules") || !netlist["modules"].contains(top)) return std::nullopt;
  const json& mod = netlist["modules"][top];
  if (!mod.contains("ports") || !mod["ports"].is_object()) return std::nullopt;
  uint64_t n = 0;
  for (const auto& [name, port] : mod["ports"].items())
    if (port.contains("bits") && port["bits"].is_array()) n += port["bits"].size();
  return n;
}

std::vector<std::string> error_lines(const fs::path& log) {
  std::vector<std::string> errors;
  std::ifstream in(log, std::ios::binary);
  std::string line;
  while (std::getline(in, line))
    if (line.starts_with("ERROR:")) errors.push_back(line);
  return errors;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}


// Which resource a nextpnr fit failure is about.
std::string failed_resource(const std::string& error_line) {
  static const std::map<std::string, std::string> kTypes = {
      {"ICESTORM_LC", "logic cells"},
      {"ICESTORM_RAM", "block RAM (SB_RAM40_4K)"},
      {"ICESTORM_DSP", "DSP (SB_MAC16)"},
      {"ICESTORM_SPRAM", "SPRAM"},
      {"SB_IO", "I/O pins"},
      {"SB_GB", "global buffers"},
      {"ICESTORM_PLL", "PLLs"},
  };
  const size_t at = error_line.find("cell type '");
  if (at != std::string::npos) {
    const size_t start = at + 11, end = error_line.find('\'', start);
    const std::string type = error_line.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const auto it = kTypes.find(type);
    return it != kTypes.end() ? it->second : type;
  }
  if (error_line.find("$sb_io") != std::string::npos) return "I/O pins";
  const std::string l = lower(error_line);
  if (l.find("route") != std::string::npos || l.find("routing") != std::string::npos) return "routing";
  return "placement";
}

std::string endpoint(const json& pin) {
  if (!pin.is_object() || !pin.contains("cell")) return {};
  std::string s = pin["cell"].get<std::string>();
  if (pin.contains("port") && pin["port"].is_string()) s += "." + pin["port"].get<std::string>();
  return s;
}

// The critical path of the slowest clock (posedge/negedge CLOCK to the same
// clock), else the first clock-to-clock path, else the first path.
// nextpnr 0.4's JSON names, as the first segment's "from", not the launching
// cell but another one; the first segment's "to" is the path's source (the
// register's output, or the input pin), as its text log prints it.
void critical_path(const json& report, const std::string& slowest_clock, SynthReport& r) {
  if (!report.contains("critical_paths") || !report["critical_paths"].is_array()) return;
  const json& paths = report["critical_paths"];
  const json* chosen = nullptr;
  auto domain_is = [&](const json& p, const std::string& clock) {
    for (const char* edge : {"posedge ", "negedge "})
      if (p.value("from", "") == edge + clock && p.value("to", "") == edge + clock) return true;
    return false;
  };
  if (!slowest_clock.empty())
    for (const json& p : paths)
      if (domain_is(p, slowest_clock)) {
        chosen = &p;
        break;
      }
  if (chosen == nullptr)
    for (const json& p : paths)
      if (p.value("from", "<async>") != "<async>" && p.value("to", "<async>") != "<async>") {
        chosen = &p;
        break;
      }
  if (chosen == nullptr && !paths.empty()) chosen = &paths[0];
  if (chosen == nullptr || !chosen->contains("path") || !(*chosen)["path"].is_array() || (*chosen)["path"].empty())
    return;
  const json& segs = (*chosen)["path"];
  const json& first = segs.front();
  const std::string type = first.value("type", "");
  r.critical_from = endpoint(type == "clk-to-q" || type == "source" ? first["to"] : first["from"]);
  r.critical_to = endpoint(segs.back()["to"]);
}

}  // namespace

ir::Expected<SynthReport, std::string> run_ice40(const Ice40Request& request, const Progress& progress,
                                                 const Progress& running) {
  const Device* dev = request.device;
  if (dev == nullptr) return std::string("run_ice40: no device");
  const std::string& top = request.top;
  if (!is_identifier(top)) return fmt::format("the top module name \"{}\" is not a plain identifier", top);
  if (!std::isfinite(request.freq_mhz) || request.freq_mhz <= 0)
    return fmt::format("the requested clock {} MHz is not a positive frequency", request.freq_mhz);
  const std::string package = request.package.empty() ? dev->default_package : request.package;

  for (const char* tool : {"yosys", "nextpnr-ice40", "icepack"})
    if (find_on_path(tool).empty()) {
      const char* env = std::getenv("PATH");
      return fmt::format("{} is not on PATH (PATH is \"{}\"); the iCE40 flow needs yosys, nextpnr-ice40 and icepack",
                         tool, env != nullptr ? env : "");
    }

  std::error_code ec;
  const fs::path dir = fs::absolute(request.dir, ec);
  if (ec) return fmt::format("{}: {}", request.dir.string(), ec.message());
  fs::create_directories(dir, ec);
  if (ec) return fmt::format("cannot create {}: {}", dir.string(), ec.message());

  const std::string sv_file = top + ".sv", netlist_file = top + ".json", asc_file = top + ".asc",
                    bin_file = top + ".bin", pcf_file = top + ".pcf";
  const std::string stat_file = "yosys_stat.json", report_file = "nextpnr_report.json";
  // A product left by an earlier run must not pass for this run's.
  for (const std::string& f : {netlist_file, stat_file, asc_file, bin_file, report_file, pcf_file,
                               std::string("yosys.log"), std::string("nextpnr.log"), std::string("icepack.log")})
    fs::remove(dir / f, ec);

  const std::string synth_cmd =
      fmt::format("synth_ice40 -top {}{} -json {}", top, request.use_dsp.value_or(dev->use_dsp) && dev->dsps > 0 ? " -dsp" : "",
                  netlist_file);
  const std::string script =
      fmt::format("read_verilog -sv {}\n{}\ntee -q -o {} stat -json\n", sv_file, synth_cmd, stat_file);
  bool written = write_file(dir / sv_file, request.sv) && write_file(dir / "synth.ys", script);
  if (!request.pcf.empty()) written = written && write_file(dir / pcf_file, request.pcf);

  // Not -q: the log holds every pass header as it starts, which the progress lines follow.
  const std::vector<std::string> yosys = {"yosys", "-s", "synth.ys"};
  std::vector<std::string> nextpnr = {
      "nextpnr-ice40", dev->nextpnr_flag, "--package", package,  "--json",
      netlist_file,    "--asc",           asc_file,    "--freq", fmt_mhz(request.freq_mhz)};
  if (!request.pcf.empty()) nextpnr.insert(nextpnr.end(), {"--pcf", pcf_file});
  // Timing failures still write the .asc and the report: whether the clock
  // is met is decided from the report's achieved Fmax.
  nextpnr.insert(nextpnr.end(),
                 {"--seed", std::to_string(request.seed), "--timing-allow-fail", "--report", report_file});
  const std::vector<std::string> icepack = {"icepack", asc_file, bin_file};

  const std::string run_sh = fmt::format(
      "#!/bin/sh\n"
      "# The iCE40 flow polydat ran for {} in this folder; re-run it with ./run.sh\n"
      "set -e\n"
      "cd \"$(dirname \"$0\")\"\n"
      "{} > yosys.log 2>&1\n"
      "{} > nextpnr.log 2>&1\n"
      "{} > icepack.log 2>&1\n",
      top, command_line(yosys), command_line(nextpnr), command_line(icepack));
  written = written && write_file(dir / "run.sh", run_sh);
  if (!written) return fmt::format("cannot write the flow's files in {}", dir.string());
  fs::permissions(dir / "run.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, ec);

  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };

  SynthReport r;
  r.top = top;
  r.device = dev->name;
  r.package = package;
  r.requested_mhz = request.freq_mhz;

  // ---- Yosys ----
  const fs::path yosys_log = dir / "yosys.log";
  say(fmt::format("yosys {} ({} > yosys.log)", synth_cmd, command_line(yosys)));
  ToolWatch watch{request.progress_every, running};
  const ToolWatch* watching = running ? &watch : nullptr;
  auto t0 = std::chrono::steady_clock::now();
  auto ys = run_tool(yosys, dir, yosys_log, request.timeout_s, watching);
  r.yosys_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!ys) return ys.error();
  if (*ys != 0) return fmt::format("yosys failed (exit status {}); {}", *ys, log_tail(yosys_log));
  const auto stat = read_json(dir / stat_file);
  const auto netlist = read_json(dir / netlist_file);
  if (!stat || !netlist)
    return fmt::format("yosys wrote no readable {}; {}", !stat ? stat_file : netlist_file, log_tail(yosys_log));

  const auto cells = stat_cells(*stat, top);
  r.luts = {count_cells(cells, "SB_LUT4", true), dev->luts};
  r.ffs = {count_cells(cells, "SB_DFF", false), dev->ffs};
  r.carries = {count_cells(cells, "SB_CARRY", true), dev->carries};
  r.dsps = {count_cells(cells, "SB_MAC16", true), dev->dsps};
  r.brams = {count_cells(cells, "SB_RAM40_4K", false), dev->brams};
  std::vector<std::string> over;
  for (const auto& [name, use] : {std::pair<const char*, Use>{"LUTs", r.luts},
                                  {"FFs", r.ffs},
                                  {"carries", r.carries},
                                  {"DSPs (SB_MAC16)", r.dsps},
                                  {"BRAMs (SB_RAM40_4K)", r.brams}})
    if (use.used > use.total)
      over.push_back(fmt::format("{} over: {} used, {} on {}", name, use.used, use.total, dev->name));

  // ---- nextpnr ----
  const fs::path nextpnr_log = dir / "nextpnr.log";
  say(fmt::format("{} (> nextpnr.log)", command_line(nextpnr)));
  t0 = std::chrono::steady_clock::now();
  auto np = run_tool(nextpnr, dir, nextpnr_log, request.timeout_s, watching);
  r.nextpnr_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!np) return np.error();
  bool placed = true;
  if (*np != 0) {
    const auto errors = error_lines(nextpnr_log);
    const auto fit = std::find_if(errors.begin(), errors.end(), is_fit_failure);
    if (fit == errors.end())
      return fmt::format("nextpnr-ice40 failed (exit status {}); {}", *np, log_tail(nextpnr_log));
    placed = false;
    if (over.empty()) {
      std::string what = failed_resource(*fit);
      if (what == "routing")
        what = "routing failed";
      else if (what == "placement")
        what = "placement failed";
      else if (what == "I/O pins") {
        const auto pins = port_bits(*netlist, top);
        what = pins ? fmt::format("I/O pins over: the ports of {} need {} pins, more than package {} of {} offers", top,
                                  *pins, package, dev->name)
                    : "I/O pins over";
      } else {
        what += " over";
      }
      over.push_back(what);
    }
    over.push_back("nextpnr: " + *fit);
  }
  r.fits = placed && over.empty();
  r.problem.clear();
  for (const std::string& o : over) r.problem += (r.problem.empty() ? "" : "; ") + o;

  if (placed) {
    const auto report = read_json(dir / report_file);
    if (!report) return fmt::format("nextpnr-ice40 wrote no readable {}; {}", report_file, log_tail(nextpnr_log));
    if (report->contains("utilization") && (*report)["utilization"].contains("ICESTORM_LC"))
      r.logic_cells = (*report)["utilization"]["ICESTORM_LC"].value("used", 0u);
    std::string slowest;
    if (report->contains("fmax") && (*report)["fmax"].is_object())
      for (const auto& [clock, f] : (*report)["fmax"].items())
        if (f.contains("achieved") && f["achieved"].is_number()) {
          const double mhz = f["achieved"].get<double>();
          if (!r.achieved_mhz || mhz < *r.achieved_mhz) {
            r.achieved_mhz = mhz;
            slowest = clock;
          }
        }
    critical_path(*report, slowest, r);
    if (!fs::exists(dir / asc_file))
      return fmt::format("nextpnr-ice40 wrote no {}; {}", asc_file, log_tail(nextpnr_log));
  }
  // Without a clock-to-clock path there is no Fmax and nothing to miss.
  r.meets_timing = r.fits && (!r.achieved_mhz || *r.achieved_mhz >= r.requested_mhz);

  // ---- icepack ----
  if (fs::exists(dir / asc_file)) {
    const fs::path icepack_log = dir / "icepack.log";
    say(fmt::format("{} (> icepack.log)", command_line(icepack)));
    auto ip = run_tool(icepack, dir, icepack_log, request.timeout_s);
    if (!ip) return ip.error();
    if (*ip != 0) return fmt::format("icepack failed (exit status {}); {}", *ip, log_tail(icepack_log));
    if (!fs::exists(dir / bin_file) || fs::file_size(dir / bin_file, ec) == 0)
      return fmt::format("icepack wrote no {}; {}", bin_file, log_tail(icepack_log));
    r.bitstream = bin_file;
  }
  return r;
}

bool is_fit_failure(const std::string& error_line) {
  const std::string l = lower(error_line);
  for (const char* word : {"unable to place", "placement location", "bels remaining", "failed to place",
                           "failed to route", "routing failed", "unrouted", "legalis", "legaliz",
                           "failed to expand region",     // the analytic placer, on a design larger than the part
                           "unable to find legal placement"})  // the same placer at 99 % of the part
    if (l.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace polydat::fpga
