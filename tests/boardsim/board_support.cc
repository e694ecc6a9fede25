#include "tests/boardsim/board_support.h"

#include "flow/pipeline.h"

namespace polydat::boardtest {

BoardKernel board_kernel(const std::string& key, const std::string& board, std::string& why,
                         std::optional<double> pll_mhz) {
  BoardKernel bk;
  auto b = boards::find_board(board);
  if (!b) {
    why = b.error();
    return bk;
  }
  bk.board = *b;
  simtest::Loaded loaded = simtest::load_kernel(key);
  if (!loaded.kernel) {
    why = loaded.why;
    return bk;
  }
  boards::BoardTopOptions to;
  if (pll_mhz) {
    auto pll = fpga::ice40_pll(bk.board.clock_mhz, *pll_mhz);
    if (!pll) {
      why = pll.error();
      return bk;
    }
    to.pll = *pll;
  }
  hls::HlsOptions o;
  o.clock_ns = 1000.0 / (to.pll ? to.pll->out_mhz : bk.board.clock_mhz);
  auto d = flow::schedule(flow::Optimized{loaded.kernel->ir, loaded.kernel->config_fields}, o);  // at the board's clock
  if (!d) {
    why = d.error().message;
    return bk;
  }
  flow::Emitted e = flow::emit(std::move(*d));
  loaded.kernel->design = std::move(e.design);
  loaded.kernel->module = std::move(e.module);
  for (const ir::Value& v : simtest::default_configs(*loaded.kernel)) to.configs.push_back(v.bits());
  bk.top = boards::board_top(loaded.kernel->design, loaded.kernel->module, bk.board, to);
  bk.kernel = std::move(loaded.kernel);
  return bk;
}

sim::Batch counter_batch(const simtest::SimKernel& k, size_t n) {
  sim::Batch batch;
  batch.configs = simtest::default_configs(k);
  const std::vector<hls::DfgPort>& inputs = k.design.dfg.inputs;
  for (size_t i = 0; i < n; ++i) {
    std::vector<ir::Value> row;
    for (size_t p = 0; p < inputs.size(); ++p) row.push_back(simtest::value_of(inputs[p].ty, p == 0 ? i : 0));
    batch.inputs.push_back(std::move(row));
  }
  return batch;
}

testing::ProcessResult run_polydat(const std::vector<std::string>& args, const std::filesystem::path& cwd) {
  const std::string exe = POLYDAT_EXE;
  std::vector<std::string> argv = {exe};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::run_process(exe, argv, cwd, std::chrono::seconds(600));
}

std::string corpus_kernel(const std::string& name) {
  return (std::filesystem::path(POLYDAT_SOURCE_ROOT) / "tests" / "corpus" / (name + ".gk")).string();
}

}  // namespace polydat::boardtest
