// The HLS report, in text and JSON: the schedule's shape, latency and
// initiation interval, units, registers, and the critical path against the clock.
#pragma once

#include <optional>
#include <string>

#include "hls/design.h"

namespace polydat::hls {

std::string report_text(const Design& d);
std::string report_json(const Design& d);  // one JSON object

// When the model predicts the clock is missed: by how much, and the slowest
// operation (where the warning points); nullopt when it meets.
struct TimingMiss {
  std::string message;
  ir::SourceLoc at;
};
std::optional<TimingMiss> timing_warning(const Design& d);

// The latency in cycles: a count ("142") when it does not depend on a loop, else the formula in t, the
// loop's back edges taken ("1 + 7 + 1*(t+1) + 4": idle, before the loop, per body pass, after).
std::string latency_formula(const Design& d);

// The IIs the search tried, each with its estimate and whether it fits ("II 1: 7847 cells, 0 DSPs, does not fit; ...").
std::string ii_search_text(const Design& d);

// The design's shape in a few words: "pipeline, 8 stages", "FSM, 5 states".
std::string summary_line(const Design& d);

// The operation's name in reports and pictures: "Add u64", "Mul u32".
std::string op_label(const Design& d, ValueId v);

}  // namespace polydat::hls
