#include "frontend/parser.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "frontend/cursors.h"

namespace polydat::frontend {

namespace {

// Binding power of each binary operator, lowest first; ** is right-associative.
int precedence(Tok t) {
  switch (t) {
    case Tok::EqEq: case Tok::NotEq: return 1;
    case Tok::Lt: case Tok::Gt: case Tok::Le: case Tok::Ge: return 2;
    case Tok::Pipe: return 3;
    case Tok::Caret: return 4;
    case Tok::Amp: return 5;
    case Tok::Shl: case Tok::Shr: return 6;
    case Tok::Plus: case Tok::Minus: return 7;
    case Tok::Star: case Tok::Slash: case Tok::Percent: return 8;
    case Tok::StarStar: return 9;
    default: return 0;
  }
}

// Thrown to abandon the current statement after a diagnostic; caught at the statement level.
struct Abandon {};

class Parser {
 public:
  // `nesting` carries the depth of an enclosing parser (an interpolation inside a string).
  Parser(const SourceMap& sources, uint32_t file, Diagnostics& diags, LexResult lexed, int nesting = 0)
      : sources_(sources), file_(file), diags_(diags), toks_(std::move(lexed.tokens)), docs_(std::move(lexed.docs)),
        nesting_(nesting) {}

  FileAst file() {
    FileAst ast;
    ast.file = file_;
    ast.stmts = statements(Tok::End);
    return ast;
  }

  ExprPtr lone_expression() {
    skip_newlines();
    ExprPtr e;
    try {
      e = expression();
      skip_newlines();
      if (peek().kind != Tok::End) fail(peek().span, "unexpected " + describe(peek()) + " after the expression");
    } catch (const Abandon&) {
      return nullptr;
    }
    return e;
  }

 private:
  // ---- tokens ----
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool at(Tok k) const { return peek().kind == k; }
  const Token& take() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool accept(Tok k) {
    if (!at(k)) return false;
    take();
    return true;
  }
  std::string describe(const Token& t) const {
    if (t.kind == Tok::Ident) return "name '" + t.text + "'";
    if (t.kind == Tok::Int || t.kind == Tok::Float) return "number " + t.text;
    return std::string(tok_name(t.kind));
  }
  [[noreturn]] void fail(Span s, std::string message, DiagKind k = DiagKind::Syntax) {
    diags_.error(k, s, std::move(message));
    throw Abandon{};
  }
  const Token& expect(Tok k, std::string_view what) {
    if (!at(k)) fail(peek().span, "expected " + std::string(what) + ", found " + describe(peek()));
    return take();
  }
  void skip_newlines() {
    while (at(Tok::Newline) || at(Tok::Semicolon)) take();
  }
  Span join(Span a, Span b) const { return Span{a.file, a.start, std::max(a.end, b.end)}; }

