// The pipeline's stage results: config fields from the externs, the optimised IR, a refusal's
// kind and place, and the module emitted once with its name and ports.
#include <doctest/doctest.h>

#include <string>

#include "flow/pipeline.h"
#include "ir/op.h"

using namespace polydat;

TEST_CASE("pipeline: config fields are the externs, in the input struct's order") {
  const frontend::CompileResult r =
      frontend::compile_source("k.gk", "input cycle: u64\nextern bound: u64 = 10\nid := cycle % bound\n");
  REQUIRE(r.ok());
  CHECK(flow::config_fields(r) == std::vector<bool>{false, true});
  auto opt = flow::optimize(r);
  REQUIRE(opt.ok());
  CHECK(opt->config_fields == std::vector<bool>{false, true});
}

TEST_CASE("pipeline: schedule refuses a kernel HLS cannot take, with its kind and line") {
  const frontend::CompileResult r = frontend::compile_source("k.gk", "input x: f64\ny := x * 2.0\n");
  REQUIRE(r.ok());
  auto s = flow::schedule(*flow::optimize(r));
  REQUIRE(!s.ok());
  CHECK(s.error().kind == "no-hardware-width");
  CHECK(s.error().loc.line == 1);
  auto h = flow::hardware(r);
  REQUIRE(!h.ok());
  CHECK(h.error().kind == "no-hardware-width");
  const frontend::CompileResult bad = frontend::compile_source("k.gk", "y := nope(1)\n");
  auto hb = flow::hardware(bad);
  REQUIRE(!hb.ok());
  CHECK(hb.error().kind == "compile");
  CHECK(hb.error().message.find("unknown function 'nope'") != std::string::npos);
}

TEST_CASE("pipeline: the emitted module carries the name and ports of its one emission") {
  auto e = flow::hardware(frontend::compile_source("logic.gk", "input valid: u64\nextern k: u8 = 3\ny := valid + k\n"));
  REQUIRE(e.ok());
  CHECK(e->module.name == "k_logic");  // `logic` is a SystemVerilog keyword
  CHECK(e->module.text.find("module k_logic (") != std::string::npos);
  CHECK(e->module.ports.configs == std::vector<std::string>{"cfg_k"});
  CHECK(e->module.ports.inputs == std::vector<std::string>{"in_valid_0"});  // `in_valid` is the handshake's
  CHECK(e->module.ports.outputs == std::vector<std::string>{"out_y"});
  CHECK(rtl::emit_module(e->design).text == e->module.text);
}
