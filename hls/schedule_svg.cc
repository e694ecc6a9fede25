#include "hls/schedule_svg.h"

#include <fmt/core.h>

#include <algorithm>

#include "hls/report.h"
#include "hls/schedule_layout.h"

namespace polydat::hls {

namespace {

using namespace picture;

constexpr double kCharWidth = 6.0;  // 10 px monospace; the title's 16 px bold is 9.6

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
  size_t cut = n > 3 ? n - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

class Picture {
 public:
  explicit Picture(const Design& d) : d_(d), g_(d.dfg) {}

  std::string run() {
    const double text = std::max(static_cast<double>(title().size()) * 9.6,
                                 static_cast<double>(subtitle().size()) * kCharWidth * 1.1);
    l_ = layout(d_, text);
    document();
    return std::move(out_);
  }

 private:
  std::string step_name(uint32_t s) const {
    return d_.kind == DesignKind::Pipeline ? fmt::format("stage {}", s) : d_.states.at(s).name;
  }

  // What a row holds, under its name.
  std::string step_role(uint32_t s) const {
    if (d_.kind == DesignKind::Pipeline) return "";
    const FsmState& st = d_.states.at(s);
    if (st.idle) return "idle: accepts";
    if (st.done) return "done: offers";
    return st.block == Region::Pre ? "before the loop" : st.block == Region::Loop ? "loop body" : "after the loop";
  }

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

  std::string subtitle() const {
    return fmt::format(
        "target {}, clock {:.2f} ns, critical path {:.2f} ns (slack {:.2f} ns); a row per {}, operations across by "
        "unit; arrows: dataflow (dashed: the loop's back-edges)",
        target_name(d_.target), d_.clock_ns, d_.critical_path_ns, d_.clock_ns - d_.critical_path_ns,
        d_.kind == DesignKind::Pipeline ? "stage" : "state");
  }

  void document() {
    line("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    line(
        fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
                    "font-family=\"monospace\" font-size=\"10\">",
                    px(l_.width), px(l_.height), px(l_.width), px(l_.height)));
    line("<title>" + escape("schedule of " + title()) + "</title>");
    // Arrow heads: the tip at the path's end, on the consumer's edge.
    line("<defs>");
    for (const auto& [id, fill] : {std::pair{"arrow", "#455a64"}, std::pair{"arrow-back", "#e65100"}})
      line(fmt::format("  <marker id=\"{}\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" "
                       "markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"{}\"/></marker>",
                       id, fill));
    line("</defs>");
    line(fmt::format("<rect class=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
                     px(l_.width), px(l_.height)));
    line(fmt::format("<text class=\"title\" x=\"{}\" y=\"28\" font-size=\"16\" font-weight=\"bold\">{}</text>",
                     px(kMargin), escape(title())));
    line(fmt::format("<text class=\"subtitle\" x=\"{}\" y=\"48\" font-size=\"11\">{}</text>", px(kMargin),
                     escape(subtitle())));
    legend();
    rows();
    arrows();
    for (const Box& b : l_.boxes) box(b);
    line("</svg>");
  }

  void legend() {
    line("<g class=\"legend\">");
    for (size_t i = 0; i < l_.classes.size(); ++i) {
      const double x = kMargin + 110 * static_cast<double>(i);
      const UnitClass c = l_.classes[i];
      line(
          fmt::format("  <rect class=\"legend-swatch\" data-unit=\"{}\" x=\"{}\" y=\"62\" width=\"12\" height=\"12\" "
                      "fill=\"{}\" stroke=\"#37474f\"/>",
                      unit_class_name(c), px(x), colour(c)));
      line(fmt::format("  <text x=\"{}\" y=\"72\">{}</text>", px(x + 16), unit_class_name(c)));
    }
    line("</g>");
  }

  // The iterative operations started before step `first` and still running in it.
  std::string running(uint32_t first) const {
    std::string out;
    size_t n = 0;
    for (const Box& b : l_.boxes) {
      if (!d_.is_iterative(b.v) || b.step >= first || b.step + d_.multi_cycles(b.v) < first) continue;
      if (++n <= 4) out += fmt::format("{}v{} {}", n > 1 ? ", " : "", b.v, op_label(d_, b.v));
    }
    if (n > 4) out += fmt::format(" and {} more", n - 4);
    return out;
  }

