// The schedule picture (hls/schedule_svg.h) of every accepted kernel: a
// well-formed XML document (our own reader, and `xmllint --noout` when it is
// installed), one box per live operation inside its step's column, chained
// boxes below their operands' boxes and joined to them, heights proportional
// to delays (with a minimum), a dashed clock line per column, one colour per
// unit class with a legend, a title with the kernel, kind, latency and II;
// the same text every time; and `polydat hls FILE --format svg` prints it.
#include <doctest/doctest.h>

#include <algorithm>
#include <fmt/core.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include "hls/report.h"
#include "hls/schedule_svg.h"
#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

namespace {

constexpr double kTol = 0.15;  // coordinates are written with one decimal

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
};

double num(const XmlElement& e, const std::string& attr) {
  auto it = e.attrs.find(attr);
  REQUIRE_MESSAGE(it != e.attrs.end(), "<" << e.name << "> has no " << attr);
  return std::stod(it->second);
}

Rect rect_of(const XmlElement& e) { return Rect{num(e, "x"), num(e, "y"), num(e, "width"), num(e, "height")}; }

std::string attr(const XmlElement& e, const std::string& a) {
  auto it = e.attrs.find(a);
  return it == e.attrs.end() ? "" : it->second;
}

// All text inside element i (its own and its descendants').
std::string text_under(const std::vector<XmlElement>& xml, size_t i) {
  std::string t = xml[i].text;
  for (size_t j = i + 1; j < xml.size(); ++j) {
    int p = xml[j].parent;
    while (p >= 0 && static_cast<size_t>(p) != i) p = xml[static_cast<size_t>(p)].parent;
    if (p >= 0) t += xml[j].text;
  }
  return t;
}

uint32_t step_count(const hls::Design& d) {
  return d.kind == hls::DesignKind::Pipeline ? d.stages : static_cast<uint32_t>(d.states.size());
}

