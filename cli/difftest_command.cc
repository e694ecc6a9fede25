// polydat difftest and polydat fuzz: one kernel, or a campaign of generated
// ones, on every engine that accepts it, against the interpreter.
#include <fmt/core.h>

#include "cli/commands.h"
#include "difftest/campaign.h"
#include "difftest/difftest.h"

namespace polydat::cli {

int difftest_command(const DifftestArgs& args) {
  if (auto refused = wrong_kind(args.file, FileKind::Kernel)) {
    fmt::print(stderr, "{}", *refused);
    return kUserError;
  }
  difftest::Options o;
  o.engines = args.engines;
  o.inputs = args.inputs;
  o.seed = args.seed;
  o.stall = args.stall;
  o.lib_paths = args.lib_paths;
  const difftest::KernelResult r = difftest::run_file(args.file, o);
  if (!r.compiled()) {
    fmt::print(stderr, "{}", r.frontend_error);
    return kUserError;
  }
  fmt::print("difftest {}: {} inputs, seed {}, stall {}\n{}", args.file, args.inputs, args.seed, args.stall,
             difftest::render(r));
  const bool ok = r.finding() == nullptr;
  fmt::print("  result: {}\n", ok ? "every engine that accepts the kernel agrees" : "FINDING");
  return ok ? kOk : kUserError;
}

int fuzz_command(const FuzzArgs& args) {
  if (args.print) {
    for (uint64_t i = 0; i < args.count; ++i)
      fmt::print("{}\n", difftest::campaign_kernel(args.seed + i, args.engines).text);
    return kOk;
  }
  difftest::CampaignOptions o;
  o.run.engines = args.engines;
  o.run.inputs = args.inputs;
  o.run.stall = args.stall;
  o.count = args.count;
  o.seed = args.seed;
  o.out_dir = args.out_dir;
  const difftest::CampaignReport r =
      difftest::run_campaign(o, [](const std::string& line) { fmt::print(stderr, "fuzz: {}\n", line); });
  fmt::print("{}", difftest::render(r, o));
  return r.findings.empty() ? kOk : kUserError;
}

}  // namespace polydat::cli
