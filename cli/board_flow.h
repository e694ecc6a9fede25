// What `synth --board` and `cosim --board` share: the board file, the clock
// (the oscillator, or the PLL for --freq), and the board top around a
// kernel's design with its externs and held inputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "boards/board.h"
#include "boards/board_top.h"
#include "cli/flow.h"
#include "cli/stimulus.h"
#include "cli/commands.h"
#include "fpga/device.h"
#include "fpga/ice40_flow.h"
#include "fpga/report.h"
#include "fpga/pll.h"

namespace polydat::cli {

// The board named on the command line (bundled or a .yaml path); nullopt after printing why.
std::optional<boards::Board> load_board(const std::string& name_or_path);

// The exit code after load_board failed: a usage error for a name that is no board, else the work failed.
inline int board_failure(const std::string& name_or_path) {
  return boards::board_unknown(name_or_path) ? kUsageError : kUserError;
}

// The clock a board runs the kernel at: the oscillator when `mhz` is absent
// or equal to it (no PLL), else the PLL's settings for `mhz` (as icepll finds
// them). false after printing why there is none.
bool board_clock(const boards::Board& board, std::optional<double> mhz, std::optional<fpga::PllConfig>& pll);

// The frequency the board top runs at: the PLL's output, or the oscillator.
inline double board_mhz(const boards::Board& board, const std::optional<fpga::PllConfig>& pll) {
  return pll ? pll->out_mhz : board.clock_mhz;
}

// The board top for design `k`: the externs and the inputs after the first
// at the stimulus's values (--set or defaults), with the PLL when given.
// nullopt after printing why.
std::optional<boards::BoardTop> board_top_for(const KernelDesign& k, const Stimulus& stimulus,
                                              const boards::Board& board,
                                              const std::optional<fpga::PllConfig>& pll = std::nullopt);

// The HLS options with the board's oscillator as the clock, unless --clock-ns gave one.
hls::HlsOptions clocked_for(hls::HlsOptions options, double mhz);

// The HLS options told which device the design is for (its LUTs, FFs, carries, DSPs).
hls::HlsOptions for_device(hls::HlsOptions options, const fpga::Device& device);

// Whether synth_ice40 maps multiplies to DSPs: the device has them and --dsp is not 0.
bool use_dsp(const fpga::Device& device, const HlsArgs& args);

// The iCE40 flow's request for a part, its package, clock, pins and DSP use, with
// synth's seed, timeout and progress interval (the top, its text and folder are the caller's).
fpga::Ice40Request ice40_request(const fpga::Device& device, const std::string& package, double freq_mhz,
                                 const std::string& pcf, bool dsp, const SynthArgs& args);

// Runs the flow, with the step lines on stdout and the running ones on stderr.
// The tools on `req`, their steps on stdout and the progress of the one running as cli/progress.h shows it
// (or a line every --progress seconds; nothing with --quiet).
ir::Expected<fpga::SynthReport, std::string> run_ice40_flow(const fpga::Ice40Request& req, const SynthArgs& args);

}  // namespace polydat::cli
