#include "frontend/block_names.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "frontend/diagnostics.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

namespace polydat::frontend {

namespace {

using Uses = std::vector<std::pair<std::string, Span>>;
using Locals = std::shared_ptr<const std::set<std::string>>;

void expr_uses(const Expr& root, const Locals& locals, Uses& out) { names_read(root, locals, out); }

// A module definition's reads: its parameters and the names its body binds are its own.
void module_uses(const Stmt& def, Uses& out) {
  const Locals none = std::make_shared<std::set<std::string>>();
  auto own = std::make_shared<std::set<std::string>>();
  for (const Param& p : def.params) {
    own->insert(p.name);
    if (p.default_value) expr_uses(*p.default_value, none, out);
  }
  for (const StmtPtr& s : def.body) {
    if (s->kind == StmtKind::Binding) own->insert(s->name);
    for (const auto& [n, sp] : s->names)
      if (s->kind == StmtKind::Destructure) own->insert(n);
    for (const Param& p : s->params) own->insert(p.name);  // (inputs/externs there are errors for the checker)
  }
  for (const StmtPtr& s : def.body) {
    if (s->kind == StmtKind::ModuleDef) continue;  // a nested definition is ignored, as by the compiler
    if (s->value) expr_uses(*s->value, own, out);
    for (const Param& p : s->params)
      if (p.default_value) expr_uses(*p.default_value, none, out);
  }
}

// Source order, each name once (at its first use).
Uses first_uses(Uses uses) {
  std::stable_sort(uses.begin(), uses.end(), [](const auto& a, const auto& b) { return a.second.start < b.second.start; });
  Uses out;
  std::set<std::string> seen;
  for (auto& u : uses)
    if (seen.insert(u.first).second) out.push_back(std::move(u));
  return out;
}

std::vector<std::string> names_of(const Uses& uses) {
  std::vector<std::string> out;
  for (const auto& [n, sp] : first_uses(uses)) out.push_back(n);
  return out;
}

std::optional<std::string> type_text(const std::optional<TypeRef>& t) {
  if (!t) return std::nullopt;
  return t->name;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; };
  if (!alpha(s[0])) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

// The identifiers of an expression's tokens in bytes [start, end) of file 0
// that name values: not callees (before '('), not types (after `as`), not
// argument names (before ':' inside parentheses). Into string interpolations.
void expression_identifiers(const SourceMap& sources, uint32_t start, uint32_t end, int depth,
                            std::vector<std::string>& out) {
  if (depth > 16) return;
  Diagnostics ignored;
  const LexResult lexed = lex(sources, 0, ignored, start, end);
  const std::vector<Token>& t = lexed.tokens;
  int parens = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const Tok next = i + 1 < t.size() ? t[i + 1].kind : Tok::End;
    if (t[i].kind == Tok::LParen) ++parens;
    if (t[i].kind == Tok::RParen && parens > 0) --parens;
    if (t[i].kind == Tok::String)
      for (const StringPart& p : t[i].parts)
        if (p.is_expr) expression_identifiers(sources, p.span.start, p.span.end, depth + 1, out);
    if (t[i].kind != Tok::Ident) continue;
    if (next == Tok::LParen) continue;
    if (i > 0 && t[i - 1].kind == Tok::KwAs) continue;
    if (parens > 0 && next == Tok::Colon) continue;
    out.push_back(t[i].text);
  }
}

}  // namespace

