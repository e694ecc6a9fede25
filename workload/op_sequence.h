// nb-rs's op sequence: the ops of a phase, each with a ratio, laid out in a
// stanza of sum(ratios) slots; cycle c runs the op in slot c % stanza. The
// sequencer (`seq=`) picks the layout: bucket (the default) deals one slot
// to each op with ratio left, pass after pass; interval places op i's k-th
// slot at position k * (stanza / ratio_i) and sorts the positions (ties by
// op index); concat gives each op its slots in a row. An op of ratio 0 is
// never run. docs/workloads.md tells the user's side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expected.h"
#include "workload/model.h"

namespace polydat::workload {

enum class Sequencer : uint8_t { Bucket, Interval, Concat };

// `seq=`'s value: bucket, interval or concat, in any case (as nb-rs reads it).
// nb-rs falls back to bucket on any other word; polydat refuses it.
ir::Expected<Sequencer, std::string> parse_sequencer(std::string_view name);
std::string_view sequencer_name(Sequencer s);

// The largest stanza polydat builds: its table is held in memory.
inline constexpr uint64_t kMaxStanza = uint64_t{1} << 20;

struct SequenceError {
  std::string message;
  std::string kind;  // no-ops, empty-stanza, stanza-too-large
  std::optional<size_t> op;  // the op the error is about, when one is
};

class OpSequence {
 public:
  // The stanza of `ratios` (op i has ratios[i]) laid out by `sequencer`.
  static ir::Expected<OpSequence, SequenceError> build(const std::vector<uint64_t>& ratios, Sequencer sequencer);

  size_t stanza_length() const { return slots_.size(); }
  // The index of the op cycle `cycle` runs.
  uint32_t op_at(uint64_t cycle) const { return slots_[cycle % slots_.size()]; }
  // The stanza's slots in order (each an op index).
  const std::vector<uint32_t>& slots() const { return slots_; }
  Sequencer sequencer() const { return sequencer_; }

 private:
  OpSequence(std::vector<uint32_t> slots, Sequencer s) : slots_(std::move(slots)), sequencer_(s) {}
  std::vector<uint32_t> slots_;
  Sequencer sequencer_;
};

struct RatioError {
  std::string message;
  Mark at;
};

// An op's ratio from the field that gives it: a plain (unquoted, one-line)
// whole number in decimal, 0 to kMaxStanza. nb-rs takes a YAML integer and
// silently runs any other value (a quoted "3", 2.5, -1, a block) at ratio 1;
// polydat refuses them here.
ir::Expected<uint64_t, RatioError> parse_ratio(const Field& ratio);

// The ratio nb-rs gives an op: the first of `candidates` that is set (its
// order of precedence: the op's own `ratio:` key, then `ratio` in its
// `params:`, then its block's and the workload's `params:`, then `ratio`
// inside an `op:` map), read by parse_ratio; 1 when none is.
ir::Expected<uint64_t, RatioError> op_ratio(const std::vector<const Field*>& candidates);

}  // namespace polydat::workload
