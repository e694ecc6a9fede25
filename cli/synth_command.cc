// polydat synth: a kernel through Yosys, nextpnr-ice40 and icepack to a
// bitstream (on a board, inside the board top), or a resource estimate for
// ECP5 or Xilinx 7-series through Yosys alone.
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "boards/top_ports.h"
#include "cli/board_flow.h"
#include "cli/commands.h"
#include "fpga/estimate.h"
#include "fpga/ice40_flow.h"
#include "hls/report.h"
#include "rtl/emit_sv.h"

namespace polydat::cli {

namespace fs = std::filesystem;

namespace {

constexpr double kDefaultDeviceMhz = 48;  // the iCE40 target's default clock
constexpr int kCloseTimingAttempts = 4;

// What one attempt synthesizes: the top's text and name, and where it goes.
struct Plan {
  const fpga::Device* device = nullptr;
  std::string package, pcf;
  std::optional<boards::Board> board;
  double freq_mhz = 0;
};

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

int estimate_only(const SynthArgs& args, const hls::HlsOptions& options) {
  frontend::CompileResult r;
  auto k = design_for(args.hls, options, r);
  if (!k) return kUserError;
  const std::string top = rtl::module_name(k->design);
  const fs::path dir = args.out_dir.empty() ? fs::path(top + "-" + args.estimate) : fs::path(args.out_dir);
  fmt::print("synth {}: {}; Yosys synth_{} for an estimate (no place and route) in {}\n", args.hls.file,
             hls::summary_line(k->design), args.estimate, dir.string());
  auto e = fpga::estimate(args.estimate, top, rtl::emit_sv(k->design), dir);
  if (!e) {
    fmt::print(stderr, "error: {}\n", e.error());
    return kUserError;
  }
  fmt::print("{}", fpga::render_text(*e));
  return kOk;
}

}  // namespace

int synth_command(const SynthArgs& args) {
  auto options = hls_options(args.hls);
  if (!options) return kUsageError;
  if (!args.estimate.empty()) {
    if (!args.board.empty() || !args.device.empty()) {
      fmt::print(stderr, "error: --estimate synthesizes the kernel alone for another family: no --board or --device\n");
      return kUsageError;
    }
    return estimate_only(args, clocked_for(*options, args.freq_mhz.value_or(kDefaultDeviceMhz)));
  }
  if (args.board.empty() == args.device.empty()) {
    fmt::print(stderr, "error: give one of --board NAME or --device up5k|hx8k|lp8k|hx1k (or --estimate ecp5|xilinx)\n");
    return kUsageError;
  }
  Plan plan;
  if (!args.board.empty()) {
    if (args.freq_mhz || !args.package.empty()) {
      fmt::print(stderr, "error: with --board the clock is the board's oscillator and the package the board's; "
                         "--freq and --package go with --device\n");
      return kUsageError;
    }
    plan.board = load_board(args.board);
    if (!plan.board) return kUserError;
    plan.device = fpga::find_device(plan.board->device);
    plan.package = plan.board->package;
    plan.freq_mhz = plan.board->clock_mhz;
    plan.pcf = boards::pcf(*plan.board);
  } else {
    plan.device = fpga::find_device(args.device);
    plan.package = args.package;
    plan.freq_mhz = args.freq_mhz.value_or(kDefaultDeviceMhz);
  }
  if (!plan.device) {
    fmt::print(stderr, "error: '{}' is not a device polydat places and routes (up5k, hx8k, lp8k, hx1k)\n",
               plan.board ? plan.board->device : args.device);
    return kUserError;
  }
  if (!(plan.freq_mhz > 0)) {
    fmt::print(stderr, "error: --freq must be positive\n");
    return kUsageError;
  }

  hls::HlsOptions hls = clocked_for(*options, plan.freq_mhz);
  std::optional<fpga::SynthReport> report;
  fs::path dir;
  for (int attempt = 1;; ++attempt) {
    frontend::CompileResult r;
    auto k = design_for(args.hls, hls, r);
    if (!k) return kUserError;
    fpga::Ice40Request req;
    req.device = plan.device;
    req.package = plan.package;
    req.freq_mhz = plan.freq_mhz;
    req.pcf = plan.pcf;
    req.seed = args.seed;
    if (plan.board) {
      std::optional<Stimulus> stimulus;
      try {
        stimulus = Stimulus::make(r.kernel(), args.sets);
      } catch (const UsageError&) {
        return kUsageError;
      }
      if (!stimulus) return kUserError;
      auto top = board_top_for(*k, *stimulus, *plan.board);
      if (!top) return kUserError;
      req.top = top->module;
      req.sv = top->sv;
    } else {
      req.top = rtl::module_name(k->design);
      req.sv = rtl::emit_sv(k->design);
    }
    dir = args.out_dir.empty() ? fs::path(rtl::module_name(k->design) + "-" + (plan.board ? plan.board->name : args.device))
                               : fs::path(args.out_dir);
    req.dir = dir;
    fmt::print("synth {}: {} at {:.2f} ns; {} {} at {} MHz{} in {}\n", args.hls.file, hls::summary_line(k->design),
               *hls.clock_ns, plan.device->name, req.package.empty() ? plan.device->default_package : req.package,
               plan.freq_mhz, plan.board ? ", board " + plan.board->name : "", dir.string());
    std::fflush(stdout);
    auto got = fpga::run_ice40(req, [](std::string_view step) {
      fmt::print("  {}\n", step);
      std::fflush(stdout);
    });
    if (!got) {
      fmt::print(stderr, "error: {}\n", got.error());
      return kUserError;
    }
    report = std::move(*got);
    const double modelled_ns = k->design.critical_path_ns;
    const bool retry = args.close_timing && report->fits && !report->meets_timing && report->achieved_mhz &&
                       *report->achieved_mhz > 0 && attempt < kCloseTimingAttempts;
    if (!retry) break;
    // The model put the longest path at modelled_ns where the part needed 1000 / achieved:
    // scale the scheduling period by that error so that the real path fits 1000 / requested.
    const double tighter = std::min(*hls.clock_ns, std::max(modelled_ns, 0.1)) * *report->achieved_mhz / plan.freq_mhz;
    fmt::print("  Fmax {:.2f} MHz misses {} MHz: scheduling again against {:.2f} ns (attempt {} of {})\n",
               *report->achieved_mhz, plan.freq_mhz, tighter, attempt + 1, kCloseTimingAttempts);
    hls.clock_ns = tighter;
  }
  write_file(dir / "report.txt", fpga::render_text(*report));
  nlohmann::json json = fpga::to_json(*report);
  json["board"] = plan.board ? plan.board->name : "";  // what `polydat flash` checks
  write_file(dir / "report.json", json.dump(2) + "\n");
  fmt::print("{}", fpga::render_text(*report));
  return fpga::exit_status(*report);
}

}  // namespace polydat::cli
