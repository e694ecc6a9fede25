// The workload loader: nb-rs's workload YAML read into the model of model.h,
// every field with its place in the file, every rejection a located LoadError.
//
// The walk reads the document yaml-cpp builds, in file order, and stops at the
// first error (thrown internally as Stop, caught at the entry points: nothing
// escapes). yaml-cpp keeps a key given twice and builds cycles from an anchor
// used inside itself (`&a [*a]`), so every map is checked for duplicates here,
// the scenario steps (the one recursive shape) are capped in depth, and every
// entry visited counts against a budget (aliases can repeat a big node many
// times without the file growing).
#include "workload/model.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "frontend/diagnostics.h"
#include "frontend/legacy_chain.h"
#include "workload/tags.h"

namespace polydat::workload {

namespace {

constexpr size_t kMaxFileBytes = size_t{16} << 20;   // a workload file is text, not data
constexpr int kMaxStepDepth = 64;                    // scenario steps nested in loops
constexpr size_t kMaxEntries = size_t{1} << 20;      // map entries and list items visited, aliases expanded
constexpr size_t kMaxTextBytes = size_t{64} << 20;   // scalar text kept, aliases expanded (each copies its text)
constexpr size_t kShownColumns = 160;                // a long source line is cut around the caret

// The first error, carried out of the walk.
struct Stop {
  LoadError error;
};

const char* shape(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "nothing";
}

std::string join_key(const std::string& parent, std::string_view child) {
  return parent.empty() ? std::string(child) : parent + "." + std::string(child);
}

std::string indexed(const std::string& parent, size_t i) { return parent + "[" + std::to_string(i) + "]"; }

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? std::string(sep) : std::string()) + items[i];
  return out;
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    const size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
}

bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

// Control bytes would act on the terminal: shown as \xNN.
std::string escape_controls(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02x", u);
    out += hex;
  }
  return out;
}

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

