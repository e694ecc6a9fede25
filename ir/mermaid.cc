#include "ir/mermaid.h"

#include "ir/dump_labels.h"

#include <array>
#include <cstdio>
#include <optional>

namespace polydat::ir {

// ---- to_mermaid ----

namespace {
// Double-quoted for Mermaid: `"` becomes #quot;, and the characters Mermaid
// would read as an entity or as HTML become entity codes too.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += "#quot;";
    else if (c == '#') out += "#35;";
    else if (c == '<') out += "#lt;";
    else if (c == '>') out += "#gt;";
    else out += c;
  }
  out += '"';
  return out;
}

void append_function(std::string& out, const CategoryIr& ir, const FuncDef& fd,
                     const std::vector<uint32_t>& ordinal) {
  out += "    subgraph f" + std::to_string(fd.id.v) + "[" + quoted("fn " + fd.name) + "]\n";
  for (ObjectId o : ir.objects_of(fd.id))
    out += "        " + dump_detail::node_id(ir, ordinal, o) + "((" +
           quoted(dump_detail::node_text(ir.object(o))) + "))\n";
  for (MorphismId mid : fd.morphisms) {
    const Morphism& m = ir.morphism(mid);
    out += "        " + dump_detail::node_id(ir, ordinal, m.source) + " -- " +
           quoted(dump_detail::edge_text(ir, m)) + " --> " + dump_detail::node_id(ir, ordinal, m.target) + "\n";
  }
  out += "    end\n";
}
}  // namespace

std::string to_mermaid(const CategoryIr& ir) {
  const std::vector<uint32_t> ordinal = dump_detail::object_ordinals(ir);
  std::string out = "flowchart LR\n";
  for (const FuncDef& fd : ir.funcs()) append_function(out, ir, fd, ordinal);
  return out;
}

// ---- lint_mermaid ----

namespace {
bool is_id_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool valid_id(std::string_view id) {
  if (id.empty()) return false;
  for (char c : id)
    if (!is_id_char(c)) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_word(std::string_view s, std::string_view word) {
  return s.substr(0, word.size()) == word && (s.size() == word.size() || is_space(s[word.size()]));
}

// The line with every quoted stretch emptied, so label text never looks like an arrow.
std::string without_quoted_text(std::string_view line) {
  std::string out;
  bool inside = false;
  for (char c : line) {
    if (c == '"') {
      inside = !inside;
      out += c;
    } else if (!inside) {
      out += c;
    }
  }
  return out;
}

// The first arrow of another style than `-->` (dotted, thick, open, invisible, ...).
std::optional<std::string_view> foreign_arrow(std::string_view bare) {
  static constexpr std::array<std::string_view, 7> kForeign = {"-.", "==", "---", "~~~", "<-", "--o", "--x"};
  for (std::string_view a : kForeign) {
    const size_t at = bare.find(a);
    if (at == std::string_view::npos) continue;
    const bool letter_head = a.back() == 'o' || a.back() == 'x';
    const size_t after = at + a.size();
    if (letter_head && after < bare.size() && is_id_char(bare[after])) continue;  // `--o1` is no arrow head
    return a;
  }
  return std::nullopt;
}

// Matching closer of a node shape opener: `((` -> `))`, `[(` -> `)]`, `>` -> `]`.
std::string closer_of(std::string_view opener) {
  std::string out;
  for (size_t i = opener.size(); i-- > 0;) {
    const char c = opener[i];
    out += c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : c == '>' ? ']' : c;
  }
  return out;
}

// One statement line, read left to right.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  void skip_spaces() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
  }
  bool done() const { return pos_ >= s_.size(); }
  char peek() const { return done() ? '\0' : s_[pos_]; }
  std::string_view rest() const { return s_.substr(pos_); }
  bool eat(std::string_view tok) {
    if (rest().substr(0, tok.size()) != tok) return false;
    pos_ += tok.size();
    return true;
  }
  // A run of the given characters.
  std::string_view take_run(std::string_view chars) {
    const size_t from = pos_;
    while (!done() && chars.find(peek()) != std::string_view::npos) ++pos_;
    return s_.substr(from, pos_ - from);
  }
  // A node id candidate: up to a space, a shape bracket, a quote or an arrow.
  std::string_view take_token() {
    const size_t from = pos_;
    while (!done() && !is_space(peek()) && std::string_view("([{>\"|").find(peek()) == std::string_view::npos &&
           !at_arrow())
      ++pos_;
    return s_.substr(from, pos_ - from);
  }
  // The text between a quote here and the next quote; nullopt when unterminated.
  std::optional<std::string_view> take_quoted() {
    const size_t close = s_.find('"', pos_ + 1);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view text = s_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return text;
  }

