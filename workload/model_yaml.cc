// The workload loader's reading of yaml-cpp's document: key paths and
// message text, each node's place in the raw text (past anchors and tags, a
// block scalar's content column), scalars as Fields, and maps and lists
// counted against the budget.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <unordered_map>

#include "workload/model_detail.h"

namespace polydat::workload::model_detail {

namespace {

constexpr size_t kMaxEntries = size_t{1} << 20;      // map entries and list items visited, aliases expanded
constexpr size_t kMaxTextBytes = size_t{64} << 20;   // scalar text kept, aliases expanded (each copies its text)

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

// A line of the block's text that is only spaces: in a block a tab past the indentation is text.
bool blank(std::string_view s) { return s.find_first_not_of(' ') == std::string_view::npos; }

}  // namespace

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

// A node's 1-based mark; `fallback` for an empty node (yaml-cpp puts an
// empty value's mark on the next line) or one without a place.
Mark Loader::mark(const YAML::Node& n, Mark fallback) const {
  if (!n.IsDefined() || n.IsNull()) return fallback;
  const YAML::Mark m = n.Mark();
  if (m.is_null() || m.line < 0 || m.column < 0) return fallback;
  Mark out{static_cast<uint32_t>(m.line) + 1, static_cast<uint32_t>(m.column) + 1};
  if (out.line == 1) out.col += src_.bom();
  return out;
}

// Past a node's properties (`&anchor`, `!tag`) and the space and comments after them.
size_t Loader::skip_properties(size_t o) const {
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
bool Loader::block_header(size_t o) const {
  ++o;
  for (int i = 0; i < 2 && (src_.at(o) == '+' || src_.at(o) == '-' || (src_.at(o) >= '1' && src_.at(o) <= '9')); ++i) ++o;
  while (src_.at(o) == ' ' || src_.at(o) == '\t') ++o;
  if (src_.at(o) == '#' && (src_.at(o - 1) == ' ' || src_.at(o - 1) == '\t'))
    while (src_.at(o) != '\0' && src_.at(o) != '\n') ++o;
  if (src_.at(o) == '\r' && src_.at(o + 1) == '\n') ++o;
  return o >= src_.size() || src_.at(o) == '\n';
}

// A scalar node as a Field: its text, where it is and where its text starts.
Field Loader::scalar_field(const YAML::Node& n, Mark fallback, std::string key) const {
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

void Loader::count(size_t n, Mark at) {
  entries_ += n;
  if (entries_ > kMaxEntries)
    fail(at, "", "the workload is too large: more than " + std::to_string(kMaxEntries) +
                     " map entries and list items (aliases expanded)",
         "too-large");
}

// The entries of a map, in order: each key a scalar, none given twice.
// `what` names the map in messages.
std::vector<Entry> Loader::entries(const YAML::Node& n, const std::string& key, Mark fallback, const std::string& what) {
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
std::vector<YAML::Node> Loader::items(const YAML::Node& n, const std::string& key, Mark fallback, const std::string& what) {
  const Mark at = mark(n, fallback);
  if (!n.IsSequence()) fail(at, key, what + " is a list (- ITEM lines), not " + shape(n), "not-a-list");
  count(n.size(), at);
  std::vector<YAML::Node> out;
  for (const auto& item : n) out.push_back(item);
  return out;
}

// A scalar value; an empty one is absent.
std::optional<Field> Loader::optional_scalar(const Entry& e, const std::string& key) const {
  if (e.value.IsNull()) return std::nullopt;
  return required_scalar(e, key, "a scalar");
}

Field Loader::required_scalar(const Entry& e, const std::string& key, const std::string& expected) const {
  if (!e.value.IsScalar())
    fail(e.value_at, key, in_quotes(e.key) + " is " + expected + ", not " + shape(e.value), "not-a-scalar");
  return scalar_field(e.value, e.value_at, key);
}

}  // namespace polydat::workload::model_detail
