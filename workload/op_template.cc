#include "workload/op_template.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace polydat::workload {

bool is_identifier(std::string_view t) {
  if (t.empty() || !(std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_')) return false;
  for (char c : t)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The mark of byte `offset` of a field's text, exact on its first line.
Mark mark_in(const Field& f, size_t offset) {
  Mark m = f.content;
  if (!m.line) return m;
  for (size_t i = 0; i < offset && i < f.text.size(); ++i) {
    if (f.text[i] == '\n') {
      ++m.line;
      m.col = f.literal_block ? f.content.col : 1;
    } else {
      ++m.col;
    }
  }
  return m;
}
// nb-rs's capture point at s[i] == '[': `[name]`, `[name as alias]`,
// `[(Type) name]`, `[@name]` (a name starts with a letter, '_' or '*').
// Its end (past ']') and the source name, or nullopt when the '[' opens
// something else (`[]`, `[42]`, `["a"]`, `[a, b]`): that '[' is text.
std::optional<std::pair<size_t, Capture>> capture_at(std::string_view s, size_t i) {
  auto blanks = [&](size_t& j) {
    while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
  };
  size_t j = i + 1;
  blanks(j);
  if (j < s.size() && s[j] == '(') {  // a type the capture asserts
    while (j < s.size() && s[j] != ')') ++j;
    if (j < s.size()) ++j;
    blanks(j);
  }
  if (j < s.size() && s[j] == '@') {  // every row's value
    ++j;
    blanks(j);
  }
  const size_t name_at = j;
  if (j >= s.size() || !(std::isalpha(static_cast<unsigned char>(s[j])) || s[j] == '_' || s[j] == '*'))
    return std::nullopt;
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '*'; };
  while (j < s.size() && name_char(s[j])) ++j;
  Capture c{std::string(s.substr(name_at, j - name_at)), {}};
  c.as = c.source;
  blanks(j);
  if (j + 2 < s.size() && (s[j] == 'a' || s[j] == 'A') && (s[j + 1] == 's' || s[j + 1] == 'S') &&
      std::isspace(static_cast<unsigned char>(s[j + 2]))) {
    j += 2;
    blanks(j);
    const size_t alias_at = j;
    while (j < s.size() && name_char(s[j]) && s[j] != '*') ++j;
    c.as = std::string(s.substr(alias_at, j - alias_at));
  }
  blanks(j);
  if (j >= s.size() || s[j] != ']') return std::nullopt;
  return std::pair<size_t, Capture>{j + 1, std::move(c)};
}
}  // namespace

ir::Expected<OpTemplate, TemplateError> parse_template(const Field& field, const std::string& prefix,
                                                       std::vector<InlineBinding>& inlines, bool captures) {
  OpTemplate t;
  const std::string& s = field.text;
  std::string literal;
  size_t points = 0;
  bool inline_seen = false;  // an inline binding is text made per line, never one typed value
  auto flush = [&] {
    if (!literal.empty()) t.parts.push_back(TemplatePart{literal, false});
    literal.clear();
  };
  size_t i = 0;
  while (i < s.size()) {
    if (captures && s[i] == '[')
      if (auto c = capture_at(s, i)) {  // shown as its source name, as nb-rs sends it to the adapter
        literal += c->second.source;
        t.captures.push_back(std::move(c->second));
        i = c->first;
        continue;
      }
    if (s[i] != '{') {
      literal += s[i++];
      continue;
    }
    const bool inline_form = s.compare(i, 2, "{{") == 0;
    const size_t open = inline_form ? 2 : 1;
    // `{{expr}}` ends at the first `}}` outside braces the expression opens (`{{x % {k}}}`).
    size_t close = std::string::npos;
    if (inline_form) {
      int depth = 0;
      for (size_t j = i + open; j < s.size(); ++j) {
        if (s[j] == '{') ++depth;
        else if (s[j] == '}' && depth > 0) --depth;
        else if (s[j] == '}' && j + 1 < s.size() && s[j + 1] == '}') {
          close = j;
          break;
        }
      }
    } else {
      close = s.find('}', i + open);
    }
    if (close == std::string::npos)
      return TemplateError{std::string("this '") + (inline_form ? "{{" : "{") + "' is never closed", mark_in(field, i)};
    std::string_view body = trim(std::string_view(s).substr(i + open, close - i - open));
    for (std::string_view q : {"bind:", "input:", "capture:", "port:"})
      if (body.substr(0, q.size()) == q) body = trim(body.substr(q.size()));
    if (body.empty()) return TemplateError{"an empty bind point", mark_in(field, i)};
    flush();
    ++points;
    if (!inline_form && is_identifier(body)) {
      t.parts.push_back(TemplatePart{std::string(body), true});
    } else {
      inline_seen = true;
      const size_t body_at = s.find(body.front(), i + open);
      InlineBinding b{prefix + std::to_string(inlines.size()), std::string(body), mark_in(field, body_at)};
      t.parts.push_back(TemplatePart{b.name, true});
      inlines.push_back(std::move(b));
    }
    i = close + (inline_form ? 2 : 1);
  }
  flush();
  // One `{name}` with only blanks around it is the value itself, blanks dropped (nb-rs's "pure token").
  if (points == 1 && !inline_seen) {
    auto blank = [](const TemplatePart& p) { return !p.is_name && trim(p.text).empty(); };
    const auto name = std::find_if(t.parts.begin(), t.parts.end(), [](const TemplatePart& p) { return p.is_name; });
    if (name != t.parts.end() && std::all_of(t.parts.begin(), t.parts.end(), [&](const TemplatePart& p) { return p.is_name || blank(p); })) {
      const TemplatePart only = *name;
      t.parts = {only};
      t.whole_name = only.text;
    }
  }
  return t;
}

std::vector<const OpTemplate*> stmt_fields(const PreparedOp& op) {
  for (const char* pick : {"stmt", "raw", "prepared"})
    for (const auto& [name, t] : op.fields)
      if (name == pick) return {&t};
  std::vector<const OpTemplate*> all;
  for (const auto& [name, t] : op.fields) all.push_back(&t);
  return all;
}

std::string unbound_op_name(const Workload& w, const OpDef& op, const std::string& name) {
  return render_workload_error(w.path, w.text, op.at, "op '" + op.name + "' reads '" + name + "', which no scope around it defines",
                               "unbound-name");
}

}  // namespace polydat::workload
