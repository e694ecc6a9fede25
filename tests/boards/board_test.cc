// The boards suite: the bundled board files with their pins checked by hand
// against the public sources named in each file, the loader's diagnostics on
// broken YAML (each kind, with file:line:col and a caret), garbage that must
// neither crash nor hang the loader, the generated .pcf, and each bundled
// board's pins through the real yosys and nextpnr-ice40.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "boards/board.h"
#include "boards/bundled.h"
#include "boards/top_ports.h"
#include "fpga/device.h"
#include "hls/design.h"
#include "tests/support/process.h"

namespace fs = std::filesystem;
using polydat::boards::Board;
using polydat::boards::find_board;
using polydat::boards::load_board_file;
using polydat::testing::TempDir;

namespace {

const fs::path kSourceRoot = POLYDAT_SOURCE_ROOT;

Board bundled(const std::string& name) {
  auto b = find_board(name);
  REQUIRE_MESSAGE(b.ok(), b.error());
  return b.value();
}

std::vector<std::string> pins(const std::vector<polydat::boards::Pin>& list) {
  std::vector<std::string> out;
  for (const auto& p : list) out.push_back(p.pin);
  return out;
}

// Loads `yaml` from a file b.yaml in a fresh folder; the error text with the
// folder left out (so it reads "b.yaml:LINE:COL: ...").
struct Loaded {
  bool ok = false;
  Board board;
  std::string error;
};

Loaded load_text(const std::string& yaml) {
  TempDir dir("polydat-boards");
  dir.write("b.yaml", yaml);
  auto r = load_board_file(dir.path() / "b.yaml");
  Loaded out;
  out.ok = r.ok();
  if (r.ok()) {
    out.board = r.value();
    return out;
  }
  out.error = r.error();
  const std::string prefix = (dir.path() / "").string();
  for (size_t at; (at = out.error.find(prefix)) != std::string::npos;) out.error.erase(at, prefix.size());
  return out;
}

// A valid board file; the error cases each break one thing in it.
const std::string kGood =
    "title: Test board\n"     // 1
    "device: up5k\n"          // 2
    "package: sg48\n"         // 3
    "clock:\n"                // 4
    "  pin: \"35\"\n"         // 5
    "  mhz: 12\n"             // 6
    "leds:\n"                 // 7
    "  - pin: \"37\"\n"       // 8
    "    active_low: true\n"  // 9
    "uart:\n"                 // 10
    "  tx: \"9\"\n"           // 11
    "  rx: \"6\"\n"           // 12
    "  baud: 115200\n"        // 13
    "reset_button:\n"         // 14
    "  pin: \"10\"\n"         // 15
    "  active_low: true\n"    // 16
    "source: a test\n"        // 17
    "note: none\n";           // 18

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
  return text;
}

// The error's first line names the place and kind: "b.yaml:L:C: error: ... [kind]".
void check_first_error(const Loaded& l, const std::string& place, const std::string& kind) {
  REQUIRE_FALSE(l.ok);
  const std::string first = l.error.substr(0, l.error.find('\n'));
  CHECK_MESSAGE(first.rfind("b.yaml:" + place + ": error: ", 0) == 0, l.error);
  CHECK_MESSAGE(first.size() >= kind.size() + 2, l.error);
  CHECK_MESSAGE(first.substr(first.size() - kind.size() - 2) == "[" + kind + "]", l.error);
}

// The path of a program on PATH, or empty.
std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    std::error_code ec;
    if (!candidate.empty() && fs::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
    start = end + 1;
  }
  return {};
}

}  // namespace

