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

// The board top for design `k` of `kernel`: the externs and the inputs after
// the first at their --set values or defaults. nullopt after printing why;
// throws UsageError on a malformed --set.
std::optional<boards::BoardTop> board_top_for(const KernelDesign& k, const frontend::Unit& kernel,
                                              const boards::Board& board, const std::vector<std::string>& sets);

// The HLS options with the board's oscillator as the clock, unless --clock-ns gave one.
hls::HlsOptions clocked_for(hls::HlsOptions options, double mhz);

}  // namespace polydat::cli
