// The parser's expressions: operators by precedence, primaries, and the bounds on their nesting.
#include <algorithm>
#include <string>

#include "frontend/cursors.h"
#include "frontend/parser_internal.h"

namespace polydat::frontend::parse_detail {

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

// A level is a node of the expression tree (checked by set_depth) or a pair of parentheses (which
// makes no node). The parser's own recursion takes at most four frames a level, so this bound on
// the frames is reached only past kMaxExprDepth levels, and keeps the stack bounded before then.
constexpr int kMaxFrames = 4 * kMaxExprDepth + 16;

}  // namespace

ExprPtr Parser::lone_expression() {
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

// Every composite node checks its depth, so later recursive walks stay bounded.
void Parser::set_depth(Expr& e, int child_depth) {
  e.depth = child_depth + 1;
  if (e.depth - 1 > kMaxExprDepth)  // a leaf has depth 1: levels are the nodes above it
    fail(e.span, "the expression nests more than " + std::to_string(kMaxExprDepth) + " levels deep; split it into bindings",
         DiagKind::NestingTooDeep);
}

// Out of line, so its message's temporaries take no room in every recursive frame.
[[noreturn, gnu::noinline, gnu::cold]] void Parser::too_deep() {
  fail(peek().span, "the expression nests more than " + std::to_string(kMaxExprDepth) + " levels deep",
       DiagKind::NestingTooDeep);
}

// Held by each recursive frame, so nesting past kMaxFrames is refused before the stack runs out.
struct Parser::Nesting {
  explicit Nesting(Parser& p) : p_(p) {
    if (p_.nesting_ > kMaxFrames) p_.too_deep();
    ++p_.nesting_;
  }
  ~Nesting() { --p_.nesting_; }
  Parser& p_;
};

// Held inside grouping parentheses, a level that makes no node for set_depth to count.
struct Parser::Parens {
  explicit Parens(Parser& p) : p_(p) {
    if (++p_.parens_ > kMaxExprDepth) p_.too_deep();
  }
  ~Parens() { --p_.parens_; }
  Parser& p_;
};

// Out of line and cold: `||` or `&&` is a mistake worth a long message, built only when made.
void Parser::doubled_operator(const Token& first) {
  const std::string& text = sources_.file(file_).text;
  fail(Span{file_, first.span.start, first.span.start + 2},
       doubled_operator_message(text, expr_start_, first.span.start, first.kind == Tok::Pipe ? '|' : '&'));
}

namespace {
// Restores the start of the enclosing whole expression when a nested one (in parentheses, an argument) ends.
struct ExprStart {
  ExprStart(uint32_t& slot, uint32_t now, bool whole) : slot_(slot), saved_(slot) {
    if (whole) slot_ = now;
  }
  ~ExprStart() { slot_ = saved_; }
  uint32_t& slot_;
  uint32_t saved_;
};
}  // namespace

ExprPtr Parser::expression(int min_prec) {
  Nesting guard(*this);
  const ExprStart start(expr_start_, peek().span.start, min_prec == 1);
  ExprPtr lhs = postfix();
  while (true) {
    const Tok op = peek().kind;
    const int p = precedence(op);
    if (p == 0 || p < min_prec) return lhs;
    const Token& op_token = take();
    if ((op == Tok::Pipe || op == Tok::Amp) && peek().kind == op && peek().span.start == op_token.span.end)
      doubled_operator(op_token);
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
ExprPtr Parser::postfix() {
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

ExprPtr Parser::prefix() {
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

ExprPtr Parser::primary() {
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
[[gnu::noinline]] ExprPtr Parser::parenthesised() {
  take();
  Parens level(*this);
  skip_newlines();
  ExprPtr e = expression();
  if (at(Tok::Comma)) fail(peek().span, "a tuple can only be yielded by a loop; destructure calls with (a, b) := f(...)");
  expect(Tok::RParen, "')'");
  return e;
}

// `[e0, e1, ...][index]`: a table and the entry it selects.
[[gnu::noinline]] ExprPtr Parser::table() {
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

[[gnu::noinline]] ExprPtr Parser::string_literal() {
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

[[gnu::noinline]] ExprPtr Parser::if_expr() {
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

[[gnu::noinline]] ExprPtr Parser::call(const Token& callee) {
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

// `base.field` (a cursor's `.cursor` or `.ordinal`), at the '.'.
[[gnu::noinline]] ExprPtr Parser::member(const Token& base) {
  take();
  const Token& field = expect(Tok::Ident, "a member name after '.'");
  ExprPtr e = cursor_member(base.text, base.span, field.text, field.span, diags_);
  if (!e) throw Abandon{};
  return e;
}

[[gnu::noinline]] ExprPtr Parser::loop_expr() {
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
bool Parser::tuple_ahead() const {
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

}  // namespace polydat::frontend::parse_detail
