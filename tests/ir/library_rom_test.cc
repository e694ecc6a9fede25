// The two table-driven operations: LibFn (a registry function, one operation)
// and Rom (a constant table), through builder, validator, interpreter, folder,
// copier and dump.
#include <doctest/doctest.h>

#include "ir/builder.h"
#include "ir/fold_pass.h"
#include "ir/graph_copier.h"
#include "ir/interp.h"
#include "ir/library_fn.h"
#include "ir/text_dump.h"
#include "ir/validate.h"
#include "tests/ir/graph_surgery.h"

namespace polydat::ir {
namespace {

uint32_t fn_id(std::string_view name) {
  const auto id = find_library_fn(name);
  REQUIRE(id);
  return *id;
}

// fn k(s: str) -> str = to_base64(s)
CategoryIr base64_kernel() {
  IrBuilder b;
  const FuncId f = b.declare("k", Ty::str(), Ty::str(), {}).value();
  FnBuilder fb = b.build_fn(f).value();
  const ObjectId r = fb.library(fn_id("to_base64"), fb.input(), Dest::fresh("r"), {}).value();
  REQUIRE(fb.output(r, std::nullopt, {}));
  REQUIRE(fb.finish());
  return std::move(b).seal(f).value();
}

// fn k(i: u8) -> u64 = [10, 20, 30][i % 3]
CategoryIr rom_kernel() {
  IrBuilder b;
  const FuncId f = b.declare("k", Ty::scalar(TyKind::U8), Ty::u64(), {}).value();
  FnBuilder fb = b.build_fn(f).value();
  std::vector<Value> entries{Value::integer(TyKind::U64, 10), Value::integer(TyKind::U64, 20),
                             Value::integer(TyKind::U64, 30)};
  const uint32_t rom = fb.add_rom(RomTable{Ty::u64(), entries}, {}).value();
  CHECK(fb.add_rom(RomTable{Ty::u64(), entries}, {}).value() == rom);  // an equal table is shared
  const ObjectId r = fb.rom(rom, fb.input(), Dest::fresh("r"), {}).value();
  REQUIRE(fb.output(r, std::nullopt, {}));
  REQUIRE(fb.finish());
  return std::move(b).seal(f).value();
}

}  // namespace

TEST_CASE("library op: evaluates through the registry, as the registry's own eval") {
  const CategoryIr g = base64_kernel();
  CHECK(validate(g).empty());
  const auto r = evaluate(g, g.entry(), Value::str("4d616e"));  // bytes travel as hex text: "Man"
  REQUIRE(r);
  CHECK(r->as_str() == "TWFu");  // RFC 4648's example
  CHECK(to_text(g).find("LibFn to_base64") != std::string::npos);
}

TEST_CASE("library op: the builder refuses arguments the function does not take") {
  IrBuilder b;
  const FuncId f = b.declare("k", Ty::u64(), Ty::str(), {}).value();
  FnBuilder fb = b.build_fn(f).value();
  const auto r = fb.library(fn_id("to_base64"), fb.input(), Dest::fresh(), {});
  REQUIRE(!r);
  CHECK(r.error().kind == IrErrorKind::TypeMismatch);
  const auto two = fb.library(fn_id("hashed_uuid"), fb.input(), Dest::fresh(), {});
  CHECK(two);  // hashed_uuid takes the u64
}

TEST_CASE("library op: the validator catches a registry index that does not exist") {
  CategoryIr g = base64_kernel();
  for (const Morphism& m : g.morphisms())
    if (m.op.kind == OpKind::LibFn) GraphSurgery::morphism(g, m.id).op = Operation::library(100000);
  const auto problems = validate(g);
  REQUIRE(!problems.empty());
  CHECK(problems.front().kind == IrErrorKind::TypeMismatch);
}

TEST_CASE("library op: a constant argument folds to the function's value") {
  IrBuilder b;
  const FuncId f = b.declare("k", Ty::unit(), Ty::str(), {}).value();
  FnBuilder fb = b.build_fn(f).value();
  const ObjectId s = fb.constant(Value::str("a b&c"), {}).value();
  const ObjectId r = fb.library(fn_id("url_encode"), s, Dest::fresh("r"), {}).value();
  REQUIRE(fb.output(r, std::nullopt, {}));
  REQUIRE(fb.finish());
  const CategoryIr g = std::move(b).seal(f).value();
  const CategoryIr folded = fold_constants(g).value();
  CHECK(to_text(folded).find("LibFn") == std::string::npos);
  CHECK(evaluate(folded, folded.entry(), Value())->as_str() == "a%20b%26c");  // python: urllib.parse.quote("a b&c", safe="")
}

TEST_CASE("rom op: entries by index, wrapping past the end, in the interpreter and the folder") {
  const CategoryIr g = rom_kernel();
  CHECK(validate(g).empty());
  const uint64_t want[] = {10, 20, 30, 10, 20};
  for (uint64_t i = 0; i < 5; ++i)
    CHECK(evaluate(g, g.entry(), Value::integer(TyKind::U8, i))->as_u64() == want[i]);
  CHECK(evaluate(g, g.entry(), Value::integer(TyKind::U8, 255))->as_u64() == 10);  // 255 % 3 == 0
  CHECK(to_text(g).find("rom #0: u64 x 3 = 10 20 30") != std::string::npos);
}

TEST_CASE("rom op: a copied graph keeps its tables and their ids") {
  const CategoryIr g = rom_kernel();
  const FuncId funcs[] = {g.entry()};
  const CategoryIr c = copy_graph(g, funcs, g.entry(), {}).value();
  REQUIRE(c.roms().size() == 1);
  CHECK(c.rom(0) == g.rom(0));
  CHECK(evaluate(c, c.entry(), Value::integer(TyKind::U8, 2))->as_u64() == 30);
}

TEST_CASE("rom op: the validator catches a table that does not exist and a wrong element type") {
  CategoryIr g = rom_kernel();
  for (const Morphism& m : g.morphisms())
    if (m.op.kind == OpKind::Rom) GraphSurgery::morphism(g, m.id).op = Operation::rom(7);
  auto problems = validate(g);
  REQUIRE(!problems.empty());
  CHECK(problems.front().kind == IrErrorKind::UnknownObject);
}

TEST_CASE("rom op: the builder refuses an empty table, mixed entries and a signed index") {
  IrBuilder b;
  const FuncId f = b.declare("k", Ty::scalar(TyKind::I32), Ty::u64(), {}).value();
  FnBuilder fb = b.build_fn(f).value();
  CHECK(!fb.add_rom(RomTable{Ty::u64(), {}}, {}));
  CHECK(!fb.add_rom(RomTable{Ty::u64(), {Value::integer(TyKind::U64, 1), Value::f64(2.0)}}, {}));
  const uint32_t rom = fb.add_rom(RomTable{Ty::u64(), {Value::integer(TyKind::U64, 1)}}, {}).value();
  CHECK(!fb.rom(rom, fb.input(), Dest::fresh(), {}));
}

}  // namespace polydat::ir
