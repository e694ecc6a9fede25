// polydat synth: a kernel through Yosys, nextpnr-ice40 and icepack to a
// bitstream (on a board, inside the board top; on a bare device, inside the
// QoR wrapper), or a resource estimate for ECP5 or Xilinx 7-series through
// Yosys alone.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "boards/qor_wrapper.h"
#include "boards/top_ports.h"
#include "cli/board_flow.h"
#include "cli/commands.h"
#include "cli/output_folder.h"
#include "fpga/estimate.h"
#include "fpga/ice40_flow.h"
#include "hls/report.h"
#include "rtl/emit_sv.h"

namespace polydat::cli {

namespace fs = std::filesystem;

namespace {

constexpr double kDefaultDeviceMhz = 48;  // the iCE40 target's default clock, hls::kIce40ClockNs as a frequency
constexpr int kCloseTimingAttempts = 4;

// What every attempt shares: the part, its pins, the clock.
struct Plan {
  const fpga::Device* device = nullptr;
  std::string package, pcf;
  std::optional<boards::Board> board;
  std::optional<fpga::PllConfig> pll;  // --board --freq F: the PLL's settings
  double freq_mhz = 0;                 // what nextpnr is asked for (the PLL's output with a PLL)
  bool dsp = false;                    // synth_ice40 -dsp
};

// One run of the flow: the design it was made from and what the tools measured.
struct Attempt {
  int number = 0;
  fs::path dir;
  double clock_ns = 0;  // the period HLS scheduled against
  std::string kernel_sv;
  std::string shape;
  uint64_t ii = 0, latency = 0;
  double model_ns = 0;  // the model's critical path
  fpga::SynthReport report;
  std::optional<fpga::SynthReport> wrapper;  // --device: the QoR wrapper's own cost for this attempt's ports
  fs::path wrapper_dir;
};

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// The SystemVerilog without its comment lines (the header names the clock it
// was scheduled for): two attempts with the same logic compare equal.
std::string logic_of(const std::string& sv) {
  std::string out;
  size_t at = 0;
  while (at < sv.size()) {
    size_t end = sv.find('\n', at);
    if (end == std::string::npos) end = sv.size();
    const std::string_view line(sv.data() + at, end - at);
    const size_t text = line.find_first_not_of(" \t");
    if (text == std::string_view::npos || line.substr(text, 2) != "//") out.append(line).push_back('\n');
    at = end + 1;
  }
  return out;
}

int estimate_only(const SynthArgs& args, const hls::HlsOptions& options) {
  frontend::CompileResult r;
  auto k = design_for(args.hls, options, r);
  if (!k) return k.error();
  const std::string& top = k->module.name;
  const fs::path dir = args.out_dir.empty() ? fs::path(top + "-" + args.estimate) : fs::path(args.out_dir);
  fmt::print("synth {}: {}; Yosys synth_{} for an estimate (no place and route) in {}\n", args.hls.file,
             hls::summary_line(k->design), args.estimate, dir.string());
  auto e = fpga::estimate(args.estimate, top, k->module.text, dir);
  if (!e) {
    fmt::print(stderr, "error: {}\n", e.error());
    return kUserError;
  }
  fmt::print("{}", fpga::render_text(*e));
  return kOk;
}

fpga::Ice40Request request_for(const Plan& plan, const SynthArgs& args) {
  return ice40_request(*plan.device, plan.package, plan.freq_mhz, plan.pcf, plan.dsp, args);
}

// The QoR wrapper's own cost on this part, measured once per (part, clock,
// port widths) in a run: the same flow on the wrapper around a null kernel.
struct WrapperCost {
  fpga::SynthReport report;
  fs::path dir;
};

ir::Expected<WrapperCost, std::string> wrapper_cost(const Plan& plan, const SynthArgs& args,
                                                    const boards::KernelPorts& ports, const fs::path& dir,
                                                    std::map<std::string, WrapperCost>& cache) {
  const std::string key = fmt::format("{}|{}|{}|{}|{}", plan.device->name, plan.package, plan.freq_mhz, plan.dsp,
                                      boards::port_widths_key(ports));
  if (const auto it = cache.find(key); it != cache.end()) {
    fmt::print("  the wrapper's own cost: measured already in {}\n", it->second.dir.string());
    return it->second;
  }
  const boards::QorWrapper null = boards::null_wrapper(ports);
  fpga::Ice40Request req = request_for(plan, args);
  req.top = null.module;
  req.sv = null.sv;
  req.dir = dir;
  fmt::print("  the wrapper's own cost: the same flow around a null kernel with the same ports, in {}\n",
             dir.string());
  std::fflush(stdout);
  auto r = run_ice40_flow(req, args);
  if (!r) return "measuring the QoR wrapper's own cost: " + r.error();
  WrapperCost c{std::move(*r), dir};
  cache.emplace(key, c);
  return c;
}

int32_t minus(uint32_t total, uint32_t wrapper) { return static_cast<int32_t>(total) - static_cast<int32_t>(wrapper); }

// The attempt with the highest achieved Fmax among those that fit (the last one when none fits).
const Attempt& best_of(const std::vector<Attempt>& attempts) {
  const Attempt* best = &attempts.back();
  for (const Attempt& a : attempts)
    if (a.report.fits && a.report.achieved_mhz &&
        (!best->report.fits || !best->report.achieved_mhz || *a.report.achieved_mhz > *best->report.achieved_mhz))
      best = &a;
  return *best;
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
    if (!args.package.empty()) {
      fmt::print(stderr, "error: with --board the package is the board's; --package goes with --device\n");
      return kUsageError;
    }
    plan.board = load_board(args.board);
    if (!plan.board) return board_failure(args.board);
    plan.device = fpga::find_device(plan.board->device);
    plan.package = plan.board->package;
    if (!board_clock(*plan.board, args.freq_mhz, plan.pll)) return kUserError;
    plan.freq_mhz = board_mhz(*plan.board, plan.pll);
    plan.pcf = boards::pcf(*plan.board);
  } else {
    if (!args.sets.empty()) {
      fmt::print(stderr, "error: --set goes with --board; with --device the QoR wrapper drives every input\n");
      return kUsageError;
    }
    plan.device = fpga::find_device(args.device);
    plan.package = args.package;
    plan.freq_mhz = args.freq_mhz.value_or(kDefaultDeviceMhz);
  }
  if (!plan.device) {
    fmt::print(stderr, "error: '{}' is not a device polydat places and routes (up5k, hx8k, lp8k, hx1k)\n",
               plan.board ? plan.board->device : args.device);
    return kUserError;
  }
  if (!(plan.freq_mhz > 0) || !std::isfinite(plan.freq_mhz)) {
    fmt::print(stderr, "error: --freq must be a positive number of MHz\n");
    return kUsageError;
  }
  plan.dsp = use_dsp(*plan.device, args.hls);
  if (plan.pll)
    fmt::print("PLL: {} MHz asked, {:.3f} MHz from the {} MHz oscillator (DIVR {}, DIVF {}, DIVQ {}, FILTER_RANGE {}; "
               "{})\n",
               plan.pll->requested_mhz, plan.pll->out_mhz, plan.pll->in_mhz, plan.pll->divr, plan.pll->divf,
               plan.pll->divq, plan.pll->filter_range,
               plan.board->pll_input == boards::PllInput::Pad ? "SB_PLL40_PAD" : "SB_PLL40_CORE");