void check_picture(const std::string& key, const hls::Design& d) {
  CAPTURE(key);
  const std::string svg = hls::schedule_svg(d);
  CHECK(hls::schedule_svg(d) == svg);  // deterministic
  std::string why;
  const auto parsed = parse_xml(svg, why);
  if (!parsed) {
    FAIL_CHECK("not well-formed XML: " << why);
    return;
  }
  const std::vector<XmlElement>& xml = *parsed;
  REQUIRE(!xml.empty());
  CHECK(xml[0].name == "svg");
  CHECK(attr(xml[0], "xmlns") == "http://www.w3.org/2000/svg");
  for (const XmlElement& e : xml) {
    // No external assets.
    CHECK_MESSAGE(e.name != "image", "an <image> element");
    CHECK_MESSAGE(!e.attrs.count("href"), "an href");
    CHECK_MESSAGE(!e.attrs.count("xlink:href"), "an xlink:href");
  }

  // Title: kernel, kind, latency, II.
  std::string title;
  for (size_t i = 0; i < xml.size(); ++i)
    if (attr(xml[i], "class") == "title") title = text_under(xml, i);
  CHECK(contains(title, d.dfg.name));
  if (d.kind == hls::DesignKind::Pipeline) {
    CHECK(contains(title, "pipeline"));
    CHECK(contains(title, fmt::format("latency {} cycles", d.stages)));
    CHECK(contains(title, "II 1"));
  } else {
    CHECK(contains(title, "FSM"));
    CHECK(contains(title, fmt::format("latency 1 + {} + {}*(t+1) + {}", d.pre_steps, d.loop_steps, d.post_steps)));
    CHECK(contains(title, "II latency + 1"));
  }

  // Legend: one swatch per unit class, distinct colours.
  std::map<std::string, std::string> legend;  // unit class -> fill
  for (const XmlElement& e : xml)
    if (attr(e, "class") == "legend-swatch") CHECK(legend.emplace(attr(e, "data-unit"), attr(e, "fill")).second);
  CHECK(legend.size() == 9);
  std::set<std::string> fills;
  for (const auto& [unit, fill] : legend) fills.insert(fill);
  CHECK(fills.size() == legend.size());

  // Columns, one per step, in order, each with its dashed clock line.
  std::map<uint32_t, Rect> columns;
  std::map<uint32_t, const XmlElement*> clocks;
  std::vector<std::string> step_names;
  for (size_t i = 0; i < xml.size(); ++i) {
    const XmlElement& e = xml[i];
    if (e.name == "rect" && attr(e, "class") == "step")
      CHECK(columns.emplace(static_cast<uint32_t>(num(e, "data-step")), rect_of(e)).second);
    if (e.name == "line" && attr(e, "class") == "clock")
      CHECK(clocks.emplace(static_cast<uint32_t>(num(e, "data-step")), &e).second);
    if (attr(e, "class") == "step-name") step_names.push_back(text_under(xml, i));
  }
  const uint32_t steps = step_count(d);
  CHECK(columns.size() == steps);
  CHECK(clocks.size() == steps);
  REQUIRE(step_names.size() == steps);
  for (uint32_t s = 0; s < steps; ++s)
    CHECK(step_names[s] == (d.kind == hls::DesignKind::Pipeline ? fmt::format("stage {}", s) : d.states[s].name));
  double prev_right = -1;
  for (const auto& [s, c] : columns) {
    CHECK(c.x > prev_right);  // left to right in step order
    prev_right = c.x + c.w;
    REQUIRE(clocks.count(s));
    const XmlElement& cl = *clocks.at(s);
    CHECK(!attr(cl, "stroke-dasharray").empty());
    CHECK(std::abs(num(cl, "x1") - c.x) <= kTol);
    CHECK(std::abs(num(cl, "x2") - (c.x + c.w)) <= kTol);
    CHECK(num(cl, "y1") == num(cl, "y2"));
    CHECK(num(cl, "y1") > c.y);
  }

  // Boxes: one per live operation.
  std::map<hls::ValueId, Rect> box;
  for (size_t i = 0; i < xml.size(); ++i) {
    const XmlElement& g = xml[i];
    if (g.name != "g" || attr(g, "class") != "op") continue;
    const std::string id = attr(g, "id");
    REQUIRE(id.size() > 1);
    const hls::ValueId v = static_cast<hls::ValueId>(std::stoul(id.substr(1)));
    CAPTURE(id);
    REQUIRE(v < d.dfg.nodes.size());
    CHECK(d.dfg.is_logic(v));
    CHECK(d.live[v]);
    const XmlElement* r = nullptr;
    for (size_t j = i + 1; j < xml.size() && !r; ++j)
      if (xml[j].parent == static_cast<int>(i) && xml[j].name == "rect") r = &xml[j];
    REQUIRE(r != nullptr);
    const Rect b = rect_of(*r);
    CHECK(box.emplace(v, b).second);
    const uint32_t step = d.place[v].step;
    CHECK(num(g, "data-step") == step);
    // Inside its step's column.
    REQUIRE(columns.count(step));
    const Rect& c = columns.at(step);
    CHECK(b.x >= c.x - kTol);
    CHECK(b.x + b.w <= c.x + c.w + kTol);
    CHECK(b.y >= c.y - kTol);
    CHECK(b.y + b.h <= c.y + c.h + kTol);
    // Coloured by its unit class (the bound unit's, when it has one).
    const std::string unit = attr(g, "data-unit");
    CHECK(legend.count(unit));
    CHECK(attr(*r, "fill") == legend[unit]);
    if (d.place[v].unit >= 0) CHECK(unit == hls::unit_class_name(d.units[static_cast<size_t>(d.place[v].unit)].cls));
    // Labelled with op_label and the source name.
    const std::string label = text_under(xml, i);
    CHECK(contains(label, hls::op_label(d, v)));
    const std::string& name = d.dfg.nodes[v].name;
    if (!name.empty() && name.size() <= 8 && name.find_first_of("&<>\"'") == std::string::npos)
      CHECK(contains(label, name));
  }
  size_t live_ops = 0;
  for (hls::ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (d.dfg.is_logic(v) && d.live[v]) {
      ++live_ops;
      CHECK_MESSAGE(box.count(v), "no box for v" << v);
    }
  CHECK(box.size() == live_ops);
  if (box.empty()) return;

  // The time axis: boxes that start their step unchained sit at the origin;
  // the clock line is clock_ns below it; that gives the scale.
  std::set<std::string> chain_lines;
  for (const XmlElement& e : xml)
    if (e.name == "line" && attr(e, "class") == "chain")
      chain_lines.insert(attr(e, "data-from") + ">" + attr(e, "data-to"));
  double origin = -1;
  for (const auto& [v, b] : box) {
    bool chained = false;
    for (hls::ValueId u : d.dfg.nodes[v].operands)
      chained = chained || (box.count(u) && d.place[u].step == d.place[v].step);
    if (chained) {
      // Below each operand's box in the same step, and joined to it.
      for (hls::ValueId u : d.dfg.nodes[v].operands) {
        if (!box.count(u) || d.place[u].step != d.place[v].step) continue;
        CHECK_MESSAGE(b.y >= box[u].y + box[u].h - kTol, "v" << v << " is not below its operand v" << u);
        CHECK_MESSAGE(chain_lines.count(fmt::format("v{}>v{}", u, v)), "no chain line v" << u << " -> v" << v);
      }
      continue;
    }
    if (d.place[v].start_ns == 0) {
      if (origin < 0) origin = b.y;
      CHECK_MESSAGE(std::abs(b.y - origin) <= kTol, "v" << v << " starts at 0 ns but not at the column's top");
    }
  }
  REQUIRE(origin >= 0);
  const double scale = (num(*clocks.begin()->second, "y1") - origin) / d.clock_ns;
  REQUIRE(scale > 0);
  double min_h = 1e300;
  for (const auto& [v, b] : box) min_h = std::min(min_h, b.h);
  // The scale comes from coordinates printed to 0.1 px: a box many clock
  // heights tall inherits that rounding many times over.
  const double clock_px = scale * d.clock_ns;
  for (const auto& [v, b] : box) {
    CAPTURE(v);
    const hls::Placement& p = d.place[v];
    const double want = (p.finish_ns - p.start_ns) * scale;
    const double tol = 0.3 + 0.1 * want / clock_px;
    // Proportional to the delay, or the minimum height for short operations.
    CHECK_MESSAGE((std::abs(b.h - want) <= tol || (std::abs(b.h - min_h) <= kTol && want < b.h)),
                  "height " << b.h << " for " << p.finish_ns - p.start_ns << " ns (scale " << scale << ")");
    // Never above its start time.
    CHECK(b.y >= origin + p.start_ns * scale - tol);
  }
}

// How many accepted kernels the picture was checked on.
int pictures = 0;

}  // namespace

