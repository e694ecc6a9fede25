// The iCE40 flow with the real tools on designs whose numbers are known by
// hand, and the faults it must catch: an absurd clock, a design too big for
// the part, too many pins, missing tools, bad input.
#include "fpga/ice40_flow.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fpga/device.h"
#include "fpga/report.h"
#include "tests/fpga/designs.h"
#include "tests/support/process.h"

namespace fs = std::filesystem;
using namespace polydat::fpga;
namespace designs = polydat::fpga::test_designs;
using polydat::testing::read_file;
using polydat::testing::run_process;
using polydat::testing::TempDir;

namespace {

Ice40Request request(const std::string& top, const std::string& sv, const char* device, const fs::path& dir,
                     double mhz = 12) {
  Ice40Request r;
  r.top = top;
  r.sv = sv;
  r.device = find_device(device);
  REQUIRE(r.device != nullptr);
  r.freq_mhz = mhz;
  r.dir = dir;
  return r;
}

struct Flow {
  std::vector<std::string> steps;
  polydat::ir::Expected<SynthReport, std::string> result;
};

Flow run(const Ice40Request& r) {
  std::vector<std::string> steps;
  auto result = run_ice40(r, [&](std::string_view line) { steps.emplace_back(line); });
  return Flow{std::move(steps), std::move(result)};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Sets PATH for the scope of one check.
class PathOverride {
 public:
  explicit PathOverride(const std::string& value) {
    if (const char* old = std::getenv("PATH")) old_ = old;
    setenv("PATH", value.c_str(), 1);
  }
  ~PathOverride() {
    if (old_)
      setenv("PATH", old_->c_str(), 1);
    else
      unsetenv("PATH");
  }
  PathOverride(const PathOverride&) = delete;
  PathOverride& operator=(const PathOverride&) = delete;

 private:
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("devices: the four iCE40 parts with nextpnr's totals") {
  const std::vector<std::string> names = {"up5k", "hx8k", "lp8k", "hx1k"};
  CHECK(device_names() == names);
  const Device* up5k = find_device("up5k");
  REQUIRE(up5k != nullptr);
  CHECK(up5k->luts == 5280);
  CHECK(up5k->ffs == 5280);
  CHECK(up5k->carries == 5280);
  CHECK(up5k->dsps == 8);
  CHECK(up5k->brams == 30);
  CHECK(up5k->use_dsp);
  CHECK(up5k->nextpnr_flag == "--up5k");
  CHECK(up5k->default_package == "sg48");
  CHECK(find_device("hx8k")->luts == 7680);
  CHECK(find_device("hx8k")->brams == 32);
  CHECK(find_device("hx8k")->default_package == "ct256");
  CHECK(find_device("lp8k")->default_package == "cm81");
  CHECK(find_device("hx1k")->luts == 1280);
  CHECK(find_device("hx1k")->brams == 16);
  CHECK(find_device("hx1k")->dsps == 0);
  CHECK_FALSE(find_device("hx1k")->use_dsp);
  CHECK(find_device("ecp5") == nullptr);
  CHECK(find_device("") == nullptr);
}

TEST_CASE("ice40: an 8-bit counter on up5k at 12 MHz fits, meets timing and gives a bitstream") {
  TempDir tmp("polydat-fpga");
  const fs::path dir = tmp.path() / "out";  // created by the flow
  const Flow f = run(request("counter", designs::kCounter, "up5k", dir));
  REQUIRE_MESSAGE(f.result.ok(), f.result.error());
  const SynthReport& r = *f.result;

  CHECK(r.top == "counter");
  CHECK(r.device == "up5k");
  CHECK(r.package == "sg48");
  CHECK(r.ffs.used == 8);  // one per bit
  CHECK(r.ffs.total == 5280);
  CHECK(r.carries.used > 0);  // the increment's chain
  CHECK(r.carries.used <= 8);
  CHECK(r.luts.used >= 1);
  CHECK(r.luts.used <= 16);
  CHECK(r.luts.total == 5280);
  CHECK(r.dsps.used == 0);
  CHECK(r.dsps.total == 8);
  CHECK(r.brams.used == 0);
  CHECK(r.brams.total == 30);
  REQUIRE(r.logic_cells.has_value());
  CHECK(*r.logic_cells >= 8);
  CHECK(*r.logic_cells <= 24);
  CHECK(r.requested_mhz == 12);
  REQUIRE(r.achieved_mhz.has_value());
  CHECK(*r.achieved_mhz > 12);
  CHECK(r.fits);
  CHECK(r.meets_timing);
  CHECK(r.problem.empty());
  CHECK_FALSE(r.critical_from.empty());
  CHECK_FALSE(r.critical_to.empty());
  CHECK(r.bitstream == "counter.bin");
  CHECK(exit_status(r) == 0);

  // One progress line per step, before it runs.
  REQUIRE(f.steps.size() == 3);
  CHECK(f.steps[0].starts_with("yosys synth_ice40 -top counter -dsp"));
  CHECK(f.steps[1].starts_with("nextpnr-ice40 --up5k --package sg48"));
  CHECK(f.steps[2].starts_with("icepack counter.asc counter.bin"));

  // Every script, log and product stays in the folder.
  for (const char* file : {"counter.sv", "synth.ys", "yosys.log", "yosys_stat.json", "counter.json", "nextpnr.log",
                           "nextpnr_report.json", "counter.asc", "icepack.log", "counter.bin", "run.sh"})
    CHECK_MESSAGE(fs::exists(dir / file), file);
  CHECK_FALSE(fs::exists(dir / "counter.pcf"));
  CHECK(read_file(dir / "counter.sv") == designs::kCounter);
  CHECK(read_file(dir / "synth.ys") ==
        "read_verilog -sv counter.sv\n"
        "synth_ice40 -top counter -dsp -json counter.json\n"
        "tee -q -o yosys_stat.json stat -json\n");

  // The bitstream: icepack's preamble, then the rest.
  const std::string bin = read_file(dir / "counter.bin");
  REQUIRE(bin.size() > 1000);
  const std::string preamble("\xFF\x00\x00\xFF\x7E\xAA\x99\x7E", 8);
  CHECK(bin.substr(0, 8) == preamble);

  // run.sh holds the exact command lines and re-runs the flow by hand, to the same bitstream.
  const std::string sh = read_file(dir / "run.sh");
  CHECK(contains(sh, "yosys -s synth.ys > yosys.log 2>&1\n"));
  CHECK(contains(sh,
                 "nextpnr-ice40 --up5k --package sg48 --json counter.json --asc counter.asc --freq 12 --seed 1 "
                 "--timing-allow-fail --report nextpnr_report.json > nextpnr.log 2>&1\n"));
  CHECK(contains(sh, "icepack counter.asc counter.bin > icepack.log 2>&1\n"));
  struct stat st {};
  REQUIRE(::stat((dir / "run.sh").c_str(), &st) == 0);
  CHECK((st.st_mode & S_IXUSR) != 0);
  fs::remove(dir / "counter.bin");
  const auto again = run_process("/bin/sh", {"sh", "run.sh"}, dir);
  CHECK_MESSAGE(again.status == 0, again.err);
  CHECK(read_file(dir / "counter.bin") == bin);

  // The report as text.
  const std::string text = render_text(r);
  CHECK(contains(text, "up5k, package sg48"));
  CHECK(contains(text, "12.00 MHz requested: meets"));
  CHECK(contains(text, "bitstream      counter.bin"));
}

TEST_CASE("ice40: a registered 16x16 multiply on up5k uses a DSP") {
  TempDir tmp("polydat-fpga");
  const Flow f = run(request("mul", designs::kMul, "up5k", tmp.path()));
  REQUIRE_MESSAGE(f.result.ok(), f.result.error());
  const SynthReport& r = *f.result;
  CHECK(r.dsps.used >= 1);
  CHECK(r.dsps.total == 8);
  CHECK(r.fits);
  CHECK(r.meets_timing);
  CHECK(r.bitstream == "mul.bin");
  CHECK(exit_status(r) == 0);
}

TEST_CASE("ice40 planted fault: an absurd clock misses timing, names the path and still packs") {
  TempDir tmp("polydat-fpga");
  Ice40Request req = request("counter", designs::kCounter, "up5k", tmp.path(), 1000);
  req.pcf = designs::kCounterPcf;
  req.seed = 7;
  const Flow f = run(req);
  REQUIRE_MESSAGE(f.result.ok(), f.result.error());
  const SynthReport& r = *f.result;
  CHECK(r.fits);
  REQUIRE(r.achieved_mhz.has_value());
  CHECK(*r.achieved_mhz > 0);
  CHECK(*r.achieved_mhz < 1000);
  CHECK_FALSE(r.meets_timing);
  CHECK(exit_status(r) == 3);
  // The endpoints are cells of this design, with their ports.
  CHECK(contains(r.critical_from, "."));
  CHECK(contains(r.critical_to, "."));
  CHECK(contains(r.critical_from + r.critical_to, "LC"));
  CHECK(contains(render_text(r), "1000.00 MHz requested: MISSES timing"));
  CHECK(contains(render_text(r), "critical path  " + r.critical_from + " -> " + r.critical_to));
  // --timing-allow-fail: the asc and bin exist all the same; the pins and seed were passed.
  CHECK(r.bitstream == "counter.bin");
  CHECK(fs::file_size(tmp.path() / "counter.bin") > 0);
  CHECK(read_file(tmp.path() / "counter.pcf") == designs::kCounterPcf);
  CHECK(contains(read_file(tmp.path() / "run.sh"), "--freq 1000 --pcf counter.pcf --seed 7"));
}

TEST_CASE("ice40: nextpnr's placement failures read as does-not-fit, other errors not") {
  // Lines from nextpnr-ice40 0.4 logs: a design over the part, one at 99 % of it, a full BEL type.
  CHECK(is_fit_failure("ERROR: Failed to expand region (0, 0) |_> (13, 17) of 1411 ICESTORM_LCs"));
  CHECK(is_fit_failure("ERROR: Unable to find legal placement for all cells, design is probably at utilisation limit."));
  CHECK(is_fit_failure("ERROR: Unable to place cell 'x_DFFLC', no BELs remaining to implement cell type 'ICESTORM_LC'"));
  CHECK_FALSE(is_fit_failure("ERROR: IO 'clk' is unconstrained in PCF (override this error with --pcf-allow-unconstrained)"));
  CHECK_FALSE(is_fit_failure("ERROR: Failed to parse JSON file"));
}

TEST_CASE("ice40 planted fault: 1600 flip-flops do not fit an hx1k") {
  TempDir tmp("polydat-fpga");
  const Flow f = run(request("big", designs::kBig, "hx1k", tmp.path()));
  REQUIRE_MESSAGE(f.result.ok(), f.result.error());
  const SynthReport& r = *f.result;
  CHECK(r.device == "hx1k");
  CHECK(r.package == "tq144");
  CHECK(r.ffs.used == 1600);
  CHECK(r.ffs.total == 1280);
  CHECK_FALSE(r.fits);
  CHECK_FALSE(r.meets_timing);
  CHECK(exit_status(r) == 3);
  CHECK(contains(r.problem, "FFs over: 1600 used, 1280 on hx1k"));
  CHECK(contains(r.problem, "nextpnr: ERROR:"));
  CHECK(contains(r.problem, "ICESTORM_LC"));
  CHECK_FALSE(r.logic_cells.has_value());
  CHECK_FALSE(r.achieved_mhz.has_value());
  CHECK(r.bitstream.empty());
  CHECK_FALSE(fs::exists(tmp.path() / "big.asc"));
  CHECK_FALSE(fs::exists(tmp.path() / "big.bin"));
  CHECK(f.steps.size() == 2);  // no icepack
  const std::string text = render_text(r);
  CHECK(contains(text, "FFs             1600 / 1280  125.0%  OVER\n"));
  CHECK(contains(text, "does not fit: FFs over"));
  CHECK(contains(text, "not measured (not placed)"));
  CHECK(contains(text, "bitstream      none\n"));
}

TEST_CASE("ice40 planted fault: 49 pins do not fit an up5k sg48") {
  TempDir tmp("polydat-fpga");
  const Flow f = run(request("wide", designs::kWide, "up5k", tmp.path()));
  REQUIRE_MESSAGE(f.result.ok(), f.result.error());
  const SynthReport& r = *f.result;
  CHECK(r.ffs.used == 16);
  CHECK_FALSE(r.fits);
  CHECK(exit_status(r) == 3);
  CHECK(contains(r.problem, "I/O pins over: the ports of wide need 49 pins"));
  CHECK(contains(r.problem, "nextpnr: ERROR: Unable to"));
  CHECK(r.bitstream.empty());
}

TEST_CASE("ice40: a purely combinational design has no Fmax, and says so") {
  TempDir tmp("polydat-fpga");
  const Flow f = run(request("comb", designs::kComb, "up5k", tmp.path()));
  REQUIRE_MESSAGE(f.result.ok(), f.result.error());
  const SynthReport& r = *f.result;
  CHECK(r.ffs.used == 0);
  CHECK(r.fits);
  CHECK_FALSE(r.achieved_mhz.has_value());
  CHECK(r.logic_cells.has_value());
  CHECK(r.meets_timing);  // no clocked path, nothing to miss
  CHECK(exit_status(r) == 0);
  CHECK(contains(render_text(r), "none: no clock-to-clock path (combinational)"));
  CHECK(to_json(r)["achieved_mhz"].is_null());
  // The longest pin-to-pin path is still named.
  CHECK(contains(r.critical_from, "$sb_io"));
  CHECK(contains(r.critical_to, "$sb_io"));
}

TEST_CASE("ice40 planted fault: missing tools are errors naming the tool") {
  TempDir tmp("polydat-fpga");
  {
    PathOverride path("");
    const Flow f = run(request("counter", designs::kCounter, "up5k", tmp.path()));
    REQUIRE_FALSE(f.result.ok());
    CHECK(contains(f.result.error(), "yosys is not on PATH"));
    CHECK(f.steps.empty());
  }
  // Only Yosys on the PATH: nextpnr is found missing before anything runs.
  const fs::path bin = tmp.path() / "bin";
  fs::create_directories(bin);
  const fs::path yosys = find_on_path("yosys");
  REQUIRE_FALSE(yosys.empty());
  fs::create_symlink(yosys, bin / "yosys");
  {
    PathOverride path(bin.string());
    CHECK(find_on_path("yosys") == bin / "yosys");
    const Flow f = run(request("counter", designs::kCounter, "up5k", tmp.path() / "out"));
    REQUIRE_FALSE(f.result.ok());
    CHECK(contains(f.result.error(), "nextpnr-ice40 is not on PATH"));
    CHECK(f.steps.empty());
  }
}

TEST_CASE("ice40 planted fault: invalid SystemVerilog is an error quoting yosys.log") {
  TempDir tmp("polydat-fpga");
  const Flow f = run(
      request("bad", "module bad(input logic a, output logic b);\n  assign b = a +;\nendmodule\n", "up5k", tmp.path()));
  REQUIRE_FALSE(f.result.ok());
  const std::string& e = f.result.error();
  CHECK(contains(e, "yosys failed (exit status 1)"));
  CHECK(contains(e, (tmp.path() / "yosys.log").string()));
  CHECK(contains(e, "bad.sv:2: ERROR: syntax error"));
  CHECK(f.steps.size() == 1);
}

TEST_CASE("ice40 planted fault: a top that is not in the source is an error") {
  TempDir tmp("polydat-fpga");
  const Flow f = run(request("nosuch", designs::kCounter, "up5k", tmp.path()));
  REQUIRE_FALSE(f.result.ok());
  CHECK(contains(f.result.error(), "yosys.log"));
  CHECK(contains(f.result.error(), "nosuch"));
}

TEST_CASE("ice40 planted fault: a bad PCF is a nextpnr error quoting nextpnr.log, not a misfit") {
  TempDir tmp("polydat-fpga");
  Ice40Request req = request("counter", designs::kCounter, "up5k", tmp.path());
  req.pcf = "set_io clk 999\n";
  // Products of an earlier run in the folder must not survive to pass for this one's.
  for (const char* stale : {"counter.asc", "counter.bin", "nextpnr_report.json", "icepack.log"})
    tmp.write(stale, "stale");
  const Flow f = run(req);
  REQUIRE_FALSE(f.result.ok());
  const std::string& e = f.result.error();
  CHECK(contains(e, "nextpnr-ice40 failed (exit status 255)"));
  CHECK(contains(e, (tmp.path() / "nextpnr.log").string()));
  CHECK(contains(e, "ERROR: package does not have a pin named '999'"));
  for (const char* stale : {"counter.asc", "counter.bin", "nextpnr_report.json", "icepack.log"})
    CHECK_MESSAGE(!fs::exists(tmp.path() / stale), stale);
}

TEST_CASE("ice40 planted fault: a tool past its timeout is killed and reported") {
  TempDir tmp("polydat-fpga");
  Ice40Request req = request("counter", designs::kCounter, "up5k", tmp.path());
  req.timeout_s = 0;
  const Flow f = run(req);
  REQUIRE_FALSE(f.result.ok());
  CHECK(contains(f.result.error(), "yosys timed out after 0 s and was killed"));
  CHECK(contains(f.result.error(), "yosys.log"));
}

TEST_CASE("ice40: requests the flow rejects before running anything") {
  TempDir tmp("polydat-fpga");
  Ice40Request req = request("counter", designs::kCounter, "up5k", tmp.path());
  req.device = nullptr;
  CHECK_FALSE(run(req).result.ok());
  req = request("counter; rm", designs::kCounter, "up5k", tmp.path());
  const Flow f = run(req);
  REQUIRE_FALSE(f.result.ok());
  CHECK(contains(f.result.error(), "not a plain identifier"));
  req = request("counter", designs::kCounter, "up5k", tmp.path(), 0);
  CHECK_FALSE(run(req).result.ok());
  CHECK(fs::is_empty(tmp.path()));
}
