// Differential testing as a product: one kernel on the engines, the reducer,
// and a campaign's tallies and findings. Each is shown to catch a planted
// fault: a subtraction where the SystemVerilog had an addition.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "difftest/campaign.h"
#include "difftest/difftest.h"
#include "difftest/kernel_generator.h"
#include "difftest/reduce.h"
#include "frontend/compile.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::difftest;
namespace fs = std::filesystem;

namespace {
const char* kKernel =
    "input (cycle: u64, k: u8)\n"
    "a := cycle * 3\n"
    "b := (k as u64) + cycle\n"
    "c := a ^ 0xFF\n";

// The planted fault: every `+` of the emitted SystemVerilog's logic becomes `-`.
std::string plus_to_minus(const std::string& sv) { return std::regex_replace(sv, std::regex(" \\+ "), " - "); }

const EngineResult& engine(const KernelResult& r, const std::string& name) {
  for (const EngineResult& e : r.engines)
    if (e.engine == name) return e;
  FAIL("no result for " << name);
  return r.engines.front();
}
}  // namespace

TEST_CASE("difftest: a correct kernel agrees on every engine; the planted fault is a disagreement") {
  Options o;
  o.engines = {"interp", "llvm", "verilator", "iverilog"};
  o.inputs = 50;
  const KernelResult ok = run_kernel("k.gk", kKernel, o);
  REQUIRE(ok.compiled());
  CHECK(ok.evaluations == 50);
  for (const EngineResult& e : ok.engines) {
    CAPTURE(e.engine);
    CHECK(e.verdict == Verdict::Agrees);
    CHECK(e.compared == 50);
  }
  CHECK(ok.finding() == nullptr);

  o.engines = {"verilator", "iverilog"};
  o.sv_fault = plus_to_minus;
  const KernelResult bad = run_kernel("k.gk", kKernel, o);
  for (const char* name : {"verilator", "iverilog"}) {
    CAPTURE(name);
    const EngineResult& v = engine(bad, name);
    CHECK(v.verdict == Verdict::Disagrees);
    CHECK(v.detail.find("the oracle gives") != std::string::npos);
  }
  REQUIRE(bad.finding() != nullptr);
}

TEST_CASE("difftest: what an engine refuses is not a finding; a kernel that does not compile runs nothing") {
  Options o;
  o.engines = {"interp", "verilator"};
  o.inputs = 10;
  const KernelResult f = run_kernel("f.gk", "input x: u64\ny := (x as f64) * 0.5\n", o);
  CHECK(engine(f, "interp").verdict == Verdict::Agrees);
  CHECK(engine(f, "verilator").verdict == Verdict::Refuses);
  CHECK(engine(f, "verilator").detail.find("no-hardware-width") != std::string::npos);
  CHECK(f.finding() == nullptr);
  const KernelResult broken = run_kernel("b.gk", "y := nope(1)\n", o);
  CHECK_FALSE(broken.compiled());
  CHECK(broken.engines.empty());
  CHECK(broken.frontend_error.find("unknown function 'nope'") != std::string::npos);
}

TEST_CASE("difftest: inputs the oracle stops on (the iteration limit) are dropped for every engine") {
  Options o;
  o.engines = {"interp", "llvm"};
  o.inputs = 40;
  // x is u64 and edge-heavy: its large values run past the limit, small ones finish.
  const KernelResult r = run_kernel("l.gk", "input x: u64\nn := loop (i = 0) while i < x { i = i + 1 } yield i\n", o);
  CHECK(r.dropped > 0);
  CHECK(r.evaluations + r.dropped == 40);
  CHECK(engine(r, "llvm").verdict == Verdict::Agrees);
  CHECK(engine(r, "llvm").compared == r.evaluations);
}

