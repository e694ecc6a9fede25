#include <doctest/doctest.h>
#include <xxhash.h>

#include "frontend/compile.h"
#include "ir/interp.h"
#include "ir/pass_pipeline.h"
#include "ir/validate.h"

using namespace polydat;

namespace {
frontend::CompileResult compile(const std::string& text) {
  auto r = frontend::compile_source("test.gk", text);
  INFO(r.render_diagnostics());
  return r;
}

// Evaluates the kernel's entry on one input struct of u64 fields.
ir::Value run(const frontend::CompileResult& r, std::vector<ir::Value> fields) {
  const ir::CategoryIr& g = *r.ir;
  const ir::Ty in = g.object(g.func(g.entry()).input).ty;
  const ir::Value arg = in.is_unit() ? ir::Value() : ir::Value::structure(in, std::move(fields));
  auto v = ir::evaluate(g, g.entry(), arg);
  REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
  return *v;
}
ir::Value u64(uint64_t v) { return ir::Value::integer(ir::TyKind::U64, v); }
}  // namespace

TEST_CASE("a first kernel compiles, validates and evaluates") {
  auto r = compile("input cycle: u64\nid := mod(hash(cycle), 1000)\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(ir::validate(*r.ir).empty());
  for (uint64_t c : {0ull, 1ull, 42ull, 12345ull}) {
    const ir::Value out = run(r, {u64(c)});
    CHECK(out.elems()[0].as_u64() == XXH3_64bits(&c, 8) % 1000);
  }
}

TEST_CASE("sum_to_n with a loop") {
  auto r = compile(
      "input n: u64\n"
      "total := loop (i = 1, acc = 0) while i <= n { acc = acc + i; i = i + 1 } yield acc\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(run(r, {u64(10)}).elems()[0].as_u64() == 55);
  CHECK(run(r, {u64(0)}).elems()[0].as_u64() == 0);
}

TEST_CASE("diagnostics render with file, line, column and caret") {
  auto r = compile("input x: u64\ny := x + z\n");
  REQUIRE_FALSE(r.ok());
  const std::string text = r.render_diagnostics();
  CHECK(text.find("test.gk:2:10: error: unknown name 'z'") != std::string::npos);
  CHECK(text.find("[unknown-name]") != std::string::npos);
  CHECK(text.find("  y := x + z\n") != std::string::npos);
  CHECK(text.find("           ^\n") != std::string::npos);
}

// Found by the native backend's kernel generator: a call leaving out a
// defaulted argument inside a loop guard crashed the guard check (it followed
// the empty argument slot).
TEST_CASE("a loop guard calling a module with a default argument compiles") {
  auto r = frontend::compile_source("guard.gk",
                                    "f(x: u64, k: u64 = 1) -> (y: u64) := {\n"
                                    "    y := x + k\n"
                                    "}\n"
                                    "input n: u64\n"
                                    "r := loop (i = 0) while i < (f(n) & 15) { i = i + 1 } yield i\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  auto out = ir::evaluate(*r.ir, r.ir->entry(),
                          ir::Value::structure(r.ir->object(r.ir->func(r.ir->entry()).input).ty,
                                               {ir::Value::integer(ir::TyKind::U64, 20)}));
  REQUIRE(out.ok());
  CHECK(out->elems().at(0).as_u64() == (20 + 1) % 16);  // 21 & 15 = 5 iterations
}

// Found by the kernel generator: a string inside an interpolation inside a
// string inside an interpolation, holding an escaped quote, was refused as
// unterminated (the brace matcher skipped the middle string to its first quote).
TEST_CASE("strings nest three deep through interpolations") {
  auto r = frontend::compile_source("nested.gk", "input n: u64\ns := \"<{\"[{\"\\\"{n}\"}]\"}>\"\nt := \"{{{\"}}\"}\"\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  auto out = ir::evaluate(*r.ir, r.ir->entry(),
                          ir::Value::structure(r.ir->object(r.ir->func(r.ir->entry()).input).ty,
                                               {ir::Value::integer(ir::TyKind::U64, 7)}));
  REQUIRE(out.ok());
  CHECK(out->elems().at(0).as_str() == "<[\"7]>");
  CHECK(out->elems().at(1).as_str() == "{}");
}

TEST_CASE("CompileOptions::outputs: the root's outputs are the ones asked for, in that order, and only their cone is lowered") {
  const std::string text =
      "input cycle: u64\n"
      "id := mod(hash(cycle), 1000)\n"
      "bucket := id / 100\n"
      "shard := mod(hash(id), 16)\n";
  const frontend::CompileResult all = compile(text);
  REQUIRE(all.ok());
  frontend::CompileOptions o;
  o.outputs = {"bucket", "id"};
  const frontend::CompileResult some = frontend::compile_source("test.gk", text, o);
  REQUIRE_MESSAGE(some.ok(), some.render_diagnostics());
  REQUIRE(some.kernel().outputs.size() == 2);
  CHECK(some.kernel().outputs[0].name == "bucket");
  CHECK(some.kernel().outputs[1].name == "id");
  // shard's hash is not in the cone: once optimised, fewer operations than the whole kernel.
  CHECK(ir::optimize(*some.ir)->morphisms().size() < ir::optimize(*all.ir)->morphisms().size());
  for (uint64_t c : {0ull, 7ull, 123456ull}) {
    const ir::Value a = run(all, {u64(c)}), s = run(some, {u64(c)});
    const uint64_t id = XXH3_64bits(&c, 8) % 1000;
    CHECK(s.elems()[0].as_u64() == id / 100);
    CHECK(s.elems()[1].as_u64() == id);
    CHECK(a.elems()[0].as_u64() == id / 100);  // the kernel's own outputs: its leaves, bucket and shard
  }
  o.outputs = {"nope"};
  const frontend::CompileResult bad = frontend::compile_source("test.gk", text, o);
  CHECK(!bad.ok());
  CHECK(bad.render_diagnostics().find("'nope' is asked for as an output, but it is not a binding of test.gk") !=
        std::string::npos);
}
