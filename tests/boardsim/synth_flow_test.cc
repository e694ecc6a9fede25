// `polydat synth` end to end: with stand-in tools on PATH (fast: progress
// lines, -dsp, the PLL in the board top, --close-timing's stop and best
// attempt), and with the real tools for the QoR wrapper and the PLL.
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

#include "tests/fpga/fake_tools.h"
#include "tests/boardsim/board_support.h"
#include "tests/support/process.h"

using namespace polydat;
namespace fs = std::filesystem;

namespace {


using boardtest::run_polydat;
std::string kernel(const std::string& name) { return boardtest::corpus_kernel(name); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

nlohmann::json report(const fs::path& dir) { return nlohmann::json::parse(testing::read_file(dir / "report.json")); }

// An environment variable for one scope.
class Env {
 public:
  Env(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~Env() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A folder with the stand-in tools, first (and only) on PATH for the scope.
struct FakeTools {
  testing::TempDir tmp{"polydat-synth-fake"};
  std::optional<Env> path;
  explicit FakeTools(double step_s = 0.01) {
    fpga::test_tools::FakeTiming t;
    t.step_s = step_s;
    fpga::test_tools::write_fake_tools(tmp.path() / "bin", t);
    path.emplace("PATH", (tmp.path() / "bin").string());
  }
};

}  // namespace

TEST_CASE("synth progress: while Yosys and nextpnr run, a line on stderr every interval with the step reached") {
  FakeTools fake(0.15);
  const fs::path dir = fake.tmp.path() / "out";
  const auto r = run_polydat({"synth", kernel("affine"), "--device", "up5k", "--progress", "0.1", "-o", dir.string()},
                             fake.tmp.path());
  INFO(r.out);
  INFO(r.err);
  CHECK(r.status == 0);
  // The step lines on stdout, the running ones on stderr: the tool, the seconds, the step.
  CHECK(contains(r.out, "yosys synth_ice40 -top polydat_qor"));
  const std::regex yosys_line(R"(\.\.\. yosys: [0-9]+ s, 2\.40\.1\. Executing ABC\.)");
  const std::regex nextpnr_line(R"(\.\.\. nextpnr-ice40: [0-9]+ s, Routing\.\. router iteration 1000, 218 arcs left)");
  CHECK(std::regex_search(r.err, yosys_line));
  CHECK(std::regex_search(r.err, nextpnr_line));
  size_t lines = 0;
  for (const std::string& l : testing::split_lines(r.err)) lines += contains(l, "... yosys: ");
  CHECK(lines >= 8);  // two Yosys runs (the kernel, the wrapper's cost) of about 0.75 s each
}

TEST_CASE("synth planted fault: with a 10 s interval a short run prints no progress line, so the check above bites") {
  FakeTools fake(0.05);
  const auto r = run_polydat({"synth", kernel("affine"), "--device", "up5k", "-o", (fake.tmp.path() / "out").string()},
                             fake.tmp.path());
  CHECK(r.status == 0);
  CHECK_FALSE(contains(r.err, "... yosys: "));
}

TEST_CASE("synth --dsp: synth_ice40 -dsp only when the device has DSPs and --dsp is not 0") {
  FakeTools fake;
  struct Case {
    std::vector<std::string> args;
    bool dsp;
  };
  const std::vector<Case> cases = {
      {{"--device", "up5k"}, true},          {{"--device", "up5k", "--dsp", "0"}, false},
      {{"--device", "up5k", "--dsp", "4"}, true}, {{"--device", "hx8k"}, false},
      {{"--device", "hx8k", "--dsp", "4"}, false}, {{"--board", "icebreaker"}, true},
      {{"--board", "icebreaker", "--dsp", "0"}, false}, {{"--board", "tinyfpga_bx"}, false}};
  int n = 0;
  for (const Case& c : cases) {
    const fs::path dir = fake.tmp.path() / ("out" + std::to_string(n++));
    std::vector<std::string> args = {"synth", kernel("affine"), "-o", dir.string()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto r = run_polydat(args, fake.tmp.path());
    std::string shown;
    for (const std::string& a : c.args) shown += a + " ";
    CAPTURE(shown);
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(contains(testing::read_file(dir / "synth.ys"), " -dsp ") == c.dsp);
    CHECK(report(dir)["dsp"] == c.dsp);
    if (c.args[0] == "--device")  // the wrapper's own cost is measured the same way
      CHECK(contains(testing::read_file(dir / "wrapper-1" / "synth.ys"), " -dsp ") == c.dsp);
  }
}

TEST_CASE("synth --device: the kernel inside the QoR wrapper, and the wrapper's own cost apart") {
  FakeTools fake;
  const fs::path dir = fake.tmp.path() / "out";
  const auto r = run_polydat({"synth", kernel("bitwise"), "--device", "up5k", "-o", dir.string()}, fake.tmp.path());
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const std::string sv = testing::read_file(dir / "polydat_qor.sv");
  CHECK(contains(sv, "module polydat_qor ("));
  CHECK(contains(sv, "bitwise u_kernel ("));
  CHECK(contains(sv, "module bitwise ("));
  const std::string null_sv = testing::read_file(dir / "wrapper-1" / "polydat_qor.sv");
  CHECK(contains(null_sv, "polydat_null_kernel u_kernel ("));
  CHECK_FALSE(contains(null_sv, "module bitwise"));
  // The stand-ins report 17 logic cells for both: the kernel's own is the difference.
  const nlohmann::json j = report(dir);
  CHECK(j["wrapper"]["logic_cells"] == 17);
  CHECK(j["kernel"]["logic_cells"] == 0);
  CHECK(j["kernel"]["luts"] == 0);
  CHECK(j["hls"]["ii"] == 1);
  CHECK(contains(r.out, "wrapper        17 logic cells"));
  CHECK(contains(r.out, "kernel         0 logic cells"));
}

TEST_CASE("synth --board --freq: the PLL in the board top, SB_PLL40_PAD or _CORE as the board needs") {
  FakeTools fake;
  struct Case {
    const char* board;
    const char* freq;
    const char* primitive;  // nullptr: no PLL
  };
  for (const Case& c : {Case{"icebreaker", "48", "SB_PLL40_PAD"}, Case{"hx8k_breakout", "48", "SB_PLL40_CORE"},
                        Case{"icebreaker", "12", nullptr}, Case{"tinyfpga_bx", "16", nullptr}}) {
    const std::string board = c.board;
    CAPTURE(board);
    const fs::path dir = fake.tmp.path() / (board + c.freq);
    const auto r = run_polydat({"synth", kernel("affine"), "--board", c.board, "--freq", c.freq, "-o", dir.string()},
                               fake.tmp.path());
    INFO(r.err);
    REQUIRE(r.status == 0);
    const std::string sv = testing::read_file(dir / "polydat_board.sv");
    const nlohmann::json j = report(dir);
    CHECK(contains(testing::read_file(dir / "run.sh"), std::string("--freq ") + c.freq + " "));
    if (c.primitive) {
      CHECK(contains(sv, std::string(c.primitive) + " #("));
      CHECK(contains(sv, ".DIVF(7'b0111111)"));  // icepll -i 12 -o 48: DIVR 0, DIVF 63, DIVQ 4
      CHECK(contains(sv, ".DIVQ(3'b100)"));
      CHECK(contains(sv, "#(.DIVISOR(417))"));  // 48 MHz / 115200 baud
      CHECK(j["pll"]["out_mhz"] == 48.0);
      CHECK(j["pll"]["primitive"] == c.primitive);
      CHECK(j["hls"]["clock_ns"].get<double>() == doctest::Approx(1000.0 / 48));
    } else {
      CHECK_FALSE(contains(sv, "SB_PLL40"));
      CHECK_FALSE(j.contains("pll"));
    }
  }
}

TEST_CASE("synth --close-timing: stops when the schedule repeats, and keeps the best attempt") {
  FakeTools fake;
  SUBCASE("the same schedule twice: stop") {
    // One xor, one LUT level: every period gives one stage (an operation longer than a step sits
    // alone in its stage), so the design cannot change.
    fake.tmp.write("add.gk", "input cycle: u8\ny := cycle ^ (cycle >> 3)\n");
    Env fmax("FAKE_FMAX", "5");
    Env counter("FAKE_COUNTER", (fake.tmp.path() / "count").string());
    const fs::path dir = fake.tmp.path() / "same";
    const auto r = run_polydat({"synth", "add.gk", "--board", "icebreaker", "--close-timing", "-o", dir.string()},
                               fake.tmp.path());
    INFO(r.out);
    INFO(r.err);
    CHECK(r.status == 3);  // 5 MHz misses 12: exit 3
    CHECK(contains(r.out, "scheduling again"));
    CHECK(contains(r.out, "the design is the same as attempt 1's: stopping"));
    CHECK(contains(r.out, "best: attempt 1 of 1"));
    CHECK_FALSE(fs::exists(dir / "attempt-2"));
  }
  SUBCASE("the best Fmax wins, not the last") {
    // A loop whose states grow as the period shrinks; the stand-in nextpnr gives 9, 5, 7, 6 MHz: the
    // first attempt is the fastest, and a later, slower one must not replace it.
    fake.tmp.write("fsm32.gk",
                   "input cycle: u32\nh := loop (s = cycle, i = 0) while i < 8 {\n    s = (s * 0x9E3779B9) ^ (s >> 15)\n"
                   "    i = i + 1\n} yield s\n");
    Env fmax("FAKE_FMAX", "9 5 7 6");
    Env counter("FAKE_COUNTER", (fake.tmp.path() / "count2").string());
    const fs::path dir = fake.tmp.path() / "best";
    const auto r = run_polydat({"synth", "fsm32.gk", "--board", "icebreaker", "--close-timing", "-o", dir.string()},
                               fake.tmp.path());
    INFO(r.out);
    INFO(r.err);
    CHECK(r.status == 3);
    // Whatever number of attempts ran, the one reported is the fastest.
    const nlohmann::json j = report(dir);
    const int attempts = j["attempts"];
    REQUIRE(attempts >= 2);
    const std::vector<double> fmax_list = {9, 5, 7, 6};
    double best = 0;
    int best_at = 0;
    for (int a = 1; a <= attempts; ++a)
      if (fmax_list[a - 1] > best) best = fmax_list[a - 1], best_at = a;
    CHECK(j["achieved_mhz"].get<double>() == best);
    CHECK(j["attempt"] == best_at);
    CHECK(best_at == 1);
    CHECK(contains(r.out, "best: attempt " + std::to_string(best_at) + " of " + std::to_string(attempts)));
    // The folder holds the best attempt's files; each attempt kept its own.
    CHECK(contains(testing::read_file(dir / "polydat_board.asc"), "Fmax " + std::to_string(int(best))));
    for (int a = 1; a <= attempts; ++a) CHECK(fs::exists(dir / ("attempt-" + std::to_string(a)) / "polydat_board.asc"));
  }
}

TEST_CASE("synth --device with the real tools: a 64-bit kernel fits an UP5K in SG48 inside the QoR wrapper") {
  testing::TempDir tmp("polydat-synth-wrapper");
  const fs::path dir = tmp.path() / "out";
  const auto r = run_polydat({"synth", kernel("bitwise"), "--device", "up5k", "-o", dir.string()}, tmp.path());
  INFO(r.out);
  INFO(r.err);
  REQUIRE((r.status == 0 || r.status == 3));  // fits; the clock may or may not be met
  const nlohmann::json j = report(dir);
  CHECK(j["fits"] == true);
  // Three pins: clk, rst and the folded output (64-bit ports alone would need 279).
  const nlohmann::json pnr = nlohmann::json::parse(testing::read_file(dir / "nextpnr_report.json"));
  CHECK(pnr["utilization"]["SB_IO"]["used"] == 3);
  // The wrapper's own cost: the LFSR's 64 flip-flops at least; the kernel's is the rest.
  const int total = j["logic_cells"], wrapper = j["wrapper"]["logic_cells"], own = j["kernel"]["logic_cells"];
  CHECK(j["wrapper"]["ffs"].get<int>() >= 64);
  CHECK(wrapper < total);
  CHECK(own == total - wrapper);
  CHECK(j["kernel"]["ffs"] == j["ffs"]["used"].get<int>() - j["wrapper"]["ffs"].get<int>());
}

TEST_CASE("synth --board --freq with the real tools: the iCEBreaker at 48 MHz through its PLL places and routes") {
  testing::TempDir tmp("polydat-synth-pll");
  const fs::path dir = tmp.path() / "out";
  const auto r = run_polydat({"synth", kernel("affine"), "--board", "icebreaker", "--freq", "48", "-o", dir.string()},
                             tmp.path());
  INFO(r.out);
  INFO(r.err);
  REQUIRE((r.status == 0 || r.status == 3));
  const nlohmann::json j = report(dir);
  CHECK(j["fits"] == true);
  CHECK(j["requested_mhz"] == 48.0);
  const nlohmann::json pnr = nlohmann::json::parse(testing::read_file(dir / "nextpnr_report.json"));
  CHECK(pnr["utilization"]["ICESTORM_PLL"]["used"] == 1);
  // The one clock nextpnr times is the PLL's output, asked for 48 MHz.
  REQUIRE(pnr["fmax"].contains("pll_clk"));
  CHECK(pnr["fmax"]["pll_clk"]["constraint"] == 48.0);
  CHECK(fs::file_size(dir / "polydat_board.bin") > 1000);
}
