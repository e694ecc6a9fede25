// The workload top on a board: inside the board top (reset, UART, heartbeat),
// simulated whole in Verilator with the UART decoded bit by bit as a host
// would; the board lines parsed into records and decoded must be
// `polydat run`'s lines. A malformed or corrupted line must be caught.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>

#include "boards/board.h"
#include "boards/board_top.h"
#include "hwtop/board_stream.h"
#include "sim/verilator/board_sim.h"
#include "tests/hwtop/hwtop_support.h"

using namespace polydat;
using namespace polydat::hwtop;
using namespace polydat::hwtop::test;

namespace {

boards::Board board_named(const std::string& name) {
  auto b = boards::find_board(name);
  REQUIRE_MESSAGE(static_cast<bool>(b), name);
  return *b;
}

HwWorkload lower_for(const workload::Workload& w, const boards::Board& board) {
  HwOptions o;
  o.hls.clock_ns = 1000.0 / board.clock_mhz;
  auto hw = lower_workload(w, {}, o);
  REQUIRE_MESSAGE(static_cast<bool>(hw), (hw ? "" : hw.error()));
  return std::move(*hw);
}

struct BoardOutcome {
  std::vector<std::string> lines;  // as the UART carried them
  std::string decoded;
  uint64_t framing_errors = 0;
};

BoardOutcome run_on_board(const HwWorkload& hw, const boards::Board& board, size_t records) {
  const StreamModule stream = stream_module(hw);
  const boards::BoardTop top = boards::board_top(stream.ports, stream.sv, board, {});
  auto run = sim::simulate_board(top, board, records, POLYDAT_TEST_CACHE);
  REQUIRE_MESSAGE(static_cast<bool>(run), (run ? "" : run.error()));
  BoardOutcome o;
  o.lines = run->lines;
  o.framing_errors = run->framing_errors;
  std::vector<Record> recs;
  for (const std::string& line : run->lines) {
    auto r = parse_board_line(stream, line);
    REQUIRE_MESSAGE(static_cast<bool>(r), (r ? "" : r.error().message));
    recs.push_back(std::move(*r));
  }
  auto text = decode_records(hw, recs, workload::LineFormat::Stmt);
  REQUIRE(static_cast<bool>(text));
  o.decoded = *text;
  return o;
}

size_t line_count(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("board: the three-phase example and do_while on the iCEBreaker, scope_chain on the iCEstick") {
  for (const auto& [file, board_name] : std::vector<std::pair<std::string, std::string>>{
           {"three_phase.yaml", "icebreaker"}, {"do_while.yaml", "icebreaker"}, {"scope_chain.yaml", "icestick"}}) {
    CAPTURE(file);
    const workload::Workload w = load_example(file);
    const boards::Board board = board_named(board_name);
    const std::string want = run_lines(w);
    const BoardOutcome got = run_on_board(lower_for(w, board), board, line_count(want));
    CHECK(got.framing_errors == 0);
    CHECK(got.decoded == want);
  }
}

TEST_CASE("board: a malformed or corrupted line is caught") {
  const workload::Workload w = load_example("three_phase.yaml");
  const boards::Board board = board_named("icebreaker");
  const HwWorkload hw = lower_for(w, board);
  const StreamModule stream = stream_module(hw);
  const BoardOutcome got = run_on_board(hw, board, line_count(run_lines(w)));
  REQUIRE(!got.lines.empty());
  // Uppercase digits and a missing field are refused.
  std::string upper = got.lines.back();
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper != got.lines.back()) CHECK_FALSE(static_cast<bool>(parse_board_line(stream, upper)));
  CHECK_FALSE(static_cast<bool>(parse_board_line(stream, got.lines.back().substr(0, got.lines.back().rfind(' ')))));
  // One payload digit changed: the record decodes, to another line.
  std::vector<Record> recs;
  for (const std::string& line : got.lines) recs.push_back(*parse_board_line(stream, line));
  recs.back().payload[0] ^= 1;
  auto text = decode_records(hw, recs, workload::LineFormat::Stmt);
  REQUIRE(static_cast<bool>(text));
  CHECK(*text != got.decoded);
}
