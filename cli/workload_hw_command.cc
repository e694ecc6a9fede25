// emit-sv and cosim on a workload (.yaml): the scope modules and the top that
// sequences the scenario (hwtop/), simulated whole and decoded into the lines
// `polydat run` prints.
#include <fmt/core.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "boards/board_top.h"
#include "boards/top_ports.h"
#include "cli/board_flow.h"
#include "cli/flow.h"
#include "cli/output_folder.h"
#include "fpga/ice40_flow.h"
#include "fpga/report.h"
#include "hwtop/board_stream.h"
#include "sim/verilator/board_sim.h"
#include "sim/verilator/verilator_engine.h"
#include "hwtop/decode.h"
#include "hwtop/emit_top.h"
#include "hwtop/lower.h"
#include "hwtop/sim_top.h"
#include "workload/model.h"
#include "workload/run_params.h"
#include "workload/runner.h"
#include "text/plural.h"

namespace polydat::cli {

namespace fs = std::filesystem;

bool workload_assignments(const std::vector<std::string>& assignments, const workload::Workload& w,
                          workload::RunOptions& o, bool prints_lines) {
  auto pairs = workload::split_assignments(assignments);
  if (!pairs) {
    fmt::print(stderr, "{}\n", pairs.error());
    return false;
  }
  if (auto file = workload::take_workload(*pairs)) {
    fmt::print(stderr, "error: workload={}: the workload is the command's file argument here [usage]\n", *file);
    return false;
  }
  auto r = workload::resolve_params(*pairs, w, prints_lines ? workload::ParamUse::Lines : workload::ParamUse::Hardware, o);
  if (!r) {
    fmt::print(stderr, "{}\n", r.error());
    return false;
  }
  if (r->filename) {
    fmt::print(stderr, "error: filename= is polydat run's; the command writes its lines to stdout [not-applicable]\n");
    return false;
  }
  for (const std::string& note : r->notes) fmt::print(stderr, "note: {}\n", note);
  return true;
}

namespace {

struct Loaded {
  workload::Workload w;
  workload::RunOptions run;
  hwtop::HwWorkload hw;
};

void print_error(const std::string& e) { fmt::print(stderr, "{}{}", e, e.ends_with('\n') ? "" : "\n"); }

// `adjust` tells the HLS options about a board (its clock, its device).
std::optional<Loaded> load(const HlsArgs& args, const std::vector<std::string>& assignments, bool prints_lines, int& rc,
                           const std::function<hls::HlsOptions(hls::HlsOptions)>& adjust = {}) {
  rc = kUsageError;
  Loaded l;
  l.run.lib_paths = args.lib_paths;
  auto opts = hls_options(args);
  if (!opts) return std::nullopt;
  if (adjust) opts = adjust(*opts);
  auto w = workload::load_workload_file(args.file);
  if (!w) {
    fmt::print(stderr, "{}", w.error().rendered);
    rc = kUserError;
    return std::nullopt;
  }
  l.w = std::move(*w);
  if (!workload_assignments(assignments, l.w, l.run, prints_lines)) return std::nullopt;
  rc = kUserError;
  hwtop::HwOptions ho;
  ho.hls = *opts;
  ho.partition = args.partition;
  auto hw = hwtop::lower_workload(l.w, l.run, ho);
  if (!hw) {
    print_error(hw.error());
    return std::nullopt;
  }
  l.hw = std::move(*hw);
  for (const std::string& p : l.hw.partitioned) fmt::print(stderr, "note: --partition: {}\n", p);
  return l;
}

}  // namespace

int workload_emit_sv_command(const HlsArgs& args, const std::vector<std::string>& assignments, const std::string& out_dir) {
  int rc = kOk;
  auto l = load(args, assignments, false, rc);
  if (!l) return rc;
  if (auto refused = make_output_folder(out_dir)) {
    fmt::print(stderr, "error: {}\n", *refused);
    return kUserError;
  }
  for (const auto& [name, text] : hwtop::sv_files(l->hw)) {
    std::ofstream f(fs::path(out_dir) / name, std::ios::binary);
    f << text;
    if (!f) {
      fmt::print(stderr, "error: cannot write {}\n", (fs::path(out_dir) / name).string());
      return kUserError;
    }
  }
  fmt::print("{}: {}, {}, {}; top {} in {}\n", args.file, text::counted(l->hw.modules.size(), "scope module"),
             text::counted(l->hw.entries.size(), "entry", "entries"), text::counted(l->hw.cells.size(), "shared cell"),
             l->hw.top, out_dir);
  for (const hwtop::HwModule& m : l->hw.modules)
    fmt::print("  {}: {} ({} cfg, {} in, {} out)\n", m.name, m.scope->module.label, m.cfg_ports.size(), m.in_ports.size(),
               m.out_ports.size());
  return kOk;
}

namespace {

// polydat run's output, and each phase run's part of it (the lines of the entries left on the host).
struct Software {
  std::string text;
  uint64_t ops = 0;
  std::vector<std::string> entry_text;
  uint64_t hardware_records = 0;  // the ops of the entries the hardware runs
};

// nullopt after printing the error.
std::optional<Software> software_lines(const Loaded& l) {
  Software s;
  std::vector<std::pair<uint64_t, uint64_t>> starts;  // bytes, ops
  workload::RunOptions run = l.run;
  run.phase_run_starts = [&](uint64_t bytes, uint64_t ops) { starts.emplace_back(bytes, ops); };
  auto ran = workload::run_workload(l.w, run, [&](const std::string& t) {
    s.text += t;
    return true;
  });
  if (!ran) {
    print_error(ran.error());
    return std::nullopt;
  }
  s.ops = ran->ops;
  if (starts.size() != l.hw.entries.size()) {
    print_error(fmt::format("error: internal: the run had {} phase runs, the hardware plan {} entries", starts.size(),
                            l.hw.entries.size()));
    return std::nullopt;
  }
  starts.emplace_back(s.text.size(), s.ops);
  for (size_t k = 0; k + 1 < starts.size(); ++k) {
    s.entry_text.push_back(s.text.substr(starts[k].first, starts[k + 1].first - starts[k].first));
    if (!l.hw.entries[k].host) s.hardware_records += starts[k + 1].second - starts[k].second;
  }
  return s;
}

// A board, its clock and device, as the HLS options need them.
struct BoardPlan {
  boards::Board board;
  std::optional<fpga::PllConfig> pll;
  double mhz = 0;
  const fpga::Device* device = nullptr;
  hls::HlsOptions adjust(hls::HlsOptions o) const {
    o = clocked_for(o, mhz);
    return device ? for_device(o, *device) : o;
  }
};

std::optional<BoardPlan> board_plan(const std::string& name, std::optional<double> freq_mhz) {
  auto board = load_board(name);
  if (!board) return std::nullopt;
  BoardPlan p{*board, std::nullopt, 0, nullptr};
  if (!board_clock(p.board, freq_mhz, p.pll)) return std::nullopt;
  p.mhz = board_mhz(p.board, p.pll);
  p.device = fpga::find_device(p.board.device);
  return p;
}

int workload_board_cosim(const CosimArgs& args, const std::vector<std::string>& assignments) {
  auto plan = board_plan(args.board, args.freq_mhz);
  if (!plan) return board_failure(args.board);
  int rc = kOk;
  auto l = load(args.hls, assignments, true, rc, [&](hls::HlsOptions o) { return plan->adjust(o); });
  if (!l) return rc;
  auto want = software_lines(*l);
  if (!want) return kUserError;
  const hwtop::StreamModule stream = hwtop::stream_module(l->hw);
  boards::BoardTopOptions to;
  to.pll = plan->pll;
  const boards::BoardTop top = boards::board_top(stream.ports, stream.sv, plan->board, to);
  const auto t0 = std::chrono::steady_clock::now();
  auto run = sim::simulate_board(top, plan->board, want->hardware_records, sim::default_cache_dir());
  if (!run) {
    print_error("error: " + run.error());
    return kUserError;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<hwtop::Record> records;
  for (const std::string& line : run->lines) {
    auto r = hwtop::parse_board_line(stream, line);
    if (!r) {
      print_error("error: " + r.error().message);
      return kUserError;
    }
    records.push_back(std::move(*r));
  }
  auto lines = hwtop::decode_records(l->hw, records, l->run.render.format, &want->entry_text);
  if (!lines) {
    print_error("error: " + lines.error().message);
    return kUserError;
  }
  fmt::print("{}", *lines);
  const bool ok = *lines == want->text && run->framing_errors == 0;
  fmt::print(stderr, "polydat cosim: {} on board {} ({} MHz): {} of {} records over the UART ({} baud, {} characters a record), "
                     "{}, {} ({:.3f} s of board time) in {:.1f} s: {}\n",
             args.hls.file, plan->board.name, plan->mhz, records.size(), want->hardware_records, plan->board.baud, top.line_chars,
             text::counted(run->framing_errors, "framing error"), text::counted(run->cycles, "cycle"),
             run->cycles / (plan->mhz * 1e6), seconds,
             ok ? "identical to polydat run" : "MISMATCH against polydat run");
  return ok ? kOk : kUserError;
}

}  // namespace

int workload_synth_command(const SynthArgs& args, const std::vector<std::string>& assignments) {
  if (args.board.empty()) {
    fmt::print(stderr, "error: a workload is synthesized for a board: --board NAME\n");
    return kUsageError;
  }
  auto plan = board_plan(args.board, args.freq_mhz);
  if (!plan) return board_failure(args.board);
  if (!plan->device) {
    fmt::print(stderr, "error: no device '{}' in the iCE40 table\n", plan->board.device);
    return kUserError;
  }
  int rc = kOk;
  auto l = load(args.hls, assignments, false, rc, [&](hls::HlsOptions o) { return plan->adjust(o); });
  if (!l) return rc;
  const hwtop::StreamModule stream = hwtop::stream_module(l->hw);
  boards::BoardTopOptions to;
  to.pll = plan->pll;
  const boards::BoardTop top = boards::board_top(stream.ports, stream.sv, plan->board, to);
  fpga::Ice40Request req = ice40_request(*plan->device, plan->board.package, plan->mhz, boards::pcf(plan->board),
                                         use_dsp(*plan->device, args.hls), args);
  req.top = top.module;
  req.sv = top.sv;
  req.dir = args.out_dir.empty() ? fs::path(fs::path(args.hls.file).stem().string() + "-" + plan->board.name) : fs::path(args.out_dir);
  fmt::print("synth {}: {}, {}, {}; board {} ({} {}) at {} MHz, records over the UART, in {}\n",
             args.hls.file, text::counted(l->hw.modules.size(), "scope module"),
             text::counted(l->hw.entries.size(), "entry", "entries"), text::counted(l->hw.cells.size(), "shared cell"),
             plan->board.name,
             plan->board.device, plan->board.package, plan->mhz, req.dir.string());
  std::fflush(stdout);
  auto got = run_ice40_flow(req, args);
  if (!got) {
    fmt::print(stderr, "error: {}\n", got.error());
    return kUserError;
  }
  fmt::print("{}", fpga::render_text(*got));
  return fpga::exit_status(*got);
}

int workload_cosim_command(const CosimArgs& args, const std::vector<std::string>& assignments) {
  if (!args.board.empty()) return workload_board_cosim(args, assignments);
  if (args.sim != "verilator" && args.sim != "systemc") {
    fmt::print(stderr, "error: a workload co-simulates with --sim verilator or systemc, not '{}'\n", args.sim);
    return kUsageError;
  }
  int rc = kOk;
  auto l = load(args.hls, assignments, true, rc);
  if (!l) return rc;
  auto want = software_lines(*l);
  if (!want) return kUserError;
  const std::string& expected = want->text;
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
  auto lines = hwtop::decode_records(l->hw, sim->records, l->run.render.format, &want->entry_text);
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
                       "({} records against {} lines)\n", line, sim->records.size(), want->ops);
    return kUserError;
  }
  fmt::print(stderr, "polydat cosim: {} on {}: {}, {}, identical to polydat run ({}, {}{}, {:.1f} s)\n",
             args.hls.file, args.sim, text::counted(sim->records.size(), "record"), text::counted(sim->cycles, "cycle"),
             text::counted(l->hw.modules.size(), "module"), text::counted(l->hw.entries.size(), "entry", "entries"),
             args.stall > 0 ? fmt::format(", stall {}", args.stall) : "", secs);
  return kOk;
}

}  // namespace polydat::cli
