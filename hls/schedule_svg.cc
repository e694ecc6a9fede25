#include "hls/schedule_svg.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <set>
#include <vector>

#include "hls/report.h"

namespace polydat::hls {

namespace {

// Geometry, in pixels.
constexpr double kMargin = 20;
constexpr double kAxisWidth = 84;  // the time axis left of the columns
constexpr double kColumnGap = 16;
constexpr double kPad = 8;          // inside a column, around its boxes
constexpr double kLaneWidth = 184;  // one box's width: 30 characters
constexpr double kLaneGap = 8;
constexpr double kMinBox = 16;         // a box's least height: a line of text
constexpr double kChainGap = 4;        // between an operand's box and a chained user's box
constexpr double kLaneClearance = 4;   // boxes sharing a lane keep this apart
constexpr double kPeriodPixels = 400;  // the clock period's height
constexpr double kMaxPixels = 1200;    // unless an operation longer than 3 periods would exceed this
constexpr double kColumnTop = 132;
constexpr double kLegendEntry = 100;

constexpr std::array<UnitClass, 9> kClasses = {UnitClass::Wire,  UnitClass::Logic,   UnitClass::Adder,
                                               UnitClass::Equal, UnitClass::Shifter, UnitClass::Counter,
                                               UnitClass::Mul,   UnitClass::Dsp,     UnitClass::Div};

const char* colour(UnitClass c) {
  switch (c) {
    case UnitClass::Wire:
      return "#cfd8dc";
    case UnitClass::Logic:
      return "#a5d6a7";
    case UnitClass::Adder:
      return "#90caf9";
    case UnitClass::Equal:
      return "#80deea";
    case UnitClass::Shifter:
      return "#ffe082";
    case UnitClass::Counter:
      return "#ce93d8";
    case UnitClass::Mul:
      return "#ef9a9a";
    case UnitClass::Dsp:
      return "#f48fb1";
    case UnitClass::Div:
      return "#ffab91";
  }
  return "#ffffff";
}

std::string px(double x) { return fmt::format("{:.1f}", x); }

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // Control characters are not allowed in XML 1.0 text.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

// At most `n` bytes, cut at a UTF-8 character boundary, with "..." when cut.
std::string shorten(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  size_t cut = n - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

struct Box {
  ValueId v = 0;
  uint32_t step = 0;
  double top = 0;  // below the column's time origin
  double height = 0;
  size_t lane = 0;
  UnitClass cls = UnitClass::Wire;
};

class Picture {
 public:
  explicit Picture(const Design& d) : d_(d), g_(d.dfg) {}

  std::string run() {
    layout();
    document();
    return std::move(out_);
  }

 private:
  uint32_t step_count() const {
    return d_.kind == DesignKind::Pipeline ? std::max(1u, d_.stages) : static_cast<uint32_t>(d_.states.size());
  }

  std::string step_name(uint32_t s) const {
    return d_.kind == DesignKind::Pipeline ? fmt::format("stage {}", s) : d_.states.at(s).name;
  }

  // What a column holds, under its name.
  std::string step_role(uint32_t s) const {
    if (d_.kind == DesignKind::Pipeline) return "";
    const FsmState& st = d_.states.at(s);
    if (st.idle) return "idle: accepts";
    if (st.done) return "done: offers";
    return st.block == Region::Pre ? "before the loop" : st.block == Region::Loop ? "loop body" : "after the loop";
  }

  bool live_op(ValueId v) const { return g_.is_logic(v) && d_.live[v]; }

  UnitClass unit_class(ValueId v) const {
    const int u = d_.place[v].unit;
    if (u >= 0 && static_cast<size_t>(u) < d_.units.size()) return d_.units[static_cast<size_t>(u)].cls;
    return d_.cost(v).unit;
  }

  void layout() {
    scale_ = kPeriodPixels / (d_.clock_ns > 0 ? d_.clock_ns : 1.0);
    double latest = 0;
    for (ValueId v = 0; v < g_.nodes.size(); ++v)
      if (live_op(v)) latest = std::max(latest, d_.place[v].finish_ns);
    if (latest * scale_ > kMaxPixels) scale_ = kMaxPixels / latest;
    const uint32_t steps = step_count();
    box_of_.assign(g_.nodes.size(), -1);
    // Down the column by start time; a chained operation starts below its
    // operands' boxes (the minimum height would otherwise overlap them).
    for (ValueId v = 0; v < g_.nodes.size(); ++v) {
      if (!live_op(v)) continue;
      const Placement& p = d_.place[v];
      Box b;
      b.v = v;
      b.step = std::min(p.step, steps - 1);
      b.height = std::max(kMinBox, (p.finish_ns - p.start_ns) * scale_);
      b.top = std::max(0.0, p.start_ns * scale_);
      for (ValueId u : g_.nodes[v].operands) {
        const int ub = box_of_[u];
        if (ub >= 0 && boxes_[static_cast<size_t>(ub)].step == b.step)
          b.top =
              std::max(b.top, boxes_[static_cast<size_t>(ub)].top + boxes_[static_cast<size_t>(ub)].height + kChainGap);
      }
      b.cls = unit_class(v);
      box_of_[v] = static_cast<int>(boxes_.size());
      boxes_.push_back(b);
    }
    // Lanes: boxes whose heights overlap sit side by side (first fit, by top).
    lanes_.assign(steps, 1);
    std::vector<std::vector<size_t>> by_step(steps);
    for (size_t i = 0; i < boxes_.size(); ++i) by_step[boxes_[i].step].push_back(i);
    for (uint32_t s = 0; s < steps; ++s) {
      std::vector<size_t>& list = by_step[s];
      std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) { return boxes_[a].top < boxes_[b].top; });
      std::vector<double> bottom;  // per lane
      for (size_t i : list) {
        Box& b = boxes_[i];
        size_t lane = 0;
        while (lane < bottom.size() && bottom[lane] + kLaneClearance > b.top) ++lane;
        if (lane == bottom.size()) bottom.push_back(0);
        bottom[lane] = b.top + b.height;
        b.lane = lane;
      }
      lanes_[s] = std::max<size_t>(1, bottom.size());
    }
    // Every column as tall as the tallest content, and at least the period.
    double content = d_.clock_ns * scale_;
    for (const Box& b : boxes_) content = std::max(content, b.top + b.height);
    column_height_ = content + 2 * kPad;
    double x = kMargin + kAxisWidth;
    for (uint32_t s = 0; s < steps; ++s) {
      column_x_.push_back(x);
      const double w =
          2 * kPad + static_cast<double>(lanes_[s]) * kLaneWidth + static_cast<double>(lanes_[s] - 1) * kLaneGap;
      column_w_.push_back(w);
      x += w + kColumnGap;
    }
    width_ = std::max(x - kColumnGap + kMargin, 2 * kMargin + kLegendEntry * static_cast<double>(kClasses.size()));
    height_ = kColumnTop + column_height_ + 36 + kMargin;
  }

