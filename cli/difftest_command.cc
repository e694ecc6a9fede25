// polydat difftest and polydat fuzz: one kernel, or a campaign of generated
// ones, on every engine that accepts it, against the interpreter.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>
#include <filesystem>

#include "cli/commands.h"
#include "cli/progress.h"
#include "difftest/campaign.h"
#include "difftest/difftest.h"
#include "difftest/report.h"
#include "text/plural.h"

namespace polydat::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The reports, when asked for; a report that cannot be written turns the status into an error.
int with_reports(const difftest::Report& r, const std::string& junit, const std::string& json, int status) {
  if (auto e = difftest::write_reports(r, junit, json)) {
    fmt::print(stderr, "error: {}\n", *e);
    return kUserError;
  }
  return status;
}

}  // namespace

int difftest_command(const DifftestArgs& args) {
  // Checked first: a run can be long, and CI wants its report or an error at once.
  if (auto e = difftest::check_writable({args.junit, args.json})) {
    fmt::print(stderr, "error: {}\n", *e);
    return kUserError;
  }
  difftest::Report report{"polydat difftest", {}, 0};
  const auto t0 = std::chrono::steady_clock::now();
  // A file of the other kind was refused by main() before this runs (exit 2, no report).
  difftest::Options o;
  o.engines = args.engines;
  o.inputs = args.inputs;
  o.seed = args.seed;
  o.stall = args.stall;
  o.lib_paths = args.lib_paths;
  ProgressLine line("difftest " + args.file, "engines", progress_wanted(args.quiet));
  o.engine_starts = [&line](size_t done, size_t total, const std::string& engine) {
    line.update(done, total, engine + " running");
  };
  const difftest::KernelResult r = difftest::run_file(args.file, o);
  line.clear();
  const std::string all = fmt::format("{}", fmt::join(args.engines, ","));
  const auto replay = [&](const std::string& engine) {  // one engine replays its verdict alone
    return std::vector<std::string>{difftest::difftest_command_line(args.file, engine == "frontend" ? all : engine, o)};
  };
  difftest::add_cases(report, args.file, r, replay);
  report.seconds = seconds_since(t0);
  if (!r.compiled()) {
    fmt::print(stderr, "{}", r.frontend_error);
    return with_reports(report, args.junit, args.json, kUserError);
  }
  fmt::print("difftest {}: {} inputs, seed {}, stall {}\n{}", args.file, args.inputs, args.seed, args.stall,
             difftest::render(r));
  const bool ok = r.finding() == nullptr;
  fmt::print("  result: {}\n", ok ? "every engine that accepts the kernel agrees" : "FINDING");
  return with_reports(report, args.junit, args.json, ok ? kOk : kUserError);
}

namespace {
// The campaign's kernels as test cases: a finding replays from the reduced file written and from the campaign itself.
difftest::Report campaign_cases(const difftest::CampaignReport& rep, const difftest::CampaignOptions& o) {
  difftest::Report report{"polydat fuzz", {}, rep.seconds};
  const std::string engines = fmt::format("{}", fmt::join(o.run.engines, ","));
  for (const difftest::KernelOutcome& k : rep.outcomes) {
    difftest::Options run = o.run;
    run.seed = k.seed;
    difftest::add_cases(report, k.name, k.result, [&](const std::string& engine) {
      std::vector<std::string> lines;
      if (auto w = k.written.find(engine); w != k.written.end())
        lines.push_back(difftest::difftest_command_line(w->second, engine == "frontend" ? engines : engine, run));
      lines.push_back(fmt::format("polydat fuzz --seed {} --count 1 --engines {} --inputs {} --stall {}", k.seed, engines,
                                  o.run.inputs, o.run.stall));
      return lines;
    });
  }
  return report;
}
}  // namespace

int fuzz_command(const FuzzArgs& args) {
  if (args.print) {
    if (!args.junit.empty() || !args.json.empty()) {
      fmt::print(stderr, "error: --print runs nothing, so --junit and --json have nothing to report [usage]\n");
      return kUsageError;
    }
    for (uint64_t i = 0; i < args.count; ++i)
      fmt::print("{}\n", difftest::campaign_kernel(args.seed + i, args.engines).text);
    return kOk;
  }
  if (auto e = difftest::check_writable({args.junit, args.json})) {
    fmt::print(stderr, "error: {}\n", *e);
    return kUserError;
  }
  difftest::CampaignOptions o;
  o.run.engines = args.engines;
  o.run.inputs = args.inputs;
  o.run.stall = args.stall;
  o.count = args.count;
  o.seed = args.seed;
  o.out_dir = args.out_dir;
  ProgressLine line("fuzz", "kernels", progress_wanted(args.quiet));
  o.kernel_starts = [&](uint64_t done, size_t findings) { line.update(done, args.count, text::counted(findings, "finding")); };
  const difftest::CampaignReport r = difftest::run_campaign(o, [&](const std::string& event) {
    line.clear();  // the event's own line, then the progress line again at the next kernel
    fmt::print(stderr, "fuzz: {}\n", event);
  });
  line.clear();
  fmt::print("{}", difftest::render(r, o));
  return with_reports(campaign_cases(r, o), args.junit, args.json, r.findings.empty() ? kOk : kUserError);
}

}  // namespace polydat::cli