  // After an error: drop the rest of the statement (to a newline or ';' at this level, or the closing brace).
  void recover(Tok closer) {
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
  std::string doc_before(Span s) {
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

  // ---- statements ----
  std::vector<StmtPtr> statements(Tok closer) {
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

  StmtPtr statement() {
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
  bool cursor_ahead() const {
    return peek().text == "cursor" && peek(1).kind == Tok::Ident && peek(2).kind == Tok::Assign;
  }

  // The cursor's bindings: the first returned, the rest left for take_pending.
  StmtPtr cursor_decl(StmtPtr s) {
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

  void take_pending(std::vector<StmtPtr>& out) {
    for (StmtPtr& p : pending_) out.push_back(std::move(p));
    pending_.clear();
  }

  // `base.field` (a cursor's `.cursor` or `.ordinal`), at the '.'.
  [[gnu::noinline]] ExprPtr member(const Token& base) {
    take();
    const Token& field = expect(Tok::Ident, "a member name after '.'");
    ExprPtr e = cursor_member(base.text, base.span, field.text, field.span, diags_);
    if (!e) throw Abandon{};
    return e;
  }

  TypeRef type_ref() {
    const Token& t = expect(Tok::Ident, "a type");
    const std::string name = nbrs_type_alias(t.text);
    if (!scalar_type(name)) fail(t.span, "unknown type '" + t.text + "' (types: bool, u8..u64, i8..i64, f32, f64, str, Partition)");
    return TypeRef{name, t.span};
  }

  // nb-rs's name for a type polydat spells otherwise (its modules return `String`).
  static std::string nbrs_type_alias(const std::string& name) { return name == "String" ? "str" : name; }

  // `input` is a keyword only where a statement starts: elsewhere it names a
  // value, as in nb-rs, whose library modules call their first parameter `input`.
  bool at_name() const { return at(Tok::Ident) || at(Tok::KwInput); }
  const Token& expect_name(std::string_view what) {
    if (!at_name()) fail(peek().span, "expected " + std::string(what) + ", found " + describe(peek()));
    return take();
  }

  Param typed_param(bool type_required) {
    const Token& n = expect_name("a name");
    Param p{n.text, n.span, std::nullopt, nullptr};
    if (accept(Tok::Colon)) p.type = type_ref();
    else if (type_required) fail(peek().span, "expected ':' and a type after '" + n.text + "'");
    return p;
  }

  StmtPtr input(StmtPtr s) {
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

  StmtPtr extern_decl(StmtPtr s) {
    take();
    s->kind = StmtKind::Extern;
    Param p = typed_param(false);
    if (accept(Tok::Assign)) p.default_value = expression();
    if (!p.type && !p.default_value) fail(p.span, "an extern needs a type or a default value");
    s->span = join(s->span, p.default_value ? p.default_value->span : p.span);
    s->params.push_back(std::move(p));
    return s;
  }

  StmtPtr output_stmt(StmtPtr s) {
    take();
    s->kind = StmtKind::Output;
    do {
      const Token& n = expect_name("a binding name");
      s->names.emplace_back(n.text, n.span);
      s->span = join(s->span, n.span);
    } while (accept(Tok::Comma));
    return s;
  }

  StmtPtr destructure(StmtPtr s) {
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

  StmtPtr binding(StmtPtr s) {
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

  static std::string one_cell_message() {
    return "a shared cell is one name, it cannot be destructured: write `shared NAME := value` "
           "(or `shared(KIND) NAME := value`) for each cell";
  }

  // `shared(KIND)`, at the '(': how writes to the cell combine.
  void combine_kind(Stmt& s) {
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

  StmtPtr module_def(StmtPtr s) {
    const Token& n = take();
    s->name = n.text;
    s->name_span = n.span;
    module_signature_and_body(*s);
    return s;
  }

  // From the '(' of the parameters to the '}' closing the body.
  void module_signature_and_body(Stmt& def) {
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
  bool init_ahead() const {
    return peek().kind == Tok::Ident && peek().text == "init" && (peek(1).kind == Tok::Ident || peek(1).kind == Tok::KwInput);
  }
  StmtPtr init_binding(StmtPtr s) {
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
  bool anonymous_module_ahead() const {
    if (!at(Tok::LParen)) return false;
    if (peek(1).kind == Tok::RParen) return peek(2).kind == Tok::Arrow;
    return (peek(1).kind == Tok::Ident || peek(1).kind == Tok::KwInput) && peek(2).kind == Tok::Colon;
  }
  void anonymous_module(std::vector<StmtPtr>& out, Tok closer) {
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
  std::string file_module_name(Span at) {
    const std::string stem = std::filesystem::path(sources_.file(file_).path).stem().string();
    bool ok = !stem.empty() && !std::isdigit(static_cast<unsigned char>(stem[0]));
    for (char c : stem) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok)
      fail(at, "an anonymous module takes its file's name, and '" + stem +
                   "' is not a name (letters, digits and _): rename the file, or name the module");
    return stem;
  }

  // Inside a loop body: `name = value` assigns a loop variable, `name := value` binds a local.
  std::vector<StmtPtr> loop_body() {
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

  // ---- expressions ----
  ExprPtr node(ExprKind k, Span s) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->span = s;
    return e;
  }

  // Every composite node checks its depth, so later recursive walks stay bounded.
  void set_depth(Expr& e, int child_depth) {
    e.depth = child_depth + 1;
    if (e.depth - 1 > kMaxExprDepth)  // a leaf has depth 1: levels are the nodes above it
      fail(e.span, "the expression nests more than " + std::to_string(kMaxExprDepth) + " levels deep; split it into bindings",
           DiagKind::NestingTooDeep);
  }

  // A level is a node of the expression tree (checked by set_depth) or a pair of parentheses (which
  // makes no node). The parser's own recursion takes at most four frames a level, so this bound on
  // the frames is reached only past kMaxExprDepth levels, and keeps the stack bounded before then.
  static constexpr int kMaxFrames = 4 * kMaxExprDepth + 16;
  // Out of line, so its message's temporaries take no room in every recursive frame.
  [[noreturn, gnu::noinline, gnu::cold]] void too_deep() {
    fail(peek().span, "the expression nests more than " + std::to_string(kMaxExprDepth) + " levels deep",
         DiagKind::NestingTooDeep);
  }
  struct Nesting {
    explicit Nesting(Parser& p) : p_(p) {
      if (p_.nesting_ > kMaxFrames) p_.too_deep();
      ++p_.nesting_;
    }
    ~Nesting() { --p_.nesting_; }
    Parser& p_;
  };
  struct Parens {
    explicit Parens(Parser& p) : p_(p) {
      if (++p_.parens_ > kMaxExprDepth) p_.too_deep();
    }
    ~Parens() { --p_.parens_; }
    Parser& p_;
  };

  ExprPtr expression(int min_prec = 1) {
    Nesting guard(*this);
    ExprPtr lhs = postfix();
    while (true) {
      const Tok op = peek().kind;
      const int p = precedence(op);
      if (p == 0 || p < min_prec) return lhs;
      take();
      ExprPtr rhs = expression(op == Tok::StarStar ? p : p + 1);
      auto e = node(ExprKind::Binary, join(lhs->span, rhs->span));
      e->op = op;
      const int d = std::max(lhs->depth, rhs->depth);
      e->operands.push_back(std::move(lhs));
      e->operands.push_back(std::move(rhs));
      set_depth(*e, d);
      lhs = std::move(e);
    }
  }

  // prefix* primary ('as' TYPE)*: prefix binds tighter than `as`, so -1.5 as u64 is (-1.5) as u64.
  ExprPtr postfix() {
    ExprPtr e = prefix();
    while (at(Tok::KwAs)) {
      take();
      TypeRef t = type_ref();
      auto c = node(ExprKind::Cast, join(e->span, t.span));
      c->target = std::move(t);
      const int d = e->depth;
      c->operands.push_back(std::move(e));
      set_depth(*c, d);
      e = std::move(c);
    }
    return e;
  }

  ExprPtr prefix() {
    if (at(Tok::Minus) && (peek(1).kind == Tok::Int || peek(1).kind == Tok::Float)) {
      const Token& minus = take();
      ExprPtr lit = primary();  // a negative literal
      lit->span = join(minus.span, lit->span);
      lit->int_value = -lit->int_value;
      lit->float_value = -lit->float_value;
      return lit;
    }
    if (at(Tok::Minus) || at(Tok::Bang)) {
      const Token& op = take();
      Nesting guard(*this);
      ExprPtr operand = prefix();
      auto e = node(ExprKind::Unary, join(op.span, operand->span));
      e->op = op.kind;
      const int d = operand->depth;
      e->operands.push_back(std::move(operand));
      set_depth(*e, d);
      return e;
    }
    return primary();
  }

  ExprPtr primary() {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::Int: {
        take();
        auto e = node(ExprKind::Int, t.span);
        e->int_value = static_cast<__int128>(t.int_value);
        return e;
      }
      case Tok::Float: {
        take();
        auto e = node(ExprKind::Float, t.span);
        e->float_value = t.float_value;
        e->name = t.text;  // the digits, so f32 literals round once from the decimal
        return e;
      }
      case Tok::KwTrue: case Tok::KwFalse: {
        take();
        auto e = node(ExprKind::Bool, t.span);
        e->bool_value = t.kind == Tok::KwTrue;
        return e;
      }
      case Tok::String: return string_literal();
      case Tok::LParen: return parenthesised();
      case Tok::LBracket: return table();
      case Tok::KwIf: return if_expr();
      case Tok::KwLoop: return loop_expr();
      case Tok::Ident:
      case Tok::KwInput: {  // `input` too: a value so named (nb-rs's modules' first parameter)
        take();
        if (t.kind == Tok::Ident && at(Tok::LParen)) return call(t);
        if (at(Tok::Dot) && peek(1).kind == Tok::Ident) return member(t);
        auto e = node(ExprKind::Name, t.span);
        e->name = t.text;
        e->name_span = t.span;
        return e;
      }
      default:
        fail(t.span, "expected an expression, found " + describe(t));
    }
  }

  // The cases of primary() that recurse are functions of their own, kept out of
  // line: primary's frame stays small, and so does each level of nesting.
  [[gnu::noinline]] ExprPtr parenthesised() {
    take();
    Parens level(*this);
    skip_newlines();
    ExprPtr e = expression();
    if (at(Tok::Comma)) fail(peek().span, "a tuple can only be yielded by a loop; destructure calls with (a, b) := f(...)");
    expect(Tok::RParen, "')'");
    return e;
  }

  // `[e0, e1, ...][index]`: a table and the entry it selects.
  [[gnu::noinline]] ExprPtr table() {
    const Token& open = take();
    auto e = node(ExprKind::Table, open.span);
    int d = 0;
    skip_newlines();
    if (at(Tok::RBracket)) fail(peek().span, "a table needs at least one entry");
    do {
      skip_newlines();
      if (at(Tok::RBracket)) break;  // a trailing comma
      e->operands.push_back(expression());
      d = std::max(d, e->operands.back()->depth);
      skip_newlines();
    } while (accept(Tok::Comma));
    expect(Tok::RBracket, "']' after the table's entries");
    expect(Tok::LBracket, "'[' and the index of the entry: a table is written [a, b, c][i] (a list alone is no value, "
                          "as in nb-rs, whose functions take none)");
    e->operands.push_back(expression());
    d = std::max(d, e->operands.back()->depth);
    e->span = join(open.span, expect(Tok::RBracket, "']'").span);
    set_depth(*e, d);
    return e;
  }

  [[gnu::noinline]] ExprPtr string_literal() {
    const Token& t = take();
    auto e = node(ExprKind::Str, t.span);
    e->parts = t.parts;
    int d = 0;
    for (const StringPart& p : e->parts) {
      if (!p.is_expr) continue;
      const size_t before = diags_.error_count();
      // Each interpolation level re-lexes its text: charge it heavily so at most ~16 nest.
      constexpr int kInterpolationCost = kMaxExprDepth / 16;
      if (nesting_ + kInterpolationCost >= kMaxFrames)
        fail(p.span, "string interpolations nest too deeply", DiagKind::NestingTooDeep);
      ExprPtr inner = Parser(sources_, file_, diags_, lex(sources_, file_, diags_, p.span.start, p.span.end),
                             nesting_ + kInterpolationCost)
                          .lone_expression();
      if (!inner) {
        if (diags_.error_count() == before) fail(p.span, "expected an expression inside { }");
        throw Abandon{};
      }
      d = std::max(d, inner->depth);
      e->interpolated.push_back(std::move(inner));
    }
    set_depth(*e, d);
    return e;
  }

  [[gnu::noinline]] ExprPtr if_expr() {
    const Token& kw = take();
    expect(Tok::LParen, "'(' after if");
    auto e = node(ExprKind::If, kw.span);
    int d = 0;
    for (int i = 0; i < 3; ++i) {
      if (i > 0) expect(Tok::Comma, "',' (if takes a condition and two values)");
      e->operands.push_back(expression());
      d = std::max(d, e->operands.back()->depth);
    }
    e->span = join(kw.span, expect(Tok::RParen, "')' (if takes a condition and two values)").span);
    set_depth(*e, d);
    return e;
  }

  [[gnu::noinline]] ExprPtr call(const Token& callee) {
    take();  // (
    auto e = node(ExprKind::Call, callee.span);
    e->name = callee.text;
    e->name_span = callee.span;
    int d = 0;
    bool named_seen = false;
    if (!at(Tok::RParen)) {
      do {
        Arg a;
        // `input:` too: nb-rs names a function's first parameter `input`.
        if (at_name() && peek(1).kind == Tok::Colon) {
          const Token& n = take();
          take();
          a.name = n.text;
          a.name_span = n.span;
          named_seen = true;
        } else if (named_seen) {
          fail(peek().span, "positional arguments come before named ones");
        }
        a.value = expression();
        d = std::max(d, a.value->depth);
        e->args.push_back(std::move(a));
      } while (accept(Tok::Comma));
    }
    e->span = join(callee.span, expect(Tok::RParen, "')'").span);
    set_depth(*e, d);
    return e;
  }

  [[gnu::noinline]] ExprPtr loop_expr() {
    const Token& kw = take();
    auto e = node(ExprKind::Loop, kw.span);
    expect(Tok::LParen, "'(' and the loop variables");
    int d = 0;
    do {
      LoopVar v;
      const Token& n = expect(Tok::Ident, "a loop variable");
      v.name = n.text;
      v.span = n.span;
      if (accept(Tok::Colon)) v.type = type_ref();
      expect(Tok::Assign, "'=' and the initial value");
      v.init = expression();
      d = std::max(d, v.init->depth);
      e->vars.push_back(std::move(v));
    } while (accept(Tok::Comma));
    expect(Tok::RParen, "')'");
    expect(Tok::KwWhile, "'while' and the loop guard");
    e->guard = expression();
    d = std::max(d, e->guard->depth);
    expect(Tok::LBrace, "'{' and the loop body");
    e->body = loop_body();
    for (const StmtPtr& s : e->body)
      if (s->value) d = std::max(d, s->value->depth);
    expect(Tok::RBrace, "'}'");
    expect(Tok::KwYield, "'yield' and the loop's result");
    if (at(Tok::LParen) && tuple_ahead()) {
      const Token& open = take();
      auto t = node(ExprKind::Tuple, open.span);
      int td = 0;
      do {
        t->operands.push_back(expression());
        td = std::max(td, t->operands.back()->depth);
      } while (accept(Tok::Comma));
      t->span = join(open.span, expect(Tok::RParen, "')'").span);
      set_depth(*t, td);
      e->yield = std::move(t);
    } else {
      e->yield = expression();
    }
    d = std::max(d, e->yield->depth);
    e->span = join(kw.span, e->yield->span);
    set_depth(*e, d);
    return e;
  }

  // Whether the '(' ahead opens a tuple: a ',' at its top level before its ')'.
  bool tuple_ahead() const {
    int depth = 0;
    for (size_t i = pos_; i < toks_.size(); ++i) {
      const Tok k = toks_[i].kind;
      if (k == Tok::LParen || k == Tok::LBracket || k == Tok::LBrace) ++depth;
      if (k == Tok::RParen || k == Tok::RBracket || k == Tok::RBrace) {
        if (--depth == 0) return false;
      }
      if (k == Tok::Comma && depth == 1) return true;
      if (k == Tok::End) return false;
    }
    return false;
  }

  static constexpr size_t kMaxErrors = 50;

  const SourceMap& sources_;
  uint32_t file_;
  Diagnostics& diags_;
  std::vector<Token> toks_;
  std::vector<DocComment> docs_;
  size_t pos_ = 0;
  size_t next_doc_ = 0;
  int nesting_ = 0;
  int parens_ = 0;  // grouping parentheses open around the current position
  bool anonymous_seen_ = false;
  std::vector<StmtPtr> pending_;  // statements a cursor declaration made after the one returned
  bool in_module_ = false;        // parsing a module definition's body
};

}  // namespace

FileAst parse_file(const SourceMap& sources, uint32_t file, Diagnostics& diags) {
  FileAst ast = Parser(sources, file, diags, lex(sources, file, diags)).file();
  add_cursor_ordinals(ast, diags);
  return ast;
}

ExprPtr parse_expression(const SourceMap& sources, uint32_t file, Diagnostics& diags, uint32_t start, uint32_t end) {
  return Parser(sources, file, diags, lex(sources, file, diags, start, end)).lone_expression();
}

}  // namespace polydat::frontend
