// Initiation intervals: a loop-free kernel too large for the part at II 1
// becomes the smallest-II pipeline that fits, its DSP blocks shared across
// the II slots and its registers held II cycles each; --ii forces one; the
// refusals name their kind. Each design is checked by the independent
// invariants of hls_support (dependences, timing, slots per unit, one
// register every II boundaries).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>

#include "hls/report.h"
#include "tests/hls/hls_support.h"

using namespace polydat::hls;
using namespace polydat::hls::testing;

namespace {

constexpr const char* kMixed = kMixedKernel;

HlsOptions at_ii(std::optional<uint32_t> ii, std::optional<uint32_t> dsps = std::nullopt) {
  HlsOptions o;
  o.ii = ii;
  o.dsp_limit = dsps;
  return o;
}

uint32_t dsp_units(const Design& d) {
  return static_cast<uint32_t>(std::count_if(d.units.begin(), d.units.end(), [](const FunctionalUnit& u) { return u.cls == UnitClass::Dsp; }));
}

}  // namespace

TEST_SUITE("ii") {

TEST_CASE("the II search: II 1 to 3 do not fit the UP5K, II 4 does; the report lists each try") {
  const Design d = must_synth(kMixed);
  REQUIRE(d.kind == DesignKind::Pipeline);
  CHECK(d.ii == 4);
  CHECK(d.initiation_interval() == 4);
  REQUIRE(d.ii_search.size() == 4);
  for (uint32_t k = 0; k < 4; ++k) CHECK(d.ii_search[k].ii == k + 1);
  for (uint32_t k = 0; k < 3; ++k) CHECK_FALSE(d.ii_search[k].fits);
  CHECK(d.ii_search[3].fits);
  CHECK(d.ii_search[3].cells == doctest::Approx(d.resources().cells()));
  CHECK(d.ii_search[0].cells > 0.9 * 5280);  // II 1 gets 90 % of the part
  CHECK(d.ii_search[2].cells > 0.8 * 5280);  // a longer II 80 %
  CHECK(d.ii_search[3].cells <= 0.8 * 5280);
  const auto problems = design_problems(d);
  CHECK_MESSAGE(problems.empty(), join(problems));
  const std::string report = report_text(d);
  CHECK(report.find("initiation interval: 4\n") != std::string::npos);
  CHECK(report.find("II search: II 1: ") != std::string::npos);
  CHECK(report.find("II 4 is the smallest that fits") != std::string::npos);
  CHECK(report_json(d).find("\"ii_search\"") != std::string::npos);
}

TEST_CASE("--ii N: the slots share DSP blocks and registers, every invariant holds") {
  std::map<uint32_t, uint64_t> bits;
  for (uint32_t ii : {1u, 2u, 3u, 4u, 6u}) {
    CAPTURE(ii);
    const Design d = must_synth(kMixed, at_ii(ii));
    REQUIRE(d.kind == DesignKind::Pipeline);
    CHECK(d.ii == ii);
    CHECK(d.ii_search.empty());
    const auto problems = design_problems(d);
    CHECK_MESSAGE(problems.empty(), join(problems));
    CHECK(dsp_units(d) <= 8);  // the UP5K's blocks, however many products they serve
    size_t dsp_ops = 0;
    for (ValueId v : live_ops(d)) dsp_ops += d.is_dsp(v);
    CHECK(dsp_ops <= 8 * ii);
    if (ii == 1) CHECK(dsp_ops == 0);  // at II 1 constants stay shift-and-add, as before
    if (ii >= 2) CHECK(dsp_ops > 8);   // more products than blocks: they share
    bits[ii] = d.register_bits();
  }
  // A register holds its value II cycles: fewer bits the longer the II.
  CHECK(bits[2] < bits[1]);
  CHECK(bits[4] < bits[2]);
}

TEST_CASE("--ii 1 is the II-1 design the search starts from, without the search") {
  const Design d = must_synth(kMixed, at_ii(1));
  CHECK(d.ii == 1);
  CHECK(d.fallback.empty());
  CHECK(d.resources().cells() == doctest::Approx(must_synth(kMixed).ii_search.front().cells));
}

TEST_CASE("without DSP blocks the registers alone bring the kernel in, at a longer II") {
  const Design d = must_synth(kMixed, at_ii(std::nullopt, 0));
  REQUIRE(d.kind == DesignKind::Pipeline);
  CHECK(d.ii > 3);
  CHECK(dsp_units(d) == 0);
  CHECK(d.ii_search.back().fits);
  for (size_t k = 1; k < d.ii_search.size(); ++k) CHECK(d.ii_search[k].cells < d.ii_search[k - 1].cells);
}

TEST_CASE("a kernel that fits at II 1 is searched no further") {
  const Design d = must_synth("input cycle: u64\nh := hash(cycle)\n");
  CHECK(d.ii == 1);
  CHECK(d.ii_search.empty());
}

TEST_CASE("--ii refusals: out of range, a kernel with a loop, an iterative divider") {
  auto e = synth(kMixed, at_ii(0));
  REQUIRE_FALSE(e);
  CHECK(e.error().kind == "bad-ii");
  e = synth(kMixed, at_ii(17));
  REQUIRE_FALSE(e);
  CHECK(e.error().kind == "bad-ii");
  e = synth("input n: u64\ntotal := loop (i = 1, acc = 0) while i <= n {\n    acc = acc + i\n    i = i + 1\n} yield acc\n", at_ii(2));
  if (e) FAIL("a loop kernel took --ii");
  CHECK(e.error().kind == "ii-loop");
  CHECK(e.error().loc.line == 2);  // the loop's line
  // A 64-bit division by a variable is an iterative unit: no pipeline at any II.
  e = synth("input a: u64\ninput b: u64\nq := a / b\n", at_ii(2));
  if (e) FAIL("an iterative divider took --ii");
  CHECK(e.error().kind == "ii-iterative");
  CHECK(e.error().loc.line == 3);
}

}  // TEST_SUITE