// Notes where each document begins (the second pass that finds a second document).
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;
  void OnDocumentStart(const YAML::Mark& mark) override { marks.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
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
const std::vector<std::string> kOpsKeys = {"ops", "op", "operations", "statements", "statement"};
const KeySet kTopKeys = {{"description", "params", "bindings", "ops", "op", "operations", "statements", "statement",
                          "blocks", "phases", "scenarios", "tags", "adapter", "driver"},
                         {"report", "status_metrics", "readouts", "concurrency", "rate", "errors"}};
const KeySet kPhaseKeys = {{"cycles", "bindings", "ops", "op", "operations", "statements", "statement", "for_each",
                            "for", "where", "order", "loop_scope", "iter_scope", "tags", "adapter", "driver",
                            "description"},
                           {"concurrency", "rate", "errors", "checkpoint", "status_metrics", "readouts", "stanzarate",
                            "stanza_concurrency"}};
const KeySet kBlockKeys = {{"name", "ops", "op", "operations", "statements", "statement", "bindings", "tags",
                            "params", "description"},
                           {}};
// An op's keys that are not fields: the payload (its text), the ones acted on,
// and nb-rs's activity and validation keys (noted).
const std::vector<std::string> kOpPayload = {"op", "ops", "operations", "stmt", "statement", "statements"};
const KeySet kOpKeys = {{"name", "description", "desc", "bindings", "params", "tags", "if", "ratio", "adapter", "driver"},
                        {"delay", "evaluations", "verify", "relevancy", "result", "metrics", "instrument",
                         "start-timers", "stop-timers", "strict", "poll", "poll_interval_ms", "timeout_ms",
                         "poll_metric_name", "emit", "batch", "max_batch_size", "batchtype", "memo", "space", "stdout",
                         "errors"}};
// The key that makes a map a step of each kind, and the keys each kind takes.
const std::vector<std::string> kStepKinds = {"for_each", "for", "for_combinations", "do_while", "do_until",
                                             "scenario", "scenarios", "set", "bindings", "phase"};
const std::vector<std::string> kForStepKeys = {"for_each", "for", "for_combinations", "where", "order", "phases",
                                               "loop_scope", "iter_scope"};
const std::vector<std::string> kDoStepKeys = {"do_while", "do_until", "counter", "phases", "loop_scope", "iter_scope"};
const std::vector<std::string> kScopeStepKeys = {"set", "bindings", "phases"};
// Removed from nb-rs (it refuses them with the same advice).
const std::vector<std::string> kRemovedKeys = {"summary", "summaries", "plot", "plots"};

bool contains(const std::vector<std::string>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }

std::string suggestion(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string near = frontend::closest_name(name, candidates);
  return near.empty() ? std::string() : "; did you mean '" + near + "'?";
}

class Loader {
 public:
  Loader(std::string_view text, const std::string& path) : src_(text) {
    w_.path = path;
    w_.text = std::string(text);
  }

  Workload run(const YAML::Node& root) {
    const std::string top = "description, params, bindings, ops, blocks, phases, scenarios";
    if (!root.IsDefined() || root.IsNull())
      fail(Mark{1, 1}, "", "the workload file is empty: it is a map of " + top, "empty-workload");
    const Mark root_at = mark(root, Mark{1, 1});
    if (!root.IsMap()) fail(root_at, "", "a workload file is a map of " + top + ", not " + shape(root), "not-a-map");
    const std::vector<Entry> sections = entries(root, "", root_at, "the workload file");
    // The document's tags reach every op, so they are read first.
    for (const Entry& e : sections)
      if (e.key == "tags") w_.tags = read_tag_map(e, e.key);
    const Entry* top_ops = nullptr;
    const Entry* blocks = nullptr;
    for (const Entry& e : sections) {
      if (e.key == "description") {
        w_.description = optional_scalar(e, e.key);
      } else if (e.key == "params") {
        read_params(e);
      } else if (e.key == "bindings") {
        w_.bindings = read_bindings(e, e.key, /*legacy_chains=*/true);
      } else if (contains(kOpsKeys, e.key)) {
        if (top_ops) fail_twice(e, *top_ops, "the ops", e.key);
        top_ops = &e;
      } else if (e.key == "blocks") {
        blocks = &e;
      } else if (e.key == "phases") {
        read_phases(e);
      } else if (e.key == "scenarios") {
        read_scenarios(e);
      } else if (e.key == "adapter" || e.key == "driver") {
        check_adapter(e, e.key);
      } else if (e.key != "tags") {
        other_key(e, e.key, "the workload file", kTopKeys);
      }
    }
    if (top_ops && blocks)
      fail(top_ops->key_at, top_ops->key,
           "a workload has top-level ops or blocks, not both (nb-rs runs the blocks' ops and drops these; "
               "blocks: is on line " + std::to_string(blocks->key_at.line) + ")",
           "conflicting-keys");
    if (top_ops) read_ops(*top_ops, top_ops->key, "block0", -1, {}, w_.ops);
    if (blocks) read_blocks(*blocks);
    resolve_includes();
    for (const Scenario& s : w_.scenarios)
      for (size_t i = 0; i < s.steps.size(); ++i) check_phases(s.steps[i], indexed("scenarios." + s.name, i));
    if (w_.ops.empty() && w_.phases.empty())
      fail(root_at, "", "the workload defines no ops and no phases: there is nothing to run", "empty-workload");
    std::stable_sort(w_.ignored.begin(), w_.ignored.end(), [](const IgnoredKey& a, const IgnoredKey& b) {
      return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.col < b.at.col;
    });
    return std::move(w_);
  }

  [[noreturn]] void fail(Mark at, std::string key, std::string message, std::string kind) const {
    LoadError e;
    e.path = w_.path;
    e.at = at;
    e.key = std::move(key);
    e.message = std::move(message);
    e.kind = std::move(kind);
    e.rendered = render_workload_error(e.path, w_.text, e.at, e.key.empty() ? e.message : e.message + " (at " + e.key + ")",
                                       e.kind);
    throw Stop{std::move(e)};
  }

 private:
  // ---- places

  // A node's 1-based mark; `fallback` for an empty node (yaml-cpp puts an
  // empty value's mark on the next line) or one without a place.
  Mark mark(const YAML::Node& n, Mark fallback) const {
    if (!n.IsDefined() || n.IsNull()) return fallback;
    const YAML::Mark m = n.Mark();
    if (m.is_null() || m.line < 0 || m.column < 0) return fallback;
    Mark out{static_cast<uint32_t>(m.line) + 1, static_cast<uint32_t>(m.column) + 1};
    if (out.line == 1) out.col += src_.bom();
    return out;
  }

  // Past a node's properties (`&anchor`, `!tag`) and the space and comments after them.
  size_t skip_properties(size_t o) const {
    while (src_.at(o) == '!' || src_.at(o) == '&') {
      while (src_.at(o) != '\0' && src_.at(o) != ' ' && src_.at(o) != '\t' && src_.at(o) != '\n' && src_.at(o) != '\r')
        ++o;
      for (;;) {
        const char c = src_.at(o);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
          ++o;
        } else if (c == '#') {
          while (src_.at(o) != '\0' && src_.at(o) != '\n') ++o;
        } else {
          break;
        }
      }
    }
    return o;
  }

  // Whether a block scalar's header starts at `o`: the indicator, at most two
  // of an indentation digit and a chomping sign, then blanks, perhaps a
  // comment, and the line's end.
  bool block_header(size_t o) const {
    ++o;
    for (int i = 0; i < 2 && (src_.at(o) == '+' || src_.at(o) == '-' || (src_.at(o) >= '1' && src_.at(o) <= '9')); ++i) ++o;
    while (src_.at(o) == ' ' || src_.at(o) == '\t') ++o;
    if (src_.at(o) == '#' && (src_.at(o - 1) == ' ' || src_.at(o - 1) == '\t'))
      while (src_.at(o) != '\0' && src_.at(o) != '\n') ++o;
    if (src_.at(o) == '\r' && src_.at(o + 1) == '\n') ++o;
    return o >= src_.size() || src_.at(o) == '\n';
  }

  // A scalar node as a Field: its text, where it is and where its text starts.
  Field scalar_field(const YAML::Node& n, Mark fallback, std::string key) const {
    Field f;
    f.text = n.Scalar();
    f.key = std::move(key);
    f.at = mark(n, fallback);
    text_bytes_ += f.text.size();
    if (text_bytes_ > kMaxTextBytes)
      fail(f.at, f.key, "the workload is too large: more than " + std::to_string(kMaxTextBytes >> 20) +
                            " MB of text (aliases expanded)",
           "too-large");
    f.content = f.at;
    if (!n.IsDefined() || n.IsNull()) return f;
    const size_t start = skip_properties(src_.offset(f.at));
    const char c = src_.at(start);
    if ((c == '|' || c == '>') && block_header(start)) {
      f.at = src_.mark_at(start);
      f.literal_block = c == '|';
      // The text's line 0 is the line after the indicator's (leading empty
      // lines are kept in the value); its column is the block's indentation.
      f.content = Mark{f.at.line + 1, 1};
      const std::vector<std::string_view> lines = split_lines(f.text);
      size_t first = 0;
      while (first < lines.size() && blank(lines[first])) ++first;
      if (first == lines.size()) return f;  // an empty block
      const std::string_view raw = src_.line(f.content.line + static_cast<uint32_t>(first));
      const std::string_view line = lines[first];
      if (f.literal_block && raw.size() >= line.size() && raw.substr(raw.size() - line.size()) == line) {
        // Exact even with an explicit indentation indicator (`|2`).
        f.content.col = static_cast<uint32_t>(raw.size() - line.size()) + 1;
      } else {
        f.content.col = static_cast<uint32_t>(std::min(raw.find_first_not_of(' '), raw.size())) + 1;
      }
      // A literal block promises that its lines are the file's: when yaml-cpp
      // read the text otherwise (a lone '\r', say), it is not shown as one.
      for (size_t i = first; f.literal_block && i < lines.size(); ++i) {
        if (blank(lines[i])) continue;
        const std::string_view r = src_.line(f.content.line + static_cast<uint32_t>(i));
        if (r.size() < f.content.col - 1 || r.substr(f.content.col - 1) != lines[i]) f.literal_block = false;
      }
    } else if (c == '"' || c == '\'') {
      f.at = src_.mark_at(start);
      f.content = src_.mark_at(start + 1);
    } else if (start < src_.size()) {
      f.at = f.content = src_.mark_at(start);
    }
    return f;
  }

  // ---- shapes

  void count(size_t n, Mark at) {
    entries_ += n;
    if (entries_ > kMaxEntries)
      fail(at, "", "the workload is too large: more than " + std::to_string(kMaxEntries) +
                       " map entries and list items (aliases expanded)",
           "too-large");
  }

  // The entries of a map, in order: each key a scalar, none given twice.
  // `what` names the map in messages.
  std::vector<Entry> entries(const YAML::Node& n, const std::string& key, Mark fallback, const std::string& what) {
    const Mark at = mark(n, fallback);
    if (!n.IsMap()) fail(at, key, what + " is a map (KEY: VALUE lines), not " + shape(n), "not-a-map");
    count(n.size(), at);
    std::vector<Entry> out;
    std::unordered_map<std::string, Mark> seen;
    for (const auto& kv : n) {
      const Mark key_at = mark(kv.first, at);
      if (!kv.first.IsScalar())
        fail(key_at, key, "a key in " + what + " is a name, not " + shape(kv.first), "not-a-scalar");
      Entry e{kv.first.Scalar(), key_at, kv.second, mark(kv.second, key_at)};
      if (auto it = seen.find(e.key); it != seen.end())
        fail(e.key_at, join_key(key, e.key),
             in_quotes(e.key) + " is given twice in " + what + " (first on line " + std::to_string(it->second.line) + ")",
             "duplicate-key");
      seen.emplace(e.key, e.key_at);
      out.push_back(std::move(e));
    }
    return out;
  }

  // A list's items, counted.
  std::vector<YAML::Node> items(const YAML::Node& n, const std::string& key, Mark fallback, const std::string& what) {
    const Mark at = mark(n, fallback);
    if (!n.IsSequence()) fail(at, key, what + " is a list (- ITEM lines), not " + shape(n), "not-a-list");
    count(n.size(), at);
    std::vector<YAML::Node> out;
    for (const auto& item : n) out.push_back(item);
    return out;
  }

  // A scalar value; an empty one is absent.
  std::optional<Field> optional_scalar(const Entry& e, const std::string& key) const {
    if (e.value.IsNull()) return std::nullopt;
    return required_scalar(e, key, "a scalar");
  }

  Field required_scalar(const Entry& e, const std::string& key, const std::string& expected) const {
    if (!e.value.IsScalar())
      fail(e.value_at, key, in_quotes(e.key) + " is " + expected + ", not " + shape(e.value), "not-a-scalar");
    return scalar_field(e.value, e.value_at, key);
  }

  void ignore(const std::string& key, Mark at) {
    if (ignored_seen_.insert(key).second) w_.ignored.push_back(IgnoredKey{key, at});
  }

  // ---- sections

  void read_params(const Entry& section) {
    if (section.value.IsNull()) return;
    for (const Entry& e : entries(section.value, "params", section.key_at, "params")) {
      const std::string key = join_key("params", e.key);
      if (e.value.IsNull()) {
        Field f;
        f.key = key;
        f.at = f.content = e.key_at;
        w_.params.emplace_back(e.key, std::move(f));
      } else {
        w_.params.emplace_back(e.key, required_scalar(e, key, "a scalar (a param's value is text)"));
      }
    }
  }

  // `bindings:` as GK text (usually a `|` block) or a map NAME: EXPR, which
  // becomes one "NAME := EXPR" line per entry.
  // `legacy_chains`: the workload's top-level map, whose values nb-rs reads as
  // legacy chains (frontend/legacy_chain.h); elsewhere a value is GK.
  std::optional<Field> read_bindings(const Entry& section, const std::string& key, bool legacy_chains = false) {
    const YAML::Node& v = section.value;
    if (v.IsNull()) return std::nullopt;
    if (v.IsScalar()) return scalar_field(v, section.value_at, key);
    if (!v.IsMap())
      fail(section.value_at, key,
           "bindings are GK text (a `|` block) or a map of NAME: EXPRESSION, not " + std::string(shape(v)),
           "not-a-scalar");
    Field f;
    f.key = key;
    f.at = f.content = section.value_at;
    bool first = true;
    for (const Entry& e : entries(v, key, section.key_at, "bindings")) {
      const std::string entry_key = join_key(key, e.key);
      if (!e.value.IsScalar())
        fail(e.value_at, entry_key, "a binding in a bindings map is NAME: EXPRESSION; " + in_quotes(e.key) + " is " +
                                        shape(e.value),
             "not-a-scalar");
      const Field value = scalar_field(e.value, e.value_at, entry_key);
      if (first) f.content = value.content;  // the first line's expression, as near as a map allows
      first = false;
      f.text += binding_line(e.key, value, legacy_chains) + "\n";
    }
    return f;
  }

  // One entry of a bindings map as a GK line: nb-rs's reading of it.
  std::string binding_line(const std::string& name, const Field& value, bool legacy_chain) const {
    auto at = [&](size_t offset) {  // a place in a one-line value
      Mark m = value.content;
      if (value.text.find('\n') == std::string::npos) m.col += static_cast<uint32_t>(offset);
      return m;
    };
    if (!legacy_chain) {
      if (frontend::looks_like_legacy_chain(value.text))
        fail(value.content, value.key,
             "this is a legacy binding chain (`Hash(); Mod(100)`), which nb-rs reads only in the workload's "
             "top-level bindings map; in an op's, a block's or a phase's map a binding is one GK expression",
             "legacy-chain");
      return name + " := " + value.text;
    }
    auto gk = frontend::legacy_chain_to_gk(name, value.text);
    if (!gk) fail(at(gk.error().offset), value.key, gk.error().message + " (a legacy binding chain)", "legacy-chain");
    return *gk;
  }

  // ---- keys

  [[noreturn]] void fail_twice(const Entry& e, const Entry& first, const std::string& what, const std::string& key) const {
    fail(e.key_at, key,
         in_quotes(e.key) + " and " + in_quotes(first.key) + " are one key (" + what + "); " + in_quotes(first.key) +
             " is already given (line " + std::to_string(first.key_at.line) + ")",
         "duplicate-key");
  }

  // A key this section does not act on: noted when nb-rs knows it, else refused.
  void other_key(const Entry& e, const std::string& key, const std::string& what, const KeySet& keys) {
    if (contains(kRemovedKeys, e.key))
      fail(e.key_at, key,
           in_quotes(e.key) + " was removed from nb-rs's workloads; it has a `report:` block now (reports are not "
                              "made by this runner)",
           "removed-key");
    if (contains(keys.noted, e.key)) {
      ignore(key, e.key_at);
      return;
    }
    fail(e.key_at, key, in_quotes(e.key) + " is not a key of " + what + suggestion(e.key, keys.all()), "unknown-key");
  }

  // `adapter:` (or `driver:`): stdout is the one adapter this runner has.
  void check_adapter(const Entry& e, const std::string& key) const {
    const Field f = required_scalar(e, key, "an adapter's name");
    if (f.text == "stdout") return;
    fail(f.at, key,
         "the " + in_quotes(f.text) + " adapter is not available: this runner renders ops with nb-rs's stdout adapter "
         "only (adapter=stdout)",
         "unsupported-adapter");
  }

  // `tags:` as nb-rs reads them: a map of NAME: VALUE.
  Tags read_tag_map(const Entry& section, const std::string& key) {
    std::vector<std::pair<std::string, std::string>> out;
    if (section.value.IsNull()) return out;
    for (const Entry& e : entries(section.value, key, section.key_at, "tags"))
      out.emplace_back(e.key, required_scalar(e, join_key(key, e.key), "a scalar (a tag's value)").text);
    return out;
  }

  // ---- ops

  // Where an ops section's ops come from: their block (its name tags them,
  // and an index for a block of `blocks:`), and the tags above them.
  struct OpOrigin {
    std::string block;  // nb-rs's `block` tag: block0 for top-level ops, a phase's or a block's name
    int block_index = -1;
    Tags scope;         // its block's `tags:`, or `phase: NAME` for a phase's op
  };

  // `ops:` in any of its shapes, appended to `out`.
  void read_ops(const Entry& section, const std::string& key, const std::string& block, int block_index, Tags scope,
                std::vector<OpDef>& out) {
    const OpOrigin origin{block, block_index, std::move(scope)};
    const YAML::Node& v = section.value;
    if (v.IsNull()) return;
    if (v.IsScalar()) {  // one op
      out.push_back(text_op("stmt1", section.value_at, v, section.value_at, join_key(key, "stmt1.stmt"), origin));
      return;
    }
    if (v.IsMap()) {
      for (const Entry& e : entries(v, key, section.key_at, "ops"))
        out.push_back(read_op(e.key, e.key_at, e.value, e.value_at, join_key(key, e.key), origin));
      return;
    }
    if (!v.IsSequence())
      fail(section.value_at, key, "ops is a map of NAME: OP, a list of ops or one op text, not " + std::string(shape(v)),
           "not-a-map");
    const std::vector<YAML::Node> list = items(v, key, section.key_at, "ops");
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node& item = list[i];
      const std::string auto_name = "stmt" + std::to_string(i + 1);
      const std::string item_key = indexed(key, i);
      const Mark item_at = mark(item, section.value_at);
      if (item.IsScalar()) {
        out.push_back(text_op(auto_name, item_at, item, item_at, join_key(key, auto_name + ".stmt"), origin));
        continue;
      }
      if (!item.IsMap())
        fail(item_at, item_key,
             "an item of ops is an op text, NAME: OP or a map of the op's fields, not " + std::string(shape(item)),
             "not-a-map");
      const std::vector<Entry> fields = entries(item, item_key, item_at, "an op");
      // - NAME: TEXT, as nb-rs reads it; - NAME: {fields...}, a named op (nb-rs would make NAME a field of an unnamed op).
      if (fields.size() == 1 && (fields.front().value.IsScalar() || fields.front().value.IsMap() ||
                                 fields.front().value.IsNull()) &&
          fields.front().key != "name") {
        const Entry& e = fields.front();
        out.push_back(read_op(e.key, e.key_at, e.value, e.value_at, join_key(key, e.key), origin));
        continue;
      }
      const auto named = std::find_if(fields.begin(), fields.end(), [](const Entry& e) { return e.key == "name"; });
      std::string name = auto_name;
      if (named != fields.end()) {
        if (!named->value.IsScalar())
          fail(named->value_at, join_key(item_key, "name"), "an op's name is a scalar, not " + std::string(shape(named->value)),
               "not-a-scalar");
        name = named->value.Scalar();
      }
      OpDef op = new_op(name, item_at, origin);
      read_op_fields(fields, join_key(key, name), op);
      finish_tags(op, origin);
      out.push_back(std::move(op));
    }
  }

  OpDef new_op(const std::string& name, Mark at, const OpOrigin& origin) const {
    OpDef op;
    op.name = name;
    op.at = at;
    op.block = origin.block_index;
    return op;
  }

  // The op's tags as nb-rs gives them: the workload's, its block's (or its phase), its own, then the automatic ones.
  void finish_tags(OpDef& op, const OpOrigin& origin) const {
    op.tags = op_tags(w_.tags, origin.scope, op.tags, origin.block, op.name);
  }

  OpDef text_op(const std::string& name, Mark at, const YAML::Node& text, Mark text_at, const std::string& key,
                const OpOrigin& origin) {
    OpDef op = new_op(name, at, origin);
    op.fields.emplace_back("stmt", scalar_field(text, text_at, key));
    finish_tags(op, origin);
    return op;
  }

  // NAME: OP, where OP is a text (its `stmt`), nothing, or a map of fields.
  OpDef read_op(const std::string& name, Mark at, const YAML::Node& body, Mark body_at, const std::string& key,
                const OpOrigin& origin) {
    if (body.IsScalar()) return text_op(name, at, body, body_at, join_key(key, "stmt"), origin);
    OpDef op = new_op(name, at, origin);
    if (!body.IsNull()) {
      if (!body.IsMap())
        fail(body_at, key, "an op is its text or a map of its fields, not " + std::string(shape(body)), "not-a-map");
      read_op_fields(entries(body, key, at, "op " + in_quotes(name)), key, op);
    }
    finish_tags(op, origin);
    return op;
  }

  void read_op_fields(const std::vector<Entry>& fields, const std::string& key, OpDef& op) {
    op.map_form = true;
    const Entry* payload = nullptr;
    for (const Entry& e : fields) {
      const std::string field_key = join_key(key, e.key);
      if (e.key == "name" || e.key == "description" || e.key == "desc") {
        continue;  // the name is taken by the caller; a description is documentation
      } else if (e.key == "if") {
        op.condition = optional_scalar(e, field_key);
      } else if (e.key == "bindings") {
        op.bindings = read_bindings(e, field_key);
      } else if (e.key == "ratio") {
        op.ratio = required_scalar(e, field_key, "a count (the op's share of the stanza)");
      } else if (e.key == "tags") {
        op.tags = read_tag_map(e, field_key);
      } else if (e.key == "params") {
        read_op_params(e, field_key, op);
      } else if (e.key == "adapter" || e.key == "driver") {
        check_adapter(e, field_key);
      } else if (contains(kOpPayload, e.key)) {
        if (payload) fail_twice(e, *payload, "the op's text", field_key);
        payload = &e;
        read_payload(e, field_key, op);
      } else if (contains(kOpKeys.noted, e.key)) {
        ignore(field_key, e.key_at);
      } else if (!e.value.IsScalar()) {
        fail(e.value_at, field_key,
             "the op field " + in_quotes(e.key) + " is " + shape(e.value) +
                 "; this runner renders text fields only (nb-rs would send it to its adapter as JSON)",
             "unsupported-field");
      } else if (std::none_of(op.fields.begin(), op.fields.end(), [&](const auto& f) { return f.first == e.key; })) {
        op.fields.emplace_back(e.key, scalar_field(e.value, e.value_at, field_key));
      }
    }
  }

  // `stmt:` (or op, statement, ...): the op's text, or a map of its fields.
  void read_payload(const Entry& e, const std::string& key, OpDef& op) {
    if (e.value.IsScalar()) {
      op.fields.insert(op.fields.begin(), {"stmt", scalar_field(e.value, e.value_at, key)});
      return;
    }
    if (!e.value.IsMap())
      fail(e.value_at, key, in_quotes(e.key) + " is the op's text or a map of its fields, not " + shape(e.value),
           "not-a-scalar");
    std::vector<std::pair<std::string, Field>> fields;
    for (const Entry& f : entries(e.value, key, e.key_at, in_quotes(e.key))) {
      if (!f.value.IsScalar())
        fail(f.value_at, join_key(key, f.key), "an op field is text, not " + std::string(shape(f.value)), "unsupported-field");
      fields.emplace_back(f.key, scalar_field(f.value, f.value_at, join_key(key, f.key)));
    }
    op.fields.insert(op.fields.begin(), fields.begin(), fields.end());
  }

  // An op's `params:`: its `ratio` acts; the rest are the adapter's and change nothing stdout prints.
  void read_op_params(const Entry& section, const std::string& key, OpDef& op) {
    if (section.value.IsNull()) return;
    for (const Entry& e : entries(section.value, key, section.key_at, "an op's params")) {
      const std::string field_key = join_key(key, e.key);
      if (e.key == "ratio") {
        if (!op.ratio) op.ratio = required_scalar(e, field_key, "a count (the op's share of the stanza)");
      } else {
        ignore(field_key, e.key_at);
      }
    }
  }

  void read_blocks(const Entry& section) {
    if (section.value.IsNull()) return;
    auto read_block = [&](const std::string& name, const YAML::Node& body, Mark at, const std::string& key) {
      const int index = static_cast<int>(w_.blocks.size());
      w_.blocks.push_back(BlockDef{name, at, std::nullopt});
      if (body.IsNull()) return;
      if (body.IsScalar()) {  // a block that is one op's text
        const OpOrigin origin{name, index, {}};
        w_.ops.push_back(text_op("stmt1", at, body, mark(body, at), join_key(key, "stmt1.stmt"), origin));
        return;
      }
      const std::vector<Entry> fields = entries(body, key, at, "block " + in_quotes(name));
      Tags tags;
      const Entry* ops = nullptr;
      for (const Entry& e : fields) {
        const std::string field_key = join_key(key, e.key);
        if (e.key == "tags") {
          tags = read_tag_map(e, field_key);
        } else if (e.key == "bindings") {
          w_.blocks[static_cast<size_t>(index)].bindings = read_bindings(e, field_key);
        } else if (contains(kOpsKeys, e.key)) {
          if (ops) fail_twice(e, *ops, "the block's ops", field_key);
          ops = &e;
        } else if (e.key == "params") {
          for (const Entry& p : entries(e.value, field_key, e.key_at, "a block's params")) ignore(join_key(field_key, p.key), p.key_at);
        } else if (e.key != "name" && e.key != "description") {
          other_key(e, field_key, "a block", kBlockKeys);
        }
      }
      if (ops) read_ops(*ops, join_key(key, ops->key), name, index, tags, w_.ops);
    };
    if (section.value.IsSequence()) {
      const std::vector<YAML::Node> list = items(section.value, "blocks", section.key_at, "blocks");
      for (size_t i = 0; i < list.size(); ++i) {
        const Mark at = mark(list[i], section.value_at);
        std::string name = "block" + std::to_string(i + 1);
        if (list[i].IsMap() && list[i]["name"] && list[i]["name"].IsScalar()) name = list[i]["name"].Scalar();
        read_block(name, list[i], at, indexed("blocks", i));
      }
      return;
    }
    for (const Entry& block : entries(section.value, "blocks", section.key_at, "blocks"))
      read_block(block.key, block.value, block.key_at, join_key("blocks", block.key));
  }

  ScopeMode scope_mode(const Entry& e, const std::string& key) const {
    if (e.value.IsNull()) return ScopeMode::Default;
    const Field f = required_scalar(e, key, "clean or inherit");
    if (f.text == "clean") return ScopeMode::Clean;
    if (f.text == "inherit") return ScopeMode::Inherit;
    fail(f.at, key, in_quotes(e.key) + " is clean or inherit, not " + in_quotes(f.text), "bad-value");
  }

  // ---- loops

  // for_each / for / for_combinations: a clause text, a list of sub-spaces, or a map NAME: SPEC.
  LoopSpec read_loop(const Entry& e, const std::string& key) {
    LoopSpec loop;
    loop.at = e.key_at;
    loop.key = e.key;
    const YAML::Node& v = e.value;
    if (v.IsScalar()) {
      loop.entries.push_back(scalar_field(v, e.value_at, key));
    } else if (v.IsSequence()) {
      loop.list = true;
      const std::vector<YAML::Node> list = items(v, key, e.key_at, in_quotes(e.key));
      if (list.empty()) fail(e.value_at, key, in_quotes(e.key) + " lists no clauses", "bad-spec");
      for (size_t i = 0; i < list.size(); ++i) {
        const Mark at = mark(list[i], e.value_at);
        if (!list[i].IsScalar())
          fail(at, indexed(key, i), "an item of " + in_quotes(e.key) + " is a clause text (\"v in SPEC\"), not " +
                                        shape(list[i]),
               "not-a-scalar");
        loop.entries.push_back(scalar_field(list[i], at, indexed(key, i)));
      }
    } else if (v.IsMap()) {  // NAME: SPEC, one cartesian sub-space
      Field f;
      f.key = key;
      f.at = f.content = e.value_at;
      for (const Entry& c : entries(v, key, e.key_at, in_quotes(e.key))) {
        const Field spec = required_scalar(c, join_key(key, c.key), "a clause's values");
        f.text += (f.text.empty() ? "" : ", ") + c.key + " in " + spec.text;
      }
      if (f.text.empty()) fail(e.value_at, key, in_quotes(e.key) + " names no variables", "bad-spec");
      loop.entries.push_back(std::move(f));
    } else {
      fail(e.value_at, key, in_quotes(e.key) + " is a clause text (\"v in SPEC\"), a list of them or a map, not " +
                                shape(v),
           "not-a-scalar");
    }
    return loop;
  }

  void read_phases(const Entry& section) {
    if (section.value.IsNull()) return;
    for (const Entry& p : entries(section.value, "phases", section.key_at, "phases")) {
      const std::string key = join_key("phases", p.key);
      PhaseDef phase;
      phase.name = p.key;
      phase.at = p.key_at;
      if (!p.value.IsNull()) {
        const Entry* loop = nullptr;
        const Entry* ops = nullptr;
        std::optional<Field> where, order;
        const Entry* where_key = nullptr;
        const std::vector<Entry> fields = entries(p.value, key, p.key_at, "phase " + in_quotes(p.key));
        for (const Entry& e : fields) {
          const std::string field_key = join_key(key, e.key);
          if (e.key == "cycles") {
            phase.cycles = optional_scalar(e, field_key);
          } else if (e.key == "bindings") {
            phase.bindings = read_bindings(e, field_key);
          } else if (contains(kOpsKeys, e.key)) {
            if (ops) fail_twice(e, *ops, "the phase's ops", field_key);
            ops = &e;
          } else if (e.key == "for_each" || e.key == "for") {
            if (loop) fail_twice(e, *loop, "the phase's loop", field_key);
            loop = &e;
            phase.for_each = read_loop(e, field_key);
          } else if (e.key == "where" || e.key == "order") {
            (e.key == "where" ? where : order) = required_scalar(e, field_key, e.key == "where" ? "a predicate" : "an order");
            where_key = &e;
          } else if (e.key == "loop_scope") {
            phase.loop_scope = scope_mode(e, field_key);
          } else if (e.key == "iter_scope") {
            phase.iter_scope = scope_mode(e, field_key);
          } else if (e.key == "tags") {
            phase.tags = required_scalar(e, field_key, "a tag filter (\"key:value,...\") selecting top-level ops");
          } else if (e.key == "adapter" || e.key == "driver") {
            check_adapter(e, field_key);
          } else if (e.key != "description") {
            other_key(e, field_key, "phase " + in_quotes(p.key), kPhaseKeys);
          }
        }
        if (where_key && !loop)
          fail(where_key->key_at, join_key(key, where_key->key),
               in_quotes(where_key->key) + " goes beside the phase's for_each (or for)", "missing-key");
        if (phase.for_each) {
          phase.for_each->where = where;
          phase.for_each->order = order;
        }
        if (ops) {
          if (phase.tags)
            fail(phase.tags->at, join_key(key, "tags"),
                 "a phase runs its own ops or selects top-level ops with tags:, not both", "conflicting-keys");
          read_ops(*ops, join_key(key, ops->key), p.key, -1, Tags{{"phase", p.key}}, phase.ops);
        }
      }
      w_.phases.push_back(std::move(phase));
    }
  }

  // ---- scenarios

  void read_scenarios(const Entry& section) {
    if (section.value.IsNull()) return;
    for (const Entry& s : entries(section.value, "scenarios", section.key_at, "scenarios")) {
      const std::string key = join_key("scenarios", s.key);
      Scenario scenario;
      scenario.name = s.key;
      scenario.at = s.key_at;
      if (s.value.IsScalar()) {  // one step: a phase's name
        scenario.steps.push_back(read_step(s.value, mark(s.value, s.key_at), indexed(key, 0), 1));
      } else if (!s.value.IsNull()) {
        const std::vector<YAML::Node> list = items(s.value, key, s.key_at, "scenario " + in_quotes(s.key));
        for (size_t i = 0; i < list.size(); ++i)
          scenario.steps.push_back(read_step(list[i], mark(list[i], s.value_at), indexed(key, i), 1));
      }
      w_.scenarios.push_back(std::move(scenario));
    }
  }

  // The steps a loop or scope runs: its `phases:` list.
  std::vector<Step> read_body(const Entry& phases, const std::string& key, int depth) {
    std::vector<Step> body;
    if (phases.value.IsScalar()) {
      body.push_back(read_step(phases.value, phases.value_at, indexed(key, 0), depth + 1));
      return body;
    }
    const std::vector<YAML::Node> list = items(phases.value, key, phases.key_at, "a step's phases");
    for (size_t i = 0; i < list.size(); ++i)
      body.push_back(read_step(list[i], mark(list[i], phases.value_at), indexed(key, i), depth + 1));
    return body;
  }

  // A step: a phase's name, `phase: NAME`, `scenario: NAME`, `scenarios: [...]`,
  // a loop (for_each/for/for_combinations, do_while, do_until) or a scope
  // (set:, bindings:) over `phases:`.
  Step read_step(const YAML::Node& n, Mark at, const std::string& key, int depth) {
    if (depth > kMaxStepDepth)
      fail(at, key, "scenario steps are nested more than " + std::to_string(kMaxStepDepth) + " levels deep",
           "nesting-too-deep");
    count(1, at);
    Step step;
    step.at = at;
    if (n.IsScalar()) {
      step.kind = Step::Kind::Phase;
      step.phase = n.Scalar();
      return step;
    }
    if (!n.IsMap())
      fail(at, key,
           "a scenario step is a phase's name, or a map: a loop (for_each, do_while, do_until), scenario:, set: or "
           "bindings: with phases, not " + std::string(shape(n)),
           "not-a-scalar");
    const std::vector<Entry> fields = entries(n, key, at, "a scenario step");
    const Entry* kind = nullptr;
    for (const Entry& e : fields) {
      if (!contains(kStepKinds, e.key)) continue;
      if (kind) {
        const bool spelling = (e.key == "for" || e.key == "for_each") && (kind->key == "for" || kind->key == "for_each");
        if (spelling) fail_twice(e, *kind, "the step's loop", join_key(key, e.key));
        fail(e.key_at, join_key(key, e.key),
             "a step is one thing: " + in_quotes(e.key) + " and " + in_quotes(kind->key) + " cannot be in the same step",
             "conflicting-keys");
      }
      kind = &e;
    }
    if (!kind) {
      if (fields.empty()) fail(at, key, "an empty scenario step", "missing-key");
      for (const Entry& e : fields)
        if (contains(kForStepKeys, e.key) || contains(kDoStepKeys, e.key))
          fail(at, key,
               "this step has " + in_quotes(e.key) + " but no loop (for_each, do_while, do_until), set: or bindings: "
               "for it",
               "missing-key");
      const Entry& e = fields.front();
      fail(e.key_at, join_key(key, e.key),
           in_quotes(e.key) + " is not a scenario step; a step is a phase's name or a map with one of " +
               join(kStepKinds, ", ") + suggestion(e.key, kStepKinds),
           "unknown-key");
    }
    const std::string& k = kind->key;
    const std::string kind_key = join_key(key, k);
    auto only = [&](const std::vector<std::string>& allowed, const std::string& what) {
      for (const Entry& e : fields)
        if (!contains(allowed, e.key))
          fail(e.key_at, join_key(key, e.key),
               in_quotes(e.key) + " is not a key of " + what + "; its keys are " + join(allowed, ", ") +
                   suggestion(e.key, allowed),
               "unknown-key");
    };
    auto body_of = [&](bool required) -> const Entry* {
      for (const Entry& e : fields)
        if (e.key == "phases") return &e;
      if (required) fail(at, key, "a " + k + " step needs phases: the steps it runs", "missing-key");
      return nullptr;
    };
    if (k == "phase") {
      only({"phase"}, "a phase step");
      step.kind = Step::Kind::Phase;
      step.phase = required_scalar(*kind, kind_key, "a phase's name").text;
      return step;
    }
    if (k == "scenario") {
      only({"scenario"}, "an include step");
      step.kind = Step::Kind::Include;
      step.scenario = required_scalar(*kind, kind_key, "a scenario's name").text;
      return step;
    }
    if (k == "scenarios") {  // several includes, or steps of any shape, in one place
      only({"scenarios"}, "an include step");
      step.kind = Step::Kind::Scope;
      const std::vector<YAML::Node> list =
          kind->value.IsScalar() ? std::vector<YAML::Node>{kind->value} : items(kind->value, kind_key, kind->key_at, "scenarios");
      for (size_t i = 0; i < list.size(); ++i) {
        const Mark item_at = mark(list[i], kind->value_at);
        if (list[i].IsScalar()) {
          Step inc;
          inc.kind = Step::Kind::Include;
          inc.at = item_at;
          inc.scenario = list[i].Scalar();
          step.body.push_back(std::move(inc));
        } else {
          step.body.push_back(read_step(list[i], item_at, indexed(kind_key, i), depth + 1));
        }
      }
      return step;
    }
    if (k == "set" || k == "bindings") {
      only(kScopeStepKeys, "a " + k + " step");
      step.kind = Step::Kind::Scope;
      if (k == "set") step.set = read_set(*kind, kind_key);
      else step.bindings = read_bindings(*kind, kind_key);
      if (const Entry* phases = body_of(false)) step.body = read_body(*phases, join_key(key, "phases"), depth);
      if (step.body.empty())
        w_.warnings.push_back(w_.path + ":" + std::to_string(kind->key_at.line) + ":" +
                              std::to_string(kind->key_at.col) + ": warning: this " + k +
                              ": step has no phases: nothing reads what it sets [no-op-step]");
      return step;
    }
    const bool is_for = k == "for_each" || k == "for" || k == "for_combinations";
    only(is_for ? kForStepKeys : kDoStepKeys, "a " + k + " step");
    for (const Entry& e : fields) {
      const std::string field_key = join_key(key, e.key);
      if (&e == kind) {
        if (is_for) step.loop = read_loop(e, field_key);
        else step.spec = required_scalar(e, field_key, "a condition");
      } else if (e.key == "where" || e.key == "order") {
        (e.key == "where" ? step.loop.where : step.loop.order) =
            required_scalar(e, field_key, e.key == "where" ? "a predicate" : "an order");
      } else if (e.key == "counter") {
        if (auto f = optional_scalar(e, field_key)) step.counter = f->text;
      } else if (e.key == "loop_scope") {
        step.loop_scope = scope_mode(e, field_key);
      } else if (e.key == "iter_scope") {
        step.iter_scope = scope_mode(e, field_key);
      }
    }
    step.kind = is_for ? Step::Kind::ForEach : k == "do_while" ? Step::Kind::DoWhile : Step::Kind::DoUntil;
    step.body = read_body(*body_of(true), join_key(key, "phases"), depth);
    return step;
  }

  // `set: {NAME: VALUE, ...}` or `set: "NAME=VALUE"`.
  std::vector<std::pair<std::string, Field>> read_set(const Entry& e, const std::string& key) {
    std::vector<std::pair<std::string, Field>> out;
    if (e.value.IsScalar()) {
      Field f = scalar_field(e.value, e.value_at, key);
      const size_t eq = f.text.find('=');
      if (eq == std::string::npos)
        fail(f.at, key, "set: as text is NAME=VALUE, not " + in_quotes(f.text), "bad-value");
      std::string name = f.text.substr(0, eq);
      std::string value = f.text.substr(eq + 1);
      auto trim = [](std::string& t) {
        while (!t.empty() && t.back() == ' ') t.pop_back();
        while (!t.empty() && t.front() == ' ') t.erase(0, 1);
      };
      trim(name);
      trim(value);
      if (!frontend_identifier(name)) fail(f.at, key, "set: sets a name, not " + in_quotes(name), "bad-value");
      f.text = value;
      out.emplace_back(name, std::move(f));
      return out;
    }
    for (const Entry& v : entries(e.value, key, e.key_at, "set")) {
      if (!frontend_identifier(v.key)) fail(v.key_at, join_key(key, v.key), "set: sets a name, not " + in_quotes(v.key), "bad-value");
      out.emplace_back(v.key, required_scalar(v, join_key(key, v.key), "a value"));
    }
    if (out.empty()) fail(e.value_at, key, "set: sets no names", "bad-value");
    return out;
  }

  static bool frontend_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  }

  // Every `scenario: NAME` names a scenario, and no scenario includes itself.
  void resolve_includes() {
    std::vector<std::string> names;
    for (const Scenario& s : w_.scenarios) names.push_back(s.name);
    std::vector<std::string> path;
    std::set<std::string> done;
    std::function<void(const Scenario&)> visit = [&](const Scenario& sc) {
      if (done.count(sc.name)) return;
      path.push_back(sc.name);
      std::function<void(const std::vector<Step>&, const std::string&)> walk = [&](const std::vector<Step>& steps,
                                                                                  const std::string& key) {
        for (size_t i = 0; i < steps.size(); ++i) {
          const Step& st = steps[i];
          if (st.kind == Step::Kind::Include) {
            const Scenario* target = w_.find_scenario(st.scenario);
            if (!target)
              fail(st.at, indexed(key, i),
                   "no scenario " + in_quotes(st.scenario) + " to include" +
                       (names.empty() ? std::string() : suggestion(st.scenario, names)),
                   "unknown-scenario");
            if (std::find(path.begin(), path.end(), st.scenario) != path.end())
              fail(st.at, indexed(key, i),
                   "scenario " + in_quotes(st.scenario) + " includes itself: " + join(path, " -> ") + " -> " + st.scenario,
                   "include-cycle");
            visit(*target);
          }
          walk(st.body, join_key(indexed(key, i), "phases"));
        }
      };
      walk(sc.steps, "scenarios." + sc.name);
      path.pop_back();
      done.insert(sc.name);
    };
    for (const Scenario& s : w_.scenarios) visit(s);
  }

  // Every phase step names a phase of `phases:`.
  void check_phases(const Step& step, const std::string& key) const {
    if (step.kind == Step::Kind::Phase) {
      if (w_.find_phase(step.phase)) return;
      std::vector<std::string> names;
      for (const PhaseDef& p : w_.phases) names.push_back(p.name);
      std::string message = "unknown phase " + in_quotes(step.phase);
      if (names.empty()) message += "; the workload defines no phases";
      else message += suggestion(step.phase, names);
      fail(step.at, key, message, "unknown-phase");
    }
    for (size_t i = 0; i < step.body.size(); ++i) check_phases(step.body[i], indexed(join_key(key, "phases"), i));
  }

  Source src_;
  Workload w_;
  std::set<std::string> ignored_seen_;
  size_t entries_ = 0;
  mutable size_t text_bytes_ = 0;  // counted where scalars are read (a const reader)
};

