// `a || b` and `a && b`: the language has neither; the message says what `|` and `&` are, how they bind
// against the comparisons beside them, and the rewrite with the parentheses that keeps the meaning.
#include <string>
#include <string_view>

#include "frontend/parser_internal.h"

namespace polydat::frontend::parse_detail {

namespace {

// Past a string literal that starts at text[i] (a '"'): the index of its closing quote, or the end.
size_t skip_string(std::string_view text, size_t i) {
  for (++i; i < text.size() && text[i] != '"'; ++i)
    if (text[i] == '\\') ++i;
  return i;
}

// Where the expression containing offset `from` ends: a newline, a comment, or a ',' or closing bracket
// of what encloses it.
size_t expression_end(std::string_view text, size_t from) {
  int depth = 0;
  for (size_t i = from; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') i = skip_string(text, i);
    else if (c == '\n' || text.substr(i, 2) == "//") return i;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}' || c == ',') {
      if (depth == 0) return i;
      if (c != ',') --depth;
    }
  }
  return text.size();
}

// The first operator at the top level of `part` binding looser than `op` ('|' or '&'): the reason the
// part needs parentheses as an operand of `op` ("" when none does).
std::string looser_operator(std::string_view part, char op) {
  int depth = 0;
  std::string bitwise;  // a looser bit operator, reported only if there is no comparison
  for (size_t i = 0; i < part.size(); ++i) {
    const char c = part[i];
    if (c == '"') i = skip_string(part, i);
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    if (depth != 0 || c == '"') continue;
    const std::string_view two = part.substr(i, 2);
    if (two == "==" || two == "!=" || two == "<=" || two == ">=") return std::string(two);
    if (two == "<<" || two == ">>") {
      ++i;
      continue;
    }
    if (c == '<' || c == '>') return std::string(1, c);
    if (op == '&' && (c == '|' || c == '^') && bitwise.empty()) bitwise = std::string(1, c);
  }
  return bitwise;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string doubled_operator_message(std::string_view text, size_t expr_start, size_t op_start, char op) {
  const std::string_view left = trimmed(text.substr(expr_start, op_start - expr_start));
  const size_t right_start = op_start + 2;
  const std::string_view right = trimmed(text.substr(right_start, expression_end(text, right_start) - right_start));
  const std::string l_loose = looser_operator(left, op), r_loose = looser_operator(right, op);
  const std::string loose = l_loose.empty() ? r_loose : l_loose;
  const std::string o(1, op);
  std::string msg = "'" + o + o + "' is not an operator; '" + o + "' is the " + (op == '|' ? "or" : "and") +
                    " (bitwise on integers, logical on bool)";
  if (!loose.empty()) msg += " and binds tighter than '" + loose + "'";
  auto operand = [](std::string_view part, const std::string& why) {
    return why.empty() ? std::string(part) : "(" + std::string(part) + ")";
  };
  if (left.empty() || right.empty()) return msg + ": write '" + o + "'";
  return msg + ": write " + operand(left, l_loose) + " " + o + " " + operand(right, r_loose);
}

}  // namespace polydat::frontend::parse_detail
