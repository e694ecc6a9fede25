// emit-sv and cosim on a workload (.yaml): the scope modules and the top that
// sequences the scenario (hwtop/), simulated whole and decoded into the lines
// `polydat run` prints.
#include <fmt/core.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/flow.h"
#include "hwtop/decode.h"
#include "hwtop/emit_top.h"
#include "hwtop/lower.h"
#include "hwtop/sim_top.h"
#include "workload/model.h"
#include "workload/runner.h"

namespace polydat::cli {

namespace fs = std::filesystem;

bool is_workload_file(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

bool workload_assignments(const std::vector<std::string>& assignments, workload::RunOptions& o) {
  for (const std::string& a : assignments) {
    const size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      fmt::print(stderr, "error: '{}' is not NAME=VALUE (scenario=NAME picks a scenario; other names set params)\n", a);
      return false;
    }
    const std::string name = a.substr(0, eq), value = a.substr(eq + 1);
    if (name == "scenario") o.scenario = value;
    else o.overrides.emplace_back(name, value);
  }
  return true;
}

namespace {

struct Loaded {
  workload::Workload w;
  workload::RunOptions run;
  hwtop::HwWorkload hw;
};

void print_error(const std::string& e) { fmt::print(stderr, "{}{}", e, e.ends_with('\n') ? "" : "\n"); }

std::optional<Loaded> load(const HlsArgs& args, const std::vector<std::string>& assignments, int& rc) {
  rc = kUsageError;
  Loaded l;
  if (!workload_assignments(assignments, l.run)) return std::nullopt;
  l.run.lib_paths = args.lib_paths;
  auto opts = hls_options(args);
  if (!opts) return std::nullopt;
  rc = kUserError;
  auto w = workload::load_workload_file(args.file);
  if (!w) {
    fmt::print(stderr, "{}", w.error().rendered);
    return std::nullopt;
  }
  l.w = std::move(*w);
  hwtop::HwOptions ho;
  ho.hls = *opts;
  auto hw = hwtop::lower_workload(l.w, l.run, ho);
  if (!hw) {
    print_error(hw.error());
    return std::nullopt;
  }
  l.hw = std::move(*hw);
  return l;
}

}  // namespace

int workload_emit_sv_command(const HlsArgs& args, const std::vector<std::string>& assignments, const std::string& out_dir) {
  int rc = kOk;
  auto l = load(args, assignments, rc);
  if (!l) return rc;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  for (const auto& [name, text] : hwtop::sv_files(l->hw)) {
    std::ofstream f(fs::path(out_dir) / name, std::ios::binary);
    f << text;
    if (!f) {
      fmt::print(stderr, "error: cannot write {}\n", (fs::path(out_dir) / name).string());
      return kUserError;
    }
  }
  fmt::print("{}: {} scope modules, {} entries, {} shared cells; top {} in {}\n", args.file, l->hw.modules.size(),
             l->hw.entries.size(), l->hw.cells.size(), l->hw.top, out_dir);
  for (const hwtop::HwModule& m : l->hw.modules)
    fmt::print("  {}: {} ({} cfg, {} in, {} out)\n", m.name, m.scope->module.label, m.cfg_ports.size(), m.in_ports.size(),
               m.out_ports.size());
  return kOk;
}

int workload_cosim_command(const CosimArgs& args, const std::vector<std::string>& assignments) {
  if (args.sim != "verilator" && args.sim != "systemc") {
    fmt::print(stderr, "error: a workload co-simulates with --sim verilator or systemc, not '{}'\n", args.sim);
    return kUsageError;
  }
  if (!(args.stall >= 0 && args.stall < 1)) {
    fmt::print(stderr, "error: --stall is a probability in [0, 1)\n");
    return kUsageError;
  }
  int rc = kOk;
  auto l = load(args.hls, assignments, rc);
  if (!l) return rc;
  std::string expected;
  auto ran = workload::run_workload(l->w, l->run, [&](const std::string& t) {
    expected += t;
    return true;
  });
  if (!ran) {
    print_error(ran.error());
    return kUserError;
  }
  hwtop::TopSimOptions so;
  so.systemc = args.sim == "systemc";
  so.stall = args.stall;
  so.seed = args.seed;
  const auto start = std::chrono::steady_clock::now();
  auto sim = hwtop::simulate_top(l->hw, so);
  if (!sim) {
    print_error("error: " + sim.error());
    return kUserError;
  }
  auto lines = hwtop::decode_records(l->hw, sim->records, l->run.format);
  if (!lines) {
    print_error("error: " + lines.error().message);
    return kUserError;
  }
  fmt::print("{}", *lines);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (*lines != expected) {
    size_t line = 1, i = 0;
    while (i < lines->size() && i < expected.size() && (*lines)[i] == expected[i]) line += (*lines)[i++] == '\n';
    fmt::print(stderr, "polydat cosim: MISMATCH: the workload top's lines differ from polydat run's from line {} "
                       "({} records against {} lines)\n", line, sim->records.size(), ran->ops);
    return kUserError;
  }
  fmt::print(stderr, "polydat cosim: {} on {}: {} records, {} cycles, identical to polydat run ({} modules, {} entries{}, {:.1f} s)\n",
             args.hls.file, args.sim, sim->records.size(), sim->cycles, l->hw.modules.size(), l->hw.entries.size(),
             args.stall > 0 ? fmt::format(", stall {}", args.stall) : "", secs);
  return kOk;
}

}  // namespace polydat::cli