  hls::HlsOptions hls = for_device(clocked_for(*options, plan.freq_mhz), *plan.device);
  std::vector<Attempt> attempts;
  std::map<std::string, WrapperCost> wrapper_costs;  // per port widths, measured once in a run
  std::optional<boards::KernelPorts> ports;
  fs::path base;
  for (int attempt = 1;; ++attempt) {
    frontend::CompileResult r;
    auto k = design_for(args.hls, hls, r);
    if (!k) return k.error();
    std::string kernel_sv = k->module.text;
    if (!attempts.empty() && logic_of(kernel_sv) == logic_of(attempts.back().kernel_sv)) {
      fmt::print("  scheduled against {:.2f} ns the design is the same as attempt {}'s: stopping\n", *hls.clock_ns,
                 attempts.back().number);
      break;
    }
    if (base.empty())
      base = args.out_dir.empty()
                 ?  fs::path(k->module.name + "-" + (plan.board ? plan.board->name : args.device))
                 : fs::path(args.out_dir);
    fpga::Ice40Request req = request_for(plan, args);
    if (plan.board) {
      auto stimulus = stimulus_for(r.kernel(), args.sets);
      if (!stimulus) return stimulus.error();
      auto top = board_top_for(*k, *stimulus, *plan.board, plan.pll);
      if (!top) return kUserError;
      req.top = top->module;
      req.sv = top->sv;
    } else {
      ports = boards::kernel_ports(k->design, k->module);
      const boards::QorWrapper w = boards::qor_wrapper(*ports, kernel_sv);
      req.top = w.module;
      req.sv = w.sv;
    }
    // With --close-timing each attempt has its own folder; the best is copied up at the end.
    const fs::path dir = args.close_timing ? base / fmt::format("attempt-{}", attempt) : base;
    req.dir = dir;
    // What HLS made, written before the tools run: there even when a tool does not finish.
    const nlohmann::json design_json = {{"design", hls::summary_line(k->design)},
                                        {"ii", k->design.initiation_interval()},
                                        {"latency", k->design.latency()},
                                        {"critical_path_ns", k->design.critical_path_ns},
                                        {"clock_ns", *hls.clock_ns}};
    for (const fs::path& folder : {base, dir})
      if (auto refused = make_output_folder(folder)) {
        fmt::print(stderr, "error: {}\n", *refused);
        return kUserError;
      }
    write_file(dir / "hls.json", design_json.dump(2) + "\n");
    fmt::print("synth {}: {} at {:.2f} ns; {} {} at {} MHz{} in {}\n", args.hls.file, hls::summary_line(k->design),
               *hls.clock_ns, plan.device->name, req.package.empty() ? plan.device->default_package : req.package,
               plan.freq_mhz,
               plan.board ? ", board " + plan.board->name : ", inside the QoR wrapper (clk, rst and one output pin)",
               dir.string());
    std::fflush(stdout);
    auto got = run_ice40_flow(req, args);
    if (!got) {
      fmt::print(stderr, "error: {}\n", got.error());
      return kUserError;
    }
    Attempt a;
    a.number = attempt;
    a.dir = dir;
    a.clock_ns = *hls.clock_ns;
    a.kernel_sv = std::move(kernel_sv);
    a.shape = hls::summary_line(k->design);
    a.ii = k->design.initiation_interval();
    a.latency = k->design.latency();
    a.model_ns = k->design.critical_path_ns;
    a.report = std::move(*got);
    attempts.push_back(std::move(a));
    const fpga::SynthReport& rep = attempts.back().report;
    if (!plan.board) {
      auto c = wrapper_cost(plan, args, *ports, base / fmt::format("wrapper-{}", wrapper_costs.size() + 1),
                            wrapper_costs);
      if (!c) {
        fmt::print(stderr, "error: {}\n", c.error());
        return kUserError;
      }
      attempts.back().wrapper = c->report;
      attempts.back().wrapper_dir = c->dir;
    }
    const bool retry = args.close_timing && rep.fits && !rep.meets_timing && rep.achieved_mhz &&
                       *rep.achieved_mhz > 0 && attempt < kCloseTimingAttempts;
    if (!retry) break;
    // The model put the longest path at model_ns where the part needed 1000 / achieved:
    // scale the scheduling period by that error so that the real path fits 1000 / requested.
    const double modelled_ns = attempts.back().model_ns;
    const double tighter = std::min(*hls.clock_ns, std::max(modelled_ns, 0.1)) * *rep.achieved_mhz / plan.freq_mhz;
    fmt::print("  Fmax {:.2f} MHz misses {} MHz: scheduling again against {:.2f} ns (attempt {} of {})\n",
               *rep.achieved_mhz, plan.freq_mhz, tighter, attempt + 1, kCloseTimingAttempts);
    hls.clock_ns = tighter;
  }