LoadError plain_error(const std::string& path, std::string_view text, Mark at, std::string message, std::string kind) {
  LoadError e;
  e.path = path;
  e.at = at;
  e.message = std::move(message);
  e.kind = std::move(kind);
  e.rendered = render_workload_error(path, text, at, e.message, e.kind);
  return e;
}

}  // namespace

const PhaseDef* Workload::find_phase(std::string_view name) const {
  for (const PhaseDef& p : phases)
    if (p.name == name) return &p;
  return nullptr;
}

const Scenario* Workload::find_scenario(std::string_view name) const {
  for (const Scenario& s : scenarios)
    if (s.name == name) return &s;
  return nullptr;
}

ir::Expected<Workload, LoadError> parse_workload_text(std::string_view text, const std::string& path) {
  if (text.size() > kMaxFileBytes)
    return plain_error(path, {}, Mark{1, 1},
                       "the workload file is " + std::to_string(text.size()) + " bytes; a workload file is at most " +
                           std::to_string(kMaxFileBytes),
                       "too-large");
  const Source src(text);
  auto yaml_mark = [&](const YAML::Mark& m) {
    if (m.is_null() || m.line < 0 || m.column < 0) return Mark{1, 1};
    Mark out{static_cast<uint32_t>(m.line) + 1, static_cast<uint32_t>(m.column) + 1};
    if (out.line == 1) out.col += src.bom();
    return out;
  };
  try {
    const std::string owned(text);
    YAML::Node root;
    try {
      root = YAML::Load(owned);
      // A second pass that only looks for a second document (YAML::LoadAll
      // loops forever on some garbage in yaml-cpp 0.7).
      std::istringstream in(owned);
      YAML::Parser parser(in);
      DocumentStarts starts;
      for (int i = 0; i < 2 && parser.HandleNextDocument(starts); ++i) {
      }
      if (starts.marks.size() > 1)
        return plain_error(path, text, yaml_mark(starts.marks[1]),
                           "a workload file holds one YAML document; another begins here", "yaml-syntax");
    } catch (const YAML::Exception& e) {
      return plain_error(path, text, yaml_mark(e.mark),
                         "invalid YAML: " + (e.msg.empty() ? std::string("cannot parse") : e.msg), "yaml-syntax");
    }
    Loader loader(text, path);
    try {
      return loader.run(root);
    } catch (const Stop& stop) {
      return stop.error;
    } catch (const YAML::Exception& e) {  // a yaml-cpp accessor that should not throw did
      return plain_error(path, text, yaml_mark(e.mark), std::string("cannot read the workload: ") + e.what(), "yaml-syntax");
    }
  } catch (const std::exception& e) {  // no input may escape as an exception
    return plain_error(path, text, Mark{1, 1}, std::string("cannot read the workload: ") + e.what(), "io");
  }
}

