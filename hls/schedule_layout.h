// The schedule picture's geometry (hls/schedule_svg.h draws it): one row per
// control step, top to bottom; the row's operations across, ordered by the
// unit each is bound to, wrapped onto continuation lines at the width limit;
// runs of steps where no operation starts folded into one thin row; and the
// dataflow edges between the boxes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hls/design.h"

namespace polydat::hls::picture {

// Pixels. The picture is never wider than kMaxWidth; text is never below 10 px.
inline constexpr double kMaxWidth = 1600;
inline constexpr double kMargin = 16;
inline constexpr double kHeaderWidth = 168;  // a row's name, role and chain time, left of its boxes
inline constexpr double kBoxWidth = 156;     // 24 characters at 10 px monospace
inline constexpr double kBoxHeight = 32;     // two lines of text
inline constexpr double kGapX = 16;          // between boxes: room for an arrow head
inline constexpr double kLinePitch = kBoxHeight + 18;
inline constexpr double kRowPad = 8;
inline constexpr double kRowGap = 6;
inline constexpr double kFoldedHeight = 26;
inline constexpr double kLoopStrip = 18;    // the loop's label above its first row
inline constexpr double kBackGutter = 28;   // right of the boxes: where back-edges turn
inline constexpr double kRowsTop = 96;      // below the title, subtitle and legend
inline constexpr double kClockBar = 80;     // a row's chain-time bar: this long at one clock period

// Boxes per line: as many as fit between the header and the back-edge gutter.
inline constexpr size_t kSlots =
    static_cast<size_t>((kMaxWidth - 2 * kMargin - kHeaderWidth - kBackGutter + kGapX) / (kBoxWidth + kGapX));

struct Box {
  ValueId v = 0;
  uint32_t step = 0;
  size_t line = 0;  // 0: the row's first line; more: continuation lines
  size_t rank = 0;  // the line's place among all lines, top to bottom (a folded row is one)
  double x = 0, y = 0;
  UnitClass cls = UnitClass::Wire;
  int unit = -1;  // the bound unit's index, -1 when unbound
};

struct Row {
  uint32_t first = 0, last = 0;  // the steps it shows (first == last unless folded)
  bool folded = false;           // no operation starts in any of them
  double y = 0, height = 0;
  size_t lines = 1;
  double chain_ns = 0;  // the latest finish of an operation starting in the step
};

enum class EdgeKind { Flow, Back };

// Producer to consumer. Through a loop state register the producer is the
// operation computing its initial or next value; Back when the consumer's
// step is not after the producer's (the next iteration reads it).
struct Edge {
  ValueId from = 0, to = 0;
  EdgeKind kind = EdgeKind::Flow;
  bool via_state = false;
};

struct Layout {
  std::vector<Row> rows;
  std::vector<Box> boxes;
  std::vector<int> box_of;  // per value: index into boxes, or -1
  std::vector<Edge> edges;  // sorted, each once
  std::vector<UnitClass> classes;  // the unit classes the boxes use, in legend order
  int loop_first_row = -1, loop_last_row = -1;
  double width = 0, height = 0;
  double boxes_right = 0;  // the right edge of the widest line
};

uint32_t step_count(const Design& d);
bool live_op(const Design& d, ValueId v);
UnitClass unit_class(const Design& d, ValueId v);
// `text_width`: what the title and subtitle need (the picture is at least that wide, up to kMaxWidth).
Layout layout(const Design& d, double text_width);

}  // namespace polydat::hls::picture
