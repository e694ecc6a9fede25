// The IR text listing's source positions: one in the kernel's file is @LINE:COL, one in another file (an
// inlined library module) names that file, so a reader knows which file the line is in (issue 34).
#include <doctest/doctest.h>

#include "ir/builder.h"
#include "ir/library_fn.h"
#include "ir/text_dump.h"

namespace polydat::ir {
namespace {

// fn k(s: str) -> str = to_base64(to_base64(s)), the first call in the kernel's file 0, the second in file 1.
CategoryIr two_files_kernel() {
  IrBuilder b;
  const FuncId f = b.declare("k", Ty::str(), Ty::str(), {}).value();
  FnBuilder fb = b.build_fn(f).value();
  const uint32_t fn = find_library_fn("to_base64").value();
  const SourceLoc in_kernel{0, 20, 29, 3, 2}, in_module{1, 140, 149, 12, 6};
  const ObjectId r1 = fb.library(fn, fb.input(), Dest::fresh("r1"), in_kernel).value();
  const ObjectId r2 = fb.library(fn, r1, Dest::fresh("r2"), in_module).value();
  REQUIRE(fb.output(r2, std::nullopt, {}));
  REQUIRE(fb.finish());
  return std::move(b).seal(f).value();
}

}  // namespace

TEST_CASE("text dump: a location in another file than the kernel's carries that file's name") {
  const CategoryIr g = two_files_kernel();
  const std::string text = to_text(g, {"k.gk", "<stdlib>/lib.gk"});
  CHECK(text.find("  @3:2\n") != std::string::npos);
  CHECK(text.find("  @<stdlib>/lib.gk:12:6\n") != std::string::npos);
  CHECK(text.find("  @12:6\n") == std::string::npos);
  // The kernel's own file is the one named by its index, whichever that is.
  const std::string from_module = to_text(g, {"k.gk", "<stdlib>/lib.gk"}, 1);
  CHECK(from_module.find("  @k.gk:3:2\n") != std::string::npos);
  CHECK(from_module.find("  @12:6\n") != std::string::npos);
  // Without the names (a test's IR, no sources) the positions are as before.
  CHECK(to_text(g).find("  @12:6\n") != std::string::npos);
}

}  // namespace polydat::ir
