// polydat boards, an unknown --board as a usage error, and flash reading its
// board from the folder synth wrote; held to the board files in boards/,
// read here with yaml-cpp, not through the command's loader.
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "tests/cli/cli_support.h"
#include "tests/support/process.h"

using namespace polydat::clitest;
using polydat::cli::kUsageError;
using polydat::cli::kUserError;

namespace {

// boards/*.yaml by stem: what `polydat boards` must show.
std::map<std::string, YAML::Node> board_files() {
  std::map<std::string, YAML::Node> out;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(POLYDAT_SOURCE_ROOT) / "boards"))
    if (e.path().extension() == ".yaml") out[e.path().stem().string()] = YAML::LoadFile(e.path().string());
  return out;
}

const std::string kKernel = "input cycle: u8\ny := cycle * 3 + 1\n";

// Sets an environment variable for the commands this test runs, and unsets it after.
struct Env {
  Env(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~Env() { ::unsetenv(name_); }
  const char* name_;
};

}  // namespace

TEST_CASE("boards: every board file in boards/, with its device, package, clock, UART and heartbeat pins") {
  const auto files = board_files();
  REQUIRE(files.size() >= 5);
  Sandbox s;
  const Run json = s.run({"boards", "--format", "json"});
  REQUIRE(json.status == 0);
  const nlohmann::json list = nlohmann::json::parse(json.out);
  REQUIRE(list.size() == files.size());
  auto file = files.begin();
  for (const nlohmann::json& b : list) {  // sorted by name, as the files' stems
    const std::string& name = file->first;
    const YAML::Node& y = (file++)->second;
    CAPTURE(name);
    CHECK(b["name"] == name);
    CHECK(b["title"] == y["title"].as<std::string>());
    CHECK(b["device"] == y["device"].as<std::string>());
    CHECK(b["package"] == y["package"].as<std::string>());
    CHECK(b["clock"]["pin"] == y["clock"]["pin"].as<std::string>());
    CHECK(b["clock"]["mhz"].get<double>() == y["clock"]["mhz"].as<double>());
    CHECK(b["uart"]["tx"] == y["uart"]["tx"].as<std::string>());
    CHECK(b["uart"]["rx"] == y["uart"]["rx"].as<std::string>());
    REQUIRE(b["leds"].size() == y["leds"].size());
    CHECK(b["leds"][0]["pin"] == y["leds"][0]["pin"].as<std::string>());
    CHECK(b["leds"][0]["active_low"] == y["leds"][0]["active_low"].as<bool>());
    CHECK(b["reset_button"].is_null() == (!y["reset_button"] || y["reset_button"].IsNull()));
    // The text table: one row per board, its name first, with the same facts.
    const Run text = s.run({"boards"});
    REQUIRE(text.status == 0);
    const size_t at = text.out.find("\n" + name + " ");
    REQUIRE(at != std::string::npos);
    const std::string row = text.out.substr(at + 1, text.out.find('\n', at + 1) - at - 1);
    for (const std::string& fact : {y["device"].as<std::string>(), y["package"].as<std::string>(),
                                    y["uart"]["tx"].as<std::string>() + " / " + y["uart"]["rx"].as<std::string>(),
                                    y["title"].as<std::string>()})
      CHECK_MESSAGE(contains(row, fact), row);
    // One board: its JSON is the list's element; its text names every pin.
    const Run one = s.run({"boards", name, "--format", "json"});
    REQUIRE(one.status == 0);
    CHECK(nlohmann::json::parse(one.out) == b);
    const Run one_text = s.run({"boards", name});
    CHECK(contains(one_text.out, "tx " + y["uart"]["tx"].as<std::string>() + ", rx " + y["uart"]["rx"].as<std::string>()));
  }
}

TEST_CASE("an unknown board is a usage error naming it, listing the bundled ones and pointing at polydat boards") {
  const auto files = board_files();
  Sandbox s;
  s.file("k.gk", kKernel);
  s.file("dir/report.json", "{\"board\": \"icebreaker\", \"bitstream\": \"top.bin\"}\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"boards", "nosuch"},
           {"synth", "k.gk", "--board", "nosuch"},
           {"cosim", "k.gk", "--board", "nosuch"},
           {"flash", "--board", "nosuch", "dir"},
           {"synth", "k.gk", "--board", "missing/board.yaml"}}) {
    CAPTURE(args[0]);
    CAPTURE(args[args.size() - 1]);
    const Run r = s.run(args);
    CHECK(r.status == kUsageError);
    CHECK(contains(r.err, "polydat boards"));
    if (std::find(args.begin(), args.end(), "nosuch") != args.end()) {
      CHECK(contains(r.err, "'nosuch'"));
      for (const auto& [name, _] : files) CHECK(contains(r.err, name));
    }
  }
  // A board file that is there but wrong is the file's error, not the command line's.
  s.file("bad.yaml", "title: x\n");
  const Run bad = s.run({"synth", "k.gk", "--board", "bad.yaml"});
  CHECK(bad.status == kUserError);
  CHECK(contains(bad.err, "bad.yaml"));
}

TEST_CASE("flash DIR: the board is the one synth recorded; another --board, or a folder synth did not write, is refused") {
  Sandbox s;
  fs::create_directories(s.path() / "usb");  // no USB device is attached
  const Env usb("POLYDAT_SYSFS_USB", (s.path() / "usb").string());
  s.file("ice/report.json", "{\"board\": \"icestick\", \"bitstream\": \"top.bin\"}\n");
  s.file("ice/top.bin", "bits");
  const Run plain = s.run({"flash", "ice"});
  CHECK(plain.status == kUserError);  // found the board, but it is not attached
  CHECK(contains(plain.out, "onto icestick"));
  CHECK(contains(plain.out, "nothing was programmed"));
  const Run same = s.run({"flash", "--board", "icestick", "ice"});
  CHECK(same.status == kUserError);
  CHECK(same.out == plain.out);

  const Run other = s.run({"flash", "--board", "icebreaker", "ice"});
  CHECK(other.status == kUsageError);
  CHECK(other.out.empty());
  CHECK(contains(other.err, "built for board 'icestick', not 'icebreaker'"));

  // A board file synth recorded by path is loaded again from there.
  s.file("my_board.yaml", polydat::testing::read_file(fs::path(POLYDAT_SOURCE_ROOT) / "boards" / "icesugar.yaml"));
  s.file("mine/report.json", "{\"board\": \"my_board\", \"board_file\": \"" + (s.path() / "my_board.yaml").string() +
                                 "\", \"bitstream\": \"top.bin\"}\n");
  const Run mine = s.run({"flash", "mine"});
  CHECK(mine.status == kUserError);
  CHECK(contains(mine.out, "onto my_board"));

  fs::create_directories(s.path() / "empty");
  const Run empty = s.run({"flash", "empty"});
  CHECK(empty.status == kUsageError);
  CHECK(contains(empty.err, "no report.json"));
  s.file("dev/report.json", "{\"board\": \"\", \"bitstream\": \"top.bin\"}\n");  // what synth --device writes
  const Run device = s.run({"flash", "dev"});
  CHECK(device.status == kUsageError);
  CHECK(contains(device.err, "--device"));
  s.file("junk/report.json", "not json");
  CHECK(s.run({"flash", "junk"}).status == kUsageError);
  s.file("failed/report.json", "{\"board\": \"icestick\", \"bitstream\": \"\"}\n");  // synth stopped before icepack
  const Run failed = s.run({"flash", "failed"});
  CHECK(failed.status == kUserError);
  CHECK(contains(failed.err, "no bitstream"));
}
