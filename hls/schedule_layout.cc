#include "hls/schedule_layout.h"

#include <algorithm>
#include <array>
#include <tuple>

namespace polydat::hls::picture {

namespace {

constexpr std::array<UnitClass, 9> kLegendOrder = {UnitClass::Wire,  UnitClass::Logic,   UnitClass::Adder,
                                                   UnitClass::Equal, UnitClass::Shifter, UnitClass::Counter,
                                                   UnitClass::Mul,   UnitClass::Dsp,     UnitClass::Div};

// Left to right: by bound unit (so a shared unit keeps its place in the order), then the unbound by value.
bool across_before(const Box& a, const Box& b, size_t units) {
  const size_t ka = a.unit >= 0 ? static_cast<size_t>(a.unit) : units + a.v;
  const size_t kb = b.unit >= 0 ? static_cast<size_t>(b.unit) : units + b.v;
  return std::tie(ka, a.v) < std::tie(kb, b.v);
}

void add_edges(const Design& d, Layout& l) {
  const Dfg& g = d.dfg;
  auto has_box = [&](ValueId v) { return v < l.box_of.size() && l.box_of[v] >= 0; };
  auto step_of = [&](ValueId v) { return l.boxes[static_cast<size_t>(l.box_of[v])].step; };
  for (const Box& b : l.boxes) {
    for (ValueId o : g.nodes[b.v].operands)
      for (ValueId p : through_wiring(g, o)) {
        if (has_box(p)) l.edges.push_back(Edge{p, b.v, EdgeKind::Flow, false});
        if (g.nodes[p].kind != NodeKind::State || !g.loop) continue;
        // A loop state register: read from what loads it on entry and what it latches per iteration.
        const size_t i = g.nodes[p].index;
        if (i >= g.loop->state.size()) continue;
        for (ValueId w : through_wiring(g, g.loop->init[i]))
          if (has_box(w)) l.edges.push_back(Edge{w, b.v, EdgeKind::Flow, true});
        for (ValueId w : through_wiring(g, g.loop->next[i]))
          if (has_box(w))
            l.edges.push_back(Edge{w, b.v, step_of(w) >= b.step ? EdgeKind::Back : EdgeKind::Flow, true});
      }
  }
  auto key = [](const Edge& e) { return std::make_tuple(e.from, e.to, e.kind, e.via_state); };
  std::sort(l.edges.begin(), l.edges.end(), [&](const Edge& a, const Edge& b) { return key(a) < key(b); });
  // One arrow per producer, consumer and kind (a state and a direct read of one value are one arrow).
  l.edges.erase(std::unique(l.edges.begin(), l.edges.end(),
                            [](const Edge& a, const Edge& b) { return a.from == b.from && a.to == b.to && a.kind == b.kind; }),
                l.edges.end());
}

}  // namespace

uint32_t step_count(const Design& d) {
  return d.kind == DesignKind::Pipeline ? std::max(1u, d.stages) : static_cast<uint32_t>(d.states.size());
}

bool live_op(const Design& d, ValueId v) { return d.dfg.is_logic(v) && d.live[v]; }

UnitClass unit_class(const Design& d, ValueId v) {
  const int u = d.place[v].unit;
  if (u >= 0 && static_cast<size_t>(u) < d.units.size()) return d.units[static_cast<size_t>(u)].cls;
  return d.cost(v).unit;
}

Layout layout(const Design& d, double text_width) {
  Layout l;
  const Dfg& g = d.dfg;
  const uint32_t steps = step_count(d);
  std::vector<std::vector<Box>> by_step(steps);
  std::vector<double> chain(steps, 0);
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    if (!live_op(d, v)) continue;
    const Placement& p = d.place[v];
    Box b;
    b.v = v;
    b.step = std::min(p.step, steps - 1);
    b.cls = unit_class(d, v);
    b.unit = p.unit >= 0 && static_cast<size_t>(p.unit) < d.units.size() ? p.unit : -1;
    chain[b.step] = std::max(chain[b.step], p.finish_ns);
    by_step[b.step].push_back(b);
  }
  const bool loop = d.kind == DesignKind::Fsm && d.loop_steps > 0;
  auto in_loop = [&](uint32_t s) { return loop && s >= d.loop_state(0) && s <= d.loop_state(d.loop_steps - 1); };
  l.box_of.assign(g.nodes.size(), -1);
  double y = kRowsTop;
  size_t rank = 0;
  for (uint32_t s = 0; s < steps;) {
    // Fold a run of two or more empty steps (an iterative unit's cycles), never across the loop's edge.
    uint32_t e = s;
    while (e + 1 < steps && by_step[s].empty() && by_step[e + 1].empty() && in_loop(e + 1) == in_loop(s)) ++e;
    if (in_loop(s) && l.loop_first_row < 0) {
      l.loop_first_row = static_cast<int>(l.rows.size());
      y += kLoopStrip;
    }
    Row r;
    r.first = s;
    r.last = e;
    r.folded = e > s;
    r.y = y;
    r.chain_ns = chain[s];
    std::vector<Box>& list = by_step[s];
    std::sort(list.begin(), list.end(), [&](const Box& a, const Box& b) { return across_before(a, b, d.units.size()); });
    r.lines = std::max<size_t>(1, (list.size() + kSlots - 1) / kSlots);
    r.height = r.folded ? kFoldedHeight : 2 * kRowPad + kBoxHeight + static_cast<double>(r.lines - 1) * kLinePitch;
    for (size_t i = 0; i < list.size(); ++i) {
      Box b = list[i];
      b.line = i / kSlots;
      b.rank = rank + b.line;
      b.x = kMargin + kHeaderWidth + static_cast<double>(i % kSlots) * (kBoxWidth + kGapX);
      b.y = y + kRowPad + static_cast<double>(b.line) * kLinePitch;
      l.boxes_right = std::max(l.boxes_right, b.x + kBoxWidth);
      l.box_of[b.v] = static_cast<int>(l.boxes.size());
      l.boxes.push_back(b);
    }
    if (in_loop(s)) l.loop_last_row = static_cast<int>(l.rows.size());
    l.rows.push_back(r);
    rank += r.lines;
    y += r.height + kRowGap;
    s = e + 1;
  }
  add_edges(d, l);
  std::array<bool, kLegendOrder.size()> used{};
  for (const Box& b : l.boxes)
    for (size_t i = 0; i < kLegendOrder.size(); ++i) used[i] = used[i] || kLegendOrder[i] == b.cls;
  for (size_t i = 0; i < kLegendOrder.size(); ++i)
    if (used[i]) l.classes.push_back(kLegendOrder[i]);
  const double legend = kMargin + 110.0 * static_cast<double>(l.classes.size()) + kMargin;
  const double content = std::max(l.boxes_right, kMargin + kHeaderWidth + kBoxWidth) + kBackGutter + kMargin;
  l.width = std::min(kMaxWidth, std::max({content, legend, text_width + 2 * kMargin, 640.0}));
  l.height = y - kRowGap + kMargin;
  return l;
}

}  // namespace polydat::hls::picture