  void rows() {
    const double right = l_.width - kMargin;
    line("<g class=\"rows\">");
    for (size_t i = 0; i < l_.rows.size(); ++i) {
      const Row& r = l_.rows[i];
      const bool loop = l_.loop_first_row >= 0 && static_cast<int>(i) >= l_.loop_first_row &&
                        static_cast<int>(i) <= l_.loop_last_row;
      const char* fill = loop ? "#fff8e1" : "#f5f5f5";
      if (static_cast<int>(i) == l_.loop_first_row)
        line(fmt::format("  <text class=\"loop-label\" x=\"{}\" y=\"{}\" font-weight=\"bold\" fill=\"#e65100\">{}</text>",
                         px(kMargin), px(r.y - 5),
                         escape(fmt::format("loop: {} .. {} repeat while the guard holds", d_.states[d_.loop_state(0)].name,
                                            d_.states[d_.loop_state(d_.loop_steps - 1)].name))));
      if (r.folded) {
        const std::string what = running(r.first);
        line(fmt::format("  <rect class=\"folded\" data-first=\"{}\" data-last=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
                         "height=\"{}\" fill=\"{}\" stroke=\"#b0bec5\" stroke-dasharray=\"3,3\"/>",
                         r.first, r.last, px(kMargin), px(r.y), px(right - kMargin), px(r.height), fill));
        line(fmt::format("  <text class=\"folded-text\" x=\"{}\" y=\"{}\" fill=\"#546e7a\">{}</text>", px(kMargin + 6),
                         px(r.y + 17),
                         escape(fmt::format("{} .. {} ({} states): no operation starts{}", step_name(r.first),
                                            step_name(r.last), r.last - r.first + 1,
                                            what.empty() ? "" : "; still iterating: " + what))));
        continue;
      }
      const uint32_t s = r.first;
      line(fmt::format("  <rect class=\"step\" data-step=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                       "fill=\"{}\" stroke=\"#90a4ae\"/>",
                       s, px(kMargin), px(r.y), px(right - kMargin), px(r.height), fill));
      const double hx = kMargin + 6;
      line(fmt::format("  <text class=\"step-name\" x=\"{}\" y=\"{}\" font-size=\"12\" font-weight=\"bold\">{}</text>",
                       px(hx), px(r.y + 15), escape(step_name(s))));
      const std::string role = step_role(s);
      if (!role.empty())
        line(fmt::format("  <text class=\"step-role\" x=\"{}\" y=\"{}\">{}</text>", px(hx), px(r.y + 27),
                         escape(role)));
      // The step's chain against the clock period: a bar, the period a dashed mark across it.
      const double clock = d_.clock_ns > 0 ? d_.clock_ns : 1;
      const double bar = std::min(r.chain_ns / clock, 1.2) * kClockBar;
      const double by = r.y + 33;
      line(fmt::format("  <rect class=\"clock-track\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"7\" fill=\"#e0e0e0\"/>",
                       px(hx), px(by), px(kClockBar)));
      line(fmt::format("  <rect class=\"chain-time\" data-step=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"7\" "
                       "fill=\"{}\"/>",
                       s, px(hx), px(by), px(bar), r.chain_ns > clock ? "#e57373" : "#78909c"));
      line(fmt::format("  <line class=\"clock\" data-step=\"{}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" "
                       "stroke=\"#d32f2f\" stroke-dasharray=\"2,2\"/>",
                       s, px(hx + kClockBar), px(by - 2), px(hx + kClockBar), px(by + 9)));
      line(fmt::format("  <text class=\"chain-ns\" x=\"{}\" y=\"{}\">{:.1f} ns</text>", px(hx + kClockBar * 1.2 + 4),
                       px(by + 7), r.chain_ns));
      for (size_t k = 1; k < r.lines; ++k)
        line(fmt::format("  <text class=\"continued\" x=\"{}\" y=\"{}\" fill=\"#78909c\">(continued)</text>", px(hx),
                         px(r.y + kRowPad + static_cast<double>(k) * kLinePitch + 20)));
    }
    line("</g>");
  }

