#include "cli/board_flow.h"

#include <fmt/core.h>

namespace polydat::cli {

std::optional<boards::Board> load_board(const std::string& name_or_path) {
  auto b = boards::find_board(name_or_path);
  if (!b) {
    fmt::print(stderr, "{}\n", b.error());
    return std::nullopt;
  }
  return *b;
}

std::optional<boards::BoardTop> board_top_for(const KernelDesign& k, const Stimulus& stimulus,
                                              const boards::Board& board) {
  auto fields = stimulus.at(0);
  if (!fields) return std::nullopt;
  boards::BoardTopOptions o;
  for (size_t i = 0; i < fields->size(); ++i) {
    if (k.config_fields[i]) o.configs.push_back((*fields)[i].bits());
    else if (!stimulus.iterated() || i != *stimulus.iterated()) o.inputs.push_back((*fields)[i].bits());
  }
  return boards::board_top(k.design, board, o);
}

hls::HlsOptions clocked_for(hls::HlsOptions options, double mhz) {
  if (!options.clock_ns) options.clock_ns = 1000.0 / mhz;
  return options;
}

}  // namespace polydat::cli
