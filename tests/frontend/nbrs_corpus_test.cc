// `polydat check` (frontend::compile_file) over nb-rs's .gk sources, found
// under $NBRS_REPO or /tmp/nbrs (skipped, saying so, when neither is there):
// each must pass, but for the files listed below, which need what nb-rs
// itself lacks or what polydat leaves out on purpose, and fail with the kind
// given. Then the same over tests/frontend/nbrs_shapes/, files of our own
// written in the shapes of nb-rs's, which `make test` always has.
//
// Fault planted to see this fail (restored afterwards): the parser's
// anonymous-module form disabled (anonymous_module_ahead returning false):
// nbrs_shapes/account.gk and nb-rs's library_kernel.gk and
// independent_samples.gk fail with [syntax].
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "frontend/compile.h"

using namespace polydat;
namespace fs = std::filesystem;

namespace {

struct Expected {
  std::string kind;  // the first error's kind
  std::string why;
};

// nb-rs's files that do not pass, by path under the repository.
const std::map<std::string, Expected>& expected_failures() {
  static const std::map<std::string, Expected> m = {
      {"nbrs-variates/stdlib/distributions.gk",
       {"unknown-function", "zipf_sample calls icd_zipf, which nb-rs does not define either"}},
      {"nbrs/stdlib/distributions.gk", {"unknown-function", "the same icd_zipf"}},
      {"nbrs-variates/stdlib/modeling.gk",
       {"type-mismatch", "bimodal_latency passes f64s to select, whose ports are u64 in nb-rs too"}},
      {"nbrs-variates/tests/examples/distributions.gk",
       {"missing-argument", "an earlier design: dist_normal as a table value, which nb-rs no longer parses"}},
      {"nbrs-variates/tests/examples/timeseries.gk", {"missing-argument", "the same earlier design"}},
      {"nbrs-variates/tests/examples/sensor_workload.gk",
       {"syntax", "the same earlier design: an array literal as a value, alias_table, alias_sample"}},
      {"nbrs-variates/tests/examples/weighted_entity.gk", {"syntax", "an alias_table parameter type"}},
      {"nbrs-variates/tests/examples/gk/datetime_context.gk",
       {"unknown-function", "wall clock, counter and thread id: out of scope"}},
      {"nbrs-variates/tests/examples/gk/json_encoding.gk", {"unknown-function", "JSON and bytes: out of scope"}},
      {"nbrs-variates/tests/examples/gk/real_data.gk", {"unknown-function", "data sets: out of scope"}},
  };
  return m;
}

std::vector<fs::path> gk_files(const fs::path& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename() == "target" || it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".gk") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_error_kind(const frontend::CompileResult& r) {
  for (const frontend::Diagnostic& d : r.diagnostics().list())
    if (d.severity == frontend::Severity::Error) return std::string(frontend::diag_kind_name(d.kind));
  return "";
}

}  // namespace

TEST_CASE("nb-rs's .gk sources pass polydat check") {
  const char* env = std::getenv("NBRS_REPO");
  const fs::path root = env && *env ? fs::path(env) : fs::path("/tmp/nbrs");
  if (!fs::is_directory(root / "nbrs-variates")) {
    MESSAGE("skipped: no nb-rs sources at " << root.string() << " (set NBRS_REPO)");
    return;
  }
  const std::vector<fs::path> files = gk_files(root);
  CHECK(files.size() >= 60);  // 63 when written
  size_t passed = 0;
  for (const fs::path& f : files) {
    const std::string rel = fs::relative(f, root).generic_string();
    CAPTURE(rel);
    const frontend::CompileResult r = frontend::compile_file(f.string());
    const auto bad = expected_failures().find(rel);
    if (bad == expected_failures().end()) {
      CHECK_MESSAGE(r.ok(), r.render_diagnostics());
      passed += r.ok();
    } else {
      CAPTURE(bad->second.why);
      CHECK_FALSE(r.ok());
      CHECK(first_error_kind(r) == bad->second.kind);
    }
  }
  MESSAGE(passed << " of " << files.size() << " nb-rs .gk files pass; " << expected_failures().size()
                 << " are expected to fail");
}

TEST_CASE("our files in nb-rs's shapes pass polydat check") {
  const std::vector<fs::path> files = gk_files("nbrs_shapes");
  REQUIRE(files.size() >= 7);
  for (const fs::path& f : files) {
    CAPTURE(f.string());
    const frontend::CompileResult r = frontend::compile_file(f.string());
    CHECK_MESSAGE(r.ok(), r.render_diagnostics());
  }
}
