// Byte-identical output: every command that writes an artefact (the IR in
// each format, the HLS report, the SystemVerilog and its report, the object
// file and C header, evaluated records) gives the same bytes in two processes
// on every corpus and hardware kernel, the second run with its heap filled
// differently (MALLOC_PERTURB_), from another folder. A container ordered by
// address, an uninitialised field or a hash seeded per process shows here.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/cli/cli_support.h"

using namespace polydat::clitest;

namespace {

// Every file under `dir`, by its path relative to `dir`, with its bytes.
std::map<std::string, std::string> files_under(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    out[fs::relative(e.path(), dir).string()] = s.str();
  }
  return out;
}

std::vector<fs::path> kernels() {
  std::vector<fs::path> out;
  for (const char* dir : {"tests/corpus", "tests/rtl/kernels"})
    for (const fs::directory_entry& e : fs::directory_iterator(fs::path(POLYDAT_SOURCE_ROOT) / dir))
      if (e.path().extension() == ".gk") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// What one process printed and wrote for a command.
struct Outcome {
  Run run;
  std::map<std::string, std::string> files;
};

Outcome run_in(const Sandbox& box, const std::vector<std::string>& args, bool perturbed) {
  fs::remove_all(box.path() / "out");
  // Both through env, so that polydat sees the same argv[0].
  std::vector<std::string> argv = {"env", kPolydat};
  if (perturbed) argv.insert(argv.begin() + 1, "MALLOC_PERTURB_=165");
  argv.insert(argv.end(), args.begin(), args.end());
  const Run r = polydat::testing::run_process("/usr/bin/env", argv, box.path());
  REQUIRE(r.status != -1);
  return Outcome{r, files_under(box.path() / "out")};
}

}  // namespace

TEST_CASE("determinism: two processes give byte-identical IR, reports, SystemVerilog, objects and records") {
  const Sandbox first, second;
  size_t compared = 0, with_files = 0;
  const std::vector<fs::path> all = kernels();
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string file = all[i].string();
    std::vector<std::vector<std::string>> commands = {
        {"ir", file},
        {"hls", file},
        {"emit-sv", file, "-o", "out"},
    };
    // The other formats and engines on every third kernel, to keep the suite short.
    if (i % 3 == 0)
      commands.insert(commands.end(), {{"ir", "--format", "dot", file},
                                       {"ir", "--format", "mermaid", "--no-opt", file},
                                       {"emit-obj", file, "-o", "out"},
                                       {"eval", file, "--cycles", "40", "--format", "csv"}});
    for (const std::vector<std::string>& args : commands) {
      CAPTURE(file);
      CAPTURE(args[0]);
      const Outcome a = run_in(first, args, false);
      const Outcome b = run_in(second, args, true);
      CHECK(a.run.status == b.run.status);
      CHECK(a.run.out == b.run.out);
      CHECK(a.run.err == b.run.err);
      CHECK(a.files.size() == b.files.size());
      for (const auto& [name, bytes] : a.files) {
        CAPTURE(name);
        REQUIRE(b.files.count(name) == 1);
        CHECK(bytes == b.files.at(name));
      }
      ++compared;
      with_files += !a.files.empty();
    }
  }
  MESSAGE(compared << " commands compared, " << with_files << " of them writing files");
  // The suite cannot pass by comparing nothing.
  CHECK(compared >= 3 * 80 + 4 * 25);
  CHECK(with_files >= 60);
}