  const Attempt& best = best_of(attempts);
  if (args.close_timing) {
    // The best attempt's files become the folder's own.
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(best.dir, ec))
      if (entry.is_regular_file()) fs::copy_file(entry.path(), base / entry.path().filename(), fs::copy_options::overwrite_existing, ec);
    std::string tried;
    for (const Attempt& a : attempts)
      tried += fmt::format("{}  attempt {}: {:.2f} ns, {}: {}\n", "", a.number, a.clock_ns, a.shape,
                           a.report.achieved_mhz ? fmt::format("{:.2f} MHz", *a.report.achieved_mhz)
                                                 : std::string(a.report.fits ? "no Fmax" : "does not fit"));
    fmt::print("{}  best: attempt {} of {}{}; its files are in {} (each attempt's in attempt-N)\n", tried, best.number,
               attempts.size(),
               best.report.achieved_mhz ? fmt::format(" ({:.2f} MHz)", *best.report.achieved_mhz) : std::string(),
               base.string());
  }
  const fpga::SynthReport& report = best.report;
  std::string text = fpga::render_text(report);
  nlohmann::json json = fpga::to_json(report);
  json["board"] = plan.board ? plan.board->name : "";  // what `polydat flash` checks
  if (plan.board && args.board != plan.board->name) json["board_file"] = fs::absolute(args.board).string();  // flash reloads it
  json["hls"] = {{"design", best.shape},
                 {"ii", best.ii},
                 {"latency", best.latency},
                 {"critical_path_ns", best.model_ns},
                 {"clock_ns", best.clock_ns}};
  json["attempt"] = best.number;
  json["attempts"] = attempts.size();
  json["yosys_s"] = report.yosys_s;
  json["nextpnr_s"] = report.nextpnr_s;
  json["dsp"] = plan.dsp;
  if (plan.pll) {
    json["pll"] = {{"in_mhz", plan.pll->in_mhz},   {"requested_mhz", plan.pll->requested_mhz},
                   {"out_mhz", plan.pll->out_mhz}, {"divr", plan.pll->divr},
                   {"divf", plan.pll->divf},       {"divq", plan.pll->divq},
                   {"filter_range", plan.pll->filter_range},
                   {"primitive", plan.board->pll_input == boards::PllInput::Pad ? "SB_PLL40_PAD" : "SB_PLL40_CORE"}};
    text += fmt::format("PLL            {:.3f} MHz from {} MHz (asked {} MHz)\n", plan.pll->out_mhz, plan.pll->in_mhz,
                        plan.pll->requested_mhz);
  }
  if (best.wrapper) {
    const fpga::SynthReport& w = *best.wrapper;
    nlohmann::json wj = {{"luts", w.luts.used}, {"ffs", w.ffs.used}, {"carries", w.carries.used},
                         {"dsps", w.dsps.used}, {"dir", best.wrapper_dir.string()}};
    wj["logic_cells"] = w.logic_cells ? nlohmann::json(*w.logic_cells) : nlohmann::json(nullptr);
    json["wrapper"] = wj;
    nlohmann::json kj = {{"luts", minus(report.luts.used, w.luts.used)},
                         {"ffs", minus(report.ffs.used, w.ffs.used)},
                         {"carries", minus(report.carries.used, w.carries.used)},
                         {"dsps", minus(report.dsps.used, w.dsps.used)}};
    kj["logic_cells"] = report.logic_cells && w.logic_cells
                            ? nlohmann::json(minus(*report.logic_cells, *w.logic_cells))
                            : nlohmann::json(nullptr);
    json["kernel"] = kj;
    text += fmt::format("wrapper        {} logic cells, {} LUTs, {} FFs, {} carries (measured: a null kernel, same ports)\n",
                        w.logic_cells ? fmt::format("{}", *w.logic_cells) : std::string("?"), w.luts.used, w.ffs.used,
                        w.carries.used);
    text += fmt::format("kernel         {} logic cells, {} LUTs, {} FFs, {} carries, {} DSPs (total - wrapper)\n",
                        report.logic_cells && w.logic_cells ? fmt::format("{}", minus(*report.logic_cells, *w.logic_cells))
                                                            : std::string("?"),
                        minus(report.luts.used, w.luts.used), minus(report.ffs.used, w.ffs.used),
                        minus(report.carries.used, w.carries.used), minus(report.dsps.used, w.dsps.used));
  }
  write_file(base / "report.txt", text);
  write_file(base / "report.json", json.dump(2) + "\n");
  fmt::print("{}", text);
  return fpga::exit_status(report);
}

}  // namespace polydat::cli
