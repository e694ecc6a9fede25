// Internals the comprehension files share (not part of the public API):
// quote- and bracket-aware scanning, literal typing, GK text preparation,
// `{name}` interpolation, and the clause-expression evaluator.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "workload/comprehension.h"

namespace polydat::workload::comprehension::detail {

// A refusal before it is given a place.
struct Failure {
  std::string kind;
  std::string message;
  std::optional<size_t> offset = std::nullopt;  // into the text the failing step was given, when known
};
template <class T>
using Result = ir::Expected<T, Failure>;
inline Failure bad(std::string message) { return {"bad-spec", std::move(message), std::nullopt}; }
inline Failure eval_failure(std::string message) { return {"spec-eval", std::move(message), std::nullopt}; }
inline Failure too_large(std::string message) { return {"spec-too-large", std::move(message), std::nullopt}; }
SpecError located(const Failure& f, Place at);
Place shifted(Place at, size_t by);

// ---------------------------------------------------------------------------
// Scanning

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_identifier(std::string_view s);

struct Piece {
  std::string_view text;  // trimmed
  size_t offset;          // of text's first byte in the scanned text
};
Piece trimmed(std::string_view s, size_t offset = 0);

// Calls f(i, depth) for each byte outside quoted strings ('...' and "...",
// backslash escapes); depth counts (, [ and { around the byte (an opener and
// its closer are at the depth outside them). f returns false to stop. Returns
// the offset of a quote that never closes, or npos.
template <class F>
size_t scan(std::string_view text, F&& f) {
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != c) j += text[j] == '\\' ? 2 : 1;
      if (j >= text.size()) return i;
      i = j;
      continue;
    }
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (!f(i, depth)) return std::string_view::npos;
    if (c == '(' || c == '[' || c == '{') ++depth;
  }
  return std::string_view::npos;
}

// The pieces between top-level commas (each trimmed, empty ones kept).
std::vector<Piece> split_commas(std::string_view text);
// The pieces between every comma (nb-rs's plain split of a str value's text).
std::vector<Piece> split_commas_plain(std::string_view text);
// Whether text[0] opens a bracket that closes at its last byte.
bool wrapped(std::string_view text, char open, char close);
// `name(args)` spanning the whole text: the name and the argument text.
std::optional<std::pair<std::string_view, Piece>> call_of(std::string_view text);
// Where the whole word `word` starts at depth 0 outside quotes, with
// whitespace before it and whitespace (or the end) after it; npos when it does not.
size_t find_keyword(std::string_view text, std::string_view word);

// ---------------------------------------------------------------------------
// Literals

// `1K`, `1.5Ki`, `5m`: nb-rs's SI suffixes (K M G T P, Ki Mi Gi Ti Pi, m u n)
// on a decimal literal. A whole-number result is u64, else f64.
Result<std::optional<ir::Value>> si_literal(std::string_view s);
// nb-rs's typing of a list item: an unsigned integer -> u64, a float -> f64
// (Rust's float syntax, `inf` and `nan` included), true/false -> bool, else
// str; an SI-suffixed number as si_literal. `quotes`: a quoted item is a str
// without its quotes.
Result<ir::Value> typed_item(std::string_view item, bool quotes);
// Rust's u64 syntax (digits, an optional leading '+'), nullopt when it does not fit.
std::optional<uint64_t> parse_u64(std::string_view s);
// A comma list of literals (no operators, parentheses or stray quotes), typed;
// nullopt when the text is not one.
Result<std::optional<std::vector<ir::Value>>> literal_list(std::string_view text);
// GK text for eval_const_expr: SI-suffixed literals written out, single-quoted
// strings (nb-rs's) as GK strings.
Result<std::string> gk_source(std::string_view text);

// ---------------------------------------------------------------------------
// Names

// `{name}` placeholders replaced by the text of the lookup's values (nb-rs's
// rendering), innermost first, so `{k_{k}_limits}` reads `k` then `k_1_limits`;
// `\{` and `\}` are literal braces.
Result<std::string> interpolate(std::string_view text, const embed::Lookup& names);

// A lookup over one tuple's values.
class TupleLookup final : public embed::Lookup {
 public:
  explicit TupleLookup(const Tuple& t) : t_(t) {}
  std::optional<ir::Value> lookup(std::string_view name) const override;

 private:
  const Tuple& t_;
};

// A GK constant expression; bare names the text reads are taken from `names`.
Result<ir::Value> eval_scalar(std::string_view text, const embed::Lookup& names);
// eval_scalar as a number: an integer (widened) or a float.
struct Number {
  bool is_float = false;
  __int128 i = 0;
  double f = 0;
  double as_double() const { return is_float ? f : static_cast<double>(i); }
};
Result<Number> eval_number(std::string_view text, const embed::Lookup& names, std::string_view what);
Result<uint64_t> eval_count(std::string_view text, const embed::Lookup& names, std::string_view what);

// ---------------------------------------------------------------------------
// Clause expressions

struct ExprContext {
  const Env& env;
  const embed::Lookup& names;  // earlier clauses, then env.names
};
using Values = std::vector<ir::Value>;
// An interpolated clause expression -> its values.
Result<Values> eval_expr(std::string_view text, const ExprContext& cx, size_t depth);
// A call of a named list function: its arguments, fetched by kind.
struct Call {
  std::string_view name;
  const std::vector<Piece>& args;
  const ExprContext& cx;
  size_t depth;

  Result<uint64_t> count(size_t i) const { return eval_count(args[i].text, cx.names, arg_name(i)); }
  Result<Number> number(size_t i) const { return eval_number(args[i].text, cx.names, arg_name(i)); }
  Result<Values> list(size_t i) const { return eval_expr(args[i].text, cx, depth + 1); }
  std::string arg_name(size_t i) const { return std::string(name) + "'s argument " + std::to_string(i + 1); }
};
struct ListFn {
  std::string_view name;
  size_t min_args, max_args;
  Result<Values> (*run)(const Call&);
};
inline constexpr size_t kMany = SIZE_MAX;
inline ir::Value u64_value(uint64_t v) { return ir::Value::integer(ir::TyKind::U64, v); }
std::span<const ListFn> set_functions();  // comprehension_setops.cc
// The named list functions (generators, set operations, sequencers, all());
// nullopt when `name` is none of them.
std::optional<Result<Values>> eval_list_call(std::string_view name, std::string_view args, const ExprContext& cx,
                                             size_t depth);
Result<Values> eval_range(std::string_view text, const ExprContext& cx);
Result<void> check_size(size_t n, std::string_view what);

// ---------------------------------------------------------------------------
// Orders

// One enumerated tuple with its place in the lattice: per axis (a clause, a
// zipped group counting once) its index and the length of its list.
struct Row {
  Tuple values;
  std::vector<uint32_t> index;
  std::vector<uint32_t> size;
};
Result<std::vector<Row>> apply_order(std::vector<Row> rows, const Order& order);
// An order spec whose first byte is at `base`.
ir::Expected<Order, SpecError> parse_order_at(std::string_view text, Place base);
std::string_view strategy_name(Strategy s);
bool needs_lattice(Strategy s);

}  // namespace polydat::workload::comprehension::detail
