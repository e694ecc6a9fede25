// `polydat ir K --format dot` on the corpus, laid out by Graphviz (when it is
// installed): top to bottom the pictures are less than half as wide in total
// as the same graphs left to right, and none is wider than 6,400 pt.
#include <doctest/doctest.h>

#include <sstream>

#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

namespace {

// `dot -Tplain`'s "graph SCALE WIDTH HEIGHT" (inches) as points; 0 when it fails or takes too long.
double laid_out_width(const std::string& dot_exe, const fs::path& file, const fs::path& dir) {
  const testing::ProcessResult r =
      testing::run_process(dot_exe, {"dot", "-Tplain", file.string()}, dir, std::chrono::seconds(20));
  if (r.status != 0) return 0;
  std::istringstream in(r.out);
  std::string word;
  double scale = 0, width = 0;
  in >> word >> scale >> width;
  return word == "graph" ? width * 72 : 0;
}

}  // namespace

TEST_CASE("ir dot: the corpus laid out top to bottom stays narrow") {
  const std::string dot = find_on_path("dot");
  if (dot.empty()) {
    MESSAGE("graphviz `dot` is not installed (make deps installs it): skipped");
    return;
  }
  testing::TempDir dir("polydat-ir-dot");
  double tb_total = 0, lr_total = 0, widest = 0;
  int laid_out = 0;
  for (const Kernel& k : all_kernels()) {
    if (k.key.rfind("corpus/", 0) != 0) continue;
    CAPTURE(k.key);
    std::vector<std::string> argv{"polydat", "ir", k.path.string(), "--format", "dot"};
    for (const std::string& l : k.lib_paths) argv.insert(argv.end(), {"-L", l});
    const testing::ProcessResult r = testing::run_process(POLYDAT_EXE, argv, dir.path());
    if (r.status != 0 || r.out.size() > 64 * 1024) continue;  // a refused kernel, or one too big to lay out quickly
    const std::string tb_marker = "rankdir=TB;";
    const size_t at = r.out.find(tb_marker);
    REQUIRE_MESSAGE(at != std::string::npos, "no rankdir=TB in the DOT");
    std::string lr = r.out;
    lr.replace(at, tb_marker.size(), "rankdir=LR;");
    dir.write(k.name + ".tb.dot", r.out);
    dir.write(k.name + ".lr.dot", lr);
    const double tb_w = laid_out_width(dot, dir.path() / (k.name + ".tb.dot"), dir.path());
    const double lr_w = laid_out_width(dot, dir.path() / (k.name + ".lr.dot"), dir.path());
    if (tb_w <= 0 || lr_w <= 0) continue;
    ++laid_out;
    tb_total += tb_w;
    lr_total += lr_w;
    widest = std::max(widest, tb_w);
    CHECK(tb_w <= 6400);
  }
  MESSAGE(laid_out << " kernels: " << tb_total << " pt wide in total top to bottom, " << lr_total
                   << " left to right; the widest " << widest << " pt");
  CHECK(laid_out >= 40);
  CHECK(tb_total * 2 < lr_total);
}
