#include <doctest/doctest.h>

#include "frontend/compile.h"
#include "flow/engines.h"
#include "flow/pipeline.h"
#include "hls/design.h"
#include "sim/cosim.h"

using namespace polydat;

TEST_CASE("smoke: a pipeline and an FSM through Verilator agree with the interpreter") {
  for (const char* text : {"input cycle: u64\nid := mod(hash(cycle), 1000)\n",
                           "input n: u64\nm := n % 32\ns := loop (i = 0, acc = 0) while i < m { acc = acc + i * i; i = i + 1 } yield acc\n"}) {
    auto r = frontend::compile_source("k.gk", text);
    REQUIRE(r.ok());
    auto opt = flow::optimize(r);
    REQUIRE(opt.ok());
    auto s = flow::schedule(*opt);
    REQUIRE(s.ok());
    const flow::Emitted e = flow::emit(std::move(*s));
    const hls::Design& d = e.design;
    sim::Batch batch;
    for (uint64_t c = 0; c < 500; ++c) batch.inputs.push_back({ir::Value::integer(ir::TyKind::U64, c)});
    auto oracle = flow::make_engine("interp", flow::subject_of(*opt));
    REQUIRE(oracle.ok());
    auto expected = (*oracle)->run(batch);
    REQUIRE(expected.ok());
    for (double stall : {0.0, 0.3}) {
      flow::EngineOptions eo;
      eo.stall = stall;
      eo.cache = POLYDAT_TEST_CACHE;
      auto engine = flow::make_engine("verilator", flow::subject_of(e), eo);
      REQUIRE_MESSAGE(engine.ok(), (engine.ok() ? "" : engine.error()));
      auto got = (*engine)->run(batch);
      REQUIRE_MESSAGE(got.ok(), (got.ok() ? "" : got.error()));
      const sim::CosimReport rep = sim::compare(d, batch, *expected, *got, stall == 0.0);
      INFO(sim::render(rep, d));
      CHECK(rep.ok());
      CHECK(rep.compared == 500);
    }
  }
}
