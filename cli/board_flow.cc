#include "cli/board_flow.h"

#include <fmt/core.h>

#include <cmath>

#include "cli/progress.h"

namespace polydat::cli {

std::optional<boards::Board> load_board(const std::string& name_or_path) {
  auto b = boards::find_board(name_or_path);
  if (!b) {
    fmt::print(stderr, "{}{}", b.error(), b.error().ends_with('\n') ? "" : "\n");
    if (boards::board_unknown(name_or_path)) fmt::print(stderr, "(`polydat boards` describes the bundled boards)\n");
    return std::nullopt;
  }
  return *b;
}

bool board_clock(const boards::Board& board, std::optional<double> mhz, std::optional<fpga::PllConfig>& pll) {
  pll.reset();
  if (!mhz) return true;
  if (!(*mhz > 0) || !std::isfinite(*mhz)) {
    fmt::print(stderr, "error: --freq must be a positive number of MHz\n");
    return false;
  }
  if (std::fabs(*mhz - board.clock_mhz) < 1e-9) return true;  // the oscillator itself: no PLL
  auto c = fpga::ice40_pll(board.clock_mhz, *mhz);
  if (!c) {
    fmt::print(stderr, "error: --freq {} on board {}: {}\n", *mhz, board.name, c.error());
    return false;
  }
  pll = *c;
  return true;
}

std::optional<boards::BoardTop> board_top_for(const KernelDesign& k, const Stimulus& stimulus,
                                              const boards::Board& board, const std::optional<fpga::PllConfig>& pll) {
  auto fields = stimulus.at(0);
  if (!fields) return std::nullopt;
  boards::BoardTopOptions o;
  for (size_t i = 0; i < fields->size(); ++i) {
    if (k.config_fields[i]) o.configs.push_back((*fields)[i].bits());
    else if (!stimulus.iterated() || i != *stimulus.iterated()) o.inputs.push_back((*fields)[i].bits());
  }
  o.pll = pll;
  const double mhz = board_mhz(board, pll);
  if (mhz * 1e6 < 4.0 * board.baud) {
    fmt::print(stderr, "error: at {} MHz the UART's {} baud has fewer than 4 clocks a bit\n", mhz, board.baud);
    return std::nullopt;
  }
  return boards::board_top(k.design, k.module, board, o);
}

hls::HlsOptions clocked_for(hls::HlsOptions options, double mhz) {
  if (!options.clock_ns) options.clock_ns = 1000.0 / mhz;
  return options;
}

hls::HlsOptions for_device(hls::HlsOptions options, const fpga::Device& device) {
  options.capacity = hls::Capacity{device.name, device.luts, device.ffs, device.carries, device.dsps};
  return options;
}

bool use_dsp(const fpga::Device& device, const HlsArgs& args) {
  return device.use_dsp && device.dsps > 0 && (!args.dsp || *args.dsp > 0);
}

fpga::Ice40Request ice40_request(const fpga::Device& device, const std::string& package, double freq_mhz,
                                 const std::string& pcf, bool dsp, const SynthArgs& args) {
  fpga::Ice40Request req;
  req.device = &device;
  req.package = package;
  req.freq_mhz = freq_mhz;
  req.pcf = pcf;
  req.seed = args.place_seed;
  req.use_dsp = dsp;
  req.timeout_s = args.tool_timeout_s;
  req.progress_every = std::chrono::milliseconds(args.progress_s ? static_cast<int64_t>(std::llround(*args.progress_s * 1000)) : 500);
  return req;
}

ir::Expected<fpga::SynthReport, std::string> run_ice40_flow(const fpga::Ice40Request& req, const SynthArgs& args) {
  ProgressLine line("synth " + args.hls.file, "", progress_wanted(args.quiet) && !args.progress_s);
  fpga::Progress running;
  if (args.progress_s && !args.quiet)
    running = [](std::string_view text) {
      fmt::print(stderr, "  ... {}\n", text);
      std::fflush(stderr);
    };
  else
    running = [&line](std::string_view text) { line.note(std::string(text)); };
  return fpga::run_ice40(
      req,
      [&line](std::string_view step) {
        line.clear();
        fmt::print("  {}\n", step);
        std::fflush(stdout);
      },
      running);
}

}  // namespace polydat::cli