TEST_CASE("svg: the schedule picture of every accepted kernel") {
  for (const Kernel& k : all_kernels()) {
    const Flow f = run_flow(k);
    if (!f.design) continue;
    check_picture(k.key, *f.design);
    ++pictures;
  }
  CHECK(pictures >= 24 + 9);
}

TEST_CASE("svg: at another clock and target the picture still holds") {
  for (const char* key : {"corpus/stdlib_hash", "rtl/pcg_fsm", "rtl/all_ops"}) {
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    hls::HlsOptions o;
    o.target = hls::Target::Generic;
    const Flow f = run_flow(*k, o);
    REQUIRE(f.design.has_value());
    check_picture(std::string(key) + " (generic)", *f.design);
    o.target = hls::Target::Ice40;
    o.clock_ns = 5.0;
    const Flow g = run_flow(*k, o);
    if (g.design) check_picture(std::string(key) + " (5 ns)", *g.design);
  }
}

TEST_CASE("svg: xmllint accepts the pictures (when it is installed)") {
  const std::string xmllint = find_on_path("xmllint");
  if (xmllint.empty()) {
    MESSAGE("xmllint is not installed: skipped (the suite's own XML reader still checks every picture)");
    return;
  }
  testing::TempDir dir("polydat-svg");
  for (const char* key : {"corpus/sum_to_n", "corpus/stdlib_hash", "rtl/all_ops", "rtl/pcg_fsm", "rtl/permute_fsm"}) {
    CAPTURE(key);
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    const Flow f = run_flow(*k);
    REQUIRE(f.design.has_value());
    const fs::path p = dir.path() / (k->name + ".svg");
    std::ofstream(p) << hls::schedule_svg(*f.design);
    const testing::ProcessResult r = testing::run_process(xmllint, {"xmllint", "--noout", p.string()}, dir.path());
    CHECK(r.status == 0);
    CHECK_MESSAGE(r.out.empty(), r.out);
    CHECK_MESSAGE(r.err.empty(), r.err);
  }
}

