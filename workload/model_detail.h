// Internal to workload/: what the workload loader's files (model*.cc) share:
// the raw text's lines and marks, a map's entries, nb-rs's keys of each
// section, the key-path and message helpers, and the Loader whose members
// they define (the walk in model.cc, the YAML reading in model_yaml.cc, the
// refusals in model_errors.cc, the sections in model_ops.cc and
// model_scenarios.cc).
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "workload/model.h"
#include "workload/tags.h"

namespace polydat::workload::model_detail {

// The first error, carried out of the walk.
struct Stop {
  LoadError error;
};

// Key paths and message text (model_yaml.cc, model_errors.cc).
const char* shape(const YAML::Node& n);
std::string join_key(const std::string& parent, std::string_view child);
std::string indexed(const std::string& parent, size_t i);
std::string in_quotes(std::string_view s);
std::string join(const std::vector<std::string>& items, std::string_view sep);
bool contains(const std::vector<std::string>& v, std::string_view s);
std::string suggestion(std::string_view name, const std::vector<std::string>& candidates);

// The raw text: line starts, a line's text, the byte offset of a 1-based mark.
class Source {
 public:
  explicit Source(std::string_view text) : text_(text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(i + 1);
    // yaml-cpp skips a UTF-8 byte-order mark without counting it in columns.
    bom_ = text.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
  }

  size_t lines() const { return starts_.size(); }
  size_t size() const { return text_.size(); }
  uint32_t bom() const { return static_cast<uint32_t>(bom_); }

  // Line `line` (1-based) without its newline and a trailing '\r'; empty past the end.
  std::string_view line(uint32_t line) const {
    if (line == 0 || line > starts_.size()) return {};
    const size_t start = starts_[line - 1];
    size_t end = line < starts_.size() ? starts_[line] - 1 : text_.size();
    if (end > start && text_[end - 1] == '\r') --end;
    return text_.substr(start, end - start);
  }

  // The byte offset of a 1-based mark, clamped to the text.
  size_t offset(Mark m) const {
    if (m.line == 0 || m.line > starts_.size()) return text_.size();
    return std::min(text_.size(), starts_[m.line - 1] + (m.col ? m.col - 1 : 0));
  }

  // The 1-based mark of a byte offset.
  Mark mark_at(size_t offset) const {
    offset = std::min(offset, text_.size());
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const auto line = static_cast<size_t>(it - starts_.begin());
    return Mark{static_cast<uint32_t>(line), static_cast<uint32_t>(offset - starts_[line - 1] + 1)};
  }

  char at(size_t offset) const { return offset < text_.size() ? text_[offset] : '\0'; }

 private:
  std::string_view text_;
  std::vector<size_t> starts_;
  size_t bom_ = 0;
};

// One `key: value` of a map, with where its key is and where its value is
// (the key's place when the value is empty: yaml-cpp marks an empty value on
// the next line).
struct Entry {
  std::string key;
  Mark key_at;
  YAML::Node value;
  Mark value_at;
};

// The keys of each section, as nb-rs reads them. `acted` keys change what
// runs; `noted` keys change nothing a stdout run prints (concurrency, rate,
// reports, metrics, validation): each is said once on stderr. Any other key is
// refused with the nearest known one.
struct KeySet {
  std::vector<std::string> acted;
  std::vector<std::string> noted;
  std::vector<std::string> all() const {
    std::vector<std::string> out = acted;
    out.insert(out.end(), noted.begin(), noted.end());
    return out;
  }
};
// nb-rs's spellings of an ops section.
inline const std::vector<std::string> kOpsKeys = {"ops", "op", "operations", "statements", "statement"};
inline const KeySet kTopKeys = {{"description", "params", "bindings", "ops", "op", "operations", "statements",
                                 "statement", "blocks", "phases", "scenarios", "tags", "adapter", "driver"},
                                {"report", "status_metrics", "readouts", "concurrency", "rate", "errors"}};
inline const KeySet kPhaseKeys = {{"cycles", "bindings", "ops", "op", "operations", "statements", "statement",
                                   "for_each", "for", "where", "order", "loop_scope", "iter_scope", "tags", "adapter",
                                   "driver", "description"},
                                  {"concurrency", "rate", "errors", "checkpoint", "status_metrics", "readouts",
                                   "stanzarate", "stanza_concurrency"}};
inline const KeySet kBlockKeys = {{"name", "ops", "op", "operations", "statements", "statement", "bindings", "tags",
                                   "params", "description"},
                                  {}};
// An op's keys that are not fields: the payload (its text), the ones acted on,
// and nb-rs's activity and validation keys (noted).
inline const std::vector<std::string> kOpPayload = {"op", "ops", "operations", "stmt", "statement", "statements"};
inline const KeySet kOpKeys = {{"name", "description", "desc", "bindings", "params", "tags", "if", "ratio", "adapter",
                                "driver"},
                               {"delay", "evaluations", "verify", "relevancy", "result", "metrics", "instrument",
                                "start-timers", "stop-timers", "strict", "poll", "poll_interval_ms", "timeout_ms",
                                "poll_metric_name", "emit", "batch", "max_batch_size", "batchtype", "memo", "space",
                                "stdout", "errors"}};
// The key that makes a map a step of each kind, and the keys each kind takes.
inline const std::vector<std::string> kStepKinds = {"for_each", "for", "for_combinations", "do_while", "do_until",
                                                    "scenario", "scenarios", "set", "bindings", "phase"};
inline const std::vector<std::string> kForStepKeys = {"for_each", "for", "for_combinations", "where", "order",
                                                      "phases", "loop_scope", "iter_scope"};
inline const std::vector<std::string> kDoStepKeys = {"do_while", "do_until", "counter", "phases", "loop_scope",
                                                     "iter_scope"};
inline const std::vector<std::string> kScopeStepKeys = {"set", "bindings", "phases"};
// Removed from nb-rs (it refuses them with the same advice).
inline const std::vector<std::string> kRemovedKeys = {"summary", "summaries", "plot", "plots"};

class Loader {
 public:
  Loader(std::string_view text, const std::string& path);

