// The README cannot go stale: its example output is what the binary prints
// now, its layout table lists every folder of the tree, and no document in
// the tree names a file the tree does not hold.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace fs = std::filesystem;
using polydat::testing::split_lines;

namespace {

const fs::path kSourceRoot = POLYDAT_SOURCE_ROOT;
const std::string kPolydat = POLYDAT_EXE;

std::string read(const fs::path& p) { return polydat::testing::read_file(p); }

// The lines of the first fenced block after the line ending with `after` (exclusive of the fences).
std::vector<std::string> block_after(const std::vector<std::string>& lines, const std::string& after) {
  size_t i = 0;
  while (i < lines.size() && !lines[i].ends_with(after)) ++i;
  while (i < lines.size() && lines[i].rfind("```", 0) != 0) ++i;
  std::vector<std::string> out;
  for (++i; i < lines.size() && lines[i].rfind("```", 0) != 0; ++i) out.push_back(lines[i]);
  return out;
}

// What changes between runs and machines: whether the model was cached, and the simulation's speed.
std::string steady(std::string line) {
  static const std::regex built(R"re(\((model from the cache|model built in [0-9.]+ s)\))re");
  static const std::regex rate(R"re( \([0-9.]+ [kM]? ?cycles/s\))re");
  line = std::regex_replace(line, built, "(MODEL)");
  return std::regex_replace(line, rate, "");
}

// The README's lines from `first` to the line before "...", each found in `output` in order.
void check_in_order(const std::vector<std::string>& readme, const std::vector<std::string>& output) {
  size_t at = 0;
  for (const std::string& want : readme) {
    if (want == "..." || want.rfind("$ ", 0) == 0) continue;
    while (at < output.size() && steady(output[at]) != steady(want)) ++at;
    CHECK_MESSAGE(at < output.size(), "the README shows a line the command no longer prints: " << want);
    if (at == output.size()) return;
    ++at;
  }
}

std::vector<std::string> run_lines(const std::vector<std::string>& args) {
  const polydat::testing::ProcessResult r = polydat::testing::run_process(kPolydat, args, kSourceRoot, std::chrono::seconds(600));
  REQUIRE_MESSAGE(r.status == 0, r.out << r.err);
  return split_lines(r.out);
}

}  // namespace

TEST_CASE("readme: the example's cosim lines are what polydat cosim prints") {
  const std::vector<std::string> readme = block_after(split_lines(read(kSourceRoot / "README.md")), "checks them against the binary):");
  REQUIRE(readme.size() > 5);
  check_in_order(readme, run_lines({kPolydat, "cosim", "examples/ids.gk", "--cycles", "10000"}));
}

// The README's table on both engines: the interpreter it names, and the default (LLVM).
TEST_CASE("readme: the eval table is what polydat eval prints on either engine") {
  const std::vector<std::string> readme =
      block_after(split_lines(read(kSourceRoot / "README.md")), "as on the interpreter (`--engine interp`):");
  REQUIRE(readme.size() == 4);
  CHECK(run_lines({kPolydat, "eval", "examples/ids.gk", "--cycles", "3", "--engine", "interp"}) == readme);
  CHECK(run_lines({kPolydat, "eval", "examples/ids.gk", "--cycles", "3"}) == readme);
}

TEST_CASE("readme: the layout table lists every folder of the tree, and only those") {
  static const std::regex row(R"re(^\| `([a-z_]+)/` \|)re");
  std::set<std::string> listed;
  for (const std::string& l : split_lines(read(kSourceRoot / "README.md"))) {
    std::smatch m;
    if (std::regex_search(l, m, row)) listed.insert(m[1]);
  }
  std::set<std::string> folders;
  for (const fs::directory_entry& e : fs::directory_iterator(kSourceRoot)) {
    const std::string name = e.path().filename().string();
    // Build folders and hidden ones are not the tree's (a build folder has meson-info in it).
    if (e.is_directory() && name[0] != '.' && !fs::exists(e.path() / "meson-info")) folders.insert(name);
  }
  for (const std::string& f : folders) CHECK_MESSAGE(listed.count(f), "the layout table leaves out " << f << "/");
  for (const std::string& f : listed) CHECK_MESSAGE(folders.count(f), "the layout table lists " << f << "/, not in the tree");
}

// A path in backquotes or a link, under one of the tree's folders, or a NAME.md, must exist.
TEST_CASE("readme: no document names a file the tree does not hold") {
  static const std::regex quoted(R"re(`([A-Za-z0-9_./-]+)`|\]\(([^)#\s]+))re");
  static const std::regex upper_md(R"re(\b[A-Z][A-Z_]+\.md\b)re");
  std::set<std::string> top;
  for (const fs::directory_entry& e : fs::directory_iterator(kSourceRoot))
    if (e.is_directory() && !fs::exists(e.path() / "meson-info")) top.insert(e.path().filename().string());
  std::vector<fs::path> docs = {kSourceRoot / "README.md"};
  for (const fs::directory_entry& e : fs::directory_iterator(kSourceRoot / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  REQUIRE(docs.size() > 10);
  for (const fs::path& doc : docs) {
    const std::vector<std::string> lines = split_lines(read(doc));
    for (size_t n = 0; n < lines.size(); ++n) {
      const std::string where = fs::relative(doc, kSourceRoot).string() + ":" + std::to_string(n + 1);
      for (auto it = std::sregex_iterator(lines[n].begin(), lines[n].end(), quoted); it != std::sregex_iterator(); ++it) {
        const bool link = (*it)[2].matched;
        std::string p = link ? (*it)[2].str() : (*it)[1].str();
        if (p.find("://") != std::string::npos || p.find('/') == std::string::npos) continue;
        if (p.find_first_of("*<{") != std::string::npos || p.find("NAME") != std::string::npos) continue;  // a pattern
        fs::path candidate = kSourceRoot / p;
        if (link && doc.parent_path() != kSourceRoot) candidate = doc.parent_path() / p;
        const std::string first = fs::relative(candidate.lexically_normal(), kSourceRoot).begin()->string();
        if (!top.count(first) || first == "build") continue;  // not a path of the tree (an nb-rs path, a URL, ...)
        CHECK_MESSAGE(fs::exists(candidate), where << " names " << p << ", which is not in the tree");
      }
      for (auto it = std::sregex_iterator(lines[n].begin(), lines[n].end(), upper_md); it != std::sregex_iterator(); ++it)
        CHECK_MESSAGE((fs::exists(kSourceRoot / it->str()) || fs::exists(kSourceRoot / "docs" / it->str())),
                      where << " names " << it->str() << ", which is not in the tree");
    }
  }
}
