// The IR's DOT is laid out top to bottom: every dump says rankdir=TB, and
// Graphviz, when installed, lays the bundled example kernel (a long chain of
// hash rounds) out taller than wide and within a readable width.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "example_kernel.h"
#include "ir/dot.h"
#include "shapes.h"

using namespace polydat::ir;

namespace {

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

struct Size {
  double width = 0, height = 0;  // points (1/72 inch: a pixel at 72 dpi)
};

// `dot -Tplain`'s first line: "graph SCALE WIDTH HEIGHT" in inches.
std::optional<Size> graphviz_size(const std::string& dot) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string stem = "polydat_dot_layout_" + std::to_string(getpid());
  const std::filesystem::path in = dir / (stem + ".dot"), out = dir / (stem + ".plain");
  std::ofstream(in, std::ios::binary) << dot;
  const std::string command = "dot -Tplain '" + in.string() + "' -o '" + out.string() + "'";
  const int status = std::system(command.c_str());
  std::ifstream plain(out);
  std::string word;
  double scale = 0;
  Size s;
  plain >> word >> scale >> s.width >> s.height;
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  if (status != 0 || word != "graph") return std::nullopt;
  s.width *= 72;
  s.height *= 72;
  return s;
}

}  // namespace

TEST_CASE("dot layout: every dump is laid out top to bottom") {
  for (const auto& s : shapes::all()) {
    INFO("shape " << s.name);
    const std::string dot = to_dot(s.build());
    CHECK(count_of(dot, "rankdir=TB;") == 1);
    CHECK(count_of(dot, "rankdir=LR") == 0);
  }
}

TEST_CASE("dot layout: graphviz lays the example kernel out taller than wide") {
  if (std::system("command -v dot > /dev/null 2>&1") != 0) {
    MESSAGE("graphviz `dot` is not on PATH (make deps installs it); skipped");
    return;
  }
  const auto size = graphviz_size(to_dot(polydat::cli::build_example_kernel()));
  REQUIRE(size.has_value());
  MESSAGE("the example kernel's DOT: " << size->width << " x " << size->height << " pt");
  CHECK(size->height > size->width);
  CHECK(size->width <= 1600);
}
