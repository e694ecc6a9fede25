#include <doctest/doctest.h>

#include "frontend/compile.h"
#include "hls/design.h"
#include "ir/pass_pipeline.h"
#include "sim/cosim.h"
#include "sim/interpreter_engine.h"
#include "sim/verilator/verilator_engine.h"

using namespace polydat;

TEST_CASE("smoke: a pipeline and an FSM through Verilator agree with the interpreter") {
  for (const char* text : {"input cycle: u64\nid := mod(hash(cycle), 1000)\n",
                           "input n: u64\nm := n % 32\ns := loop (i = 0, acc = 0) while i < m { acc = acc + i * i; i = i + 1 } yield acc\n"}) {
    auto r = frontend::compile_source("k.gk", text);
    REQUIRE(r.ok());
    auto opt = ir::optimize(*r.ir);
    REQUIRE(opt.ok());
    auto d = hls::synthesize(*opt, opt->entry(), {false}, hls::HlsOptions{});
    REQUIRE(d.ok());
    sim::Batch batch;
    for (uint64_t c = 0; c < 500; ++c) batch.inputs.push_back({ir::Value::integer(ir::TyKind::U64, c)});
    sim::InterpreterEngine oracle(*opt, {false});
    auto expected = oracle.run(batch);
    REQUIRE(expected.ok());
    for (double stall : {0.0, 0.3}) {
      sim::VerilatorOptions vo;
      vo.stall = stall;
      vo.cache = POLYDAT_TEST_CACHE;
      sim::VerilatorEngine engine(*d, vo);
      auto got = engine.run(batch);
      REQUIRE_MESSAGE(got.ok(), (got.ok() ? "" : got.error()));
      const sim::CosimReport rep = sim::compare(*d, batch, *expected, *got, stall == 0.0);
      INFO(sim::render(rep, *d));
      CHECK(rep.ok());
      CHECK(rep.compared == 500);
    }
  }
}