TEST_CASE("the bundled boards are the five, sorted, each loading") {
  const std::vector<std::string> expected = {"hx8k_breakout", "icebreaker", "icestick", "icesugar", "tinyfpga_bx"};
  CHECK(polydat::boards::board_names() == expected);
  for (const std::string& name : expected) {
    CAPTURE(name);
    const Board b = bundled(name);
    CHECK(b.name == name);
    CHECK_FALSE(b.title.empty());
    CHECK_FALSE(b.source.empty());
    CHECK_FALSE(b.note.empty());
    CHECK_FALSE(b.leds.empty());
    CHECK(b.baud == 115200);
    // The bundled text is the file in boards/, and loads the same from disk.
    const fs::path file = kSourceRoot / "boards" / (name + ".yaml");
    CHECK(polydat::testing::read_file(file) == std::string(*polydat::boards::bundled_board(name)));
    auto from_disk = find_board(file.string());
    REQUIRE_MESSAGE(from_disk.ok(), from_disk.error());
    CHECK(polydat::boards::pcf(from_disk.value()) == polydat::boards::pcf(b));
  }
}

// The pins below were checked by hand against the sources each file names.
TEST_CASE("iCEBreaker: icebreaker-verilog-examples icebreaker.pcf") {
  const Board b = bundled("icebreaker");
  CHECK(b.pll_input == polydat::boards::PllInput::Pad);  // what nextpnr places on its clock pin
  CHECK(b.device == "up5k");
  CHECK(b.package == "sg48");
  CHECK(b.clock.pin == "35");
  CHECK(b.clock_mhz == 12);
  CHECK(b.uart_tx.pin == "9");
  CHECK(b.uart_rx.pin == "6");
  CHECK(pins(b.leds) == std::vector<std::string>{"37", "11"});  // LEDG_N, LEDR_N
  CHECK(std::all_of(b.leds.begin(), b.leds.end(), [](const auto& p) { return p.active_low; }));
  REQUIRE(b.reset_button.has_value());
  CHECK(b.reset_button->pin == "10");  // BTN_N
  CHECK(b.reset_button->active_low);
}

TEST_CASE("iCEstick: icestorm examples/icestick/icestick.pcf") {
  const Board b = bundled("icestick");
  CHECK(b.pll_input == polydat::boards::PllInput::Core);  // what nextpnr places on its clock pin
  CHECK(b.device == "hx1k");
  CHECK(b.package == "tq144");
  CHECK(b.clock.pin == "21");
  CHECK(b.clock_mhz == 12);
  CHECK(b.uart_tx.pin == "8");
  CHECK(b.uart_rx.pin == "9");
  CHECK(pins(b.leds) == std::vector<std::string>{"95", "99", "98", "97", "96"});
  CHECK(std::none_of(b.leds.begin(), b.leds.end(), [](const auto& p) { return p.active_low; }));
  CHECK_FALSE(b.reset_button.has_value());
}

TEST_CASE("iCESugar v1.5: wuxx/icesugar src/common/io.pcf") {
  const Board b = bundled("icesugar");
  CHECK(b.pll_input == polydat::boards::PllInput::Pad);  // what nextpnr places on its clock pin
  CHECK(b.device == "up5k");
  CHECK(b.package == "sg48");
  CHECK(b.clock.pin == "35");
  CHECK(b.clock_mhz == 12);
  CHECK(b.uart_tx.pin == "6");
  CHECK(b.uart_rx.pin == "4");
  CHECK(pins(b.leds) == std::vector<std::string>{"41", "40", "39"});  // green, red, blue
  CHECK(std::all_of(b.leds.begin(), b.leds.end(), [](const auto& p) { return p.active_low; }));
  CHECK_FALSE(b.reset_button.has_value());
}

