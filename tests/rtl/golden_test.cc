// SystemVerilog goldens: tests/rtl/goldens/NAME.sv is the module emitted for a
// small kernel, compared byte for byte. Each golden was read against its
// kernel before it was accepted (ports, header, stages or states, every
// expression, the stall or FSM logic); a change to one must be read again.
//
// UPDATE_GOLDENS=1 rewrites them instead of comparing:
//   UPDATE_GOLDENS=1 build/tests/rtl/rtl_tests -tc='rtl golden*'
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "rtl/emit_sv.h"
#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

namespace {

bool updating() {
  const char* v = std::getenv("UPDATE_GOLDENS");
  return v && std::string(v) == "1";
}

void check_golden(const std::string& key) {
  CAPTURE(key);
  const auto k = find_kernel(key);
  REQUIRE(k.has_value());
  const Flow f = run_flow(*k);
  REQUIRE_MESSAGE(f.compiled, f.diagnostics);
  REQUIRE_MESSAGE(f.design.has_value(), f.refusal.message);
  const std::string& sv = f.module->text;
  const fs::path golden = rtl_dir() / "goldens" / (k->name + ".sv");
  if (updating()) {
    std::ofstream(golden) << sv;
    MESSAGE("rewrote " << golden.string() << ": read it against the kernel before committing it");
    return;
  }
  REQUIRE_MESSAGE(fs::exists(golden), "missing golden " << golden.string() << " (run with UPDATE_GOLDENS=1)");
  const std::string want = testing::read_file(golden);
  if (sv == want) return;
  // Name the first differing line.
  const auto a = testing::split_lines(want), b = testing::split_lines(sv);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  FAIL_CHECK("emitted SystemVerilog differs from " << golden.string() << " at line " << i + 1
                                                   << ":\n  golden: " << (i < a.size() ? a[i] : "<end>")
                                                   << "\n  now:    " << (i < b.size() ? b[i] : "<end>"));
}

}  // namespace

TEST_CASE("rtl golden: two_ops (a pipeline of an addition and an xor)") { check_golden("rtl/two_ops"); }
TEST_CASE("rtl golden: ids_hash (mod(hash(cycle), 1000))") { check_golden("rtl/ids_hash"); }
TEST_CASE("rtl golden: cfg_extern (an extern as a cfg_ port)") { check_golden("rtl/cfg_extern"); }
TEST_CASE("rtl golden: rot_shift (rotates and shifts by constants)") { check_golden("rtl/rot_shift"); }
TEST_CASE("rtl golden: sum_to_n (a one-state loop FSM)") { check_golden("corpus/sum_to_n"); }
TEST_CASE("rtl golden: fsm_pre_post (an FSM with work before, in and after the loop)") {
  check_golden("rtl/fsm_pre_post");
}
