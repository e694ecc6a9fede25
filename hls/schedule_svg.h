// The schedule as a picture: an SVG document (no external assets,
// deterministic text, at most 1,600 px wide, no text below 10 px) with one row
// per control step — pipeline stage, or FSM state in controller order — top to
// bottom, and each live operation a box in its step's row, placed across by
// the unit it is bound to (the unbound after, by value), coloured by unit
// class; a row with more boxes than fit wraps onto continuation lines. Arrows
// carry the dataflow from each operand's box to its user's box, within and
// across rows; a loop state register's read comes from the operations that
// load it (entry) and latch it (next iteration, drawn dashed as a back-edge
// when the reader is not later than the writer). A row's header shows its
// chain time against the clock period; runs of two or more steps in which no
// operation starts (an iterative unit's cycles) fold into one thin row. The
// legend lists only the unit classes the boxes use.
//
// The document's structure is stable for tools and tests:
//   <rect class="step" data-step="S" .../>        a row (S: the step index)
//   <rect class="folded" data-first="A" data-last="B" .../>
//                                                 steps A..B, in which no operation starts
//   <line class="clock" data-step="S" .../>       the period, dashed, across the row's chain-time bar
//   <rect class="chain-time" data-step="S" .../>  the latest finish in the step, against that mark
//   <g class="op" id="vN" data-step="S" data-line="L" data-unit="CLASS" data-unit-index="U">
//     <rect .../> <text>...</text> </g>           an operation's box (U: the bound unit, -1 unbound;
//                                                 L: 0, or the row's continuation line)
//   <path class="flow" data-from="vA" data-to="vB" [data-via="state"] d="M x,y C ... x,y"/>
//                                                 A's result feeds B: starts on A's box, ends on B's
//   <path class="back-edge" data-from="vA" data-to="vB" data-via="state" .../>
//                                                 A's result feeds B in the loop's next iteration
//   <rect class="legend-swatch" data-unit="CLASS" fill="..."/>
//                                                 one per unit class used
#pragma once

#include <string>

#include "hls/design.h"

namespace polydat::hls {

std::string schedule_svg(const Design& d);

}  // namespace polydat::hls