TEST_CASE("TinyFPGA BX: tinyfpga/TinyFPGA-BX icestorm_template/pins.pcf") {
  const Board b = bundled("tinyfpga_bx");
  CHECK(b.pll_input == polydat::boards::PllInput::Core);  // what nextpnr places on its clock pin
  CHECK(b.device == "lp8k");
  CHECK(b.package == "cm81");
  CHECK(b.clock.pin == "B2");
  CHECK(b.clock_mhz == 16);
  CHECK(b.uart_tx.pin == "A2");  // PIN_1
  CHECK(b.uart_rx.pin == "A1");  // PIN_2
  CHECK(pins(b.leds) == std::vector<std::string>{"B3"});
  CHECK_FALSE(b.leds[0].active_low);
  CHECK_FALSE(b.reset_button.has_value());
  CHECK(b.note.find("3.3 V USB-serial adapter") != std::string::npos);
}

TEST_CASE("iCE40-HX8K breakout: icestorm hx8kboard.pcf and picosoc hx8kdemo.pcf") {
  const Board b = bundled("hx8k_breakout");
  CHECK(b.pll_input == polydat::boards::PllInput::Core);  // what nextpnr places on its clock pin
  CHECK(b.device == "hx8k");
  CHECK(b.package == "ct256");
  CHECK(b.clock.pin == "J3");
  CHECK(b.clock_mhz == 12);
  CHECK(b.uart_tx.pin == "B12");
  CHECK(b.uart_rx.pin == "B10");
  CHECK(pins(b.leds) == std::vector<std::string>{"B5", "B4", "A2", "A1", "C5", "C4", "B3", "C3"});
  CHECK(std::none_of(b.leds.begin(), b.leds.end(), [](const auto& p) { return p.active_low; }));
  CHECK_FALSE(b.reset_button.has_value());
}

TEST_CASE("the test's base file is valid, and its optional keys are optional") {
  Loaded l = load_text(kGood);
  REQUIRE_MESSAGE(l.ok, l.error);
  CHECK(l.board.name == "b");
  CHECK(l.board.title == "Test board");
  CHECK(l.board.clock.pin == "35");
  CHECK(l.board.reset_button.has_value());

  l = load_text(replaced(replaced(kGood, "  baud: 115200\n", ""), "note: none\n", ""));
  REQUIRE_MESSAGE(l.ok, l.error);
  CHECK(l.board.baud == 115200);
  CHECK(l.board.note.empty());

  l = load_text(replaced(kGood, "reset_button:\n  pin: \"10\"\n  active_low: true\n", "reset_button: ~\n"));
  REQUIRE_MESSAGE(l.ok, l.error);
  CHECK_FALSE(l.board.reset_button.has_value());

  // Plain pins, a ball in lower case, a fractional clock.
  l = load_text(replaced(replaced(kGood, "  pin: \"35\"\n", "  pin: 35\n"), "  mhz: 12\n", "  mhz: 12.5\n"));
  REQUIRE_MESSAGE(l.ok, l.error);
  CHECK(l.board.clock.pin == "35");
  CHECK(l.board.clock_mhz == 12.5);
}

TEST_CASE("board-syntax: YAML that does not parse, two documents, a key twice, an empty file") {
  Loaded l = load_text(replaced(kGood, "leds:\n", "leds: [\n"));
  CHECK(l.error ==
        "b.yaml:8:3: error: YAML syntax: illegal block entry [board-syntax]\n"
        "    - pin: \"37\"\n"
        "    ^\n");

  l = load_text("title: [a, b\n");  // found at the end: the empty line after the last newline
  CHECK(l.error ==
        "b.yaml:2:1: error: YAML syntax: end of sequence flow not found [board-syntax]\n"
        "  \n"
        "  ^\n");

  l = load_text(kGood + "---\ntitle: again\n");
  CHECK(l.error ==
        "b.yaml:19:1: error: a board file holds one YAML document; another begins here [board-syntax]\n"
        "  ---\n"
        "  ^\n");

  l = load_text(replaced(kGood, "package: sg48\n", "package: sg48\ndevice: hx8k\n"));
  CHECK(l.error ==
        "b.yaml:4:1: error: key 'device' appears twice in the board file [board-syntax]\n"
        "  device: hx8k\n"
        "  ^~~~~~\n");

  l = load_text("");
  CHECK(l.error ==
        "b.yaml:1:1: error: the board file is empty: it is a mapping of title, device, package, clock, leds, "
        "uart, source [board-syntax]\n");
  l = load_text("# only a comment\n");
  check_first_error(l, "1:1", "board-syntax");
}

