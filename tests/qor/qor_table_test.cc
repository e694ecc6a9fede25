// The QoR program's bookkeeping on hand-made rows (no tools run): the tables,
// the counts, the anchors' bounds, the markers in the document. Each check
// that the slow suite relies on is shown to reject a planted bad row.
#include <doctest/doctest.h>

#include "tests/qor/qor_runner.h"

using namespace polydat;
using nlohmann::json;

namespace {

qor::Row row(const std::string& kernel, const std::string& board, bool lut_only) {
  qor::Row r;
  r.job = qor::Job{kernel, kernel + ".gk", board, "", std::nullopt, lut_only, {}, {}};
  r.hls = {{"design", "pipeline, 3 stages"}, {"ii", 1}, {"latency", 3}, {"critical_path_ns", 25.0}, {"clock_ns", 83.33}};
  r.report = {{"fits", true},
              {"meets_timing", true},
              {"achieved_mhz", 37.5},
              {"requested_mhz", 12.0},
              {"luts", {{"used", 265}, {"total", 5280}}},
              {"ffs", {{"used", 248}, {"total", 5280}}},
              {"carries", {{"used", 158}, {"total", 5280}}},
              {"dsps", {{"used", 0}, {"total", 8}}},
              {"logic_cells", 346},
              {"yosys_s", 3.25},
              {"nextpnr_s", 1.5},
              {"problem", ""}};
  r.status = 0;
  return r;
}

qor::Row anchor(const std::string& file, int kernel_cells, double mhz, int ii) {
  qor::Row r = row(file, "", true);
  r.job.device = "up5k";
  r.hls["ii"] = ii;
  r.report["achieved_mhz"] = mhz;
  r.report["logic_cells"] = kernel_cells + 89;
  r.report["kernel"] = {{"logic_cells", kernel_cells}};
  r.report["wrapper"] = {{"logic_cells", 89}};
  return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("qor table: one line per run with the design, the model's path, Fmax against the clock, the tools' times") {
  qor::Row unfinished = row("div_min", "icebreaker", true);
  unfinished.report = nullptr;
  unfinished.error = "yosys timed out after 60 s and was killed; its log /x/yosys.log ends: ...";
  unfinished.unfinished = qor::unfinished_tool(unfinished.error);
  qor::Row unfit = row("wrap_arith", "icebreaker", false);
  unfit.report["fits"] = false;
  unfit.report["meets_timing"] = false;
  unfit.report.erase("achieved_mhz");
  unfit.report["logic_cells"] = nullptr;
  unfit.report["problem"] = "DSPs (SB_MAC16) over: 11 used, 8 on up5k";
  qor::Row slow = row("shifts", "icestick", false);
  slow.report["meets_timing"] = false;
  const std::vector<qor::Row> rows = {row("affine", "icebreaker", false), unfinished, unfit, slow};
  const std::string t = qor::board_table(rows, 60);
  INFO(t);
  CHECK(contains(t, "| affine | icebreaker | pipeline, 3 stages | 1 | 265/5280 | 248/5280 | 158 | 0/8 | 346 | 12 M | 25.0 / 83.3 | "
                    "37.5 / 12 | 3.2 | 1.5 | meets timing |"));
  CHECK(contains(t, "| div_min | icebreaker, --dsp 0 | pipeline, 3 stages | 1 | - | - | - | - | - | - | 25.0 / 83.3 | - / 12 | "
                    "> 60 | - | not finished: yosys ran over 60 s |"));
  CHECK(contains(t, "| does not fit: DSPs (SB_MAC16) over: 11 used, 8 on up5k |"));
  CHECK(contains(t, "| misses timing |"));
  // Results a second: the clock it runs at over the II; a miss runs at its Fmax.
  qor::Row fsm = row("div_min", "icebreaker", false);
  fsm.hls["ii"] = 68;
  fsm.report["achieved_mhz"] = 10.2;
  fsm.report["meets_timing"] = false;
  const std::string f = qor::board_table({fsm}, 60);
  CHECK_MESSAGE(contains(f, "| 346 | 150 k |"), f);
  const std::string s = qor::board_summary(rows, 60);
  INFO(s);
  CHECK(contains(s, "| icebreaker | 2 | 1 | 0 | 1 | 0 | 0 | 0 |"));
  CHECK(contains(s, "| icebreaker, --dsp 0 | 1 | 0 | 0 | 0 | 1 | 0 | 0 |"));
  CHECK(contains(s, "| icestick | 1 | 0 | 1 | 0 | 0 | 0 | 0 |"));
  CHECK(contains(s, "| all | 4 | 1 | 1 | 1 | 1 | 0 | 0 |"));
  // The row predicates the slow suite asserts.
  CHECK(rows[0].finished());
  CHECK(rows[0].meets());
  CHECK_FALSE(rows[1].finished());
  CHECK_FALSE(rows[2].fits());
  CHECK_FALSE(rows[3].meets());
}

TEST_CASE("qor: the tool that ran over the limit is read from polydat's error") {
  CHECK(qor::unfinished_tool("yosys timed out after 60 s and was killed; its log ...") == "yosys");
  CHECK(qor::unfinished_tool("measuring the QoR wrapper's own cost: nextpnr-ice40 timed out after 60 s") ==
        "nextpnr-ice40");
  CHECK(qor::unfinished_tool("yosys failed (exit status 1)") == "");
}

TEST_CASE("qor anchors: within the bounds, and each bound catches a planted bad row") {
  const qor::Expert& hash = qor::experts()[0];
  const qor::Expert& xorshift = qor::experts()[3];
  CHECK(hash.cells == 2389);
  CHECK(xorshift.cells == 88);
  CHECK(xorshift.min_mhz == 100);
  CHECK(qor::anchor_misses(hash, anchor("hash64", 2538, 50.0, 1)).empty());  // 2538 + 89 <= 1.1 * 2389 = 2627.9
  CHECK(qor::anchor_misses(hash, anchor("hash64", 2539, 50.0, 1)) == std::vector<std::string>{"too many cells"});
  CHECK(qor::anchor_misses(hash, anchor("hash64", 2000, 47.9, 1)) == std::vector<std::string>{"too slow"});
  CHECK(qor::anchor_misses(hash, anchor("hash64", 2000, 60.0, 2)) == std::vector<std::string>{"II is not 1"});
  CHECK(qor::anchor_misses(xorshift, anchor("xorshift", 87, 100.0, 1)).empty());  // 87 + 89 <= 2 * 88
  CHECK(qor::anchor_misses(xorshift, anchor("xorshift", 88, 99.0, 1)) ==
        std::vector<std::string>{"too many cells", "too slow"});
  qor::Row timed_out = anchor("hash64", 0, 0, 1);
  timed_out.report = nullptr;
  timed_out.unfinished = "yosys";
  CHECK(qor::anchor_misses(hash, timed_out).size() == 1);
  const std::string t = qor::anchor_table({anchor("hash64", 2500, 50.0, 1), anchor("xorshift", 300, 80.0, 1)});
  INFO(t);
  CHECK(contains(t, "| hash | 2389, 15, 52.0 MHz | 2589 (2500 + 89), 3, 1, 50.0 MHz | 1.08 | <= 2627 cells, >= 48 MHz, II 1 | "
                    "within bounds |"));
  CHECK(contains(t, "| xorshift | 88, 1, 124.0 MHz | 389 (300 + 89), 3, 1, 80.0 MHz | 4.42 | <= 176 cells, >= 100 MHz, II 1 | "
                    "too many cells; too slow |"));
}

TEST_CASE("qor: the tables go between the document's markers, the prose around them kept") {
  std::string doc = "# QoR\n\nProse before.\n<!-- qor-table:begin -->\nold table\n<!-- qor-table:end -->\nProse after.\n";
  REQUIRE(qor::replace_between(doc, "qor-table", "| new |\n"));
  CHECK(doc == "# QoR\n\nProse before.\n<!-- qor-table:begin -->\n| new |\n<!-- qor-table:end -->\nProse after.\n");
  CHECK_FALSE(qor::replace_between(doc, "qor-anchors", "x"));
  std::string broken = "<!-- qor-table:begin -->\nno end\n";
  CHECK_FALSE(qor::replace_between(broken, "qor-table", "x"));
  CHECK(broken == "<!-- qor-table:begin -->\nno end\n");
}

TEST_CASE("qor: a corpus kernel's lib folders become -L paths, its set values --set") {
  const std::filesystem::path corpus = std::filesystem::path(POLYDAT_SOURCE_ROOT) / "tests" / "corpus";
  CHECK(qor::corpus_lib_paths(corpus / "libpath.gk") == std::vector<std::filesystem::path>{corpus / "lib"});
  CHECK(qor::corpus_lib_paths(corpus / "affine.gk").empty());
  const qor::Job j = qor::corpus_job(corpus / "input_tuple.gk", "icebreaker", true);
  CHECK(j.sets == std::vector<std::string>{"partition=3", "scale=-2"});
  CHECK(j.kernel == "input_tuple");
  CHECK(j.label() == "icebreaker, --dsp 0");
}