  // One edge's path. Short hops are curves; longer ones run in the gaps
  // between lines and the channels between slots, so they cross no box; a
  // producer's edges share a track (its value is one wire).
  std::string route(const Edge& e) const {
    const Box& a = l_.boxes[static_cast<size_t>(l_.box_of[e.from])];
    const Box& b = l_.boxes[static_cast<size_t>(l_.box_of[e.to])];
    const double track = (static_cast<double>(e.from % 5) - 2) * 2;
    const double a_bottom = a.y + kBoxHeight, b_bottom = b.y + kBoxHeight;
    const double below_a = a_bottom + 7 + track, above_b = b.y - 7 + track;
    const double channel = b.x - kGapX / 2 + track;
    const double x1 = a.x + kBoxWidth / 2, x2 = b.x + kBoxWidth / 2;
    if (e.kind == EdgeKind::Back) {
      // Down out of the producer, round by the gutter on the right, down into the consumer.
      const double gx = l_.boxes_right + kBackGutter / 2 + track;
      return fmt::format("M{},{} V{} H{} V{} H{} V{}", px(a.x + kBoxWidth * 0.8), px(a_bottom), px(below_a), px(gx),
                         px(above_b), px(b.x + kBoxWidth * 0.8), px(b.y));
    }
    if (b.rank == a.rank + 1) {
      const double k = std::clamp((b.y - a_bottom) / 2, 6.0, 40.0);
      return fmt::format("M{},{} C{},{} {},{} {},{}", px(x1), px(a_bottom), px(x1), px(a_bottom + k), px(x2),
                         px(b.y - k), px(x2), px(b.y));
    }
    if (b.rank == a.rank) {
      // Along one line: an arc over the boxes, top to top.
      const double s = a.x + kBoxWidth * 0.6, t = b.x + kBoxWidth * 0.4;
      return fmt::format("M{},{} C{},{} {},{} {},{}", px(s), px(a.y), px(s), px(a.y - 14), px(t), px(a.y - 14), px(t),
                         px(a.y));
    }
    if (b.rank > a.rank)
      return fmt::format("M{},{} V{} H{} V{} H{} V{}", px(x1), px(a_bottom), px(below_a), px(channel), px(above_b),
                         px(x2), px(b.y));
    // Up within a row (the consumer on an earlier line): out of the top, into the bottom.
    return fmt::format("M{},{} V{} H{} V{} H{} V{}", px(x1), px(a.y), px(a.y - 7 + track), px(channel),
                       px(b_bottom + 7 + track), px(x2), px(b_bottom));
  }

  // Dataflow, beneath the boxes: the heads end on the consumer's edge.
  void arrows() {
    line("<g class=\"arrows\" fill=\"none\" stroke-linejoin=\"round\">");
    for (const Edge& e : l_.edges) {
      const bool back = e.kind == EdgeKind::Back;
      line(fmt::format("  <path class=\"{}\" data-from=\"v{}\" data-to=\"v{}\"{} d=\"{}\" stroke=\"{}\" "
                       "stroke-width=\"1.2\"{} marker-end=\"url(#{})\"/>",
                       back ? "back-edge" : "flow", e.from, e.to, e.via_state ? " data-via=\"state\"" : "", route(e),
                       back ? "#e65100" : "#455a64", back ? " stroke-dasharray=\"5,3\"" : " stroke-opacity=\"0.7\"",
                       back ? "arrow-back" : "arrow"));
    }
    line("</g>");
  }

  void box(const Box& b) {
    const Node& n = g_.nodes[b.v];
    const Placement& p = d_.place[b.v];
    const std::string label = fmt::format("v{} {}", b.v, op_label(d_, b.v));
    const std::string unit = b.unit >= 0 ? fmt::format("unit {}", b.unit) : "unbound";
    const std::string when = d_.is_iterative(b.v)
                                 ? fmt::format("{} cycles, {}", d_.multi_cycles(b.v), unit)
                                 : fmt::format("{:.2f}-{:.2f} ns, {}", p.start_ns, p.finish_ns, unit);
    line(fmt::format("<g class=\"op\" id=\"v{}\" data-step=\"{}\" data-line=\"{}\" data-unit=\"{}\" "
                     "data-unit-index=\"{}\">",
                     b.v, b.step, b.line, unit_class_name(b.cls), b.unit));
    line("  <title>" +
         escape(fmt::format("{}{}: {}, {:.2f} .. {:.2f} ns, {} ({})", label, n.name.empty() ? "" : " (" + n.name + ")",
                            step_name(b.step), p.start_ns, p.finish_ns, unit_class_name(b.cls), unit)) +
         "</title>");
    line(fmt::format("  <rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" stroke=\"#37474f\"/>",
                     px(b.x), px(b.y), px(kBoxWidth), px(kBoxHeight), colour(b.cls)));
    // The operation, then its source name in italics; under it the timing and the unit.
    const size_t room = 24;
    const std::string shown = shorten(label, room);
    const std::string name =
        n.name.empty() || shown.size() + 5 > room ? "" : shorten(n.name, room - shown.size() - 1);
    line(fmt::format("  <text x=\"{}\" y=\"{}\">{}{}</text>", px(b.x + 4), px(b.y + 13), escape(shown),
                     name.empty() ? "" : " <tspan font-style=\"italic\">" + escape(name) + "</tspan>"));
    line(fmt::format("  <text x=\"{}\" y=\"{}\" fill=\"#37474f\">{}</text>", px(b.x + 4), px(b.y + 26),
                     escape(shorten(when, room))));
    line("</g>");
  }

  const Design& d_;
  const Dfg& g_;
  Layout l_;
  std::string out_;
};

}  // namespace

std::string schedule_svg(const Design& d) { return Picture(d).run(); }

}  // namespace polydat::hls