TEST_CASE("board-missing-key: at the mapping that lacks it") {
  Loaded l = load_text(replaced(kGood, "  mhz: 12\n", ""));
  CHECK(l.error ==
        "b.yaml:4:1: error: clock is missing 'mhz' [board-missing-key]\n"
        "  clock:\n"
        "  ^~~~~\n");

  l = load_text(replaced(kGood, "source: a test\n", ""));
  CHECK(l.error ==
        "b.yaml:1:1: error: the board file is missing 'source' [board-missing-key]\n"
        "  title: Test board\n"
        "  ^\n");

  l = load_text(replaced(kGood, "    active_low: true\n", ""));
  CHECK(l.error ==
        "b.yaml:8:5: error: leds[0] is missing 'active_low' [board-missing-key]\n"
        "    - pin: \"37\"\n"
        "      ^\n");
}

TEST_CASE("board-type: a value of the wrong shape") {
  Loaded l = load_text(replaced(kGood, "leds:\n  - pin: \"37\"\n    active_low: true\n", "leds: 37\n"));
  CHECK(l.error ==
        "b.yaml:7:7: error: 'leds' is a list of {pin, active_low}, not a scalar [board-type]\n"
        "  leds: 37\n"
        "        ^~\n");

  l = load_text(replaced(kGood, "    active_low: true\n", "    active_low: maybe\n"));
  CHECK(l.error ==
        "b.yaml:9:17: error: 'active_low' is true or false, not 'maybe' [board-type]\n"
        "      active_low: maybe\n"
        "                  ^~~~~\n");

  l = load_text(replaced(kGood, "  mhz: 12\n", "  mhz: fast\n"));
  check_first_error(l, "6:8", "board-type");

  l = load_text(replaced(kGood, "  baud: 115200\n", "  baud: 9600.5\n"));
  check_first_error(l, "13:9", "board-type");

  l = load_text(replaced(kGood, "title: Test board\n", "title:\n"));
  CHECK(l.error ==
        "b.yaml:1:1: error: 'title' has no value: it is text [board-type]\n"
        "  title:\n"
        "  ^~~~~\n");

  l = load_text(replaced(kGood, "clock:\n  pin: \"35\"\n  mhz: 12\n", "clock: [35, 12]\n"));
  check_first_error(l, "4:8", "board-type");

  l = load_text("- a\n- b\n");
  check_first_error(l, "1:1", "board-type");
}

