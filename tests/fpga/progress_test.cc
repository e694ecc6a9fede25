// Progress while a tool runs: the step read from its growing log, on a
// clock. Stand-in tools (tests/fpga/fake_tools.h) write the real tools' kind
// of lines with pauses between, so these tests take about a second.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fpga/device.h"
#include "fpga/ice40_flow.h"
#include "tests/fpga/designs.h"
#include "tests/fpga/fake_tools.h"
#include "tests/support/process.h"

namespace fs = std::filesystem;
using namespace polydat::fpga;
using polydat::testing::read_file;
using polydat::testing::TempDir;

namespace {

class PathFirst {
 public:
  explicit PathFirst(const fs::path& folder) {
    if (const char* old = std::getenv("PATH")) old_ = old;
    setenv("PATH", folder.c_str(), 1);
  }
  ~PathFirst() {
    if (old_) setenv("PATH", old_->c_str(), 1);
  }
  PathFirst(const PathFirst&) = delete;
  PathFirst& operator=(const PathFirst&) = delete;

 private:
  std::optional<std::string> old_;
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The checker the tests rely on: each of `steps`, in this order, appears in
// some progress line of `tool`, and the seconds those lines give never go down.
bool steps_in_order(const std::vector<std::string>& lines, const std::string& tool,
                    const std::vector<std::string>& steps) {
  size_t want = 0;
  double last_s = -1;
  for (const std::string& l : lines) {
    if (!l.starts_with(tool + ": ")) continue;
    const double s = std::atof(l.c_str() + tool.size() + 2);
    if (s < last_s) return false;
    last_s = s;
    if (want < steps.size() && contains(l, steps[want])) ++want;
  }
  return want == steps.size();
}

Ice40Request counter_request(const fs::path& dir) {
  Ice40Request r;
  r.top = "counter";
  r.sv = test_designs::kCounter;
  r.device = find_device("up5k");
  r.dir = dir;
  r.progress_every = std::chrono::milliseconds(100);
  return r;
}

}  // namespace

TEST_CASE("log steps: Yosys pass headers, nextpnr phases with their progress, and chunks cut inside lines") {
  LogStep y("yosys");
  CHECK(y.step().empty());
  y.feed("\n-- Running command `script synth.ys' --\n\n1. Executing Verilog-2005 frontend: x.sv\nParsing");
  CHECK(y.step() == "1. Executing Verilog-2005 frontend: x.sv");
  y.feed(" SystemVerilog input from `x.sv' to AST representation.\n2.40.1.1. Exec");
  CHECK(y.step() == "1. Executing Verilog-2005 frontend: x.sv");  // the header is not complete yet
  y.feed("uting ABC.\n   3 cells in module\n2.5x. Not a header\n");
  CHECK(y.step() == "2.40.1.1. Executing ABC.");

  LogStep n("nextpnr-ice40");
  n.feed("Info: constrained 'clk' to bel 'X12/Y31/io1'\n");
  CHECK(n.step().empty());
  n.feed("Info: Packing constants..\nInfo:       86 LCs used as LUT4 only\nInfo: Device utilisation:\n"
         "Info: \t         ICESTORM_LC:   346/ 5280     6%\n");
  CHECK(n.step() == "Device utilisation:");
  n.feed("Info: Running simulated annealing placer for refinement.\n"
         "Info:   at iteration #5: temp = 0.000000, timing cost = 202, wirelen = 578\n");
  CHECK(n.step() == "Running simulated annealing placer for refinement. at iteration #5: temp = 0.000000, timing cost = 202, "
                    "wirelen = 578");
  n.feed("Info: [ 57086,  58225) |+\nInfo:  legend: * represents 3 endpoint(s)\nInfo: Checksum: 0x20715050\n");
  CHECK(n.step().starts_with("Running simulated annealing"));
  n.feed("Info: Routing..\nInfo:            |   (re-)routed arcs  |   delta    | remaining|       time spent     |\n"
         "Info:    IterCnt |  w/ripup   wo/ripup |  w/r  wo/r |      arcs| batch(sec) total(sec)|\n"
         "Info:       1000 |      106        763 |  106   763 |       218|       0.27       0.27|\n");
  CHECK(n.step() == "Routing.. router iteration 1000, 218 arcs left");

  LogStep other("icepack");
  other.feed("first\n\n  second  \n");
  CHECK(other.step() == "second");
}

TEST_CASE("run_tool: a tool that writes its log slowly is reported on a clock, with the step it has reached") {
  TempDir tmp("polydat-progress");
  test_tools::write_script(tmp.path() / "slowtool",
                           "echo 'first step'\nsleep 0.3\necho 'second step'\nsleep 0.3\necho 'third step'\nsleep 0.3\n");
  std::vector<std::string> lines;
  ToolWatch watch{std::chrono::milliseconds(100), [&](std::string_view l) { lines.emplace_back(l); }};
  const std::string tool = (tmp.path() / "slowtool").string();
  const auto t0 = std::chrono::steady_clock::now();
  auto status = run_tool({tool}, tmp.path(), tmp.path() / "slow.log", 30, &watch);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  REQUIRE_MESSAGE(status.ok(), status.error());
  CHECK(*status == 0);
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  INFO(all);
  // At least 0.9 s at one line per 0.1 s: at least 5 lines, and never more than the clock allows.
  CHECK(lines.size() >= 5);
  CHECK(lines.size() <= static_cast<size_t>(elapsed / 0.1) + 1);
  CHECK(steps_in_order(lines, tool, {"first step", "second step", "third step"}));

  // Without a watch, nothing is reported and the tool runs the same.
  auto quiet = run_tool({tool}, tmp.path(), tmp.path() / "slow2.log", 30);
  CHECK(quiet.ok());
}

TEST_CASE("run_ice40: progress lines from Yosys and nextpnr while they run, then the report") {
  TempDir tmp("polydat-progress");
  test_tools::write_fake_tools(tmp.path() / "bin");
  PathFirst path(tmp.path() / "bin");
  std::vector<std::string> starts, running;
  auto r = run_ice40(counter_request(tmp.path() / "out"), [&](std::string_view l) { starts.emplace_back(l); },
                     [&](std::string_view l) { running.emplace_back(l); });
  REQUIRE_MESSAGE(r.ok(), r.error());
  std::string all;
  for (const std::string& l : running) all += l + "\n";
  INFO(all);
  CHECK(starts.size() == 3);
  CHECK(steps_in_order(running, "yosys",
                       {"2. Executing SYNTH_ICE40 pass.", "2.1. Executing HIERARCHY", "2.40.1. Executing ABC."}));
  CHECK(steps_in_order(running, "nextpnr-ice40",
                       {"Packing constants..", "Running simulated annealing placer for refinement. at iteration #1",
                        "Routing.. router iteration 1000, 218 arcs left"}));
  CHECK(r->logic_cells == 17u);
  CHECK(r->yosys_s > 0.5);  // five pauses of 0.15 s
  CHECK(r->nextpnr_s > 0.3);
  // Yosys now logs in full (not -q): the pass headers are what the lines follow.
  CHECK(contains(read_file(tmp.path() / "out" / "run.sh"), "yosys -s synth.ys > yosys.log 2>&1\n"));
  CHECK(contains(read_file(tmp.path() / "out" / "yosys.log"), "2.40.1. Executing ABC."));
}

TEST_CASE("run_ice40 planted fault: a Yosys whose log stops advancing fails the step checker") {
  TempDir tmp("polydat-progress");
  test_tools::FakeTiming stalls;
  stalls.yosys_stalls = true;
  test_tools::write_fake_tools(tmp.path() / "bin", stalls);
  PathFirst path(tmp.path() / "bin");
  std::vector<std::string> running;
  auto r = run_ice40(counter_request(tmp.path() / "out"), {}, [&](std::string_view l) { running.emplace_back(l); });
  REQUIRE_MESSAGE(r.ok(), r.error());
  // Lines keep coming (the clock), but they repeat the header it stalled on.
  CHECK(steps_in_order(running, "yosys", {"2. Executing SYNTH_ICE40 pass."}));
  CHECK_FALSE(steps_in_order(running, "yosys", {"2. Executing SYNTH_ICE40 pass.", "2.40.1. Executing ABC."}));
  size_t stalled = 0;
  for (const std::string& l : running) stalled += l.starts_with("yosys: ") && contains(l, "SYNTH_ICE40");
  CHECK(stalled >= 4);
}

TEST_CASE("run_ice40: -dsp only when asked and the device has DSPs") {
  TempDir tmp("polydat-progress");
  test_tools::FakeTiming quick;
  quick.step_s = 0.01;
  test_tools::write_fake_tools(tmp.path() / "bin", quick);
  PathFirst path(tmp.path() / "bin");
  struct Case {
    const char* device;
    std::optional<bool> use_dsp;
    bool dsp;
  };
  for (const Case& c : {Case{"up5k", std::nullopt, true}, Case{"up5k", false, false}, Case{"up5k", true, true},
                        Case{"hx8k", true, false}, Case{"hx8k", std::nullopt, false}}) {
    Ice40Request req = counter_request(tmp.path() / c.device);
    req.device = find_device(c.device);
    req.use_dsp = c.use_dsp;
    auto r = run_ice40(req, {});
    REQUIRE_MESSAGE(r.ok(), r.error());
    const std::string ys = read_file(tmp.path() / c.device / "synth.ys");
    CAPTURE(c.device);
    CAPTURE(ys);
    CHECK(contains(ys, " -dsp ") == c.dsp);
  }
}
