// One kernel on every engine that accepts it, on the same inputs, compared
// with the interpreter on the unoptimised IR (the oracle): `polydat difftest`
// for a user's kernel, and each kernel of a `polydat fuzz` campaign.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flow/engines.h"
#include "ir/expected.h"

namespace polydat::frontend {
struct CompileResult;
}

namespace polydat::difftest {

struct Options {
  std::vector<std::string> engines = flow::engine_names();  // in the registry's order (flow/engines.h)
  size_t inputs = 64;   // evaluations per kernel (those the oracle stops on are dropped)
  uint64_t seed = 1;    // the inputs and the RTL engines' stalls
  double stall = 0.25;  // RTL engines: the chance that in_valid and out_ready are each low
  std::vector<std::string> lib_paths;
  // Rewrites the emitted SystemVerilog before the RTL engines simulate it:
  // how tests plant a fault the comparison must catch.
  std::function<std::string(const std::string&)> sv_fault;
  // Called as each engine starts, with how many have finished (the progress line).
  std::function<void(size_t done, size_t total, const std::string& engine)> engine_starts;
};

enum class Verdict {
  Agrees,     // every evaluation equal to the oracle's
  Refuses,    // the engine does not take this kernel (hardware: two loops, a float, ...)
  Disagrees,  // an evaluation differs, or a hardware run breaks the interface contract
  Fails,      // the engine broke down (a compiler error, a crash, a hang)
};
const char* verdict_name(Verdict v);

struct EngineResult {
  std::string engine;
  Verdict verdict = Verdict::Agrees;
  std::string detail;  // the refusal, the failure or the first disagreement, in words
  size_t compared = 0;
  double seconds = 0;  // this engine's build and run (the reports' time)
};

struct KernelResult {
  std::string frontend_error;  // the kernel does not compile: nothing ran
  size_t evaluations = 0;      // inputs the oracle finished
  size_t dropped = 0;          // inputs the oracle stopped on (the iteration limit)
  std::vector<EngineResult> engines;

  bool compiled() const { return frontend_error.empty(); }
  // An engine that disagrees or fails: a finding.
  const EngineResult* finding() const;
};

// Runs the kernel `text` (its file name `name`; modules from -L and the library) on each engine of `options`.
KernelResult run_kernel(const std::string& name, const std::string& text, const Options& options);
// The same for a kernel file, whose own folder holds modules it calls (as for every other command).
KernelResult run_file(const std::string& path, const Options& options);
// The same for a kernel already compiled.
KernelResult run_compiled(const frontend::CompileResult& front, const Options& options);

// Builds the Verilator and SystemC models (those of options.engines) of every
// kernel here the hardware flow accepts, one program per engine for them all,
// so that run_kernel on these kernels afterwards runs those programs instead
// of building a model per kernel. Campaigns call it per chunk of kernels.
struct NamedKernel {
  std::string name, text;
};
ir::Expected<bool, std::string> prepare_models(const std::vector<NamedKernel>& kernels, const Options& options);

// One line per engine: "  llvm: agrees (64 evaluations)".
std::string render(const KernelResult& r);

}  // namespace polydat::difftest
