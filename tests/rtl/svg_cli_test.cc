// `polydat hls FILE --format svg|png [-o FILE]`: the picture on stdout or in
// the file, the same bytes either way; a PNG that is valid (signature, IHDR
// first) and at most 1,600 px wide, as wide as the SVG; a PNG refused on a
// terminal; a file that cannot be written named with the reason.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "hls/schedule_svg.h"
#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> hls_argv(const Kernel& k, std::vector<std::string> more) {
  std::vector<std::string> argv{"polydat", "hls", k.path.string()};
  for (const std::string& l : k.lib_paths) {
    argv.push_back("-L");
    argv.push_back(l);
  }
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

uint32_t be32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(s.at(at + i));
  return v;
}

struct PngSize {
  uint32_t width = 0, height = 0;
};

// The signature, then an IHDR chunk of 13 bytes: the picture's size.
PngSize png_size(const std::string& png) {
  REQUIRE(png.size() > 33);
  CHECK(png.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
  CHECK(be32(png, 8) == 13);
  CHECK(png.substr(12, 4) == "IHDR");
  CHECK(png.substr(png.size() - 8, 4) == "IEND");
  return PngSize{be32(png, 16), be32(png, 20)};
}

double svg_width(const std::string& svg) {
  std::string why;
  const auto xml = parse_xml(svg, why);
  REQUIRE_MESSAGE(xml.has_value(), why);
  return std::stod(xml->front().attrs.at("width"));
}

const std::string kPolydat = POLYDAT_EXE;

// examples/ids.gk, the README's kernel (tests/corpus has a longer copy hardware refuses).
Kernel ids_example() {
  const fs::path p = rtl_dir().parent_path().parent_path() / "examples" / "ids.gk";
  return Kernel{"examples/ids", "ids", p, {}};
}

}  // namespace

TEST_CASE("svg cli: polydat hls FILE --format svg prints the picture, -o FILE writes it") {
  testing::TempDir dir("polydat-svg-cli");
  for (const char* key : {"corpus/sum_to_n", "corpus/libpath", "rtl/pcg_fsm", "rtl/with_cfg"}) {
    CAPTURE(key);
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    const testing::ProcessResult r = testing::run_process(kPolydat, hls_argv(*k, {"--format", "svg"}), dir.path());
    CHECK(r.status == 0);
    // Nothing on stderr but, where the model predicts a miss, the timing warning.
    CHECK_MESSAGE((r.err.empty() || (r.err.find(": warning: the model predicts the clock is missed") != std::string::npos &&
                                     r.err.find("[timing]\n") != std::string::npos &&
                                     std::count(r.err.begin(), r.err.end(), '\n') == 3)),
                  r.err);
    const Flow f = run_flow(*k);
    REQUIRE(f.design.has_value());
    CHECK(r.out == hls::schedule_svg(*f.design));
    const fs::path file = dir.path() / (k->name + ".svg");
    const testing::ProcessResult w =
        testing::run_process(kPolydat, hls_argv(*k, {"--format", "svg", "-o", file.string()}), dir.path());
    CHECK(w.status == 0);
    CHECK(w.out.empty());
    CHECK(testing::read_file(file) == r.out);
  }
  // A refused kernel prints no picture and writes no file.
  const auto bad = find_kernel("corpus/casts_float");
  REQUIRE(bad.has_value());
  const fs::path none = dir.path() / "refused.svg";
  const testing::ProcessResult r =
      testing::run_process(kPolydat, hls_argv(*bad, {"--format", "svg", "-o", none.string()}), dir.path());
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "no-hardware-width"));
  CHECK(!fs::exists(none));
  // An unknown format is a usage error.
  const testing::ProcessResult u = testing::run_process(kPolydat, hls_argv(*bad, {"--format", "gif"}), dir.path());
  CHECK(u.status == 2);
  CHECK(u.out.empty());
}

