// docs/stdlib.md's table of every function is what `polydat functions`
// prints: the same signatures, hardware and nb-rs columns, no more, no fewer.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/process.h"

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The table rows of `polydat functions`: signature, hardware, nb-rs.
std::vector<std::vector<std::string>> listed() {
  const auto r = polydat::testing::run_process(POLYDAT_EXE, {"polydat", "functions"}, POLYDAT_SOURCE_ROOT);
  REQUIRE(r.status == 0);
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line) && !line.empty()) {
    std::vector<std::string> cells;  // columns are separated by two spaces or more
    size_t at = 0;
    while (at < line.size()) {
      const size_t gap = line.find("  ", at);
      cells.push_back(line.substr(at, gap == std::string::npos ? std::string::npos : gap - at));
      if (gap == std::string::npos) break;
      at = line.find_first_not_of(' ', gap);
    }
    rows.push_back(cells);
  }
  return rows;
}

}  // namespace

TEST_CASE("docs: docs/stdlib.md's table lists every function as `polydat functions` does") {
  const std::string doc = read_all(std::string(POLYDAT_SOURCE_ROOT) + "/docs/stdlib.md");
  const auto rows = listed();
  CHECK(rows.size() > 70);
  size_t doc_rows = 0;
  for (size_t at = doc.find("| interp, llvm |"); at != std::string::npos; at = doc.find("| interp, llvm |", at + 1)) ++doc_rows;
  CHECK(doc_rows == rows.size());
  for (const auto& cells : rows) {
    REQUIRE(cells.size() >= 3);
    CAPTURE(cells[0]);
    const std::string nb = cells[2] == "yes" ? "same name and result" : "—";
    const std::string want = "| `" + cells[0] + "` | ";
    const size_t at = doc.find(want);
    REQUIRE_MESSAGE(at != std::string::npos, "docs/stdlib.md has no row for " << cells[0]);
    const std::string row = doc.substr(at, doc.find('\n', at) - at);
    CHECK(row.find("| interp, llvm | " + cells[1] + " | " + nb + " |") != std::string::npos);
  }
}
