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
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "frontend/diagnostics.h"

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

const std::vector<std::string> kTopKeys = {"description", "params", "bindings", "ops", "blocks", "phases", "scenarios"};
// Op keys accepted and not acted on.
const std::vector<std::string> kOpIgnored = {"tags",    "params", "ratio",  "delay", "verify",  "result",
                                             "adapter", "driver", "stdout", "space", "capture", "errors"};
const std::vector<std::string> kForEachStepKeys = {"for_each", "for", "phases", "loop_scope", "iter_scope"};
const std::vector<std::string> kDoStepKeys = {"do_while", "do_until", "counter", "phases", "loop_scope", "iter_scope"};
const std::vector<std::string> kStepKeys = {"for_each", "for",     "do_while",   "do_until",
                                            "counter",  "phases",  "loop_scope", "iter_scope"};

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
    if (!root.IsDefined() || root.IsNull())
      fail(Mark{1, 1}, "", "the workload file is empty: it is a map of " + join(kTopKeys, ", "), "empty-workload");
    const Mark root_at = mark(root, Mark{1, 1});
    if (!root.IsMap())
      fail(root_at, "", "a workload file is a map of " + join(kTopKeys, ", ") + ", not " + shape(root), "not-a-map");
    std::vector<OpDef> block_ops;
    for (const Entry& e : entries(root, "", root_at, "the workload file")) {
      if (e.key == "description") {
        w_.description = optional_scalar(e, e.key);
      } else if (e.key == "params") {
        read_params(e);
      } else if (e.key == "bindings") {
        w_.bindings = read_bindings(e, e.key);
      } else if (e.key == "ops") {
        read_ops(e, e.key, "", w_.ops);
      } else if (e.key == "blocks") {
        read_blocks(e, block_ops);
      } else if (e.key == "phases") {
        read_phases(e);
      } else if (e.key == "scenarios") {
        read_scenarios(e);
      } else {
        ignore(e.key, e.key_at);
      }
    }
    for (OpDef& op : block_ops) w_.ops.push_back(std::move(op));
    for (const Scenario& s : w_.scenarios)
      for (size_t i = 0; i < s.steps.size(); ++i) check_phases(s.steps[i], indexed("scenarios." + s.name, i));
    if (w_.ops.empty() && w_.phases.empty())
      fail(root_at, "", "the workload defines no ops and no phases: there is nothing to run", "empty-workload");
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
  std::optional<Field> read_bindings(const Entry& section, const std::string& key) {
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
      f.text += e.key + " := " + value.text + "\n";
    }
    return f;
  }

  // `ops:` in any of its shapes, appended to `out`; op names get `prefix`.
  void read_ops(const Entry& section, const std::string& key, const std::string& prefix, std::vector<OpDef>& out) {
    const YAML::Node& v = section.value;
    if (v.IsNull()) return;
    if (v.IsScalar()) {  // one op
      OpDef op;
      op.name = prefix + "op1";
      op.at = section.value_at;
      op.fields.emplace_back("stmt", scalar_field(v, section.value_at, join_key(key, "op1.stmt")));
      out.push_back(std::move(op));
      return;
    }
    if (v.IsMap()) {
      for (const Entry& e : entries(v, key, section.key_at, "ops"))
        out.push_back(read_op(prefix + e.key, e.key_at, e.value, e.value_at, join_key(key, e.key)));
      return;
    }
    if (!v.IsSequence())
      fail(section.value_at, key, "ops is a map of NAME: OP, a list of ops or one op text, not " + std::string(shape(v)),
           "not-a-map");
    const std::vector<YAML::Node> list = items(v, key, section.key_at, "ops");
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node& item = list[i];
      const std::string auto_name = "op" + std::to_string(i + 1);
      const std::string item_key = indexed(key, i);
      const Mark item_at = mark(item, section.value_at);
      if (item.IsScalar()) {
        OpDef op;
        op.name = prefix + auto_name;
        op.at = item_at;
        op.fields.emplace_back("stmt", scalar_field(item, item_at, join_key(key, auto_name + ".stmt")));
        out.push_back(std::move(op));
        continue;
      }
      if (!item.IsMap())
        fail(item_at, item_key,
             "an item of ops is an op text, NAME: OP or a map of the op's fields, not " + std::string(shape(item)),
             "not-a-map");
      const std::vector<Entry> fields = entries(item, item_key, item_at, "an op");
      const auto named = std::find_if(fields.begin(), fields.end(), [](const Entry& e) { return e.key == "name"; });
      if (named != fields.end()) {  // - name: NAME, then the op's fields
        if (!named->value.IsScalar())
          fail(named->value_at, join_key(item_key, "name"), "an op's name is a scalar, not " + std::string(shape(named->value)),
               "not-a-scalar");
        const std::string name = named->value.Scalar();
        OpDef op;
        op.name = prefix + name;
        op.at = item_at;
        read_op_fields(fields, join_key(key, name), op);
        out.push_back(std::move(op));
      } else if (fields.size() == 1) {  // - NAME: OP
        const Entry& e = fields.front();
        out.push_back(read_op(prefix + e.key, e.key_at, e.value, e.value_at, join_key(key, e.key)));
      } else {  // - the op's fields, unnamed
        OpDef op;
        op.name = prefix + auto_name;
        op.at = item_at;
        read_op_fields(fields, join_key(key, auto_name), op);
        out.push_back(std::move(op));
      }
    }
  }

  // NAME: OP, where OP is a text (its `stmt`), nothing, or a map of fields.
  OpDef read_op(const std::string& name, Mark at, const YAML::Node& body, Mark body_at, const std::string& key) {
    OpDef op;
    op.name = name;
    op.at = at;
    if (body.IsNull()) return op;
    if (body.IsScalar()) {
      op.fields.emplace_back("stmt", scalar_field(body, body_at, join_key(key, "stmt")));
      return op;
    }
    if (!body.IsMap())
      fail(body_at, key, "an op is its text or a map of its fields, not " + std::string(shape(body)), "not-a-map");
    read_op_fields(entries(body, key, at, "op " + in_quotes(name)), key, op);
    return op;
  }

  void read_op_fields(const std::vector<Entry>& fields, const std::string& key, OpDef& op) {
    for (const Entry& e : fields) {
      const std::string field_key = join_key(key, e.key);
      if (e.key == "name") continue;  // taken by the caller
      if (e.key == "if") {
        op.condition = optional_scalar(e, field_key);
      } else if (e.key == "bindings") {
        op.bindings = read_bindings(e, field_key);
      } else if (contains(kOpIgnored, e.key) || !e.value.IsScalar()) {
        ignore(field_key, e.key_at);
      } else {
        op.fields.emplace_back(e.key, scalar_field(e.value, e.value_at, field_key));
      }
    }
  }

  void read_blocks(const Entry& section, std::vector<OpDef>& out) {
    if (section.value.IsNull()) return;
    for (const Entry& block : entries(section.value, "blocks", section.key_at, "blocks")) {
      const std::string key = join_key("blocks", block.key);
      if (block.value.IsNull()) continue;
      for (const Entry& e : entries(block.value, key, block.key_at, "block " + in_quotes(block.key))) {
        if (e.key == "ops") read_ops(e, join_key(key, "ops"), block.key + ".", out);
        else ignore(join_key(key, e.key), e.key_at);
      }
    }
  }

  ScopeMode scope_mode(const Entry& e, const std::string& key) const {
    if (e.value.IsNull()) return ScopeMode::Default;
    const Field f = required_scalar(e, key, "clean or inherit");
    if (f.text == "clean") return ScopeMode::Clean;
    if (f.text == "inherit") return ScopeMode::Inherit;
    fail(f.at, key, in_quotes(e.key) + " is clean or inherit, not " + in_quotes(f.text), "bad-value");
  }

  void read_phases(const Entry& section) {
    if (section.value.IsNull()) return;
    for (const Entry& p : entries(section.value, "phases", section.key_at, "phases")) {
      const std::string key = join_key("phases", p.key);
      PhaseDef phase;
      phase.name = p.key;
      phase.at = p.key_at;
      if (!p.value.IsNull()) {
        std::optional<Entry> loop;  // for_each or for
        for (const Entry& e : entries(p.value, key, p.key_at, "phase " + in_quotes(p.key))) {
          const std::string field_key = join_key(key, e.key);
          if (e.key == "cycles") {
            phase.cycles = optional_scalar(e, field_key);
          } else if (e.key == "bindings") {
            phase.bindings = read_bindings(e, field_key);
          } else if (e.key == "ops") {
            read_ops(e, field_key, "", phase.ops);
          } else if (e.key == "for_each" || e.key == "for") {
            if (loop)
              fail(e.key_at, field_key,
                   "'for' and 'for_each' are one key; " + in_quotes(loop->key) + " is already given (line " +
                       std::to_string(loop->key_at.line) + ")",
                   "duplicate-key");
            loop = e;
            phase.for_each = optional_scalar(e, field_key);
          } else if (e.key == "loop_scope") {
            phase.loop_scope = scope_mode(e, field_key);
          } else if (e.key == "iter_scope") {
            phase.iter_scope = scope_mode(e, field_key);
          } else if (e.key == "tags") {
            read_tags(e, field_key, phase.tags);
          } else {
            ignore(field_key, e.key_at);
          }
        }
      }
      w_.phases.push_back(std::move(phase));
    }
  }

  void read_tags(const Entry& section, const std::string& key, std::vector<std::string>& out) {
    const YAML::Node& v = section.value;
    if (v.IsNull()) return;
    if (v.IsScalar()) {
      out.push_back(v.Scalar());
    } else if (v.IsMap()) {
      for (const Entry& e : entries(v, key, section.key_at, "tags"))
        out.push_back(e.key + ":" + required_scalar(e, join_key(key, e.key), "a scalar (a tag's value)").text);
    } else {
      const std::vector<YAML::Node> list = items(v, key, section.key_at, "tags");
      for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].IsScalar())
          fail(mark(list[i], section.value_at), indexed(key, i), "a tag is a scalar, not " + std::string(shape(list[i])),
               "not-a-scalar");
        out.push_back(list[i].Scalar());
      }
    }
  }

  void read_scenarios(const Entry& section) {
    if (section.value.IsNull()) return;
    for (const Entry& s : entries(section.value, "scenarios", section.key_at, "scenarios")) {
      const std::string key = join_key("scenarios", s.key);
      Scenario scenario;
      scenario.name = s.key;
      scenario.at = s.key_at;
      if (!s.value.IsNull()) {
        const std::vector<YAML::Node> list = items(s.value, key, s.key_at, "scenario " + in_quotes(s.key));
        for (size_t i = 0; i < list.size(); ++i)
          scenario.steps.push_back(read_step(list[i], mark(list[i], s.value_at), indexed(key, i), 1));
      }
      w_.scenarios.push_back(std::move(scenario));
    }
  }

  // A step: a phase's name, or a loop (for_each/for, do_while, do_until) over `phases:`.
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
           "a scenario step is a phase's name or a loop (for_each, do_while or do_until with phases), not " +
               std::string(shape(n)),
           "not-a-scalar");
    const std::vector<Entry> fields = entries(n, key, at, "a scenario step");
    for (const Entry& e : fields)
      if (!contains(kStepKeys, e.key))
        fail(e.key_at, join_key(key, e.key),
             in_quotes(e.key) + " is not a key of a scenario step; a step is a phase's name or a loop with " +
                 join(kStepKeys, ", ") + suggestion(e.key, kStepKeys),
             "unknown-key");
    // The loop key: for_each (or for), do_while or do_until; one of them.
    const Entry* loop = nullptr;
    auto is_for = [](const std::string& k) { return k == "for_each" || k == "for"; };
    for (const Entry& e : fields) {
      if (!is_for(e.key) && e.key != "do_while" && e.key != "do_until") continue;
      if (loop) {
        if (is_for(e.key) && is_for(loop->key))  // the other spelling: a key given twice
          fail(e.key_at, join_key(key, e.key),
               "'for' and 'for_each' are one key; " + in_quotes(loop->key) + " is already given (line " +
                   std::to_string(loop->key_at.line) + ")",
               "duplicate-key");
        fail(e.key_at, join_key(key, e.key),
             "a step is one loop: " + in_quotes(e.key) + " and " + in_quotes(loop->key) + " cannot be in the same step",
             "conflicting-keys");
      }
      loop = &e;
    }
    if (!loop)
      fail(at, key, "a loop step needs for_each (or for), do_while or do_until", "missing-key");
    const bool for_each = is_for(loop->key);
    step.kind = for_each ? Step::Kind::ForEach : loop->key == "do_while" ? Step::Kind::DoWhile : Step::Kind::DoUntil;
    const std::vector<std::string>& allowed = for_each ? kForEachStepKeys : kDoStepKeys;
    for (const Entry& e : fields)
      if (!contains(allowed, e.key))
        fail(e.key_at, join_key(key, e.key),
             in_quotes(e.key) + " is not a key of a " + loop->key + " step; its keys are " +
                 join(for_each ? std::vector<std::string>{"for_each (or for)", "phases", "loop_scope", "iter_scope"}
                               : std::vector<std::string>{loop->key, "counter", "phases", "loop_scope", "iter_scope"},
                      ", "),
             "unknown-key");
    const Entry* phases = nullptr;
    for (const Entry& e : fields) {
      const std::string field_key = join_key(key, e.key);
      if (&e == loop) {
        step.spec = required_scalar(e, field_key, for_each ? "a clause (\"v in SPEC\")" : "a condition");
      } else if (e.key == "counter") {
        if (auto f = optional_scalar(e, field_key)) step.counter = f->text;
      } else if (e.key == "loop_scope") {
        step.loop_scope = scope_mode(e, field_key);
      } else if (e.key == "iter_scope") {
        step.iter_scope = scope_mode(e, field_key);
      } else if (e.key == "phases") {
        phases = &e;
      }
    }
    if (!phases) fail(at, key, "a " + loop->key + " step needs phases: the steps it runs", "missing-key");
    const std::string body_key = join_key(key, "phases");
    const std::vector<YAML::Node> body = items(phases->value, body_key, phases->key_at, "a loop's phases");
    for (size_t i = 0; i < body.size(); ++i)
      step.body.push_back(read_step(body[i], mark(body[i], phases->value_at), indexed(body_key, i), depth + 1));
    return step;
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
