// What the command's end-to-end tests share: the real binary, run in a
// temporary folder with argv[0] = "polydat", stdout and stderr captured apart.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace polydat::clitest {

namespace fs = std::filesystem;

const std::string kPolydat = POLYDAT_EXE;

using Run = polydat::testing::ProcessResult;

// A fresh temporary folder with kernel files in it; removed at the end.
class Sandbox {
 public:
  Sandbox& file(const std::string& rel, const std::string& text) {
    dir_.write(rel, text);
    return *this;
  }

  // Runs `polydat ARGS...` in the folder.
  const fs::path& path() const { return dir_.path(); }

  Run run(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{"polydat"};
    argv.insert(argv.end(), args.begin(), args.end());
    const Run r = polydat::testing::run_process(kPolydat, argv, dir_.path());
    REQUIRE(r.status != -1);
    return r;
  }

 private:
  polydat::testing::TempDir dir_{"polydat-cli"};
};

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace polydat::clitest
