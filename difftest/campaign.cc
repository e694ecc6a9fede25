#include "difftest/campaign.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "difftest/kernel_generator.h"
#include "difftest/reduce.h"
#include "difftest/report.h"
#include "text/plural.h"

namespace polydat::difftest {

namespace fs = std::filesystem;

namespace {
std::string kernel_name(uint64_t seed) { return fmt::format("gen{}.gk", seed); }

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s.size() > 300 ? s.substr(0, 300) + "..." : s;
}

// The finding's kernel reduced against the one engine that showed it, written with its replay command.
std::string write_finding(const CampaignOptions& o, uint64_t kernel_seed, const Options& run, const std::string& text,
                          const EngineResult& e) {
  Options one = run;
  one.engines = {e.engine};
  const Verdict kind = e.verdict;
  const std::string reduced = reduce(text, [&](const std::string& candidate) {
    const KernelResult r = run_kernel("finding.gk", candidate, one);
    const EngineResult* f = r.finding();
    return f && f->verdict == kind;
  }, o.reduce_tries);
  const KernelResult again = run_kernel("finding.gk", reduced, one);
  const std::string detail = again.finding() ? again.finding()->detail : e.detail;
  fs::create_directories(o.out_dir);
  const std::string file = fmt::format("finding-{}-{}.gk", kernel_seed, e.engine);
  const fs::path path = fs::path(o.out_dir) / file;
  std::ofstream out(path);
  out << fmt::format("// polydat fuzz: generated kernel {} (--seed {}), reduced; {} {}\n", kernel_seed, o.seed,
                     e.engine, verdict_name(kind));
  out << "// " << one_line(detail) << "\n";
  out << "// replay: " << difftest_command_line(file, e.engine, run) << "\n";
  out << reduced;
  return path.string();
}
}  // namespace

GeneratedKernel campaign_kernel(uint64_t seed, const std::vector<std::string>& engines) {
  bool rtl = false;
  for (const std::string& e : engines) {
    const flow::EngineInfo* info = flow::find_engine(e);
    rtl = rtl || (info && info->kind == flow::EngineKind::Rtl);
  }
  return generate_kernel(seed, rtl && seed % 2 == 0);  // every other kernel one the hardware flow takes
}

namespace {
// The models of the next chunk of kernels, built as one program per engine
// (a kernel whose build fails here is built alone when it runs).
void prepare_chunk(const CampaignOptions& o, uint64_t first, const std::function<void(const std::string&)>& progress) {
  bool needs_build = false;
  for (const std::string& e : o.run.engines) {
    const flow::EngineInfo* info = flow::find_engine(e);
    needs_build = needs_build || (info && info->prebuild);
  }
  if (!needs_build) return;
  std::vector<NamedKernel> chunk;
  for (uint64_t i = first; i < std::min<uint64_t>(o.count, first + o.models_per_build); ++i)
    chunk.push_back({kernel_name(o.seed + i), campaign_kernel(o.seed + i, o.run.engines).text});
  auto built = prepare_models(chunk, o.run);
  if (!built) progress(fmt::format("kernels {}..: the models could not be built together: {}", o.seed + first, built.error()));
}
}  // namespace

CampaignReport run_campaign(const CampaignOptions& o, const std::function<void(const std::string&)>& progress) {
  CampaignReport rep;
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& e : o.run.engines) rep.engines[e];
  for (uint64_t i = 0; i < o.count; ++i) {
    if (o.kernel_starts) o.kernel_starts(i, rep.findings.size());
    const uint64_t kernel_seed = o.seed + i;
    const GeneratedKernel g = campaign_kernel(kernel_seed, o.run.engines);
    if (i % std::max<size_t>(o.models_per_build, 1) == 0) prepare_chunk(o, i, progress);
    Options run = o.run;
    run.seed = kernel_seed;
    const KernelResult r = run_kernel(kernel_name(kernel_seed), g.text, run);
    ++rep.kernels;
    KernelOutcome& outcome = rep.outcomes.emplace_back(KernelOutcome{kernel_name(kernel_seed), kernel_seed, r, {}});
    if (!r.compiled()) {
      ++rep.frontend_refusals;
      fs::create_directories(o.out_dir);
      const fs::path path = fs::path(o.out_dir) / fmt::format("refused-{}.gk", kernel_seed);
      std::ofstream(path) << "// polydat fuzz: the frontend refuses generated kernel " << kernel_seed
                          << " (a generator bug)\n" << g.text;
      rep.findings.push_back(path.string());
      outcome.written["frontend"] = path.string();
      progress(fmt::format("kernel {}: the frontend refuses it: {}", kernel_seed, path.string()));
      continue;
    }
    rep.evaluations += r.evaluations;
    for (const EngineResult& e : r.engines) {
      EngineTally& t = rep.engines[e.engine];
      if (e.verdict == Verdict::Agrees) ++t.agreed;
      else if (e.verdict == Verdict::Refuses) ++t.refused;
      else {
        ++t.findings;
        const std::string file = write_finding(o, kernel_seed, run, g.text, e);
        rep.findings.push_back(file);
        outcome.written[e.engine] = file;
        progress(fmt::format("kernel {}: {} {}: {}", kernel_seed, e.engine, verdict_name(e.verdict), file));
      }
    }
    if ((i + 1) % 100 == 0) progress(fmt::format("{}, {}", text::counted(i + 1, "kernel"), text::counted(rep.findings.size(), "finding")));
  }
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

std::string render(const CampaignReport& r, const CampaignOptions& o) {
  std::string out = fmt::format("fuzz: {} (seeds {}..{}), {} each at most, {:.1f} s\n",
                                text::counted(r.kernels, "generated kernel"), o.seed, o.seed + r.kernels,
                                text::counted(o.run.inputs, "evaluation"), r.seconds);
  out += fmt::format("  evaluations compared with the oracle: {}\n", r.evaluations);
  if (r.frontend_refusals) out += fmt::format("  refused by the frontend (generator bugs): {}\n", r.frontend_refusals);
  for (const std::string& e : o.run.engines) {
    const EngineTally& t = r.engines.at(e);
    out += fmt::format("  {}: {} agree, {} refused, {}\n", e, t.agreed, t.refused, text::counted(t.findings, "finding"));
  }
  out += fmt::format("  findings: {}{}\n", r.findings.size(), r.findings.empty() ? "" : " (written to " + o.out_dir + ")");
  for (const std::string& f : r.findings) out += "    " + f + "\n";
  return out;
}

}  // namespace polydat::difftest