  Workload run(const YAML::Node& root);
  [[noreturn]] void fail(Mark at, std::string key, std::string message, std::string kind) const;

 private:
  // ---- places (model_yaml.cc)
  Mark mark(const YAML::Node& n, Mark fallback) const;
  size_t skip_properties(size_t o) const;
  bool block_header(size_t o) const;
  Field scalar_field(const YAML::Node& n, Mark fallback, std::string key) const;

  // ---- shapes (model_yaml.cc)
  void count(size_t n, Mark at);
  std::vector<Entry> entries(const YAML::Node& n, const std::string& key, Mark fallback, const std::string& what);
  std::vector<YAML::Node> items(const YAML::Node& n, const std::string& key, Mark fallback, const std::string& what);
  std::optional<Field> optional_scalar(const Entry& e, const std::string& key) const;
  Field required_scalar(const Entry& e, const std::string& key, const std::string& expected) const;

  // ---- keys (model_errors.cc)
  void ignore(const std::string& key, Mark at);
  [[noreturn]] void fail_twice(const Entry& e, const Entry& first, const std::string& what, const std::string& key) const;
  void other_key(const Entry& e, const std::string& key, const std::string& what, const KeySet& keys);
  void check_adapter(const Entry& e, const std::string& key) const;

  // ---- sections and ops (model_ops.cc)
  // Where an ops section's ops come from: their block (its name tags them,
  // and an index for a block of `blocks:`), and the tags above them.
  struct OpOrigin {
    std::string block;  // nb-rs's `block` tag: block0 for top-level ops, a phase's or a block's name
    int block_index = -1;
    Tags scope;         // its block's `tags:`, or `phase: NAME` for a phase's op
  };
  void read_params(const Entry& section);
  std::optional<Field> read_bindings(const Entry& section, const std::string& key, bool legacy_chains = false);
  std::string binding_line(const std::string& name, const Field& value, bool legacy_chain) const;
  Tags read_tag_map(const Entry& section, const std::string& key);
  void read_ops(const Entry& section, const std::string& key, const std::string& block, int block_index, Tags scope,
                std::vector<OpDef>& out);
  OpDef new_op(const std::string& name, Mark at, const OpOrigin& origin) const;
  void finish_tags(OpDef& op, const OpOrigin& origin) const;
  OpDef text_op(const std::string& name, Mark at, const YAML::Node& text, Mark text_at, const std::string& key,
                const OpOrigin& origin);
  OpDef read_op(const std::string& name, Mark at, const YAML::Node& body, Mark body_at, const std::string& key,
                const OpOrigin& origin);
  void read_op_fields(const std::vector<Entry>& fields, const std::string& key, OpDef& op);
  void read_payload(const Entry& e, const std::string& key, OpDef& op);
  void read_op_params(const Entry& section, const std::string& key, OpDef& op);
  void read_blocks(const Entry& section);

  // ---- phases and scenarios (model_scenarios.cc)
  ScopeMode scope_mode(const Entry& e, const std::string& key) const;
  LoopSpec read_loop(const Entry& e, const std::string& key);
  void read_phases(const Entry& section);
  void read_scenarios(const Entry& section);
  std::vector<Step> read_body(const Entry& phases, const std::string& key, int depth);
  Step read_step(const YAML::Node& n, Mark at, const std::string& key, int depth);
  std::vector<std::pair<std::string, Field>> read_set(const Entry& e, const std::string& key);
  static bool frontend_identifier(std::string_view s);
  void resolve_includes();
  void check_phases(const Step& step, const std::string& key) const;

  Source src_;
  Workload w_;
  std::set<std::string> ignored_seen_;
  size_t entries_ = 0;
  mutable size_t text_bytes_ = 0;  // counted where scalars are read (a const reader)
};

}  // namespace polydat::workload::model_detail
