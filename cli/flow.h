// The hardware flow the `hls`, `emit-sv` and `cosim` commands share: compile,
// optimise, synthesize, with diagnostics and refusals printed on stderr.
#pragma once

#include <optional>
#include <vector>

#include "cli/commands.h"
#include "cli/stimulus.h"
#include "cli/values.h"
#include "flow/pipeline.h"
#include "frontend/compile.h"
#include "hls/design.h"
#include "ir/graph.h"
#include "sim/engine.h"

namespace polydat::cli {

// The optimised IR the design was made from (the oracle runs it), the design and its module.
using KernelDesign = flow::Emitted;

// compile_file with the -L folders, its diagnostics printed on stderr; false when it failed.
// `outputs`, when given, replaces the kernel's outputs (only their cone is compiled).
bool compile_kernel(const std::string& file, const std::vector<std::string>& lib_paths, frontend::CompileResult& r,
                    const std::vector<std::string>& outputs = {});

// A name --outputs gives that the kernel lacks: a command-line mistake, said without a place in the file.
bool outputs_option_error(const frontend::Diagnostic& d);

// The exit status of a failed compile_kernel: kUsageError when --outputs was wrong, else kUserError.
int compile_failure_status(const frontend::CompileResult& r);

// flow::optimize; nullopt after printing the failure (the passes refusing their own output is a compiler bug).
std::optional<flow::Optimized> optimized(const frontend::CompileResult& r);

// parse_cycles; nullopt after printing what --cycles takes.
std::optional<CycleRange> cycles_option(const std::string& text);

// The batch --cycles and --set describe for design k: streamed inputs per evaluation, externs once.
std::optional<sim::Batch> batch_of(const Stimulus& stimulus, const KernelDesign& k, CycleRange range);

// The interpreter on the batch, the oracle a simulation is checked against; nullopt after printing why it stopped.
std::optional<sim::EngineRun> oracle_run(const KernelDesign& k, const sim::Batch& batch);

// The HLS options of the command line; nullopt (after printing why) on a bad value.
std::optional<hls::HlsOptions> hls_options(const HlsArgs& args);

// The exit status when the kernel does not compile or cannot become hardware (kUserError), or when
// --strict and the model predicts the clock is missed (kDoesNotFit); what is wrong is printed.
ir::Expected<KernelDesign, int> design_for(const HlsArgs& args, const hls::HlsOptions& options,
                                       frontend::CompileResult& r);

}  // namespace polydat::cli
