// The parser's entry points and its statements: declarations, bindings, module definitions and loop bodies.
#include "frontend/parser.h"

#include <cctype>
#include <filesystem>

#include "frontend/cursors.h"
#include "frontend/parser_internal.h"

namespace polydat::frontend {

namespace parse_detail {

namespace {

constexpr size_t kMaxErrors = 50;

// nb-rs's name for a type polydat spells otherwise (its modules return `String`).
std::string nbrs_type_alias(const std::string& name) { return name == "String" ? "str" : name; }

std::string one_cell_message() {
  return "a shared cell is one name, it cannot be destructured: write `shared NAME := value` "
         "(or `shared(KIND) NAME := value`) for each cell";
}

}  // namespace

FileAst Parser::file() {
  FileAst ast;
  ast.file = file_;
  ast.stmts = statements(Tok::End);
  return ast;
}

// After an error: drop the rest of the statement (to a newline or ';' at this level, or the closing brace).
void Parser::recover(Tok closer) {
  int depth = 0;
  while (!at(Tok::End)) {
    const Tok k = peek().kind;
    if (depth == 0 && (k == Tok::Newline || k == Tok::Semicolon || k == closer)) return;
    if (k == Tok::LBrace || k == Tok::LParen || k == Tok::LBracket) ++depth;
    if ((k == Tok::RBrace || k == Tok::RParen || k == Tok::RBracket) && depth > 0) --depth;
    take();
  }
}

// The /// lines directly above a statement (a run of consecutive lines ending on the line before it).
std::string Parser::doc_before(Span s) {
  std::string doc;
  uint32_t last_line = 0;
  while (next_doc_ < docs_.size() && docs_[next_doc_].span.start < s.start) {
    const uint32_t line = sources_.file(file_).line_col(docs_[next_doc_].span.start).first;
    if (doc.empty() || line != last_line + 1) doc.clear();
    doc += (doc.empty() ? "" : "\n") + docs_[next_doc_].text;
    last_line = line;
    ++next_doc_;
  }
  if (!doc.empty() && sources_.file(file_).line_col(s.start).first != last_line + 1) doc.clear();
  return doc;
}

std::vector<StmtPtr> Parser::statements(Tok closer) {
  std::vector<StmtPtr> out;
  while (true) {
    skip_newlines();
    if (at(closer) || at(Tok::End)) break;
    if (diags_.error_count() > kMaxErrors) {  // enough to act on; stop here
      while (!at(Tok::End)) take();
      break;
    }
    try {
      if (anonymous_module_ahead()) anonymous_module(out, closer);
      else out.push_back(statement());
      take_pending(out);
      if (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(closer) && !at(Tok::End))
        fail(peek().span, "expected the end of the statement, found " + describe(peek()));
    } catch (const Abandon&) {
      recover(closer);
    }
  }
  return out;
}

StmtPtr Parser::statement() {
  auto s = std::make_unique<Stmt>();
  const Token& first = peek();
  s->span = first.span;
  s->doc = doc_before(first.span);
  switch (first.kind) {
    case Tok::KwInput: return input(std::move(s));
    case Tok::KwExtern: return extern_decl(std::move(s));
    case Tok::KwOutput: return output_stmt(std::move(s));
    case Tok::KwPragma: {
      take();
      const Token& n = expect(Tok::Ident, "a pragma name");
      s->kind = StmtKind::Pragma;
      s->name = n.text;
      s->name_span = n.span;
      s->span = join(s->span, n.span);
      return s;
    }
    case Tok::LParen: return destructure(std::move(s));
    case Tok::KwConst: case Tok::KwShared: case Tok::KwVolatile: return binding(std::move(s));
    case Tok::Ident:
      if (cursor_ahead()) return cursor_decl(std::move(s));
      if (peek(1).kind == Tok::LParen) return module_def(std::move(s));
      if (init_ahead()) return init_binding(std::move(s));
      return binding(std::move(s));
    default:
      fail(first.span, "expected a statement, found " + describe(first));
  }
}

// ---- cursors (nb-rs's `cursor NAME = range(a, b) [over SOURCE]`, frontend/cursors.h) ----

// `cursor` is a word, not a keyword: a statement is a cursor's when `cursor NAME =` opens it.
bool Parser::cursor_ahead() const {
  return peek().text == "cursor" && peek(1).kind == Tok::Ident && peek(2).kind == Tok::Assign;
}

// The cursor's bindings: the first returned, the rest left for take_pending.
StmtPtr Parser::cursor_decl(StmtPtr s) {
  if (in_module_) fail(s->span, "a cursor is declared at a kernel's top level, not in a module's body");
  take();
  const Token& n = take();
  take();
  CursorDecl d{n.text, n.span, s->span, s->doc, expression(), nullptr};
  if (at(Tok::Ident) && peek().text == "over") {
    take();
    d.over = expression();
  }
  d.span = join(d.span, (d.over ? d.over : d.range)->span);
  std::vector<StmtPtr> made = desugar_cursor(std::move(d), diags_);
  if (made.empty()) throw Abandon{};
  for (size_t i = 1; i < made.size(); ++i) pending_.push_back(std::move(made[i]));
  return std::move(made.front());
}

void Parser::take_pending(std::vector<StmtPtr>& out) {
  for (StmtPtr& p : pending_) out.push_back(std::move(p));
  pending_.clear();
}

TypeRef Parser::type_ref() {
  const Token& t = expect(Tok::Ident, "a type");
  const std::string name = nbrs_type_alias(t.text);
  if (!scalar_type(name)) fail(t.span, "unknown type '" + t.text + "' (types: bool, u8..u64, i8..i64, f32, f64, str, Partition)");
  return TypeRef{name, t.span};
}

const Token& Parser::expect_name(std::string_view what) {
  if (!at_name()) fail(peek().span, "expected " + std::string(what) + ", found " + describe(peek()));
  return take();
}

Param Parser::typed_param(bool type_required) {
  const Token& n = expect_name("a name");
  Param p{n.text, n.span, std::nullopt, nullptr};
  if (accept(Tok::Colon)) p.type = type_ref();
  else if (type_required) fail(peek().span, "expected ':' and a type after '" + n.text + "'");
  return p;
}

StmtPtr Parser::input(StmtPtr s) {
  take();
  s->kind = StmtKind::Input;
  if (accept(Tok::LParen)) {
    do {
      s->params.push_back(typed_param(true));
    } while (accept(Tok::Comma));
    s->span = join(s->span, expect(Tok::RParen, "')'").span);
  } else {
    s->params.push_back(typed_param(true));
    s->span = join(s->span, s->params.back().span);
  }
  return s;
}

StmtPtr Parser::extern_decl(StmtPtr s) {
  take();
  s->kind = StmtKind::Extern;
  Param p = typed_param(false);
  if (accept(Tok::Assign)) p.default_value = expression();
  if (!p.type && !p.default_value) fail(p.span, "an extern needs a type or a default value");
  s->span = join(s->span, p.default_value ? p.default_value->span : p.span);
  s->params.push_back(std::move(p));
  return s;
}

StmtPtr Parser::output_stmt(StmtPtr s) {
  take();
  s->kind = StmtKind::Output;
  do {
    const Token& n = expect_name("a binding name");
    s->names.emplace_back(n.text, n.span);
    s->span = join(s->span, n.span);
  } while (accept(Tok::Comma));
  return s;
}

StmtPtr Parser::destructure(StmtPtr s) {
  take();
  s->kind = StmtKind::Destructure;
  do {
    const Token& n = expect_name("a name");
    s->names.emplace_back(n.text, n.span);
  } while (accept(Tok::Comma));
  expect(Tok::RParen, "')'");
  expect(Tok::Define, "':='");
  s->value = expression();
  s->span = join(s->span, s->value->span);
  return s;
}

StmtPtr Parser::binding(StmtPtr s) {
  s->kind = StmtKind::Binding;
  while (at(Tok::KwConst) || at(Tok::KwShared) || at(Tok::KwVolatile)) {
    const Token& m = take();
    bool& flag = m.kind == Tok::KwConst ? s->is_const : m.kind == Tok::KwShared ? s->is_shared : s->is_volatile;
    if (flag) fail(m.span, "'" + m.text + "' is given twice");
    flag = true;
    if (m.kind == Tok::KwShared && at(Tok::LParen)) combine_kind(*s);
  }
  if (s->is_const && s->is_volatile)
    fail(s->span, "a binding cannot be both const and volatile", DiagKind::ConstVolatile);
  if (s->is_shared && at(Tok::LParen)) fail(peek().span, one_cell_message());
  const Token& n = expect_name("a binding name");
  if (is_cursor_helper(n.text)) fail(n.span, "names starting with `__cursor_` are made for cursors' own bindings");
  s->name = n.text;
  s->name_span = n.span;
  if (accept(Tok::Colon)) s->type = type_ref();
  if (at(Tok::Assign) && !s->is_const && !s->is_shared && !s->is_volatile && !s->type)
    fail(peek().span, "'=' assigns a loop variable; a binding is written 'name := value'");
  expect(Tok::Define, "':='");
  s->value = expression();
  s->span = join(s->span, s->value->span);
  return s;
}

// `shared(KIND)`, at the '(': how writes to the cell combine.
void Parser::combine_kind(Stmt& s) {
  const Token& open = take();
  // `shared (a, b) := ...` and `shared (a) := ...`: a destructuring, not a kind.
  if (at(Tok::Ident) && (peek(1).kind == Tok::Comma ||
                         (peek(1).kind == Tok::RParen && peek(2).kind == Tok::Define && !combine_from_name(peek().text))))
    fail(join(open.span, peek().span), one_cell_message());
  if (!at(Tok::Ident))
    fail(peek().span, "expected how the shared cell combines (last, sum, min, max or count) after 'shared(', found " +
                          describe(peek()));
  const Token& k = take();
  const std::optional<Combine> c = combine_from_name(k.text);
  if (!c) {
    std::string m = "unknown combine kind '" + k.text + "' for a shared cell; the kinds are last, sum, min, max and count";
    std::string lower = k.text;
    for (char& ch : lower) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
    std::string near = combine_from_name(lower) ? lower : closest_name(k.text, combine_names());
    if (!near.empty()) m += "; did you mean '" + near + "'?";
    fail(k.span, m);
  }
  s.combine = *c;
  s.combine_span = k.span;
  expect(Tok::RParen, "')' after the combine kind");
}

StmtPtr Parser::module_def(StmtPtr s) {
  const Token& n = take();
  s->name = n.text;
  s->name_span = n.span;
  module_signature_and_body(*s);
  return s;
}

// From the '(' of the parameters to the '}' closing the body.
void Parser::module_signature_and_body(Stmt& def) {
  def.kind = StmtKind::ModuleDef;
  expect(Tok::LParen, "'('");
  if (!at(Tok::RParen)) {
    do {
      Param p = typed_param(true);
      if (accept(Tok::Assign)) p.default_value = expression();
      def.params.push_back(std::move(p));
    } while (accept(Tok::Comma));
  }
  expect(Tok::RParen, "')'");
  expect(Tok::Arrow, "'->' and the results");
  expect(Tok::LParen, "'(' before the results");
  do {
    def.outputs.push_back(typed_param(true));
  } while (accept(Tok::Comma));
  expect(Tok::RParen, "')'");
  expect(Tok::Define, "':='");
  expect(Tok::LBrace, "'{'");
  const bool outer = in_module_;
  in_module_ = true;
  def.body = statements(Tok::RBrace);
  in_module_ = outer;
  def.span = join(def.span, expect(Tok::RBrace, "'}'").span);
}

// nb-rs's earlier `init NAME = EXPR` (`init NAME: TYPE = EXPR`), computed once
// per scope activation: polydat's `const`, which must not read an input.
bool Parser::init_ahead() const {
  return peek().kind == Tok::Ident && peek().text == "init" && (peek(1).kind == Tok::Ident || peek(1).kind == Tok::KwInput);
}

StmtPtr Parser::init_binding(StmtPtr s) {
  take();
  s->kind = StmtKind::Binding;
  s->is_const = true;
  const Token& n = expect_name("the name the init binds");
  s->name = n.text;
  s->name_span = n.span;
  if (accept(Tok::Colon)) s->type = type_ref();
  if (!accept(Tok::Assign)) expect(Tok::Define, "'=' and the value (init NAME = value)");
  s->value = expression();
  s->span = join(s->span, s->value->span);
  return s;
}

// nb-rs's anonymous signature `(PARAMS) -> (RESULTS) := { BODY }`: a module
// named after the file, whose parameters become the file's inputs and whose
// results become its outputs (so the file is that module to its callers).
bool Parser::anonymous_module_ahead() const {
  if (!at(Tok::LParen)) return false;
  if (peek(1).kind == Tok::RParen) return peek(2).kind == Tok::Arrow;
  return (peek(1).kind == Tok::Ident || peek(1).kind == Tok::KwInput) && peek(2).kind == Tok::Colon;
}

void Parser::anonymous_module(std::vector<StmtPtr>& out, Tok closer) {
  const Token& open = peek();
  if (closer != Tok::End)
    fail(open.span, "an anonymous module `(params) -> (results) := { ... }` is a whole file's signature; "
                    "inside braces, name it");
  if (anonymous_seen_) fail(open.span, "a file has at most one anonymous module (it takes the file's name)");
  anonymous_seen_ = true;
  auto def = std::make_unique<Stmt>();
  def->span = def->name_span = open.span;
  def->doc = doc_before(open.span);
  def->name = file_module_name(open.span);
  module_signature_and_body(*def);
  auto inputs = std::make_unique<Stmt>();
  inputs->kind = StmtKind::Input;
  inputs->span = def->span;
  auto call = node(ExprKind::Call, def->span);
  call->name = def->name;
  call->name_span = open.span;
  for (const Param& p : def->params) {
    if (p.default_value)
      fail(p.span, "a parameter of an anonymous module is an input of the file and has no default; "
                   "name the module to give its parameters defaults");
    inputs->params.push_back(Param{p.name, p.span, p.type, nullptr});
    Arg a;
    a.value = node(ExprKind::Name, p.span);
    a.value->name = p.name;
    a.value->name_span = p.span;
    call->args.push_back(std::move(a));
  }
  set_depth(*call, 1);
  auto results = std::make_unique<Stmt>();
  results->span = def->span;
  if (def->outputs.size() == 1) {
    results->kind = StmtKind::Binding;
    results->name = def->outputs[0].name;
    results->name_span = def->outputs[0].span;
  } else {
    results->kind = StmtKind::Destructure;
    for (const Param& r : def->outputs) results->names.emplace_back(r.name, r.span);
  }
  results->value = std::move(call);
  out.push_back(std::move(def));
  if (!inputs->params.empty()) out.push_back(std::move(inputs));
  out.push_back(std::move(results));
}

// The name of the file's anonymous module: the file's, without folder and extension.
std::string Parser::file_module_name(Span at) {
  const std::string stem = std::filesystem::path(sources_.file(file_).path).stem().string();
  bool ok = !stem.empty() && !std::isdigit(static_cast<unsigned char>(stem[0]));
  for (char c : stem) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok)
    fail(at, "an anonymous module takes its file's name, and '" + stem +
                 "' is not a name (letters, digits and _): rename the file, or name the module");
  return stem;
}

// Inside a loop body: `name = value` assigns a loop variable, `name := value` binds a local.
std::vector<StmtPtr> Parser::loop_body() {
  std::vector<StmtPtr> out;
  while (true) {
    skip_newlines();
    if (at(Tok::RBrace) || at(Tok::End)) break;
    if (at(Tok::Ident) && peek(1).kind == Tok::Assign) {
      auto s = std::make_unique<Stmt>();
      const Token& n = take();
      s->kind = StmtKind::Assign;
      s->name = n.text;
      s->name_span = n.span;
      take();
      s->value = expression();
      s->span = join(n.span, s->value->span);
      out.push_back(std::move(s));
    } else if (at(Tok::LParen) || at(Tok::Ident) || at(Tok::KwVolatile)) {
      auto s = std::make_unique<Stmt>();
      s->span = peek().span;
      out.push_back(at(Tok::LParen) ? destructure(std::move(s)) : binding(std::move(s)));
    } else {
      fail(peek().span, "expected 'name = value' or 'name := value' in a loop body, found " + describe(peek()));
    }
    if (!at(Tok::Newline) && !at(Tok::Semicolon) && !at(Tok::RBrace))
      fail(peek().span, "expected the end of the statement, found " + describe(peek()));
  }
  return out;
}

}  // namespace parse_detail


FileAst parse_file(const SourceMap& sources, uint32_t file, Diagnostics& diags) {
  FileAst ast = parse_detail::Parser(sources, file, diags, lex(sources, file, diags)).file();
  add_cursor_ordinals(ast, diags);
  return ast;
}

ExprPtr parse_expression(const SourceMap& sources, uint32_t file, Diagnostics& diags, uint32_t start, uint32_t end) {
  return parse_detail::Parser(sources, file, diags, lex(sources, file, diags, start, end)).lone_expression();
}

}  // namespace polydat::frontend