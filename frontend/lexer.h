// The lexer: source text to tokens. Newlines are tokens where they end a
// statement: at the top level and directly inside `{ }`, not inside `( )` or `[ ]`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/source.h"

namespace polydat::frontend {

enum class Tok : uint8_t {
  End, Newline, Semicolon,
  Ident, Int, Float, String,
  // keywords
  KwInput, KwExtern, KwConst, KwShared, KwVolatile, KwOutput, KwPragma,
  KwLoop, KwWhile, KwYield, KwIf, KwAs, KwTrue, KwFalse,
  // punctuation
  LParen, RParen, LBracket, RBracket, LBrace, RBrace, Comma, Colon, Define /* := */, Assign /* = */,
  Arrow /* -> */, Dot,
  // operators
  Plus, Minus, Star, Slash, Percent, StarStar, Shl, Shr, Amp, Pipe, Caret, Bang,
  EqEq, NotEq, Lt, Gt, Le, Ge,
};

std::string_view tok_name(Tok t);

// One piece of a string literal: literal text, or an interpolated expression's byte range.
struct StringPart {
  bool is_expr = false;
  std::string text;  // the literal text with escapes applied
  Span span;         // the expression's source range (for is_expr), or the literal's
};

struct Token {
  Tok kind = Tok::End;
  Span span;
  std::string text;               // identifier name or the lexeme
  unsigned __int128 int_value = 0;  // Int: the value (fits in 64 bits)
  double float_value = 0;           // Float
  std::vector<StringPart> parts;  // String
};

struct DocComment {
  Span span;
  std::string text;
};

struct LexResult {
  std::vector<Token> tokens;  // always ends with End
  std::vector<DocComment> docs;
};

// Lexes bytes [start, end) of a file (the whole file by default, or an
// interpolated expression inside a string).
LexResult lex(const SourceMap& sources, uint32_t file, Diagnostics& diags, uint32_t start = 0,
              uint32_t end = UINT32_MAX);

}  // namespace polydat::frontend
