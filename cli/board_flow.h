// What `synth --board` and `cosim --board` share: the board file, and the
// board top around a kernel's design with its externs and held inputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "boards/board.h"
#include "boards/board_top.h"
#include "cli/flow.h"
#include "cli/stimulus.h"

namespace polydat::cli {

// The board named on the command line (bundled or a .yaml path); nullopt after printing why.
std::optional<boards::Board> load_board(const std::string& name_or_path);

// The board top for design `k`: the externs and the inputs after the first
// at the stimulus's values (--set or defaults). nullopt after printing why.
std::optional<boards::BoardTop> board_top_for(const KernelDesign& k, const Stimulus& stimulus,
                                              const boards::Board& board);

// The HLS options with the board's oscillator as the clock, unless --clock-ns gave one.
hls::HlsOptions clocked_for(hls::HlsOptions options, double mhz);

}  // namespace polydat::cli
