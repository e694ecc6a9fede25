// The stages' order as docs/architecture.md draws it: a folder's sources may
// include, and its meson.build may depend on, only the folders before it. The
// check reads the tree (every #include "..." line, every *_dep and *_lib a
// meson.build names) and fails naming each edge that runs back up.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace fs = std::filesystem;

namespace {

const fs::path kSourceRoot = POLYDAT_SOURCE_ROOT;

// The stages, first to last (docs/architecture.md, "Stages and their dependencies").
const std::vector<std::string> kStages = {
    "ir",       "text",        "frontend", "hls",      "rtl",   "fpga",     "boards", "sim", "sim/verilator",
    "sim/iverilog", "sim/llvm", "sim/systemc", "flow", "workload", "hwtop", "difftest", "cli"};

int rank_of(const std::string& folder) {
  for (size_t i = 0; i < kStages.size(); ++i)
    if (kStages[i] == folder) return static_cast<int>(i);
  return -1;
}

// The stage a path inside the tree belongs to: the longest stage folder it is under ("" when none).
std::string stage_of(const std::string& path) {
  std::string best;
  for (const std::string& s : kStages)
    if (path.rfind(s + "/", 0) == 0 && s.size() > best.size()) best = s;
  return best;
}

std::string read(const fs::path& p) { return polydat::testing::read_file(p); }
// One source file or meson.build: its path from the root and its text.
struct File {
  std::string path, text;
};

// "user -> used (why)" for every include or meson reference from a stage to itself-or-later.
std::vector<std::string> back_edges(const std::vector<File>& files) {
  static const std::regex include(R"re(#include\s+"([^"]+)")re");
  static const std::regex declared(R"re((\w+_(?:dep|lib))\s*=\s*(?:declare_dependency|static_library)\s*\()re");
  static const std::regex named(R"re(\b(\w+_(?:dep|lib))\b)re");
  std::map<std::string, std::string> owner;  // meson variable -> the stage that declares it
  for (const File& f : files)
    if (fs::path(f.path).filename() == "meson.build")
      for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), declared); it != std::sregex_iterator(); ++it)
        owner[(*it)[1]] = stage_of(f.path);
  std::vector<std::string> out;
  auto check = [&](const std::string& user_path, const std::string& used, const std::string& why) {
    const std::string user = stage_of(user_path);
    if (used.empty() || used == user || rank_of(used) < rank_of(user)) return;
    out.push_back(user_path + " -> " + used + " (" + why + ")");
  };
  for (const File& f : files) {
    const bool meson = fs::path(f.path).filename() == "meson.build";
    const std::regex& re = meson ? named : include;
    for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), re); it != std::sregex_iterator(); ++it) {
      const std::string ref = (*it)[1];
      if (!meson) {
        check(f.path, stage_of(ref), "#include \"" + ref + "\"");
      } else if (auto o = owner.find(ref); o != owner.end()) {
        check(f.path, o->second, ref);
      }
    }
  }
  return out;
}

std::vector<File> tree_files() {
  std::vector<File> files;
  for (const std::string& stage : kStages)
    for (const fs::directory_entry& e : fs::directory_iterator(kSourceRoot / stage)) {
      const fs::path& p = e.path();
      const std::string ext = p.extension().string();
      if (!e.is_regular_file() || !(ext == ".cc" || ext == ".h" || p.filename() == "meson.build")) continue;
      files.push_back({fs::relative(p, kSourceRoot).generic_string(), read(p)});
    }
  return files;
}

}  // namespace

TEST_CASE("layering: every stage folder exists and is in the order") {
  for (const std::string& stage : kStages) CHECK_MESSAGE(fs::is_directory(kSourceRoot / stage), stage);
  // Every folder at the root with a meson.build of its own is a stage, tests and docs aside.
  for (const fs::directory_entry& e : fs::directory_iterator(kSourceRoot)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || !fs::exists(e.path() / "meson.build") || name == "tests" || name == "docs") continue;
    CHECK_MESSAGE(rank_of(name) >= 0, "folder " << name << " is not in the stage order");
  }
}

TEST_CASE("layering: no include and no meson dependency runs back up") {
  const std::vector<File> files = tree_files();
  REQUIRE(files.size() > 100);
  const std::vector<std::string> bad = back_edges(files);
  CHECK_MESSAGE(bad.empty(), "edges running back up:\n" << polydat::testing::indented(bad));
}

// The check catches a planted back edge of each kind.
TEST_CASE("layering: a planted include and a planted dependency are caught") {
  std::vector<File> files = {
      {"rtl/meson.build", "rtl_lib = static_library('x', dependencies : [hls_dep])\n"
                          "rtl_dep = declare_dependency(link_with : rtl_lib)\n"},
      {"hls/meson.build", "hls_lib = static_library('y', dependencies : [ir_dep])\nhls_dep = declare_dependency()\n"},
      {"ir/meson.build", "ir_dep = declare_dependency()\n"},
      {"hls/schedule.cc", "#include \"ir/graph.h\"\n#include \"hls/design.h\"\n"},
  };
  CHECK(back_edges(files).empty());
  files.push_back({"hls/planted.cc", "#include \"rtl/emit_sv.h\"\n"});
  files[1].text += "hls_extra = static_library('z', dependencies : [rtl_dep])\n";
  const std::vector<std::string> bad = back_edges(files);
  REQUIRE(bad.size() == 2);
  CHECK(bad[0] == "hls/meson.build -> rtl (rtl_dep)");
  CHECK(bad[1] == "hls/planted.cc -> rtl (#include \"rtl/emit_sv.h\")");
}