TEST_CASE("board-value: device, package, pins, clock, baud, duplicate pins") {
  Loaded l = load_text(replaced(kGood, "device: up5k\n", "device: up5x\n"));
  CHECK(l.error ==
        "b.yaml:2:9: error: unknown device 'up5x'; the devices are up5k, hx8k, lp8k, hx1k; did you mean 'up5k'? "
        "[board-value]\n"
        "  device: up5x\n"
        "          ^~~~\n");

  l = load_text(replaced(kGood, "device: up5k\n", "device: hx8k\n"));
  CHECK(l.error ==
        "b.yaml:3:10: error: package 'sg48' is not one of hx8k's: ct256, cb132, bg121, cm225 [board-value]\n"
        "  package: sg48\n"
        "           ^~~~\n");

  l = load_text(replaced(kGood, "  mhz: 12\n", "  mhz: 0\n"));
  CHECK(l.error ==
        "b.yaml:6:8: error: the clock is 0 MHz; it must be above 0 and at most 500 MHz [board-value]\n"
        "    mhz: 0\n"
        "         ^\n");

  l = load_text(replaced(kGood, "  mhz: 12\n", "  mhz: 12\n  pll: pads\n"));
  CHECK(l.error ==
        "b.yaml:7:8: error: pll is pad (SB_PLL40_PAD: the clock pin is the PLL's own input) or core (SB_PLL40_CORE: "
        "the PLL takes the clock from the pin's buffer), not 'pads' [board-value]\n"
        "    pll: pads\n"
        "         ^~~~\n");
  l = load_text(replaced(kGood, "  mhz: 12\n", "  mhz: 12\n  pll: pad\n"));
  REQUIRE_MESSAGE(l.ok, l.error);

  l = load_text(replaced(kGood, "  baud: 115200\n", "  baud: 10000000\n"));
  CHECK(l.error ==
        "b.yaml:13:9: error: baud 10000000 is out of range: 300 .. 3000000 [board-value]\n"
        "    baud: 10000000\n"
        "          ^~~~~~~~\n");
  l = load_text(replaced(kGood, "  baud: 115200\n", "  baud: 100\n"));
  check_first_error(l, "13:9", "board-value");
  l = load_text(replaced(kGood, "  baud: 115200\n", "  baud: 3000000\n"));  // 12 MHz: 4 clocks a bit
  REQUIRE_MESSAGE(l.ok, l.error);
  l = load_text(replaced(replaced(kGood, "  baud: 115200\n", "  baud: 3000000\n"), "  mhz: 12\n", "  mhz: 11\n"));
  check_first_error(l, "13:9", "board-value");

  l = load_text(replaced(kGood, "  tx: \"9\"\n", "  tx: \"35\"\n"));
  CHECK(l.error ==
        "b.yaml:11:7: error: pin 35 is used twice: by clock (line 5) and by uart.tx [board-value]\n"
        "    tx: \"35\"\n"
        "        ^~~~\n");

  l = load_text(replaced(kGood, "  tx: \"9\"\n", "  tx: \"3 5\"\n"));
  check_first_error(l, "11:7", "board-value");
  l = load_text(replaced(kGood, "  tx: \"9\"\n", "  tx: B2\n"));  // sg48 numbers its pins
  check_first_error(l, "11:7", "board-value");
  l = load_text(replaced(kGood, "  tx: \"9\"\n", "  tx: \"49\"\n"));  // sg48 has 48
  check_first_error(l, "11:7", "board-value");
  l = load_text(replaced(kGood, "title: Test board\n", "title: \"  \"\n"));
  check_first_error(l, "1:8", "board-value");
  l = load_text(replaced(kGood, "leds:\n  - pin: \"37\"\n    active_low: true\n", "leds: []\n"));
  check_first_error(l, "7:7", "board-value");
}

TEST_CASE("board-unknown-key: with the keys there are and a suggestion") {
  Loaded l = load_text(replaced(kGood, "  mhz: 12\n", "  mzh: 12\n"));
  CHECK(l.error ==
        "b.yaml:4:1: error: clock is missing 'mhz' [board-missing-key]\n"
        "  clock:\n"
        "  ^~~~~\n"
        "b.yaml:6:3: error: unknown key 'mzh' in clock; the keys are pin, mhz, pll; did you mean 'mhz'? "
        "[board-unknown-key]\n"
        "    mzh: 12\n"
        "    ^~~\n");

  l = load_text(kGood + "colour: red\n");
  check_first_error(l, "19:1", "board-unknown-key");
}

TEST_CASE("several problems are all reported, in order") {
  Loaded l = load_text(replaced(replaced(kGood, "device: up5k\n", "device: nope\n"), "  rx: \"6\"\n", "  rx: x\n"));
  REQUIRE_FALSE(l.ok);
  const size_t device = l.error.find("b.yaml:2:9: error: unknown device 'nope'");
  const size_t rx = l.error.find("b.yaml:12:7: error: 'x' is not a package pin");
  CHECK(device != std::string::npos);
  CHECK(rx != std::string::npos);
  CHECK(device < rx);
}

