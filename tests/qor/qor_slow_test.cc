// The slow suite's QoR checks with the real tools (`make test-slow`):
//  - every hardware-accepted corpus kernel on the iCEBreaker, with DSPs and with
//    --dsp 0, finishes each tool within the limit (60 s; $POLYDAT_QOR_TIMEOUT),
//    fits and meets the board's 12 MHz;
//  - the four anchors through `synth --device up5k --freq 48 --dsp 0`
//    reach II 1, the Fmax and the cell count the expert's figures bound, and
//    co-simulate equal to the interpreter under random stalls.
// Both print what they measured, and the tables go to the test's cache folder.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "tests/qor/qor_runner.h"
#include "tests/support/process.h"

using namespace polydat;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = POLYDAT_SOURCE_ROOT;

qor::Settings settings() {
  qor::Settings s;
  s.polydat = POLYDAT_EXE;
  s.root = fs::path(POLYDAT_TEST_CACHE) / "qor";
  const char* t = std::getenv("POLYDAT_QOR_TIMEOUT");
  s.tool_timeout_s = t && std::atoi(t) > 0 ? static_cast<uint32_t>(std::atoi(t)) : 60u;
  return s;
}

}  // namespace

TEST_CASE("qor: every corpus kernel on the iCEBreaker, with DSPs and LUTs only, finishes, fits and meets 12 MHz") {
  const qor::Settings s = settings();
  const auto kernels = qor::accepted_kernels(s, kSource / "tests" / "corpus");
  REQUIRE(kernels.size() >= 20);
  const auto rows = qor::run(qor::icebreaker_jobs(kernels), s);
  const std::string summary = qor::board_summary(rows, s.tool_timeout_s), table = qor::board_table(rows, s.tool_timeout_s);
  std::ofstream(s.root / "icebreaker.md") << summary << "\n" << table;
  MESSAGE("iCEBreaker rows (" << (s.root / "icebreaker.md").string() << "):\n" << summary << "\n" << table);
  for (const qor::Row& r : rows) {
    const std::string run = r.job.kernel + " on " + r.job.label();
    CAPTURE(run);
    CHECK_MESSAGE(r.unfinished.empty(), r.unfinished << " ran over " << s.tool_timeout_s << " s");
    if (!r.unfinished.empty()) continue;
    CHECK_MESSAGE(r.finished(), r.error);
    CHECK_MESSAGE(r.fits(), (r.report.is_null() ? r.error : r.report.value("problem", std::string())));
    CHECK_MESSAGE(r.meets(), "Fmax " << (r.fmax() ? *r.fmax() : 0.0) << " MHz against 12");
  }
}

TEST_CASE("qor anchors: hash, splitmix64, mod(hash, 1000) and xorshift against the expert's figures") {
  const qor::Settings s = settings();
  const fs::path dir = kSource / "tests" / "qor" / "kernels";
  const auto rows = qor::run(qor::anchor_jobs(dir), s);
  const std::string table = qor::anchor_table(rows);
  std::ofstream(s.root / "anchors.md") << table;
  MESSAGE("anchors (up5k, 48 MHz, --dsp 0, inside the QoR wrapper):\n" << table);
  for (size_t i = 0; i < rows.size(); ++i) {
    const qor::Expert& e = qor::experts()[i];
    CAPTURE(e.name);
    const auto misses = qor::anchor_misses(e, rows[i]);
    std::string why;
    for (const std::string& m : misses) why += m + "; ";
    CHECK_MESSAGE(misses.empty(), why);
    // Equal to the interpreter under random stalls on both sides.
    const std::string exe = s.polydat.string();
    const auto c = testing::run_process(exe, {exe, "cosim", (dir / (e.file + ".gk")).string(), "--stall", "0.3"},
                                        s.root, std::chrono::seconds(1800));
    INFO(c.out);
    INFO(c.err);
    CHECK(c.status == 0);
  }
}
