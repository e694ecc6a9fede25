#include "frontend/lexer.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <map>

namespace polydat::frontend {

std::string_view tok_name(Tok t) {
  switch (t) {
    case Tok::End: return "end of input";
    case Tok::Newline: return "newline";
    case Tok::Semicolon: return "';'";
    case Tok::Ident: return "name";
    case Tok::Int: return "integer";
    case Tok::Float: return "float";
    case Tok::String: return "string";
    case Tok::KwInput: return "'input'";
    case Tok::KwExtern: return "'extern'";
    case Tok::KwConst: return "'const'";
    case Tok::KwShared: return "'shared'";
    case Tok::KwVolatile: return "'volatile'";
    case Tok::KwOutput: return "'output'";
    case Tok::KwPragma: return "'pragma'";
    case Tok::KwLoop: return "'loop'";
    case Tok::KwWhile: return "'while'";
    case Tok::KwYield: return "'yield'";
    case Tok::KwIf: return "'if'";
    case Tok::KwAs: return "'as'";
    case Tok::KwTrue: return "'true'";
    case Tok::KwFalse: return "'false'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::Define: return "':='";
    case Tok::Assign: return "'='";
    case Tok::Arrow: return "'->'";
    case Tok::Dot: return "'.'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Percent: return "'%'";
    case Tok::StarStar: return "'**'";
    case Tok::Shl: return "'<<'";
    case Tok::Shr: return "'>>'";
    case Tok::Amp: return "'&'";
    case Tok::Pipe: return "'|'";
    case Tok::Caret: return "'^'";
    case Tok::Bang: return "'!'";
    case Tok::EqEq: return "'=='";
    case Tok::NotEq: return "'!='";
    case Tok::Lt: return "'<'";
    case Tok::Gt: return "'>'";
    case Tok::Le: return "'<='";
    case Tok::Ge: return "'>='";
  }
  return "?";
}

namespace {

const std::map<std::string_view, Tok>& keywords() {
  static const std::map<std::string_view, Tok> k = {
      {"input", Tok::KwInput}, {"extern", Tok::KwExtern}, {"const", Tok::KwConst},
      {"shared", Tok::KwShared}, {"volatile", Tok::KwVolatile}, {"output", Tok::KwOutput},
      {"pragma", Tok::KwPragma}, {"loop", Tok::KwLoop}, {"while", Tok::KwWhile},
      {"yield", Tok::KwYield}, {"if", Tok::KwIf}, {"as", Tok::KwAs},
      {"true", Tok::KwTrue}, {"false", Tok::KwFalse},
  };
  return k;
}

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

class Lexer {
 public:
  Lexer(const SourceMap& sources, uint32_t file, Diagnostics& diags, uint32_t start, uint32_t end)
      : file_(file), text_(sources.file(file).text), diags_(diags), pos_(start),
        end_(std::min<size_t>(end, text_.size())) {}

  LexResult run() {
    while (true) {
      skip_space_and_comments();
      if (pos_ >= end_) break;
      lex_one();
    }
    push(Tok::End, static_cast<uint32_t>(end_), static_cast<uint32_t>(end_));
    return std::move(out_);
  }

 private:
  Span span(size_t a, size_t b) const { return Span{file_, static_cast<uint32_t>(a), static_cast<uint32_t>(b)}; }
  char at(size_t i) const { return i < end_ ? text_[i] : '\0'; }

  Token& push(Tok k, size_t a, size_t b) {
    Token t;
    t.kind = k;
    t.span = span(a, b);
    t.text = text_.substr(a, b - a);
    out_.tokens.push_back(std::move(t));
    return out_.tokens.back();
  }

  // Newlines end statements unless the innermost open bracket is ( or [.
  bool newline_counts() const { return brackets_.empty() || brackets_.back() == '{'; }

