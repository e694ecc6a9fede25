// One owner for each step of the pipeline (docs/architecture.md): only flow/ schedules a kernel
// (hls::synthesize), only flow/ and hwtop/ (which renames a scope's design first) emit a module, and
// only the registry in flow/engines.cc makes an engine. The check reads every source file of the tree,
// tests included, and fails naming each call made elsewhere; the stage's own tests may call it.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace fs = std::filesystem;

namespace {

const fs::path kSourceRoot = POLYDAT_SOURCE_ROOT;

struct File {
  std::string path, text;
};

struct Owned {
  std::string what;
  std::regex call;
  std::vector<std::string> owners;  // path prefixes allowed to make the call
};

const std::vector<Owned>& owned() {
  static const std::vector<Owned> rules = {
      {"hls::synthesize", std::regex(R"(\bhls::synthesize\s*\()"), {"flow/", "hls/", "tests/hls/"}},
      {"rtl::emit_module", std::regex(R"(\bemit_module\s*\()"), {"flow/", "hwtop/", "rtl/", "tests/rtl/", "tests/flow/"}},
      // A construction: `VerilatorEngine name(`, `VerilatorEngine(` or `make_unique<sim::VerilatorEngine>`.
      {"an engine's constructor",
       std::regex(R"(\b(?:Interpreter|Native|Verilator|SystemC|Iverilog)Engine(?:\s+\w+)?\s*[({]|)"
                  R"(make_unique<(?:sim::)?(?:Interpreter|Native|Verilator|SystemC|Iverilog)Engine>)"),
       {"flow/engines.cc", "sim/"}},
  };
  return rules;
}

bool owned_by(const std::string& path, const Owned& rule) {
  for (const std::string& prefix : rule.owners)
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

// "path:line: what" for every owned call outside its owners; comment lines are skipped.
std::vector<std::string> strays(const std::vector<File>& files) {
  std::vector<std::string> out;
  for (const File& f : files)
    for (const Owned& rule : owned()) {
      if (owned_by(f.path, rule)) continue;
      const std::vector<std::string> lines = polydat::testing::split_lines(f.text);
      for (size_t i = 0; i < lines.size(); ++i) {
        const size_t first = lines[i].find_first_not_of(" \t");
        const bool comment = first != std::string::npos && lines[i].compare(first, 2, "//") == 0;
        if (!comment && std::regex_search(lines[i], rule.call))
          out.push_back(f.path + ":" + std::to_string(i + 1) + ": " + rule.what);
      }
    }
  return out;
}

std::vector<File> tree_sources() {
  std::vector<File> files;
  for (auto it = fs::recursive_directory_iterator(kSourceRoot); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name.rfind("build", 0) == 0 || name.front() == '.')) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string ext = it->path().extension().string();
    if (!it->is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    const std::string path = fs::relative(it->path(), kSourceRoot).generic_string();
    if (path == "tests/docs/owners_test.cc") continue;  // its planted calls are strings
    files.push_back({path, polydat::testing::read_file(it->path())});
  }
  return files;
}

}  // namespace

TEST_CASE("owners: scheduling, emission and engines are each made in one place") {
  const std::vector<File> files = tree_sources();
  REQUIRE(files.size() > 300);
  const std::vector<std::string> bad = strays(files);
  CHECK_MESSAGE(bad.empty(), "calls outside their owner:\n" << polydat::testing::indented(bad));
}

// The check catches each kind of stray call, and lets the owners and comments be.
TEST_CASE("owners: a planted call of each kind is caught") {
  std::vector<File> files = {
      {"flow/pipeline.cc", "auto d = hls::synthesize(ir, entry, fields, options);\nrtl::emit_module(d);\n"},
      {"flow/engines.cc", "return std::make_unique<sim::VerilatorEngine>(*s.design, *s.module, r);\n"},
      {"cli/cosim_command.cc", "// sim::VerilatorEngine engine(d, o) is not how: the registry makes it\n"},
      {"tests/sim/x.cc", "std::unique_ptr<sim::Engine> e = std::move(*made);\n"},
  };
  CHECK(strays(files).empty());
  files.push_back({"cli/planted.cc", "auto d = hls::synthesize(ir, ir.entry(), f, o);\n"});
  files.push_back({"difftest/planted.cc", "\nconst rtl::Module m = rtl::emit_module(design);\n"});
  files.push_back({"tests/sim/planted.cc", "sim::VerilatorEngine engine(k.design, k.module, o);\n"
                                           "auto p = std::make_unique<sim::InterpreterEngine>(ir, f);\n"});
  const std::vector<std::string> bad = strays(files);
  REQUIRE(bad.size() == 4);
  CHECK(bad[0] == "cli/planted.cc:1: hls::synthesize");
  CHECK(bad[1] == "difftest/planted.cc:2: rtl::emit_module");
  CHECK(bad[2] == "tests/sim/planted.cc:1: an engine's constructor");
  CHECK(bad[3] == "tests/sim/planted.cc:2: an engine's constructor");
}
