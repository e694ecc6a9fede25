// polydat cosim --board: the whole board top in Verilator, its UART decoded
// bit by bit, every line checked against the interpreter.
#include <fmt/core.h>

#include <chrono>

#include "cli/board_flow.h"
#include "cli/commands.h"
#include "hls/report.h"
#include "sim/verilator/board_sim.h"
#include "sim/verilator/verilator_engine.h"
#include "text/plural.h"

namespace polydat::cli {

int board_cosim_command(const CosimArgs& args) {
  if (args.sim != "verilator" || args.stall != 0 || !args.trace.empty()) {
    fmt::print(stderr, "error: --board simulates the board top in Verilator; --sim, --stall and --trace do not apply\n");
    return kUsageError;
  }
  auto range = cycles_option(args.cycles_given ? args.cycles : "1000");
  if (!range) return kUsageError;
  if (range->begin != 0) {
    fmt::print(stderr, "error: the board's counter starts at 0: --cycles takes N with --board\n");
    return kUsageError;
  }
  auto board = load_board(args.board);
  if (!board) return board_failure(args.board);
  std::optional<fpga::PllConfig> pll;
  if (!board_clock(*board, args.freq_mhz, pll)) return kUserError;
  const double mhz = board_mhz(*board, pll);
  const fpga::Device* device = fpga::find_device(board->device);
  auto options = hls_options(args.hls);
  if (!options) return kUsageError;
  hls::HlsOptions hls = clocked_for(*options, mhz);
  if (device) hls = for_device(hls, *device);
  frontend::CompileResult r;
  auto k = design_for(args.hls, hls, r);
  if (!k) return k.error();
  auto stimulus = stimulus_for(r.kernel(), args.sets);
  if (!stimulus) return stimulus.error();
  auto top = board_top_for(*k, *stimulus, *board, pll);
  auto batch_or = batch_of(*stimulus, *k, *range);
  if (!top || !batch_or) return kUserError;
  const sim::Batch& batch = *batch_or;
  auto expected = oracle_run(*k, batch);
  if (!expected) return kUserError;
  const auto t0 = std::chrono::steady_clock::now();
  auto run = sim::simulate_board(*top, *board, batch.inputs.size(), sim::default_cache_dir());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!run) {
    fmt::print(stderr, "error: {}\n", run.error());
    return kUserError;
  }
  const sim::BoardCheck check = sim::check_board_lines(k->design, run->lines, *expected);
  const size_t wanted = batch.inputs.size();
  fmt::print("cosim {} on board {} ({}, {} {}, {} MHz): the board top in Verilator ({})\n", args.hls.file,
             board->name, board->title, board->device, board->package, board->clock_mhz,
             run->built_now ? "model built now" : "model from the cache");
  if (pll)
    fmt::print("  PLL: {:.3f} MHz from {} MHz (DIVR {}, DIVF {}, DIVQ {}); simulated at the PLL's clock, "
               "a stand-in passing it through\n",
               pll->out_mhz, pll->in_mhz, pll->divr, pll->divf, pll->divq);
  fmt::print("  kernel: {}\n", hls::summary_line(k->design));
  fmt::print("  UART: {} baud 8N1, {} a bit, {} a result\n", board->baud, text::counted(top->divisor, "cycle"),
             text::counted(top->line_chars, "character"));
  fmt::print("  decoded: {} of {}, {}; {} against the interpreter\n", run->lines.size(), text::counted(wanted, "line"),
             text::counted(run->framing_errors, "framing error"), text::counted(check.mismatches, "mismatch", "mismatches"));
  fmt::print("  simulated: {} ({:.3f} s of board time) in {:.1f} s; heartbeat changes: {}\n", text::counted(run->cycles, "cycle"),
             run->cycles / (mhz * 1e6), seconds, run->led_toggles);
  if (!check.first.empty()) fmt::print("  first mismatch: {}\n", check.first);
  const bool ok = check.ok(wanted) && run->framing_errors == 0;
  fmt::print("  result: {}\n", ok ? "PASS" : "FAIL");
  return ok ? kOk : kUserError;
}

}  // namespace polydat::cli
