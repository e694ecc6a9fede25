#include <doctest/doctest.h>
#include <xxhash.h>

#include "example_kernel.h"
#include "ir/interp.h"
#include "shapes.h"

using namespace polydat::ir;

TEST_CASE("the example kernel's hash agrees with XXH3_64bits") {
  const CategoryIr k = polydat::cli::build_example_kernel(1000);
  const FuncId hash = *k.find_func("hash");
  Interpreter interp(k);
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, uint64_t{42}, ~uint64_t{0}}) {
    auto r = interp.run(hash, Value::integer(TyKind::U64, x));
    REQUIRE(r.ok());
    CHECK(r->as_u64() == XXH3_64bits(&x, sizeof x));
  }
}

TEST_CASE("shapes evaluate to hand-derived values") {
  auto eval = [](const CategoryIr& g, uint64_t n) {
    auto r = evaluate(g, g.entry(), shapes::u64(n));
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    return r->as_u64();
  };
  CHECK(eval(shapes::sum_to_n(), 10) == 55);
  CHECK(eval(shapes::sum_to_n(), 0) == 0);
  CHECK(eval(shapes::count_up(), 7) == 7);
  CHECK(eval(shapes::nested_loops(), 5) == 10);
  CHECK(eval(shapes::nested_loops(), 10) == 120);
  CHECK(eval(shapes::two_loops(), 10) == 65);
  CHECK(eval(shapes::pipeline(), 4) == 39);
  CHECK(eval(shapes::with_call(), 3) == 12);
}

TEST_CASE("the interpreter counts the back edges of its last run") {
  const CategoryIr g = shapes::sum_to_n();
  Interpreter interp(g);
  REQUIRE(interp.run(shapes::u64(10)).ok());
  CHECK(interp.last_iterations() == 10);  // i = 1..10 pass the guard
  REQUIRE(interp.run(shapes::u64(0)).ok());
  CHECK(interp.last_iterations() == 0);
  const CategoryIr nested = shapes::nested_loops();
  Interpreter in2(nested);
  REQUIRE(in2.run(shapes::u64(4)).ok());
  CHECK(in2.last_iterations() == 4 + (0 + 1 + 2 + 3));  // outer back edges plus every inner one
}
