// The schedule as a picture: an SVG document (no external assets,
// deterministic text) with one column per control step — pipeline stage, or
// FSM state in controller order — and each live operation a box in its step,
// placed down the column by its start time, as tall as its delay (with a
// minimum), coloured by its unit class; operations chained within a step are
// joined by a line and stack down the column. The clock period is a dashed
// line across each column.
//
// The document's structure is stable for tools and tests:
//   <rect class="step" data-step="S" .../>          a column (S: the step index)
//   <g class="op" id="vN" data-step="S"> <rect .../> <text>...</text> </g>
//                                                   an operation's box
//   <line class="chain" data-from="vA" data-to="vB" .../>
//                                                   operand A chains into B in one step
//   <line class="clock" data-step="S" .../>         the period, dashed, per column
#pragma once

#include <string>

#include "hls/design.h"

namespace polydat::hls {

std::string schedule_svg(const Design& d);

}  // namespace polydat::hls
