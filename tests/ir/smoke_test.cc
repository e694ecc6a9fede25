#include <doctest/doctest.h>
#include <xxhash.h>

#include "cli/example_kernel.h"
#include "ir/builder.h"
#include "ir/interp.h"

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