 private:
  bool at_arrow() const {
    const std::string_view r = rest();
    for (std::string_view a : {"--", "-.", "==", "~~", "<-"})
      if (r.substr(0, a.size()) == a) return true;
    return false;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

class Linter {
 public:
  std::vector<std::string> run(std::string_view text) {
    size_t start = 0;
    while (start <= text.size()) {
      size_t stop = text.find('\n', start);
      if (stop == std::string_view::npos) stop = text.size();
      ++line_no_;
      line(trim(text.substr(start, stop - start)));
      start = stop + 1;
    }
    if (!header_seen_) problems_.push_back("no `flowchart LR` header");
    if (depth_ > 0) problems_.push_back(std::to_string(depth_) + " subgraph(s) never closed by `end`");
    return std::move(problems_);
  }

 private:
  void report(std::string what) { problems_.push_back("line " + std::to_string(line_no_) + ": " + what); }

  void line(std::string_view s) {
    if (s.empty() || s.substr(0, 2) == "%%") return;
    if (!header_seen_) {
      header_seen_ = true;
      if (starts_word(s, "flowchart") || starts_word(s, "graph")) {
        if (s != "flowchart LR") report("the header must be `flowchart LR`, not `" + std::string(s) + "`");
        return;
      }
      report("the first line must be the `flowchart LR` header");
    }
    if (auto a = foreign_arrow(without_quoted_text(s))) {
      report("arrow style `" + std::string(*a) + "`: the only arrow allowed is `-->`");
      return;
    }
    if (starts_word(s, "subgraph")) return subgraph(s.substr(8));
    if (s == "end") return end();
    if (starts_word(s, "direction")) return;
    statement(s);
  }

  void subgraph(std::string_view rest) {
    ++depth_;
    Cursor c(rest);
    c.skip_spaces();
    if (!node_ref(c)) return;
    c.skip_spaces();
    if (!c.done()) report("unexpected text after the subgraph id: `" + std::string(c.rest()) + "`");
  }

  void end() {
    if (depth_ == 0) {
      report("`end` without an open subgraph");
      return;
    }
    --depth_;
  }

  // node (arrow node)*
  void statement(std::string_view s) {
    Cursor c(s);
    if (!node_ref(c)) return;
    for (c.skip_spaces(); !c.done(); c.skip_spaces()) {
      if (!arrow(c)) return;
      c.skip_spaces();
      if (!node_ref(c)) return;
    }
  }

  bool node_ref(Cursor& c) {
    const std::string_view id = c.take_token();
    if (id.empty()) {
      report("expected a node id at `" + std::string(c.rest()) + "`");
      return false;
    }
    if (!valid_id(id)) report("node id `" + std::string(id) + "` is not [A-Za-z0-9_]+");
    if (c.done() || std::string_view("([{>").find(c.peek()) == std::string_view::npos) return true;
    return shape_label(c, id);
  }

  bool shape_label(Cursor& c, std::string_view id) {
    const std::string_view opener = c.take_run("([{>/\\");
    if (c.peek() != '"') {
      report("the label of `" + std::string(id) + "` is not double-quoted");
      return false;
    }
    if (!quoted_label(c)) return false;
    const std::string_view closer = c.take_run(")]}/\\");
    if (closer == closer_of(opener)) return true;
    if (closer.empty() && !c.done() && !is_space(c.peek()))
      report("a raw `\"` inside the label of `" + std::string(id) + "` (escape it as #quot;)");
    else
      report("the shape of `" + std::string(id) + "` opens with `" + std::string(opener) + "` but closes with `" +
             std::string(closer) + "`");
    return false;
  }

  bool quoted_label(Cursor& c) {
    if (c.take_quoted()) return true;
    report("an unterminated label: `" + std::string(c.rest()) + "`");
    return false;
  }

  // `-- "label" -->`, `-->|"label"|` or a bare `-->`.
  bool arrow(Cursor& c) {
    if (c.eat("-->")) {
      c.skip_spaces();
      return c.peek() != '|' || piped_label(c);
    }
    if (!c.eat("--")) {
      report("expected an arrow `-->` at `" + std::string(c.rest()) + "`");
      return false;
    }
    c.skip_spaces();
    if (c.peek() != '"') {
      report("the edge label at `" + std::string(c.rest()) + "` is not double-quoted");
      return false;
    }
    if (!quoted_label(c)) return false;
    c.skip_spaces();
    if (c.eat("-->")) return true;
    report("an edge label is followed by `" + std::string(c.rest()) + "`, not `-->` (a raw `\"` inside it?)");
    return false;
  }

  bool piped_label(Cursor& c) {
    c.eat("|");
    if (c.peek() != '"') {
      report("the edge label at `" + std::string(c.rest()) + "` is not double-quoted");
      return false;
    }
    if (!quoted_label(c)) return false;
    if (c.eat("|")) return true;
    report("an edge label is followed by `" + std::string(c.rest()) + "`, not `|` (a raw `\"` inside it?)");
    return false;
  }

  std::vector<std::string> problems_;
  size_t line_no_ = 0;
  int depth_ = 0;
  bool header_seen_ = false;
};
}  // namespace

std::vector<std::string> lint_mermaid(std::string_view text) { return Linter().run(text); }

}  // namespace polydat::ir