TEST_CASE("reduce: statements keep multi-line loops and modules whole; the reducer keeps only what the finding needs") {
  const std::string text =
      "input x: u64\n"
      "a := x + 1\n"
      "b := loop (i = 0) while i < 3 {\n  i = i + 1\n} yield i\n"
      "c := a * zz\n"
      "d := b + 2\n";
  const std::vector<std::string> parts = statements(text);
  REQUIRE(parts.size() == 5);
  CHECK(parts[2] == "b := loop (i = 0) while i < 3 {\n  i = i + 1\n} yield i\n");
  // The "finding": the text mentions zz and its `a` is still defined (a stand-in for "compiles and fails").
  size_t calls = 0;
  const std::string reduced = reduce(text, [&](const std::string& t) {
    ++calls;
    return t.find("zz") != std::string::npos && t.find("a := ") != std::string::npos;
  });
  CHECK(reduced == "a := x + 1\nc := a * zz\n");
  CHECK(calls < 40);
}

TEST_CASE("fuzz: a campaign on the software engines agrees on every generated kernel") {
  CampaignOptions o;
  o.run.engines = {"interp", "llvm"};
  o.run.inputs = 32;
  o.count = 40;
  o.seed = 500;
  polydat::testing::TempDir dir("polydat-fuzz");
  o.out_dir = (dir.path() / "findings").string();
  std::vector<std::string> lines;
  const CampaignReport r = run_campaign(o, [&](const std::string& l) { lines.push_back(l); });
  CHECK(r.kernels == 40);
  CHECK(r.frontend_refusals == 0);
  CHECK(r.findings.empty());
  CHECK(r.engines.at("llvm").agreed == 40);
  CHECK(r.evaluations > 40 * 16);
  CHECK_FALSE(fs::exists(o.out_dir));  // nothing to write
}

TEST_CASE("fuzz: with a planted fault, the finding is reduced and written with its replay command") {
  CampaignOptions o;
  o.run.engines = {"verilator"};
  o.run.inputs = 16;
  o.run.stall = 0;
  o.run.sv_fault = plus_to_minus;
  o.count = 1;
  o.seed = 12;  // an even seed: a kernel for hardware (an FSM with additions)
  o.reduce_tries = 12;  // each try builds a model
  polydat::testing::TempDir dir("polydat-fuzz");
  o.out_dir = (dir.path() / "findings").string();
  const GeneratedKernel g = generate_kernel(12, true);
  REQUIRE(g.text.find(" + ") != std::string::npos);  // the fault has something to change
  const CampaignReport r = run_campaign(o, [](const std::string&) {});
  REQUIRE(r.findings.size() == 1);
  CHECK(r.engines.at("verilator").findings == 1);
  const std::string written = polydat::testing::read_file(r.findings[0]);
  INFO(written);
  CHECK(written.rfind("// polydat fuzz: generated kernel 12 (--seed 12), reduced; verilator DISAGREES\n", 0) == 0);
  CHECK(written.find("// replay: polydat difftest finding-12-verilator.gk --engines verilator --inputs 16 --seed 12") !=
        std::string::npos);
  CHECK(statements(written).size() <= statements(g.text).size() + 3);  // the three comment lines at most added
  CHECK(frontend::compile_source("w.gk", written).ok());
}

// Every finding of a campaign is kept as a kernel (tests/rtl/kernels/fuzz_*.gk,
// whose first line names the generated kernel) and replays clean: the same
// inputs and stalls as the campaign's (the seed is the kernel's).
TEST_CASE("fuzz: every finding kept as a kernel replays clean on the engines that found it") {
  size_t replayed = 0;
  for (const auto& e : fs::directory_iterator(POLYDAT_RTL_KERNELS)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("fuzz_", 0) != 0) continue;
    CAPTURE(name);
    const std::string text = polydat::testing::read_file(e.path());
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("generated kernel ([0-9]+)")));
    Options o;
    o.engines = {"interp", "llvm", "iverilog"};
    o.seed = std::stoull(m[1].str());
    const KernelResult r = run_kernel(name, text, o);
    REQUIRE(r.compiled());
    for (const EngineResult& x : r.engines) {
      CAPTURE(x.engine);
      CHECK_MESSAGE(x.verdict == Verdict::Agrees, x.detail);
    }
    ++replayed;
  }
  CHECK(replayed >= 4);
}