  double origin() const { return kColumnTop + kPad; }  // time 0 inside a column
  double box_x(const Box& b) const {
    return column_x_[b.step] + kPad + static_cast<double>(b.lane) * (kLaneWidth + kLaneGap);
  }
  double box_y(const Box& b) const { return origin() + b.top; }

  void line(const std::string& s) { out_ += s + "\n"; }

  std::string title() const {
    const std::string kind = d_.kind == DesignKind::Pipeline ? "pipeline" : "FSM";
    if (d_.kind == DesignKind::Pipeline)
      return fmt::format("kernel {}: {}, {} stage{}, latency {} cycles, II 1", g_.name, kind, d_.stages,
                         d_.stages == 1 ? "" : "s", d_.latency());
    return fmt::format(
        "kernel {}: {}, {} states, latency 1 + {} + {}*(t+1) + {} cycles (t = 0: {}), II latency + 1 (t = 0: {})",
        g_.name, kind, d_.states.size(), d_.pre_steps, d_.loop_steps, d_.post_steps, d_.latency(0),
        d_.initiation_interval(0));
  }

  void document() {
    line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    line(
        fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                    "font-family=\"monospace\" font-size=\"10\">",
                    px(width_), px(height_), px(width_), px(height_)));
    line("<title>" + escape("schedule of " + title()) + "</title>");
    line(fmt::format("<rect class=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
                     px(width_), px(height_)));
    line(fmt::format("<text class=\"title\" x=\"{}\" y=\"28\" font-size=\"16\" font-weight=\"bold\">{}</text>",
                     px(kMargin), escape(title())));
    const double slack = d_.clock_ns - d_.critical_path_ns;
    line(fmt::format("<text class=\"subtitle\" x=\"{}\" y=\"48\" font-size=\"11\">{}</text>", px(kMargin),
                     escape(fmt::format("target {}, clock {:.2f} ns, critical path {:.2f} ns (slack {:.2f} ns); "
                                        "box height: delay, top: start within the step",
                                        target_name(d_.target), d_.clock_ns, d_.critical_path_ns, slack))));
    legend();
    columns();
    chains();
    for (const Box& b : boxes_) box(b);
    line("</svg>");
  }

  void legend() {
    line("<g class=\"legend\">");
    for (size_t i = 0; i < kClasses.size(); ++i) {
      const double x = kMargin + kLegendEntry * static_cast<double>(i);
      line(
          fmt::format("  <rect class=\"legend-swatch\" data-unit=\"{}\" x=\"{}\" y=\"62\" width=\"12\" height=\"12\" "
                      "fill=\"{}\" stroke=\"#37474f\"/>",
                      unit_class_name(kClasses[i]), px(x), colour(kClasses[i])));
      line(fmt::format("  <text x=\"{}\" y=\"72\">{}</text>", px(x + 16), unit_class_name(kClasses[i])));
    }
    line("</g>");
  }

