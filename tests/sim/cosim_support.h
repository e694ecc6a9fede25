// Shared by the co-simulation suites: a kernel through the flow of `polydat
// hls` keeping the optimised IR (the oracle's input), batches of inputs drawn
// to exercise the datapath, and one co-simulation run with its report.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hls/design.h"
#include "rtl/emit_sv.h"
#include "ir/graph.h"
#include "sim/cosim.h"
#include "sim/engine.h"
#include "flow/engines.h"
#include "tests/rtl/rtl_support.h"

namespace polydat::simtest {

// One entry parameter as the frontend declares it.
struct Param {
  std::string name;
  ir::Ty ty;
  bool is_extern = false;
  std::optional<ir::Value> default_value;  // externs: the declared default
};

struct SimKernel {
  rtltest::Kernel source;
  std::vector<Param> params;        // in the input struct's order
  std::vector<bool> config_fields;  // params[i].is_extern
  ir::CategoryIr ir;                // optimised: what the oracle interprets
  hls::Design design;
  rtl::Module module;  // its one emission

  bool is_fsm() const { return design.kind == hls::DesignKind::Fsm; }
};

// compile_file, then flow/'s optimise, schedule and emit with the externs as config
// fields. `kernel` is null when the kernel does not compile or HLS refuses
// it; `why` says which.
struct Loaded {
  std::unique_ptr<SimKernel> kernel;  // a stable address: engines keep references into it
  std::string why;
};
Loaded load_kernel(const rtltest::Kernel& k, const hls::HlsOptions& options = {});
Loaded load_kernel(const std::string& key, const hls::HlsOptions& options = {});  // by "corpus/NAME" or "rtl/NAME"

// Every kernel of the corpus and tests/rtl/kernels, in rtltest::all_kernels() order.
std::vector<Loaded> load_all_kernels();

// The designs of the loaded kernels (those the flow accepted), to build their models as one set.
std::vector<sim::ModelRequest> model_requests(const std::vector<Loaded>& loaded);

// Every kernel loaded, and the accepted ones' models built as one program by the
// registry's prebuild of `engine` (verilator or systemc) into `cache`; throws when that build fails.
std::vector<Loaded> load_all_with_models(std::string_view engine, const std::string& cache);

// The engine `name` from flow's registry for this kernel: its IR, config fields and design.
ir::Expected<std::unique_ptr<sim::Engine>, std::string> make_engine(std::string_view name, const SimKernel& k,
                                                                   const flow::EngineOptions& options = {});

// Each extern's declared default, of the port's type, in order.
std::vector<ir::Value> default_configs(const SimKernel& k);

// How long an FSM evaluation may loop: short as a rule, so that a batch stays
// fast; now and then long, so that loops with long minimum trips (corpus/
// long_loop: 100,000 per unit of input) are exercised beyond zero trips.
struct TripLimits {
  uint64_t usual = 200;
  uint64_t occasional = 100'000;
  size_t occasional_every = 1000;  // evaluations
};

// `n` evaluations' streamed inputs (each a mix of the evaluation index,
// full-width random values and edge values, from a seeded generator) with
// `configs` held. For an FSM, a tuple whose loop runs longer than its limit is
// masked to 8, then 4, 1 and 0 bits, so that every evaluation stays short.
sim::Batch draw_batch(const SimKernel& k, std::vector<ir::Value> configs, size_t n, uint64_t seed,
                      TripLimits limits = {});

// A value of `ty` from a bit pattern (bools: non-zero is true).
ir::Value value_of(const ir::Ty& ty, uint64_t pattern);

// The batch through the interpreter (the oracle).
ir::Expected<sim::EngineRun, std::string> run_oracle(const SimKernel& k, const sim::Batch& batch);

// One batch through an RTL engine, compared with the oracle's run.
struct CosimRun {
  std::string error;  // the engine's, when it could not run (then nothing else is set)
  sim::EngineRun run;
  sim::CosimReport report;
  std::string post_reset;
  bool built_now = false;
};
CosimRun cosimulate(sim::Engine& engine, const SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                    bool free_flow);
// The same through the registry's `engine`, made with `options` (an error the registry gives is the run's error).
CosimRun cosimulate(const SimKernel& k, const sim::Batch& batch, const sim::EngineRun& expected,
                    const flow::EngineOptions& options, std::string_view engine = "verilator");

// The stall and seed, and the per-build cache for models.
flow::EngineOptions test_options(double stall, uint64_t seed);

// `text` with the first occurrence of `from` on a line containing `on_line`
// replaced by `to`; nullopt when there is none.
std::optional<std::string> replace_first(const std::string& text, const std::string& on_line, const std::string& from,
                                         const std::string& to);

}  // namespace polydat::simtest