BlockNames analyze_block(const std::string& name, std::string text) {
  SourceMap sources;
  const uint32_t file = sources.add(name, std::move(text));
  Diagnostics diags;
  const FileAst ast = parse_file(sources, file, diags);
  BlockNames out;
  const Locals none = std::make_shared<std::set<std::string>>();
  Uses all;  // every read of the block
  for (const StmtPtr& sp : ast.stmts) {
    const Stmt& s = *sp;
    Uses uses;
    switch (s.kind) {
      case StmtKind::Input:
        for (const Param& p : s.params)
          out.defs.push_back(NameDef{p.name, NameDef::Input, s.span, p.span, false, false, false, Combine::Last,
                                     type_text(p.type), {}});
        break;
      case StmtKind::Extern:
        for (const Param& p : s.params) {
          Uses mine;
          if (p.default_value) expr_uses(*p.default_value, none, mine);
          out.defs.push_back(NameDef{p.name, NameDef::Extern, s.span, p.span, false, false, false, Combine::Last,
                                     type_text(p.type), names_of(mine)});
          uses.insert(uses.end(), mine.begin(), mine.end());
        }
        break;
      case StmtKind::Binding:
        if (s.value) expr_uses(*s.value, none, uses);
        out.defs.push_back(NameDef{s.name, NameDef::Binding, s.span, s.name_span, s.is_const, s.is_shared, s.is_volatile,
                                   s.combine, type_text(s.type), names_of(uses)});
        break;
      case StmtKind::Destructure: {
        if (s.value) expr_uses(*s.value, none, uses);
        const std::vector<std::string> refs = names_of(uses);
        for (const auto& [n, span] : s.names)
          if (n != "_")
            out.defs.push_back(NameDef{n, NameDef::Part, s.span, span, false, false, false, Combine::Last, std::nullopt, refs});
        break;
      }
      case StmtKind::ModuleDef:
        module_uses(s, uses);
        out.defs.push_back(NameDef{s.name, NameDef::Module, s.span, s.name_span, false, false, false, Combine::Last,
                                   std::nullopt, names_of(uses)});
        break;
      case StmtKind::Output:
        for (const auto& [n, span] : s.names) uses.emplace_back(n, span);
        break;
      case StmtKind::Assign:
        if (s.value) expr_uses(*s.value, none, uses);
        break;
      case StmtKind::Pragma:
        break;
    }
    all.insert(all.end(), uses.begin(), uses.end());
  }
  std::set<std::string> defined;
  for (const NameDef& d : out.defs) defined.insert(d.name);
  for (auto& [n, span] : first_uses(std::move(all)))
    if (!defined.count(n)) out.free_refs.push_back(NameRef{n, span});
  out.parse_ok = !diags.has_errors();
  if (!out.parse_ok) out.diagnostics = render_all(diags, sources);
  return out;
}

std::vector<std::string> placeholder_names(std::string_view t) {
  std::vector<std::string> found;
  SourceMap sources;
  const uint32_t file = sources.add("<template>", std::string(t));
  const std::string_view text = sources.file(file).text;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '}') {  // `}}`, or a stray brace: text
      i += i + 1 < text.size() && text[i + 1] == '}' ? 2 : 1;
      continue;
    }
    if (text[i] != '{') {
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {  // `{{`
      i += 2;
      continue;
    }
    // The matching '}', past nested braces and string literals.
    size_t j = i + 1;
    int depth = 0;
    bool closed = false;
    while (j < text.size()) {
      const char c = text[j];
      if (c == '"') {
        for (++j; j < text.size() && text[j] != '"'; ++j)
          if (text[j] == '\\') ++j;
        ++j;
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}' && depth-- == 0) {
        closed = true;
        break;
      }
      ++j;
    }
    if (!closed) break;
    std::string_view inner = text.substr(i + 1, j - i - 1);
    const size_t a = inner.find_first_not_of(" \t");
    const size_t b = inner.find_last_not_of(" \t");
    const std::string_view trimmed = a == std::string_view::npos ? std::string_view() : inner.substr(a, b - a + 1);
    if (is_identifier(trimmed)) found.emplace_back(trimmed);
    else expression_identifiers(sources, static_cast<uint32_t>(i + 1), static_cast<uint32_t>(j), 0, found);
    i = j + 1;
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (std::string& n : found)
    if (seen.insert(n).second) out.push_back(std::move(n));
  return out;
}

}  // namespace polydat::frontend
