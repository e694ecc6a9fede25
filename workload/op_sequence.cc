#include "workload/op_sequence.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace polydat::workload {

namespace {

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Bucket: every op with slots left takes one, in op order, pass after pass.
std::vector<uint32_t> bucket_slots(const std::vector<uint64_t>& ratios, uint64_t total) {
  std::vector<uint32_t> slots;
  slots.reserve(total);
  std::vector<uint64_t> left = ratios;
  while (slots.size() < total)
    for (size_t i = 0; i < left.size(); ++i)
      if (left[i] > 0) {
        slots.push_back(static_cast<uint32_t>(i));
        --left[i];
      }
  return slots;
}

// Interval: op i's k-th slot sits at k * (total / ratio_i), computed in
// doubles as nb-rs does (so two positions equal on paper may sort apart);
// equal positions go by op index.
std::vector<uint32_t> interval_slots(const std::vector<uint64_t>& ratios, uint64_t total) {
  struct Placed {
    double position;
    uint32_t op;
  };
  std::vector<Placed> placed;
  placed.reserve(total);
  for (size_t i = 0; i < ratios.size(); ++i) {
    if (ratios[i] == 0) continue;
    const double spacing = static_cast<double>(total) / static_cast<double>(ratios[i]);
    for (uint64_t k = 0; k < ratios[i]; ++k) placed.push_back({static_cast<double>(k) * spacing, static_cast<uint32_t>(i)});
  }
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return a.position != b.position ? a.position < b.position : a.op < b.op;
  });
  std::vector<uint32_t> slots;
  slots.reserve(placed.size());
  for (const Placed& p : placed) slots.push_back(p.op);
  return slots;
}

// Concat: op 0's slots, then op 1's, and so on.
std::vector<uint32_t> concat_slots(const std::vector<uint64_t>& ratios, uint64_t total) {
  std::vector<uint32_t> slots;
  slots.reserve(total);
  for (size_t i = 0; i < ratios.size(); ++i) slots.insert(slots.end(), ratios[i], static_cast<uint32_t>(i));
  return slots;
}

// A plain scalar's text starts at its own mark; a quoted one's a column
// later, a block's on the next line (model.h's Field).
bool plain_scalar(const Field& f) { return f.at.line == f.content.line && f.at.col == f.content.col; }

}  // namespace

ir::Expected<Sequencer, std::string> parse_sequencer(std::string_view name) {
  const std::string n = lowered(name);
  if (n == "bucket") return Sequencer::Bucket;
  if (n == "interval") return Sequencer::Interval;
  if (n == "concat") return Sequencer::Concat;
  return "unknown sequencer '" + std::string(name) + "': seq= is bucket (the default), interval or concat";
}

std::string_view sequencer_name(Sequencer s) {
  switch (s) {
    case Sequencer::Bucket: return "bucket";
    case Sequencer::Interval: return "interval";
    case Sequencer::Concat: return "concat";
  }
  return "bucket";
}

ir::Expected<OpSequence, SequenceError> OpSequence::build(const std::vector<uint64_t>& ratios, Sequencer sequencer) {
  if (ratios.empty()) return SequenceError{"there are no ops to run", "no-ops", std::nullopt};
  uint64_t total = 0;
  for (size_t i = 0; i < ratios.size(); ++i) {
    // Checked one op at a time, so the sum cannot wrap.
    if (ratios[i] > kMaxStanza - total)
      return SequenceError{"the ratios add up to more than " + std::to_string(kMaxStanza) +
                               " (the largest stanza polydat lays out) at this op",
                           "stanza-too-large", i};
    total += ratios[i];
  }
  if (total == 0)
    return SequenceError{"every op's ratio is 0, so the stanza is empty: no op would ever run", "empty-stanza",
                         std::nullopt};
  switch (sequencer) {
    case Sequencer::Bucket: return OpSequence(bucket_slots(ratios, total), sequencer);
    case Sequencer::Interval: return OpSequence(interval_slots(ratios, total), sequencer);
    case Sequencer::Concat: return OpSequence(concat_slots(ratios, total), sequencer);
  }
  return OpSequence(bucket_slots(ratios, total), sequencer);
}

ir::Expected<uint64_t, RatioError> parse_ratio(const Field& f) {
  const std::string_view t = f.text;
  if (!plain_scalar(f))
    return RatioError{"'" + f.key + "' is a ratio, a plain whole number; quoted or block text is not one (nb-rs would run "
                      "this op at ratio 1)",
                      f.at};
  if (t.empty()) return RatioError{"'" + f.key + "' has no value: a ratio is a whole number (0 never runs the op)", f.at};
  const bool digits = std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
  // A leading zero reads as octal in YAML 1.1: refused rather than guessed.
  if (!digits || (t.size() > 1 && t[0] == '0'))
    return RatioError{"'" + f.key + "' is '" + f.text + "', which is not a whole number in decimal (nb-rs would run this op "
                      "at ratio 1)",
                      f.content};
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || v > kMaxStanza)
    return RatioError{"'" + f.key + "' is " + f.text + ", more than the largest stanza polydat lays out (" +
                          std::to_string(kMaxStanza) + ")",
                      f.content};
  return v;
}

ir::Expected<uint64_t, RatioError> op_ratio(const std::vector<const Field*>& candidates) {
  for (const Field* f : candidates)
    if (f) return parse_ratio(*f);
  return uint64_t{1};
}

}  // namespace polydat::workload