  void skip_space_and_comments() {
    while (pos_ < end_) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '\n') {
        if (newline_counts() && !out_.tokens.empty() && out_.tokens.back().kind != Tok::Newline)
          push(Tok::Newline, pos_, pos_ + 1);
        ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '/') {
        const size_t start = pos_;
        while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
        if (at(start + 2) == '/' && at(start + 3) != '/')
          out_.docs.push_back(DocComment{span(start, pos_), text_.substr(start + 3, pos_ - start - 3)});
      } else if (c == '#') {  // a line comment, as nb-rs's GK writes them
        while (pos_ < end_ && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '*') {
        const size_t start = pos_;
        pos_ += 2;
        while (pos_ < end_ && !(text_[pos_] == '*' && at(pos_ + 1) == '/')) ++pos_;
        if (pos_ >= end_) {
          diags_.error(DiagKind::UnterminatedComment, span(start, start + 2), "this comment is never closed with */");
          return;
        }
        pos_ += 2;
      } else {
        return;
      }
    }
  }

  void lex_one() {
    const size_t start = pos_;
    const char c = text_[pos_];
    if (is_ident_start(c)) {
      while (pos_ < end_ && is_ident_char(text_[pos_])) ++pos_;
      const std::string_view word(text_.data() + start, pos_ - start);
      auto kw = keywords().find(word);
      push(kw == keywords().end() ? Tok::Ident : kw->second, start, pos_);
      return;
    }
    if (is_digit(c)) return lex_number();
    if (c == '"' || c == '\'') return lex_string(c);
    lex_punct();
  }

  void lex_punct() {
    const size_t start = pos_;
    const char c = text_[pos_];
    const char n = at(pos_ + 1);
    auto two = [&](Tok k) { pos_ += 2; push(k, start, pos_); };
    auto one = [&](Tok k) { pos_ += 1; push(k, start, pos_); };
    switch (c) {
      case '(': brackets_.push_back('('); return one(Tok::LParen);
      case '[': brackets_.push_back('['); return one(Tok::LBracket);
      case '{': brackets_.push_back('{'); return one(Tok::LBrace);
      case ')': case ']': case '}':
        if (!brackets_.empty()) brackets_.pop_back();
        return one(c == ')' ? Tok::RParen : c == ']' ? Tok::RBracket : Tok::RBrace);
      case ',': return one(Tok::Comma);
      case ';': return one(Tok::Semicolon);
      case '.': return one(Tok::Dot);
      case ':': return n == '=' ? two(Tok::Define) : one(Tok::Colon);
      case '=': return n == '=' ? two(Tok::EqEq) : one(Tok::Assign);
      case '-': return n == '>' ? two(Tok::Arrow) : one(Tok::Minus);
      case '+': return one(Tok::Plus);
      case '*': return n == '*' ? two(Tok::StarStar) : one(Tok::Star);
      case '/': return one(Tok::Slash);
      case '%': return one(Tok::Percent);
      case '<': return n == '<' ? two(Tok::Shl) : n == '=' ? two(Tok::Le) : one(Tok::Lt);
      case '>': return n == '>' ? two(Tok::Shr) : n == '=' ? two(Tok::Ge) : one(Tok::Gt);
      case '&': return one(Tok::Amp);
      case '|': return one(Tok::Pipe);
      case '^': return one(Tok::Caret);
      case '!': return n == '=' ? two(Tok::NotEq) : one(Tok::Bang);
      default: break;
    }
    // One diagnostic for a run of unexpected bytes (a UTF-8 character is several).
    size_t stop = pos_ + 1;
    while (stop < end_ && (static_cast<unsigned char>(text_[stop]) & 0xC0) == 0x80) ++stop;
    diags_.error(DiagKind::UnexpectedCharacter, span(start, stop),
                 "unexpected character '" + text_.substr(start, stop - start) + "'");
    pos_ = stop;
  }

