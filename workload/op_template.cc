#include "workload/op_template.h"

#include <cctype>

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
}  // namespace

ir::Expected<OpTemplate, TemplateError> parse_template(const Field& field, const std::string& prefix,
                                                       std::vector<InlineBinding>& inlines) {
  OpTemplate t;
  const std::string& s = field.text;
  std::string literal;
  size_t points = 0;
  auto flush = [&] {
    if (!literal.empty()) t.parts.push_back(TemplatePart{literal, false});
    literal.clear();
  };
  size_t i = 0;
  while (i < s.size()) {
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
      const size_t body_at = s.find(body.front(), i + open);
      InlineBinding b{prefix + std::to_string(inlines.size()), std::string(body), mark_in(field, body_at)};
      t.parts.push_back(TemplatePart{b.name, true});
      inlines.push_back(std::move(b));
    }
    i = close + (inline_form ? 2 : 1);
  }
  flush();
  if (points == 1 && t.parts.size() == 1 && t.parts[0].is_name) t.whole_name = t.parts[0].text;
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
