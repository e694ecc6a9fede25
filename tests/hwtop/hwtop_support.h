// What the workload-hardware suites share: loading a workload (a file or
// text), lowering it, running it in software, simulating its top.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "hwtop/decode.h"
#include "hwtop/emit_top.h"
#include "hwtop/lower.h"
#include "hwtop/sim_top.h"
#include "tests/rtl/rtl_support.h"
#include "workload/model.h"
#include "workload/runner.h"

namespace polydat::hwtop::test {

inline const std::filesystem::path kExamples = std::filesystem::path(POLYDAT_SOURCE_ROOT) / "examples" / "workloads";

inline workload::Workload load_text(const std::string& text, const std::string& path = "hw.yaml") {
  auto w = workload::parse_workload_text(text, path);
  REQUIRE_MESSAGE(static_cast<bool>(w), (w ? "" : w.error().rendered));
  return std::move(*w);
}

inline workload::Workload load_example(const std::string& name) {
  auto w = workload::load_workload_file(kExamples / name);
  REQUIRE_MESSAGE(static_cast<bool>(w), (w ? "" : w.error().rendered));
  return std::move(*w);
}

inline HwWorkload lower(const workload::Workload& w, const workload::RunOptions& run = {}) {
  auto hw = lower_workload(w, run, HwOptions{});
  REQUIRE_MESSAGE(static_cast<bool>(hw), (hw ? "" : hw.error()));
  return std::move(*hw);
}

// The refusal lowering gives (fails the test when it lowers).
inline std::string refusal(const workload::Workload& w) {
  auto hw = lower_workload(w, {}, HwOptions{});
  REQUIRE_FALSE(static_cast<bool>(hw));
  return hw.error();
}

// polydat run's output on the interpreter.
inline std::string run_lines(const workload::Workload& w, const workload::RunOptions& run = {}) {
  std::string out;
  auto r = workload::run_workload(w, run, [&](const std::string& t) {
    out += t;
    return true;
  });
  REQUIRE_MESSAGE(static_cast<bool>(r), (r ? "" : r.error()));
  return out;
}

inline TopSimOptions sim_options(bool systemc, double stall, uint64_t seed = 1) {
  TopSimOptions o;
  o.systemc = systemc;
  o.stall = stall;
  o.seed = seed;
  o.cache = POLYDAT_TEST_CACHE;
  return o;
}

// The top simulated and its records decoded into lines.
inline std::string hardware_lines(const HwWorkload& hw, const TopSimOptions& o,
                                  workload::LineFormat format = workload::LineFormat::Stmt) {
  auto sim = simulate_top(hw, o);
  REQUIRE_MESSAGE(static_cast<bool>(sim), (sim ? "" : sim.error()));
  auto lines = decode_records(hw, sim->records, format);
  REQUIRE_MESSAGE(static_cast<bool>(lines), (lines ? "" : lines.error().message));
  return *lines;
}

// verilator --lint-only -Wall on the top's files, and the yosys check on all of it: silent and passing.
inline void check_lint_and_yosys(const HwWorkload& hw, const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(POLYDAT_TEST_CACHE) / "lint" / name;
  std::filesystem::create_directories(dir);
  for (const auto& [file, text] : sv_files(hw)) std::ofstream(dir / file) << text;
  const rtltest::ToolRun lint = rtltest::verilator_lint(dir / (hw.top + ".sv"));
  CHECK_MESSAGE(lint.status == 0, "verilator --lint-only -Wall exited " << lint.status << ":\n" << lint.output);
  CHECK_MESSAGE(lint.output.empty(), "verilator --lint-only -Wall said:\n" << lint.output);
  std::ofstream(dir / "all.sv") << emit_all(hw);
  const rtltest::ToolRun ys = rtltest::yosys_check(dir / "all.sv", hw.top);
  CHECK_MESSAGE(ys.status == 0, "yosys check exited " << ys.status << ":\n" << ys.output);
  CHECK_MESSAGE(rtltest::complaints(ys.output).empty(), "yosys check said:\n" << ys.output);
}

}  // namespace polydat::hwtop::test
