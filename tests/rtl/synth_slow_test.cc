// The slow RTL suite (`make test-slow`): every accepted kernel of tests/corpus/
// and tests/rtl/kernels/ through a full `yosys -q -p "read_verilog -sv FILE;
// synth -top NAME"`, which must exit 0 with no error or warning. Wide dividers
// and multipliers make some kernels take a minute or more.
#include <doctest/doctest.h>

#include <chrono>
#include <fstream>

#include "rtl/emit_sv.h"
#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

TEST_CASE("rtl slow: every accepted kernel through a full yosys synth") {
  REQUIRE_MESSAGE(!find_on_path("yosys").empty(), "yosys is not on PATH (make deps)");
  testing::TempDir dir("polydat-rtl-synth");
  int synthesized = 0;
  for (const Kernel& k : all_kernels()) {
    const Flow f = run_flow(k);
    if (!f.design) continue;
    CAPTURE(k.key);
    const std::string& top = f.module->name;
    const fs::path sv = dir.path() / (top + ".sv");
    std::ofstream(sv) << f.module->text;
    const auto t0 = std::chrono::steady_clock::now();
    const ToolRun r = yosys_synth(sv, top, 1800);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE(k.key << ": synth in " << s << " s");
    CHECK_MESSAGE(r.status == 0, "yosys synth exited " << r.status << ":\n" << r.output);
    CHECK_MESSAGE(complaints(r.output).empty(), "yosys synth said:\n" << r.output);
    ++synthesized;
  }
  CHECK(synthesized >= 24 + 9);
}