  void columns() {
    const uint32_t steps = step_count();
    const double top = kColumnTop;
    const double clock_y = origin() + d_.clock_ns * scale_;
    // The time axis.
    line("<g class=\"axis\">");
    line(fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"end\">0 ns</text>", px(kMargin + kAxisWidth - 8),
                     px(origin() + 4)));
    line(fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:.2f} ns</text>", px(kMargin + kAxisWidth - 8),
                     px(clock_y + 4), d_.clock_ns));
    line(fmt::format("  <text x=\"{}\" y=\"{}\" text-anchor=\"end\">clock</text>", px(kMargin + kAxisWidth - 8),
                     px(clock_y - 8)));
    line("</g>");
    // The loop's states share a band.
    if (d_.kind == DesignKind::Fsm && d_.loop_steps > 0) {
      const uint32_t first = d_.loop_state(0), last = d_.loop_state(d_.loop_steps - 1);
      if (last < steps) {
        const double x0 = column_x_[first] - kColumnGap / 2, x1 = column_x_[last] + column_w_[last] + kColumnGap / 2;
        line(fmt::format("<rect class=\"loop-band\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff8e1\"/>",
                         px(x0), px(top - 40), px(x1 - x0), px(column_height_ + 64)));
        line(fmt::format("<text class=\"loop-label\" x=\"{}\" y=\"{}\">{}</text>", px(x0 + 4),
                         px(top + column_height_ + 18),
                         escape(fmt::format("loop: {}..{} repeat while the guard holds", d_.states[first].name,
                                            d_.states[last].name))));
      }
    }
    for (uint32_t s = 0; s < steps; ++s) {
      const double x = column_x_[s], w = column_w_[s];
      line(fmt::format("<text class=\"step-name\" x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\">{}</text>",
                       px(x + kPad), px(top - 20), escape(step_name(s))));
      const std::string role = step_role(s);
      if (!role.empty())
        line(fmt::format("<text class=\"step-role\" x=\"{}\" y=\"{}\">{}</text>", px(x + kPad), px(top - 6),
                         escape(role)));
      line(
          fmt::format("<rect class=\"step\" data-step=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                      "fill=\"#f5f5f5\" stroke=\"#90a4ae\"/>",
                      s, px(x), px(top), px(w), px(column_height_)));
      line(
          fmt::format("<line class=\"clock\" data-step=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" "
                      "stroke=\"#d32f2f\" stroke-dasharray=\"6,4\"/>",
                      s, px(x), px(clock_y), px(x + w), px(clock_y)));
    }
  }

  // Operand to user, within a step: the chain is visible.
  void chains() {
    line("<g class=\"chains\" stroke=\"#455a64\" stroke-width=\"1.2\">");
    for (const Box& b : boxes_) {
      std::set<ValueId> seen;
      for (ValueId u : g_.nodes[b.v].operands) {
        const int ub = box_of_[u];
        if (ub < 0 || !seen.insert(u).second) continue;
        const Box& a = boxes_[static_cast<size_t>(ub)];
        if (a.step != b.step) continue;
        line(
            fmt::format("  <line class=\"chain\" data-from=\"v{}\" data-to=\"v{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" "
                        "y2=\"{}\"/>",
                        a.v, b.v, px(box_x(a) + kLaneWidth / 2), px(box_y(a) + a.height), px(box_x(b) + kLaneWidth / 2),
                        px(box_y(b))));
      }
    }
    line("</g>");
  }

  void box(const Box& b) {
    const Node& n = g_.nodes[b.v];
    const Placement& p = d_.place[b.v];
    const std::string label = fmt::format("v{} {}", b.v, op_label(d_, b.v));
    const double x = box_x(b), y = box_y(b);
    line(fmt::format("<g class=\"op\" id=\"v{}\" data-step=\"{}\" data-unit=\"{}\">", b.v, b.step,
                     unit_class_name(b.cls)));
    line("  <title>" +
         escape(fmt::format("{}{}: {}, {:.2f} .. {:.2f} ns, {}", label, n.name.empty() ? "" : " (" + n.name + ")",
                            step_name(b.step), p.start_ns, p.finish_ns, unit_class_name(b.cls))) +
         "</title>");
    line(fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" stroke=\"#37474f\"/>",
                     px(x), px(y), px(kLaneWidth), px(b.height), colour(b.cls)));
    // One line: the operation, then its source name in italics.
    const std::string name =
        n.name.empty() ? "" : shorten(n.name, std::max<size_t>(29 - std::min<size_t>(label.size(), 28), 4));
    line(fmt::format("  <text x=\"{}\" y=\"{}\">{}{}</text>", px(x + 4), px(y + 12), escape(label),
                     name.empty() ? "" : " <tspan font-style=\"italic\">" + escape(name) + "</tspan>"));
    line("</g>");
  }

  const Design& d_;
  const Dfg& g_;
  double scale_ = 1;
  std::vector<Box> boxes_;
  std::vector<int> box_of_;  // per value: its box, or -1
  std::vector<size_t> lanes_;
  std::vector<double> column_x_, column_w_;
  double column_height_ = 0, width_ = 0, height_ = 0;
  std::string out_;
};

}  // namespace

std::string schedule_svg(const Design& d) { return Picture(d).run(); }

}  // namespace polydat::hls
