// A fuzzing campaign: generated kernels through run_kernel, each finding
// reduced and written as a kernel with the command that replays it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "difftest/difftest.h"
#include "difftest/kernel_generator.h"

namespace polydat::difftest {

struct CampaignOptions {
  Options run;          // the engines, inputs per kernel, stalls; the input seed is set per kernel
  uint64_t count = 100;
  uint64_t seed = 1;    // kernel i is generate_kernel(seed + i)
  std::string out_dir;  // where findings are written (created when there is one)
  size_t reduce_tries = 300;  // kernels tried while reducing one finding
  size_t models_per_build = 48;  // Verilator and SystemC: kernels whose models are built as one program
  // Called before each kernel with the kernels done and the findings so far (the progress line).
  std::function<void(uint64_t done, size_t findings)> kernel_starts;
};

struct EngineTally {
  size_t agreed = 0, refused = 0, findings = 0;
};

// A kernel of the campaign as it ran, for the reports (difftest/report.h).
struct KernelOutcome {
  std::string name;  // gen<seed>.gk
  uint64_t seed = 0;
  KernelResult result;
  std::map<std::string, std::string> written;  // by engine ("frontend" for a refusal): the file written for it
};

struct CampaignReport {
  size_t kernels = 0, evaluations = 0;
  size_t frontend_refusals = 0;               // generated kernels the frontend refused: generator bugs
  std::map<std::string, EngineTally> engines;  // by engine name
  std::vector<std::string> findings;          // the files written
  std::vector<KernelOutcome> outcomes;         // every kernel, in seed order
  double seconds = 0;
};

// Kernel `seed` of a campaign on `engines`: with an RTL engine, an even seed
// gives a kernel the hardware flow takes.
GeneratedKernel campaign_kernel(uint64_t seed, const std::vector<std::string>& engines);

// `progress` receives a line per finding and one every 100 kernels.
CampaignReport run_campaign(const CampaignOptions& options, const std::function<void(const std::string&)>& progress);

std::string render(const CampaignReport& r, const CampaignOptions& options);

}  // namespace polydat::difftest
