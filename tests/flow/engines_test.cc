// The engine registry: the names the commands offer, the refusals of make_engine, and every
// engine made from it running the same kernel as the interpreter.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "flow/engines.h"
#include "flow/pipeline.h"

using namespace polydat;

namespace {

flow::Emitted hardware_of(const std::string& text) {
  auto e = flow::hardware(frontend::compile_source("k.gk", text));
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? "" : e.error().message));
  return std::move(*e);
}

sim::Batch cycles(uint64_t n) {
  sim::Batch b;
  for (uint64_t c = 0; c < n; ++c) b.inputs.push_back({ir::Value::integer(ir::TyKind::U64, c)});
  return b;
}

}  // namespace

TEST_CASE("engines: the registry lists every engine, in order, by kind") {
  CHECK(flow::engine_names() == std::vector<std::string>{"interp", "llvm", "verilator", "systemc", "iverilog"});
  CHECK(flow::engine_names(flow::EngineKind::Software) == std::vector<std::string>{"interp", "llvm"});
  CHECK(flow::engine_names(flow::EngineKind::Rtl) == std::vector<std::string>{"verilator", "systemc", "iverilog"});
  for (const flow::EngineInfo& e : flow::engines()) {
    CHECK(flow::find_engine(e.name) == &e);
    CHECK(static_cast<bool>(e.make));
    CHECK(!e.summary.empty());
  }
  CHECK(flow::find_engine("verilog") == nullptr);
}

TEST_CASE("engines: make_engine refuses what an engine cannot take, by name") {
  const flow::Emitted k = hardware_of("input cycle: u64\nid := mod(hash(cycle), 1000)\n");
  const flow::EngineSubject software = flow::subject_of(static_cast<const flow::Optimized&>(k));
  const flow::EngineSubject rtl = flow::subject_of(k);
  auto unknown = flow::make_engine("verilog", rtl);
  REQUIRE(!unknown.ok());
  CHECK(unknown.error() == "no engine is called 'verilog'");
  auto no_design = flow::make_engine("verilator", software);
  REQUIRE(!no_design.ok());
  CHECK(no_design.error() == "the verilator engine needs a hardware design and its module");
  flow::EngineOptions stalls;
  stalls.stall = 0.3;
  auto stalled = flow::make_engine("llvm", software, stalls);
  REQUIRE(!stalled.ok());
  CHECK(stalled.error().find("need an RTL engine") != std::string::npos);
  flow::EngineOptions trace;
  trace.trace = "t.vcd";
  auto traced = flow::make_engine("iverilog", rtl, trace);
  REQUIRE(!traced.ok());
  CHECK(traced.error() == "the iverilog engine writes no trace");
  flow::EngineOptions idle;
  idle.max_idle = 10;
  auto idled = flow::make_engine("interp", software, idle);
  REQUIRE(!idled.ok());
  CHECK(idled.error().find("an idle limit") != std::string::npos);
  flow::EngineOptions iterations;
  iterations.max_iterations = 5;
  auto counted = flow::make_engine("llvm", software, iterations);
  REQUIRE(!counted.ok());
  CHECK(counted.error() == "the llvm engine takes no iteration limit: only the interpreter counts a loop's back edges");
}

// The limit reaches the interpreter: a loop of 10 trips runs under 10 back edges' limit and is reported under 5.
TEST_CASE("engines: the interpreter's iteration limit is the one given") {
  const flow::Emitted k = hardware_of("input n: u64\nout := loop (i = 0) while i < n { i = i + 1 } yield i\n");
  sim::Batch ten;
  ten.inputs.push_back({ir::Value::integer(ir::TyKind::U64, 10)});
  for (uint64_t limit : {10u, 5u}) {
    CAPTURE(limit);
    flow::EngineOptions o;
    o.max_iterations = limit;
    auto e = flow::make_engine("interp", flow::subject_of(k), o);
    REQUIRE(e.ok());
    auto got = (*e)->run(ten);
    CHECK(got.ok() == (limit == 10));
  }
}

// The interpreter, LLVM and Icarus from the registry on one batch (Verilator's and SystemC's
// engines from it run in the sim and systemc suites, whose models are cached).
TEST_CASE("engines: what the registry makes agrees with the interpreter") {
  const flow::Emitted k = hardware_of("input cycle: u64\nid := mod(hash(cycle), 1000)\nbucket := id / 100\n");
  const sim::Batch batch = cycles(64);
  auto oracle = flow::make_engine("interp", flow::subject_of(k));
  REQUIRE(oracle.ok());
  auto want = (*oracle)->run(batch);
  REQUIRE(want.ok());
  REQUIRE(want->outputs.size() == 64);
  for (const char* name : {"llvm", "iverilog"}) {
    CAPTURE(name);
    auto e = flow::make_engine(name, flow::subject_of(k));
    REQUIRE(e.ok());
    CHECK((*e)->name() == name);
    REQUIRE((*e)->build().ok());
    auto got = (*e)->run(batch);
    REQUIRE_MESSAGE(got.ok(), (got.ok() ? "" : got.error()));
    CHECK(got->outputs == want->outputs);
  }
}
