// The schedule picture (hls/schedule_svg.h) of every accepted kernel: a
// well-formed XML document (our own reader, and `xmllint --noout` when it is
// installed) at most 1,600 px wide with no text below 10 px and none running
// out of its box; one row per step top to bottom (or a folded row for steps
// where nothing starts), each with its clock mark; one box per live
// operation in its step's row, ordered across by bound unit; one arrow per
// dataflow edge, derived here from the DFG, starting on the producer's box and
// ending on the consumer's; a legend of exactly the unit classes used; a
// title with the kernel, kind, latency and II; the same text every time.
#include <doctest/doctest.h>

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include "hls/report.h"
#include "hls/schedule_svg.h"
#include "tests/rtl/rtl_support.h"
#include "tests/support/process.h"

using namespace polydat;
using namespace polydat::rtltest;

namespace {

constexpr double kTol = 0.15;  // coordinates are written with one decimal
constexpr double kMaxWidth = 1600;

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

size_t code_points(const std::string& s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

uint32_t step_count(const hls::Design& d) {
  return d.kind == hls::DesignKind::Pipeline ? std::max(1u, d.stages) : static_cast<uint32_t>(d.states.size());
}

bool live_op(const hls::Design& d, hls::ValueId v) { return d.dfg.is_logic(v) && d.live[v]; }

// The values v's result is made of, looking through slices, concatenations and extensions.
void sources(const hls::Dfg& g, hls::ValueId v, std::set<hls::ValueId>& out) {
  const hls::Node& n = g.nodes[v];
  if (n.kind == hls::NodeKind::Op && (n.op == hls::Op::Slice || n.op == hls::Op::Concat || n.op == hls::Op::ZExt ||
                                      n.op == hls::Op::SExt)) {
    for (hls::ValueId o : n.operands) sources(g, o, out);
    return;
  }
  out.insert(v);
}

// (producer, consumer, back-edge) between live operations: operands through
// wiring, and a loop state read as a read of what loads it and what latches it.
using EdgeKey = std::tuple<hls::ValueId, hls::ValueId, bool>;
std::set<EdgeKey> expected_edges(const hls::Design& d) {
  const hls::Dfg& g = d.dfg;
  std::set<EdgeKey> out;
  for (hls::ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!live_op(d, v)) continue;
    std::set<hls::ValueId> read;
    for (hls::ValueId o : g.nodes[v].operands) sources(g, o, read);
    for (hls::ValueId p : read) {
      if (live_op(d, p)) out.emplace(p, v, false);
      if (g.nodes[p].kind != hls::NodeKind::State) continue;
      REQUIRE(g.loop.has_value());
      const size_t i = std::find(g.loop->state.begin(), g.loop->state.end(), p) - g.loop->state.begin();
      REQUIRE(i < g.loop->state.size());
      std::set<hls::ValueId> init, next;
      sources(g, g.loop->init[i], init);
      sources(g, g.loop->next[i], next);
      for (hls::ValueId w : init)
        if (live_op(d, w)) out.emplace(w, v, false);
      for (hls::ValueId w : next)
        if (live_op(d, w)) out.emplace(w, v, d.place[w].step >= d.place[v].step);
    }
  }
  return out;
}

struct Point {
  double x = 0, y = 0;
};

// The first and the last point of a path of absolute M, L, C, H and V commands.
std::pair<Point, Point> ends_of(const std::string& d) {
  std::vector<std::pair<char, std::vector<double>>> cmds;
  size_t i = 0;
  while (i < d.size()) {
    const char c = d[i];
    if (std::isalpha(static_cast<unsigned char>(c))) {
      cmds.push_back({c, {}});
      ++i;
    } else if (c == ' ' || c == ',') {
      ++i;
    } else {
      size_t used = 0;
      REQUIRE(!cmds.empty());
      cmds.back().second.push_back(std::stod(d.substr(i), &used));
      i += used;
    }
  }
  REQUIRE(!cmds.empty());
  REQUIRE(cmds[0].first == 'M');
  Point start{cmds[0].second.at(0), cmds[0].second.at(1)}, cur = start;
  for (const auto& [c, n] : cmds) {
    if (c == 'M' || c == 'L' || c == 'C') {
      REQUIRE(n.size() >= 2);
      cur = Point{n[n.size() - 2], n[n.size() - 1]};
    } else if (c == 'H') {
      cur.x = n.at(0);
    } else if (c == 'V') {
      cur.y = n.at(0);
    } else {
      FAIL("path command " << c);
    }
  }
  return {start, cur};
}

// On the rectangle's edge (within a pixel).
bool on_edge(const Point& p, const Rect& r) {
  const double t = 1.0;
  const bool inside = p.x >= r.x - t && p.x <= r.x + r.w + t && p.y >= r.y - t && p.y <= r.y + r.h + t;
  const bool near = std::abs(p.x - r.x) <= t || std::abs(p.x - r.x - r.w) <= t || std::abs(p.y - r.y) <= t ||
                    std::abs(p.y - r.y - r.h) <= t;
  return inside && near;
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
  // At most 1,600 px wide, and nothing drawn beyond the width; no text below 10 px.
  const double width = num(xml[0], "width");
  CHECK(width <= kMaxWidth);
  CHECK(attr(xml[0], "viewBox") == fmt::format("0 0 {:.1f} {:.1f}", width, num(xml[0], "height")));
  for (const XmlElement& e : xml) {
    // No external assets.
    CHECK_MESSAGE(e.name != "image", "an <image> element");
    CHECK_MESSAGE(!e.attrs.count("href"), "an href");
    CHECK_MESSAGE(!e.attrs.count("xlink:href"), "an xlink:href");
    if (e.attrs.count("font-size")) CHECK(num(e, "font-size") >= 10);
    if (e.name == "rect" && e.attrs.count("x")) CHECK(num(e, "x") + num(e, "width") <= width + kTol);
    if (e.name == "text") CHECK(num(e, "x") < width);
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

  // Legend: exactly the unit classes the live operations are built from, distinct colours.
  std::set<std::string> want_classes;
  for (hls::ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (live_op(d, v))
      want_classes.insert(std::string(hls::unit_class_name(d.place[v].unit >= 0 ? d.units[static_cast<size_t>(d.place[v].unit)].cls
                                                                    : d.cost(v).unit)));
  std::map<std::string, std::string> legend;  // unit class -> fill
  for (const XmlElement& e : xml)
    if (attr(e, "class") == "legend-swatch") CHECK(legend.emplace(attr(e, "data-unit"), attr(e, "fill")).second);
  std::set<std::string> legend_classes;
  for (const auto& [unit, fill] : legend) legend_classes.insert(unit);
  CHECK(legend_classes == want_classes);
  std::set<std::string> fills;
  for (const auto& [unit, fill] : legend) fills.insert(fill);
  CHECK(fills.size() == legend.size());

  // Rows: every step once, as its own row or inside a folded one, top to bottom in step order.
  const uint32_t steps = step_count(d);
  std::map<uint32_t, Rect> rows;                   // step -> its row
  std::map<uint32_t, std::pair<uint32_t, Rect>> folded;  // first step -> (last, row)
  std::map<uint32_t, const XmlElement*> clocks;
  std::vector<std::string> step_names;
  for (size_t i = 0; i < xml.size(); ++i) {
    const XmlElement& e = xml[i];
    if (e.name == "rect" && attr(e, "class") == "step")
      CHECK(rows.emplace(static_cast<uint32_t>(num(e, "data-step")), rect_of(e)).second);
    if (e.name == "rect" && attr(e, "class") == "folded")
      CHECK(folded.emplace(static_cast<uint32_t>(num(e, "data-first")),
                           std::pair{static_cast<uint32_t>(num(e, "data-last")), rect_of(e)})
                .second);
    if (e.name == "line" && attr(e, "class") == "clock")
      CHECK(clocks.emplace(static_cast<uint32_t>(num(e, "data-step")), &e).second);
    if (attr(e, "class") == "step-name") step_names.push_back(text_under(xml, i));
  }
  std::vector<std::pair<uint32_t, double>> order;  // (first step, row top)
  std::vector<int> covered(steps, 0);
  for (const auto& [s, r] : rows) {
    REQUIRE(s < steps);
    ++covered[s];
    order.emplace_back(s, r.y);
  }
  for (const auto& [first, f] : folded) {
    CHECK(f.first > first);
    for (uint32_t s = first; s <= f.first && s < steps; ++s) ++covered[s];
    order.emplace_back(first, f.second.y);
  }
  for (uint32_t s = 0; s < steps; ++s) CHECK_MESSAGE(covered[s] == 1, "step " << s << " is drawn " << covered[s] << " times");
  std::sort(order.begin(), order.end());
  for (size_t i = 1; i < order.size(); ++i) CHECK(order[i].second > order[i - 1].second);
  CHECK(step_names.size() == rows.size());
  for (size_t i = 0; i < step_names.size() && i < rows.size(); ++i) {
    const uint32_t s = std::next(rows.begin(), static_cast<long>(i))->first;
    CHECK(step_names[i] == (d.kind == hls::DesignKind::Pipeline ? fmt::format("stage {}", s) : d.states[s].name));
  }
  // Each row's clock mark: dashed, inside the row.
  CHECK(clocks.size() == rows.size());
  for (const auto& [s, r] : rows) {
    REQUIRE(clocks.count(s));
    const XmlElement& cl = *clocks.at(s);
    CHECK(!attr(cl, "stroke-dasharray").empty());
    CHECK(num(cl, "y1") >= r.y);
    CHECK(num(cl, "y2") <= r.y + r.h);
    CHECK(num(cl, "x1") >= r.x);
  }

  // Boxes: one per live operation, in its step's row, ordered across by unit.
  std::map<hls::ValueId, Rect> box;
  std::map<std::pair<uint32_t, double>, std::vector<std::pair<double, hls::ValueId>>> lines;  // (step, y) -> (x, v)
  for (size_t i = 0; i < xml.size(); ++i) {
    const XmlElement& g = xml[i];
    if (g.name != "g" || attr(g, "class") != "op") continue;
    const std::string id = attr(g, "id");
    REQUIRE(id.size() > 1);
    const hls::ValueId v = static_cast<hls::ValueId>(std::stoul(id.substr(1)));
    CAPTURE(id);
    REQUIRE(v < d.dfg.nodes.size());
    CHECK(live_op(d, v));
    const XmlElement* r = nullptr;
    for (size_t j = i + 1; j < xml.size() && !r; ++j)
      if (xml[j].parent == static_cast<int>(i) && xml[j].name == "rect") r = &xml[j];
    REQUIRE(r != nullptr);
    const Rect b = rect_of(*r);
    CHECK(box.emplace(v, b).second);
    const uint32_t step = std::min(d.place[v].step, steps - 1);
    CHECK(num(g, "data-step") == step);
    REQUIRE_MESSAGE(rows.count(step), "v" << v << "'s step " << step << " has no row");
    const Rect& c = rows.at(step);
    CHECK(b.x >= c.x - kTol);
    CHECK(b.x + b.w <= c.x + c.w + kTol);
    CHECK(b.y >= c.y - kTol);
    CHECK(b.y + b.h <= c.y + c.h + kTol);
    CHECK(b.x + b.w <= width);
    lines[{step, b.y}].emplace_back(b.x, v);
    // Coloured by its unit class (the bound unit's, when it has one).
    const std::string unit = attr(g, "data-unit");
    CHECK(legend.count(unit));
    CHECK(attr(*r, "fill") == legend[unit]);
    CHECK(num(g, "data-unit-index") == d.place[v].unit);
    if (d.place[v].unit >= 0) CHECK(unit == hls::unit_class_name(d.units[static_cast<size_t>(d.place[v].unit)].cls));
    // Labelled with op_label and the source name; every line fits its box (6 px a character at 10 px).
    const std::string label = text_under(xml, i);
    CHECK(contains(label, hls::op_label(d, v)));
    const std::string& name = d.dfg.nodes[v].name;
    if (!name.empty() && name.size() <= 8 && name.find_first_of("&<>\"'") == std::string::npos)
      CHECK(contains(label, name));
    for (size_t j = i + 1; j < xml.size(); ++j)
      if (xml[j].parent == static_cast<int>(i) && xml[j].name == "text")
        CHECK_MESSAGE(6.0 * static_cast<double>(code_points(text_under(xml, j))) + 4 <= b.w + kTol,
                      "'" << text_under(xml, j) << "' runs out of its box");
  }
  size_t live_ops = 0;
  for (hls::ValueId v = 0; v < d.dfg.nodes.size(); ++v)
    if (live_op(d, v)) {
      ++live_ops;
      CHECK_MESSAGE(box.count(v), "no box for v" << v);
    }
  CHECK(box.size() == live_ops);
  for (const auto& [first, f] : folded)
    for (const auto& [v, b] : box) CHECK_MESSAGE((d.place[v].step < first || d.place[v].step > f.first), "v" << v << " starts in a folded step");
  // Across a line: by bound unit, the unbound after by value; no two boxes overlap.
  for (auto& [where, list] : lines) {
    std::sort(list.begin(), list.end());
    for (size_t i = 1; i < list.size(); ++i) {
      const hls::ValueId a = list[i - 1].second, b = list[i].second;
      const auto key = [&](hls::ValueId v) {
        return std::pair<size_t, hls::ValueId>{d.place[v].unit >= 0 ? static_cast<size_t>(d.place[v].unit) : d.units.size() + v, v};
      };
      CHECK_MESSAGE(key(a) < key(b), "v" << a << " is left of v" << b);
      CHECK(list[i].first >= list[i - 1].first + box[a].w);
    }
  }

  // Arrows: one per dataflow edge, from the producer's box to the consumer's.
  std::map<EdgeKey, int> drawn;
  for (const XmlElement& e : xml) {
    const std::string cls = attr(e, "class");
    if (e.name != "path" || (cls != "flow" && cls != "back-edge")) continue;
    const hls::ValueId a = static_cast<hls::ValueId>(std::stoul(attr(e, "data-from").substr(1)));
    const hls::ValueId b = static_cast<hls::ValueId>(std::stoul(attr(e, "data-to").substr(1)));
    ++drawn[{a, b, cls == "back-edge"}];
    CAPTURE(a);
    CAPTURE(b);
    REQUIRE(box.count(a));
    REQUIRE(box.count(b));
    const auto [start, end] = ends_of(attr(e, "d"));
    CHECK_MESSAGE(on_edge(start, box[a]), "the arrow v" << a << " -> v" << b << " does not start on v" << a);
    CHECK_MESSAGE(on_edge(end, box[b]), "the arrow v" << a << " -> v" << b << " does not end on v" << b);
    CHECK(!attr(e, "marker-end").empty());
    if (cls == "back-edge") CHECK(!attr(e, "stroke-dasharray").empty());
  }
  const std::set<EdgeKey> want = expected_edges(d);
  for (const EdgeKey& k : want)
    CHECK_MESSAGE(drawn[k] == 1, "v" << std::get<0>(k) << " -> v" << std::get<1>(k) << (std::get<2>(k) ? " (back)" : "")
                                     << " drawn " << drawn[k] << " times");
  for (const auto& [k, n] : drawn)
    CHECK_MESSAGE(want.count(k), "an arrow v" << std::get<0>(k) << " -> v" << std::get<1>(k) << " that is no edge");
}

// How many accepted kernels the picture was checked on.
int pictures = 0;

}  // namespace

TEST_CASE("svg: the schedule picture of every accepted kernel") {
  double widest = 0;
  std::string widest_key;
  for (const Kernel& k : all_kernels()) {
    const Flow f = run_flow(k);
    if (!f.design) continue;
    check_picture(k.key, *f.design);
    std::string why;
    const auto xml = parse_xml(hls::schedule_svg(*f.design), why);
    if (xml && std::stod(xml->front().attrs.at("width")) > widest) {
      widest = std::stod(xml->front().attrs.at("width"));
      widest_key = k.key;
    }
    ++pictures;
  }
  CHECK(pictures >= 24 + 9);
  MESSAGE("the widest picture: " << widest_key << ", " << widest << " px");
  CHECK(widest <= kMaxWidth);
}

TEST_CASE("svg: a loop's back-edges are drawn apart from the forward dataflow") {
  for (const char* key : {"corpus/sum_to_n", "rtl/pcg_fsm"}) {
    CAPTURE(key);
    const auto k = find_kernel(key);
    REQUIRE(k.has_value());
    const Flow f = run_flow(*k);
    REQUIRE(f.design.has_value());
    size_t back = 0;
    for (const EdgeKey& e : expected_edges(*f.design)) back += std::get<2>(e);
    CHECK(back > 0);
    CHECK(contains(hls::schedule_svg(*f.design), "class=\"back-edge\""));
  }
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
