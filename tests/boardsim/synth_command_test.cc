// `polydat synth`, `polydat flash` and `polydat cosim --board` through the
// binary: a corpus kernel to a bitstream on a board, with the report's fields.
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "fpga/device.h"
#include "tests/boardsim/board_support.h"
#include "tests/support/process.h"

using namespace polydat;
namespace fs = std::filesystem;

namespace {


using boardtest::run_polydat;
std::string kernel(const std::string& name) { return boardtest::corpus_kernel(name); }

}  // namespace

TEST_CASE("synth: a corpus kernel on the iCEBreaker to a bitstream, and the report's fields") {
  testing::TempDir tmp("polydat-synth");
  const fs::path dir = tmp.path() / "out";
  const testing::ProcessResult r = run_polydat({"synth", kernel("bitwise"), "--board", "icebreaker", "-o", dir.string()}, tmp.path());
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // A progress line per tool, then the report.
  for (const char* step : {"yosys", "nextpnr-ice40", "icepack"}) CHECK(r.out.find(step) != std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(testing::read_file(dir / "report.json"));
  INFO(j.dump(2));
  const fpga::Device* up5k = fpga::find_device("up5k");
  REQUIRE(up5k);
  CHECK(j["board"] == "icebreaker");
  CHECK(j["device"] == "up5k");
  CHECK(j["package"] == "sg48");
  CHECK(j["fits"] == true);
  CHECK(j["meets_timing"] == true);
  CHECK(j["requested_mhz"].get<double>() == 12);
  CHECK(j["achieved_mhz"].get<double>() >= 12);
  // The counter (64 bits) and the serialiser's copy of a result (three 64-bit
  // outputs, an 8-bit one and four bools: 204 bits) are flip-flops at least.
  CHECK(j["ffs"]["used"].get<uint32_t>() >= 64 + 204);
  CHECK(j["luts"]["used"].get<uint32_t>() > 0);
  CHECK(j["luts"]["total"].get<uint32_t>() == up5k->luts);
  CHECK(j["luts"]["used"].get<uint32_t>() <= up5k->luts);
  CHECK(j["dsps"]["total"].get<uint32_t>() == up5k->dsps);
  CHECK(j["brams"]["total"].get<uint32_t>() == up5k->brams);
  // The pins come from the board file: the generated .pcf is what nextpnr read.
  const std::string pcf = testing::read_file(dir / "polydat_board.pcf");
  CHECK(pcf.find("set_io -nowarn clk 35") != std::string::npos);
  CHECK(pcf.find("set_io -nowarn uart_tx 9") != std::string::npos);
  // The bitstream: icepack's preamble, 0x7EAA997E.
  const std::string bin = testing::read_file(dir / j["bitstream"].get<std::string>());
  REQUIRE(bin.size() > 1000);
  CHECK(bin.find(std::string("\x7e\xaa\x99\x7e")) < 16);
  CHECK(testing::read_file(dir / "report.txt").find("LUT") != std::string::npos);

  SUBCASE("flash says plainly that no board is attached, and programs nothing") {
    const fs::path sysfs = tmp.path() / "usb";
    fs::create_directories(sysfs / "1-1");
    tmp.write("usb/1-1/idVendor", "1d6b\n");
    tmp.write("usb/1-1/idProduct", "0002\n");
    ::setenv("POLYDAT_SYSFS_USB", sysfs.c_str(), 1);
    const testing::ProcessResult f = run_polydat({"flash", "--board", "icebreaker", dir.string()}, tmp.path());
    CHECK(f.status == 1);
    CHECK(f.out.find("iceprog") != std::string::npos);
    CHECK(f.out.find("is attached") != std::string::npos);
    CHECK(f.out.find("nothing was programmed") != std::string::npos);
    // A board of another kind is refused before anything runs.
    const testing::ProcessResult other = run_polydat({"flash", "--board", "icestick", dir.string()}, tmp.path());
    CHECK(other.status == 2);  // the command line names the wrong board: a usage error
    CHECK(other.err.find("built for board 'icebreaker'") != std::string::npos);
    // Without --board, the board is the one the report records.
    const testing::ProcessResult own = run_polydat({"flash", dir.string()}, tmp.path());
    CHECK(own.status == 1);
    CHECK(own.out == f.out);
    ::unsetenv("POLYDAT_SYSFS_USB");
  }
}

TEST_CASE("synth: resource estimates for ECP5 and Xilinx 7-series through Yosys") {
  testing::TempDir tmp("polydat-estimate");
  for (const std::string family : {"ecp5", "xilinx"}) {
    const testing::ProcessResult r =
        run_polydat({"synth", kernel("bitwise"), "--estimate", family, "-o", (tmp.path() / family).string()}, tmp.path());
    INFO(r.out);
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.find("LUT") != std::string::npos);
  }
}

TEST_CASE("synth: refuses what does not go together") {
  testing::TempDir tmp("polydat-synth-usage");
  CHECK(run_polydat({"synth", kernel("bitwise")}, tmp.path()).status == 2);
  CHECK(run_polydat({"synth", kernel("bitwise"), "--board", "icebreaker", "--device", "up5k"}, tmp.path()).status == 2);
  CHECK(run_polydat({"synth", kernel("bitwise"), "--board", "icebreaker", "--package", "sg48"}, tmp.path()).status == 2);
  CHECK(run_polydat({"synth", kernel("bitwise"), "--device", "up5k", "--set", "x=1"}, tmp.path()).status == 2);
  CHECK(run_polydat({"synth", kernel("bitwise"), "--device", "up5k", "--progress", "0"}, tmp.path()).status == 2);
  // A clock the PLL cannot make, said with the PLL's range.
  const testing::ProcessResult fast = run_polydat({"synth", kernel("bitwise"), "--board", "icebreaker", "--freq", "300"}, tmp.path());
  CHECK(fast.status == 1);
  CHECK(fast.err.find("16 .. 275 MHz") != std::string::npos);
  // cosim --freq needs --board.
  CHECK(run_polydat({"cosim", kernel("bitwise"), "--freq", "48"}, tmp.path()).status == 2);
  const testing::ProcessResult unknown = run_polydat({"synth", kernel("bitwise"), "--board", "nosuchboard"}, tmp.path());
  CHECK(unknown.status == 2);  // an unknown name is a usage error
  CHECK(unknown.err.find("icebreaker") != std::string::npos);  // the known boards are listed
}

TEST_CASE("cosim --board: the board top's UART lines against the interpreter") {
  testing::TempDir tmp("polydat-cosim-board");
  const testing::ProcessResult r =
      run_polydat({"cosim", kernel("bitwise"), "--board", "icebreaker", "--cycles", "20"}, tmp.path());
  INFO(r.out);
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("decoded: 20 of 20 lines, 0 framing errors; 0 mismatches") != std::string::npos);
  CHECK(r.out.find("result: PASS") != std::string::npos);
}