  // Integers: decimal, 0x, 0b, 0o, with _ separators; floats: digits.digits[e±d] or digits e±d.
  void lex_number() {
    const size_t start = pos_;
    int base = 10;
    if (text_[pos_] == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X')) base = 16;
    if (text_[pos_] == '0' && (at(pos_ + 1) == 'b' || at(pos_ + 1) == 'B')) base = 2;
    if (text_[pos_] == '0' && (at(pos_ + 1) == 'o' || at(pos_ + 1) == 'O')) base = 8;
    if (base != 10) pos_ += 2;
    const size_t digits_start = pos_;
    while (pos_ < end_ && (is_ident_char(text_[pos_]))) {
      const char d = text_[pos_];
      if (base == 10 && (d == 'e' || d == 'E')) break;
      ++pos_;
    }
    bool is_float = false;
    if (base == 10 && at(pos_) == '.' && is_digit(at(pos_ + 1))) {
      is_float = true;
      ++pos_;
      while (pos_ < end_ && (is_digit(text_[pos_]) || text_[pos_] == '_')) ++pos_;
    }
    if (base == 10 && (at(pos_) == 'e' || at(pos_) == 'E')) {
      size_t e = pos_ + 1;
      if (at(e) == '+' || at(e) == '-') ++e;
      if (is_digit(at(e))) {
        is_float = true;
        pos_ = e;
        while (pos_ < end_ && is_digit(text_[pos_])) ++pos_;
      }
    }
    while (pos_ < end_ && is_ident_char(text_[pos_])) ++pos_;  // swallow a bad suffix into one error
    const std::string lexeme = text_.substr(start, pos_ - start);
    std::string clean;
    for (size_t i = digits_start - start; i < lexeme.size(); ++i)
      if (lexeme[i] != '_') clean += lexeme[i];
    if (is_float) {
      for (char ch : clean)
        if (!(is_digit(ch) || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' || ch == '-'))
          return bad_number(start, "'" + lexeme + "' is not a number");
      errno = 0;
      const double v = std::strtod(clean.c_str(), nullptr);
      Token& t = push(Tok::Float, start, pos_);
      t.float_value = v;
      return;
    }
    if (clean.empty()) return bad_number(start, "'" + lexeme + "' has no digits");
    unsigned __int128 v = 0;
    for (char ch : clean) {
      const int d = digit_value(ch);
      if (d >= base) return bad_number(start, "'" + lexeme + "' is not a base-" + std::to_string(base) + " number");
      v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
      if (v > static_cast<unsigned __int128>(UINT64_MAX)) {
        diags_.error(DiagKind::IntegerTooLarge, span(start, pos_), "'" + lexeme + "' does not fit in 64 bits");
        push(Tok::Int, start, pos_);
        return;
      }
    }
    Token& t = push(Tok::Int, start, pos_);
    t.int_value = v;
  }

  void bad_number(size_t start, std::string message) {
    diags_.error(DiagKind::InvalidNumber, span(start, pos_), std::move(message));
    push(Tok::Int, start, pos_);
  }

  // A string literal between `quote`s (" or ', both nb-rs's); `{expr}` parts
  // are recorded as ranges for the parser to lex.
  void lex_string(char quote) {
    const size_t start = pos_++;
    Token t;
    t.kind = Tok::String;
    std::string literal;
    size_t literal_start = pos_;
    auto flush = [&](size_t upto) {
      if (!literal.empty()) t.parts.push_back(StringPart{false, std::move(literal), span(literal_start, upto)});
      literal.clear();
    };
    while (true) {
      if (pos_ >= end_ || text_[pos_] == '\n') {
        diags_.error(DiagKind::UnterminatedString, span(start, start + 1),
                     std::string("this string is never closed with ") + quote);
        break;
      }
      const char c = text_[pos_];
      if (c == quote) {
        flush(pos_);
        ++pos_;
        break;
      }
      if (c == '\\') {
        const char e = at(pos_ + 1);
        // As nb-rs: the string's own quote is escaped, the other one keeps its backslash.
        const char* rep = e == 'n' ? "\n" : e == 't' ? "\t" : e == '\\' ? "\\" : nullptr;
        if (rep != nullptr) {
          literal += rep;
        } else if (e == quote) {
          literal += quote;
        } else if (e > ' ' && e < 0x7f) {  // as nb-rs: kept as written, so "\\d{3}" is a regex's \d{3}
          literal += '\\';
          literal += e;
        } else {
          diags_.error(DiagKind::InvalidEscape, span(pos_, pos_ + 2),
                       std::string("a backslash must be followed by a visible character (\\n \\t \\\\ \\") + quote +
                           " are escapes)");
        }
        pos_ += 2;
        continue;
      }
      if ((c == '{' && at(pos_ + 1) == '{') || (c == '}' && at(pos_ + 1) == '}')) {
        literal += c;
        pos_ += 2;
        continue;
      }
      if (const size_t len = placeholder_length(pos_, quote)) {  // printf's {} and {:spec} stay text
        literal += text_.substr(pos_, len);
        pos_ += len;
        continue;
      }
      if (c == '{') {
        flush(pos_);
        const size_t close = matching_brace(pos_);
        if (close == std::string::npos) {
          diags_.error(DiagKind::UnterminatedString, span(pos_, pos_ + 1), "this interpolation is never closed with }");
          pos_ = end_;
          break;
        }
        t.parts.push_back(StringPart{true, {}, span(pos_ + 1, close)});
        pos_ = close + 1;
        literal_start = pos_;
        continue;
      }
      if (c == '}') {
        diags_.error(DiagKind::Syntax, span(pos_, pos_ + 1), "a lone } in a string (write }} for a brace)");
        ++pos_;
        continue;
      }
      literal += c;
      ++pos_;
    }
    t.span = span(start, pos_);
    t.text = text_.substr(start, pos_ - start);
    out_.tokens.push_back(std::move(t));
  }

  // A printf placeholder at `at` ("{}" or "{:spec}", no expression starts
  // with ':') or a regex count ("{3}", "{2,}", "{2,5}": interpolating a
  // number would be pointless): its length, or 0 when the brace opens an
  // interpolation.
  size_t placeholder_length(size_t at, char quote) const {
    if (text_[at] != '{') return 0;
    if (std::isdigit(static_cast<unsigned char>(this->at(at + 1)))) {
      size_t i = at + 1, commas = 0;
      for (; i < end_ && (std::isdigit(static_cast<unsigned char>(text_[i])) || text_[i] == ','); ++i) commas += text_[i] == ',';
      return i < end_ && text_[i] == '}' && commas <= 1 ? i + 1 - at : 0;
    }
    if (this->at(at + 1) != '}' && this->at(at + 1) != ':') return 0;
    for (size_t i = at + 1; i < end_ && text_[i] != '\n' && text_[i] != quote; ++i)
      if (text_[i] == '}') return i + 1 - at;
    return 0;
  }

  // The } closing the { at `open`, skipping nested braces and strings (whose
  // own interpolations may hold strings again); npos if none on this line.
  size_t matching_brace(size_t open) const {
    struct Mode {
      char quote;  // the string's quote, or 0 in code
      int depth;   // code: braces open
    };
    std::vector<Mode> stack{{0, 0}};  // on the heap: nesting is bounded by the line, not the C++ stack
    for (size_t i = open; i < end_ && text_[i] != '\n'; ++i) {
      const char c = text_[i];
      Mode& m = stack.back();
      if (m.quote != 0) {
        const bool doubled = i + 1 < end_ && text_[i + 1] == c;
        if (c == '\\') ++i;
        else if (c == m.quote) stack.pop_back();
        else if ((c == '{' || c == '}') && doubled) ++i;  // {{ and }} are literal braces
        else if (const size_t len = placeholder_length(i, m.quote)) i += len - 1;
        else if (c == '{') stack.push_back({0, 1});
        continue;
      }
      if (c == '"' || c == '\'') {
        stack.push_back({c, 0});
        continue;
      }
      if (c == '{') ++m.depth;
      if (c == '}' && --m.depth == 0) {
        if (stack.size() == 1) return i;
        stack.pop_back();  // back in the string around this interpolation
      }
    }
    return std::string::npos;
  }

  uint32_t file_;
  const std::string& text_;
  Diagnostics& diags_;
  size_t pos_;
  size_t end_;
  std::vector<char> brackets_;
  LexResult out_;
};

}  // namespace

LexResult lex(const SourceMap& sources, uint32_t file, Diagnostics& diags, uint32_t start, uint32_t end) {
  return Lexer(sources, file, diags, start, end).run();
}

}  // namespace polydat::frontend
