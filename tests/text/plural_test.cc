// The count-and-noun helper every counting message uses (issue 34: "1 modules").
#include <doctest/doctest.h>

#include "text/plural.h"

using polydat::text::counted;

TEST_CASE("counted: one is singular, every other count plural") {
  CHECK(counted(1, "module") == "1 module");
  CHECK(counted(0, "module") == "0 modules");
  CHECK(counted(2, "shared cell") == "2 shared cells");
  CHECK(counted(1, "entry", "entries") == "1 entry");
  CHECK(counted(3, "entry", "entries") == "3 entries");
  CHECK(counted(1, "cycle") == "1 cycle");
}
