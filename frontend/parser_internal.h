// Internal to frontend/ (not its API): the parser class behind parse_file and parse_expression,
// its statements defined in parser.cc and its expressions in parser_exprs.cc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/ast.h"
#include "frontend/diagnostics.h"
#include "frontend/lexer.h"

namespace polydat::frontend::parse_detail {

// parser_hints.cc: the message for `||` or `&&` (op '|' or '&') at text[op_start], in the expression
// starting at text[expr_start]: what the single operator is, how it binds, and the rewrite.
std::string doubled_operator_message(std::string_view text, size_t expr_start, size_t op_start, char op);

// Thrown to abandon the current statement after a diagnostic; caught at the statement level.
struct Abandon {};

class Parser {
 public:
  // `nesting` carries the depth of an enclosing parser (an interpolation inside a string).
  Parser(const SourceMap& sources, uint32_t file, Diagnostics& diags, LexResult lexed, int nesting = 0)
      : sources_(sources), file_(file), diags_(diags), toks_(std::move(lexed.tokens)), docs_(std::move(lexed.docs)),
        nesting_(nesting) {}

  FileAst file();
  ExprPtr lone_expression();

 private:
  // Tokens, shared by statements and expressions.
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

  // `input` is a keyword only where a statement starts: elsewhere it names a
  // value, as in nb-rs, whose library modules call their first parameter `input`.
  bool at_name() const { return at(Tok::Ident) || at(Tok::KwInput); }

  ExprPtr node(ExprKind k, Span s) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->span = s;
    return e;
  }

  // parser.cc: statements, declarations and types.
  void recover(Tok closer);
  std::string doc_before(Span s);
  std::vector<StmtPtr> statements(Tok closer);
  StmtPtr statement();
  bool cursor_ahead() const;
  StmtPtr cursor_decl(StmtPtr s);
  void take_pending(std::vector<StmtPtr>& out);
  TypeRef type_ref();
  const Token& expect_name(std::string_view what);
  Param typed_param(bool type_required);
  StmtPtr input(StmtPtr s);
  StmtPtr extern_decl(StmtPtr s);
  StmtPtr output_stmt(StmtPtr s);
  StmtPtr destructure(StmtPtr s);
  StmtPtr binding(StmtPtr s);
  void combine_kind(Stmt& s);
  StmtPtr module_def(StmtPtr s);
  void module_signature_and_body(Stmt& def);
  bool init_ahead() const;
  StmtPtr init_binding(StmtPtr s);
  bool anonymous_module_ahead() const;
  void anonymous_module(std::vector<StmtPtr>& out, Tok closer);
  std::string file_module_name(Span at);
  std::vector<StmtPtr> loop_body();

  // parser_exprs.cc: expressions, their depth bound, and the recursion guards.
  struct Nesting;
  struct Parens;
  void set_depth(Expr& e, int child_depth);
  [[noreturn, gnu::noinline, gnu::cold]] void too_deep();
  [[noreturn, gnu::noinline, gnu::cold]] void doubled_operator(const Token& first);
  ExprPtr expression(int min_prec = 1);
  ExprPtr postfix();
  ExprPtr prefix();
  ExprPtr primary();
  [[gnu::noinline]] ExprPtr parenthesised();
  [[gnu::noinline]] ExprPtr table();
  [[gnu::noinline]] ExprPtr string_literal();
  [[gnu::noinline]] ExprPtr if_expr();
  [[gnu::noinline]] ExprPtr call(const Token& callee);
  [[gnu::noinline]] ExprPtr member(const Token& base);
  [[gnu::noinline]] ExprPtr loop_expr();
  bool tuple_ahead() const;

  const SourceMap& sources_;
  uint32_t file_;
  Diagnostics& diags_;
  std::vector<Token> toks_;
  std::vector<DocComment> docs_;
  size_t pos_ = 0;
  size_t next_doc_ = 0;
  int nesting_ = 0;
  int parens_ = 0;  // grouping parentheses open around the current position
  uint32_t expr_start_ = 0;  // where the innermost whole expression (not an operand of one) starts
  bool anonymous_seen_ = false;
  std::vector<StmtPtr> pending_;  // statements a cursor declaration made after the one returned
  bool in_module_ = false;        // parsing a module definition's body
};

}  // namespace polydat::frontend::parse_detail