TEST_CASE("svg cli: --format png writes a PNG as wide as the SVG, at most 1,600 px") {
  REQUIRE_MESSAGE(!find_on_path("rsvg-convert").empty(), "rsvg-convert is missing: make deps installs librsvg2-bin");
  testing::TempDir dir("polydat-png-cli");
  std::vector<Kernel> kernels{ids_example()};
  for (const char* key : {"corpus/stdlib_splitmix64", "rtl/pcg_fsm", "rtl/permute_fsm"}) kernels.push_back(*find_kernel(key));
  for (const Kernel& kernel : kernels) {
    const Kernel* k = &kernel;
    CAPTURE(k->key);
    const fs::path file = dir.path() / (k->name + ".png");
    const testing::ProcessResult r =
        testing::run_process(kPolydat, hls_argv(*k, {"--format", "png", "-o", file.string()}), dir.path());
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.empty());
    const std::string png = testing::read_file(file);
    const PngSize size = png_size(png);
    CHECK(size.width <= 1600);
    CHECK(size.height > 0);
    const testing::ProcessResult s = testing::run_process(kPolydat, hls_argv(*k, {"--format", "svg"}), dir.path());
    REQUIRE(s.status == 0);
    CHECK(std::abs(static_cast<double>(size.width) - svg_width(s.out)) <= 1.0);
    // To a pipe, stdout takes the same bytes.
    const testing::ProcessResult p = testing::run_process(kPolydat, hls_argv(*k, {"--format", "png"}), dir.path());
    CHECK(p.status == 0);
    CHECK(p.out == png);
  }
}

TEST_CASE("svg cli: without --format, -o x.svg, x.png and x.json name the format by their extension") {
  testing::TempDir dir("polydat-ext-cli");
  const Kernel k = ids_example();
  for (const char* name : {"x.svg", "x.png", "x.json", "x.txt"}) {
    CAPTURE(name);
    const testing::ProcessResult r = testing::run_process(kPolydat, hls_argv(k, {"-o", name}), dir.path());
    REQUIRE(r.status == 0);
    const std::string bytes = testing::read_file(dir.path() / name);
    const std::string ext = fs::path(name).extension().string();
    if (ext == ".svg") CHECK(contains(bytes.substr(0, 200), "<svg"));
    if (ext == ".png") CHECK(bytes.substr(0, 8) == std::string("\x89PNG\r\n\x1a\n", 8));
    if (ext == ".json") CHECK(bytes.front() == '{');
    if (ext == ".txt") CHECK(bytes.front() != '{');  // any other name: the report as text, the default
  }
}

TEST_CASE("svg cli: a PNG is refused on a terminal, and asks for -o") {
  const std::string script = find_on_path("script");
  if (script.empty()) {
    MESSAGE("script (util-linux) is not installed: no terminal to test on; skipped");
    return;
  }
  testing::TempDir dir("polydat-png-tty");
  const auto k = find_kernel("corpus/sum_to_n");
  REQUIRE(k.has_value());
  // script runs the command on a pseudo-terminal and returns its status (-e).
  const std::string command = "'" + kPolydat + "' hls '" + k->path.string() + "' --format png";
  const testing::ProcessResult r =
      testing::run_process(script, {"script", "-qec", command, "/dev/null"}, dir.path());
  CHECK(r.status == 2);
  CHECK_MESSAGE(contains(r.out, "a PNG is binary and stdout is a terminal: write it to a file with -o FILE.png"), r.out);
  CHECK(!contains(r.out, "PNG\r\n"));
}

TEST_CASE("svg cli: a file that cannot be written is named, with the reason") {
  testing::TempDir dir("polydat-svg-cli");
  const auto k = find_kernel("corpus/sum_to_n");
  REQUIRE(k.has_value());
  // A missing folder is refused before any work (a usage error) and never made.
  const fs::path missing = dir.path() / "no" / "such" / "x.svg";
  const testing::ProcessResult r =
      testing::run_process(kPolydat, hls_argv(*k, {"--format", "svg", "-o", missing.string()}), dir.path());
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK_MESSAGE(contains(r.err, (dir.path() / "no" / "such").string()), r.err);
  CHECK(!fs::exists(dir.path() / "no"));  // no folders made on the way
  const testing::ProcessResult p =
      testing::run_process(kPolydat, hls_argv(*k, {"-o", dir.path().string()}), dir.path());
  CHECK(p.status == 1);
  CHECK_MESSAGE(contains(p.err, "'" + dir.path().string() + "': Is a directory"), p.err);
  // The file opens but the write fails: the path and strerror's reason.
  if (fs::exists("/dev/full")) {
    const testing::ProcessResult full = testing::run_process(kPolydat, hls_argv(*k, {"--format", "svg", "-o", "/dev/full"}), dir.path());
    CHECK(full.status == 1);
    CHECK_MESSAGE(contains(full.err, "/dev/full"), full.err);
    CHECK_MESSAGE(contains(full.err, "No space left on device"), full.err);
  }
}
