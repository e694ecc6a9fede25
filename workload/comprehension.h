// nb-rs's iteration specs ("comprehensions") for `for:` / `for_each:`:
//
//   parse / parse_entries   text (inline, or the YAML list form) -> Comprehension
//   parse_order, set_order  `order` specs (inline, or the sibling `order:` key)
//   set_where               the sibling `where:` key
//   evaluate                Comprehension -> the tuples to iterate, in order
//
// A spec is clauses (`v in EXPR`, or `(a, b) in (E1, E2)` zipped), an optional
// `where PREDICATE` and an optional `order STRATEGY`. Clauses with distinct
// variables combine as a Cartesian product (the rightmost varies fastest); a
// variable bound again starts another sub-space and the spec is the union
// (concatenation) of its sub-spaces. Clause expressions are literal lists,
// ranges (`1..5`, `1..=5`, `0..100..10`), generators (`fib(7)`,
// `subdivide(0, 1, 5)`, ...), set operations (`unique(1..=3, 3..=5)`, ...),
// sequencers (`bucket("3:a, 1:b")`), `all(cursor)`, or GK constant
// expressions; `{name}` reads a param, an outer variable or an earlier
// clause's variable as text. docs/workloads.md lists them all.
//
// Nothing here throws for a bad input: every refusal is a SpecError with a
// place, a message and a stable kind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/embed.h"
#include "ir/expected.h"
#include "ir/value.h"

namespace polydat::workload::comprehension {

// Caps: past them a spec is refused (kind "spec-too-large"), never run.
inline constexpr size_t kMaxTuples = 1'000'000;      // tuples enumerated (before `where`), values in one list
inline constexpr size_t kMaxClauses = 64;            // clauses in one sub-space (they nest)
inline constexpr size_t kMaxSubspaces = 10'000;      // sub-spaces of a union
inline constexpr size_t kMaxDepth = 64;              // nested calls in one clause expression
inline constexpr size_t kMaxTextBytes = 1 << 20;     // a spec's text, and any text interpolation makes
inline constexpr uint64_t kMaxOrderWork = 50'000'000;  // halton/lhs: emitted x candidates x axes

// Which text an offset counts bytes in.
enum class Part : uint8_t {
  Spec,   // the text given to parse()
  Entry,  // entry `entry` of the list given to parse_entries()
  Where,  // the text given to set_where()
  Order,  // the text given to parse_order() / set_order()
};

struct Place {
  Part part = Part::Spec;
  size_t entry = 0;   // Part::Entry only
  size_t offset = 0;  // bytes into that text
};

// Kinds: "bad-spec" (not a well-formed spec), "spec-eval" (an expression or the
// predicate failed), "spec-unsupported" (nb-rs parses it but implements nothing:
// order sobol, order custom), "spec-too-large" (a cap above), "empty-clause"
// (a clause with no values, when Env::strict_empty).
struct SpecError {
  Place at;
  std::string message;
  std::string kind;
  // "byte 4 of entry 1: MESSAGE [bad-spec]" and the like.
  std::string to_string() const;
};

enum class ZipMode : uint8_t {
  Strict,    // `(a, b) in (E1, E2)`: the lists must be of one length
  Truncate,  // `zip_truncate(E1, E2)`: as long as the shortest
  Cycle,     // `zip_cycle(E1, E2)`: as long as the longest, shorter ones repeating
};

struct Clause {
  std::vector<std::string> vars;   // one, or two and more (zipped)
  std::vector<std::string> exprs;  // one per var; a single var has one
  ZipMode zip = ZipMode::Strict;   // zipped clauses only
  Place at;                        // the clause's first byte
  std::vector<Place> expr_at;      // each expression's first byte
  bool zipped() const { return vars.size() > 1; }
};

enum class Strategy : uint8_t { Lex, ReverseLex, Diagonal, Antidiagonal, Extrema, Shells, Halton, Sobol, Lhs, Custom };
enum class ShellOrigin : uint8_t { Outer, Center, Corner };

struct Order {
  Strategy strategy = Strategy::Lex;
  // The `/N` of the terse form: a tuple count, except the strata kept for
  // extrema and the shells kept for shells. nullopt: everything, reordered.
  std::optional<uint64_t> limit;
  ShellOrigin origin = ShellOrigin::Outer;  // shells
  std::optional<uint64_t> seed;             // lhs (0 when not given)
  std::string function;                     // custom
  Place at;
};

struct Comprehension {
  // One sub-space: a Cartesian product. Several: their union, in order.
  std::vector<std::vector<Clause>> subspaces;
  std::optional<std::string> filter;  // `where`
  Place filter_at;
  std::optional<Order> order;
  bool is_union() const { return subspaces.size() > 1; }
};

// The inline form: "CLAUSES [where PREDICATE] [order SPEC]".
ir::Expected<Comprehension, SpecError> parse(std::string_view text);
// The YAML list form: one sub-space per entry (each a clause list, no
// `where`/`order` inside); a union when a variable appears in two entries,
// else one Cartesian product of them all.
ir::Expected<Comprehension, SpecError> parse_entries(const std::vector<std::string>& entries);
// An order spec: `lex`, `extrema/1`, `shells(origin=center, depth=3)`,
// `space_filling(lhs, count=20, seed=42)`, ...
ir::Expected<Order, SpecError> parse_order(std::string_view text);
// The sibling `where:` and `order:` keys. A spec that already has an inline
// `where` (or `order`) is refused: the two would silently disagree.
ir::Expected<void, SpecError> set_where(Comprehension& c, std::string_view text);
ir::Expected<void, SpecError> set_order(Comprehension& c, std::string_view text);

// The variables a spec binds, each once, in first-occurrence order.
std::vector<std::string> coordinate_names(const Comprehension& c);

using Tuple = std::vector<std::pair<std::string, ir::Value>>;

struct Env {
  // `{name}` in clause expressions and the predicate, and bare names in
  // scalar expressions (range bounds, generator arguments) and the predicate:
  // params, outer loop variables, outer constants. Earlier clauses' variables
  // are seen first.
  const embed::Lookup& names;
  // `all(name)`: the cursor's extent [start, end), or nullopt when there is none.
  std::function<std::optional<std::pair<uint64_t, uint64_t>>(std::string_view)> cursor_extent;
  // A clause with no values: an error when strict (nb-rs's --strict), else
  // reported to `warn` (once per clause) and its branch skipped.
  bool strict_empty = false;
  std::function<void(const SpecError&)> warn;
};

// Every tuple of `c`: enumerated, filtered by `where`, then put in `order`.
ir::Expected<std::vector<Tuple>, SpecError> evaluate(const Comprehension& c, const Env& env);

}  // namespace polydat::workload::comprehension