ir::Expected<Workload, LoadError> load_workload_file(const std::filesystem::path& file) {
  const std::string path = file.string();
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    return plain_error(path, {}, Mark{1, 1}, "cannot read the workload file: it is a directory", "io");
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    const bool exists = std::filesystem::exists(file, ec);
    return plain_error(path, {}, Mark{1, 1},
                       exists ? "cannot read the workload file" : "cannot read the workload file: no such file", "io");
  }
  std::string text;
  char buf[4096];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) break;  // parse_workload_text reports it
  }
  if (in.bad()) return plain_error(path, {}, Mark{1, 1}, "cannot read the workload file: a read failed", "io");
  return parse_workload_text(text, path);
}

std::string render_workload_error(const std::string& path, std::string_view text, Mark at, std::string_view message,
                                  std::string_view kind) {
  // Without a place (a value from the command line): the file alone.
  std::string out = escape_controls(path) +
                    (at.line ? ":" + std::to_string(at.line) + ":" + std::to_string(at.col ? at.col : 1) : std::string()) +
                    ": error: " + escape_controls(message);
  if (!kind.empty()) out += " [" + std::string(kind) + "]";
  out += "\n";
  if (text.empty() || at.line == 0) return out;
  const Source src(text);
  if (at.line > src.lines()) return out;
  const std::string_view line = src.line(at.line);
  const size_t col = at.col ? at.col : 1;
  // A long line is cut around the caret so the diagnostic stays readable.
  size_t first = 0;
  if (line.size() > kShownColumns && col > kShownColumns / 2)
    first = std::min(col - 1 - kShownColumns / 2, line.size() - kShownColumns);
  const std::string_view raw = line.substr(first, kShownColumns);
  // Where each raw byte starts in what is shown (a control byte takes four columns as \xNN).
  std::string shown;
  std::vector<size_t> starts;
  for (char c : raw) {
    starts.push_back(shown.size());
    shown += c == '\t' ? std::string(" ") : escape_controls(std::string_view(&c, 1));
  }
  starts.push_back(shown.size());
  const size_t caret = starts[std::min(col - 1 - first, raw.size())];
  out += "  " + shown + "\n";
  out += "  " + std::string(caret, ' ') + "^\n";
  return out;
}

}  // namespace polydat::workload