TEST_CASE("find_board: unknown names, paths, unreadable files") {
  auto r = find_board("icebraker");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() ==
        "error: unknown board 'icebraker'; the bundled boards are hx8k_breakout, icebreaker, icestick, icesugar, "
        "tinyfpga_bx (a board file is given by a path ending in .yaml); did you mean 'icebreaker'? "
        "[board-unknown]\n");

  r = find_board("/nonexistent/folder/x.yaml");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error() == "/nonexistent/folder/x.yaml:1:1: error: cannot read the board file [board-file]\n");

  TempDir dir("polydat-boards");
  dir.write("mine.yml", kGood);
  r = find_board((dir.path() / "mine.yml").string());
  REQUIRE_MESSAGE(r.ok(), r.error());
  CHECK(r->name == "mine");

  r = find_board(dir.path().string());  // a folder
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("[board-file]") != std::string::npos);

  dir.write("big.yaml", "title: " + std::string(300 * 1024, 'x') + "\n");
  r = find_board((dir.path() / "big.yaml").string());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().find("error: the board file is") != std::string::npos);
  CHECK(r.error().find("[board-file]") != std::string::npos);
}

TEST_CASE("garbage, truncations and mutations neither crash nor hang the loader") {
  std::vector<std::string> inputs;
  std::mt19937 rng(20240601);
  auto byte = [&](int lo, int hi) { return static_cast<char>(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  // Random bytes, and random strings over YAML's punctuation.
  const std::string punct = "-:[]{},&*!|>'\"%@`#? \n\t0123456789abcxyz.~";
  for (int i = 0; i < 150; ++i) {
    std::string s;
    const int n = std::uniform_int_distribution<int>(0, 200)(rng);
    for (int k = 0; k < n; ++k) s += byte(0, 255);
    inputs.push_back(s);
    s.clear();
    for (int k = 0; k < n; ++k) s += punct[static_cast<size_t>(byte(0, static_cast<int>(punct.size()) - 1))];
    inputs.push_back(s);
  }
  // Every bundled file cut short at every 7th byte, and with bytes changed.
  for (const std::string& name : polydat::boards::board_names()) {
    const std::string text(*polydat::boards::bundled_board(name));
    for (size_t cut = 0; cut < text.size(); cut += 7) inputs.push_back(text.substr(0, cut));
    for (int i = 0; i < 40; ++i) {
      std::string s = text;
      for (int k = 0; k < 3; ++k)
        s[std::uniform_int_distribution<size_t>(0, s.size() - 1)(rng)] = punct[rng() % punct.size()];
      inputs.push_back(s);
    }
  }
  // Deep nesting, aliases, odd documents.
  inputs.push_back(std::string(100000, '['));
  inputs.push_back(std::string(100000, '{'));
  std::string nested;
  for (int i = 0; i < 3000; ++i) nested += std::string(static_cast<size_t>(i), ' ') + "a:\n";
  inputs.push_back(nested);
  inputs.push_back("a: &x [*x]\n");
  inputs.push_back("leds: &l [*l]\n");
  inputs.push_back("clock: &c {pin: *c, mhz: *c}\n");
  inputs.push_back(kGood + "x: &a [1,2]\ny: &b [*a,*a,*a,*a]\nz: [*b,*b,*b,*b]\n");
  inputs.push_back("\xef\xbb\xbf" + kGood);  // a byte order mark
  inputs.push_back(std::string("title: a\0b\n", 11));
  inputs.push_back("%YAML 1.2\n%YAML 1.2\n---\n");
  inputs.push_back("!!binary x: y\n");
  inputs.push_back("? [a, b]\n: c\n");
  inputs.push_back("leds:\n  - [1, 2]\n  - ~\n  - {pin: [1]}\n");

  TempDir dir("polydat-boards-fuzz");
  size_t ok = 0, rejected = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const fs::path file = dir.path() / ("f" + std::to_string(i) + ".yaml");
    dir.write(file.filename().string(), inputs[i]);
    auto r = load_board_file(file);
    if (r.ok()) {
      ++ok;
      CHECK_FALSE(r->leds.empty());
      continue;
    }
    ++rejected;
    const std::string& e = r.error();
    CAPTURE(i);
    CHECK(e.rfind(file.string() + ":", 0) == 0);
    CHECK(e.find(": error: ") != std::string::npos);
    CHECK(e.find(" [board-") != std::string::npos);
    CHECK(e.back() == '\n');
  }
  MESSAGE(inputs.size() << " inputs: " << ok << " loaded, " << rejected << " rejected");
  CHECK(inputs.size() >= 300);
  CHECK(ok > 0);  // some truncations and mutations still load
}

TEST_CASE("the icebreaker .pcf") {
  CHECK(polydat::boards::pcf(bundled("icebreaker")) ==
        "# polydat board top for 1BitSquared iCEBreaker v1.0 (icebreaker): up5k sg48\n"
        "# pins from: icebreaker-fpga/icebreaker-verilog-examples icebreaker.pcf (the same file as "
        "YosysHQ/icestorm examples/icebreaker/icebreaker.pcf): CLK 35 (12 MHz), RX 6, TX 9, BTN_N 10, LEDR_N 11, "
        "LEDG_N 37.\n"
        "set_io -nowarn clk 35\n"
        "set_io -nowarn uart_tx 9\n"
        "set_io -nowarn led 37\n"
        "set_io -nowarn rst_btn 10\n");
}

TEST_CASE("a .pcf without a button has no rst_btn, and names ports from top_ports.h") {
  const std::string text = polydat::boards::pcf(bundled("icestick"));
  CHECK(text.find("rst_btn") == std::string::npos);
  CHECK(text.find(std::string("set_io -nowarn ") + polydat::boards::kClockPort + " 21\n") != std::string::npos);
  CHECK(text.find(std::string("set_io -nowarn ") + polydat::boards::kUartTxPort + " 8\n") != std::string::npos);
  CHECK(text.find(std::string("set_io -nowarn ") + polydat::boards::kLedPort + " 95\n") != std::string::npos);
}

TEST_CASE("every bundled board's pins place with yosys and nextpnr-ice40") {
  const std::string yosys = on_path("yosys"), nextpnr = on_path("nextpnr-ice40");
  if (yosys.empty() || nextpnr.empty()) {
    MESSAGE("skipped: yosys or nextpnr-ice40 is not on PATH");
    return;
  }
  using polydat::boards::kClockPort, polydat::boards::kLedPort, polydat::boards::kResetPort,
      polydat::boards::kUartTxPort;
  for (const std::string& name : polydat::boards::board_names()) {
    CAPTURE(name);
    const Board b = bundled(name);
    TempDir dir("polydat-boards-pnr");
    // A counter on the PLL's clock (the primitive the board file names, which
    // nextpnr must place on that pin): the LED blinks, uart_tx toggles, the button clears it.
    const bool pad = b.pll_input == polydat::boards::PllInput::Pad;
    std::string v = "module t(input " + std::string(kClockPort) + ", output " + kUartTxPort + ", output " + kLedPort;
    if (b.reset_button) v += std::string(", input ") + kResetPort;
    v += ");\n  reg [23:0] c = 0;\n  wire pclk, lock;\n";
    v += std::string("  ") + (pad ? "SB_PLL40_PAD" : "SB_PLL40_CORE") +
         " #(.FEEDBACK_PATH(\"SIMPLE\"), .DIVR(4'd0), .DIVF(7'd63), .DIVQ(3'd4), .FILTER_RANGE(3'd1)) pll (." +
         (pad ? "PACKAGEPIN" : "REFERENCECLK") + "(" + kClockPort +
         "), .PLLOUTGLOBAL(pclk), .LOCK(lock), .RESETB(1'b1), .BYPASS(1'b0));\n";
    v += std::string("  always @(posedge pclk) c <= ") +
         (b.reset_button ? std::string(kResetPort) + " ? 24'd0 : c + 1" : std::string("c + 1")) + ";\n";
    v += std::string("  assign ") + kLedPort + " = c[23];\n  assign " + kUartTxPort + " = c[9];\nendmodule\n";
    dir.write("t.v", v);
    dir.write("t.pcf", polydat::boards::pcf(b));
    auto y = polydat::testing::run_process(
        yosys, {"yosys", "-q", "-p", "read_verilog t.v; synth_ice40 -top t -json t.json"}, dir.path());
    CHECK_MESSAGE(y.status == 0, (y.err + y.out));
    if (y.status != 0) continue;
    auto p = polydat::testing::run_process(
        nextpnr, {"nextpnr-ice40", "--" + b.device, "--package", b.package, "--json", "t.json", "--pcf", "t.pcf",
                  "--asc", "t.asc"},
        dir.path());
    CHECK_MESSAGE(p.status == 0, (p.err + p.out));
    if (p.status != 0) continue;
    // Every port of the top sits on the board file's pin.
    std::vector<std::string> ports = {kClockPort, kUartTxPort, kLedPort};
    if (b.reset_button) ports.push_back(kResetPort);
    for (const std::string& port : ports)
      CHECK_MESSAGE(p.err.find("constrained '" + port + "' to bel") != std::string::npos, p.err);
    CHECK_MESSAGE(p.err.find("ICESTORM_PLL:     1/") != std::string::npos, p.err);
    CHECK(fs::file_size(dir.path() / "t.asc") > 0);

    // A planted fault: the other primitive does not place on this pin, so a wrong clock.pll is caught.
    std::string other = v;
    other.replace(other.find(pad ? "SB_PLL40_PAD" : "SB_PLL40_CORE"), 13, pad ? "SB_PLL40_CORE" : "SB_PLL40_PAD");
    other.replace(other.find(pad ? ".PACKAGEPIN(" : ".REFERENCECLK("), pad ? 12 : 14, pad ? ".REFERENCECLK(" : ".PACKAGEPIN(");
    dir.write("u.v", other);
    auto yu = polydat::testing::run_process(
        yosys, {"yosys", "-q", "-p", "read_verilog u.v; synth_ice40 -top t -json u.json"}, dir.path());
    REQUIRE_MESSAGE(yu.status == 0, (yu.err + yu.out));
    auto pu = polydat::testing::run_process(
        nextpnr, {"nextpnr-ice40", "--" + b.device, "--package", b.package, "--json", "u.json", "--pcf", "t.pcf",
                  "--asc", "u.asc"},
        dir.path());
    CHECK(pu.status != 0);
    CHECK_MESSAGE(pu.err.find("PLL") != std::string::npos, pu.err);
  }
}

// HLS sizes a design for the iCEBreaker's part when none is named (hls/ cannot
// read fpga/'s table): its default must be that part as the flow measures it.
TEST_CASE("boards: HLS's default part is the iCEBreaker's, with fpga's resources") {
  const auto board = find_board("icebreaker");
  REQUIRE(board.ok());
  const polydat::fpga::Device* device = polydat::fpga::find_device(board->device);
  REQUIRE(device != nullptr);
  const auto capacity = polydat::hls::default_capacity(polydat::hls::Target::Ice40);
  REQUIRE(capacity.has_value());
  CHECK(capacity->device == device->name);
  CHECK(capacity->luts == device->luts);
  CHECK(capacity->ffs == device->ffs);
  CHECK(capacity->carries == device->carries);
  CHECK(capacity->dsps == device->dsps);
  CHECK_FALSE(polydat::hls::default_capacity(polydat::hls::Target::Generic).has_value());
}