TEST_CASE("svg: names that need escaping stay well-formed") {
  testing::TempDir dir("polydat-svg");
  dir.write("a&b<c>'q\".gk", "input x: u8\ny := (x + 1) ^ 3\n");
  Kernel k{"tmp", "a&b<c>'q\"", dir.path() / "a&b<c>'q\".gk", {}};
  const Flow f = run_flow(k);
  REQUIRE_MESSAGE(f.compiled, f.diagnostics);
  REQUIRE(f.design.has_value());
  const std::string svg = hls::schedule_svg(*f.design);
  std::string why;
  const auto xml = parse_xml(svg, why);
  REQUIRE_MESSAGE(xml.has_value(), why);
  check_picture("escaping", *f.design);
}

TEST_CASE("svg: a kernel without operations still draws its stage") {
  testing::TempDir dir("polydat-svg");
  dir.write("pass.gk", "input x: u64\ny := x\n");
  Kernel k{"tmp", "pass", dir.path() / "pass.gk", {}};
  const Flow f = run_flow(k);
  REQUIRE(f.design.has_value());
  check_picture("pass", *f.design);
}

TEST_CASE("svg: polydat hls FILE --format svg prints the picture") {
  const std::string polydat = POLYDAT_EXE;
  testing::TempDir dir("polydat-svg-cli");
  for (const char* key : {"corpus/sum_to_n", "corpus/libpath", "rtl/pcg_fsm", "rtl/with_cfg"}) {
    CAPTURE(key);
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    std::vector<std::string> argv{"polydat", "hls", k->path.string(), "--format", "svg"};
    for (const std::string& l : k->lib_paths) {
      argv.push_back("-L");
      argv.push_back(l);
    }
    const testing::ProcessResult r = testing::run_process(polydat, argv, dir.path());
    CHECK(r.status == 0);
    // Nothing on stderr but, where the model predicts a miss, the timing warning.
    CHECK_MESSAGE((r.err.empty() || (r.err.find(": warning: the model predicts the clock is missed") != std::string::npos &&
                                     r.err.find("[timing]\n") != std::string::npos &&
                                     std::count(r.err.begin(), r.err.end(), '\n') == 3)),
                  r.err);
    const Flow f = run_flow(*k);
    REQUIRE(f.design.has_value());
    CHECK(r.out == hls::schedule_svg(*f.design));
  }
  // A refused kernel prints no picture.
  const auto bad = find_kernel("corpus/casts_float");
  REQUIRE(bad.has_value());
  const testing::ProcessResult r =
      testing::run_process(polydat, {"polydat", "hls", bad->path.string(), "--format", "svg"}, dir.path());
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "no-hardware-width"));
  // An unknown format is a usage error.
  const testing::ProcessResult u =
      testing::run_process(polydat, {"polydat", "hls", bad->path.string(), "--format", "png"}, dir.path());
  CHECK(u.status != 0);
  CHECK(u.out.empty());
}
