// nb-rs's weighted choices, computed when a kernel is built: the spec text,
// the alias table (Vose's method in nb-rs's queue order) and the integer
// form of its coin, so a choice needs no float at run time (and so runs in
// hardware).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "ir/alias_table.h"

namespace polydat::frontend {

struct WeightedItem {
  std::string value;  // as written (nb-rs keeps it untrimmed after the item's trim)
  double weight = 0;
};

// "v:w;v:w" or "v:w,v:w": items split on ';' and ',', trimmed, empty ones
// skipped, each split at its first ':'; the weight parses as a float with no
// spaces around it and must be finite and above 0. Empty `error` on success.
std::vector<WeightedItem> parse_weight_spec(std::string_view spec, std::string& error);

using ir::AliasTable;
using ir::alias_table;

// nb-rs samples slot x % n and keeps it when (x >> 32) / 4294967295.0 < bias:
// that holds exactly when x >> 32 is below this threshold (up to 2^32).
uint64_t coin_threshold(double bias);

// nb-rs's one_of_weighted picks the first i whose cumulative weight share
// (running sum of w_i / total, the last forced to 1.0) is at least
// hash / 2^64. The index is then the number of i < n - 1 whose threshold
// hash >= G_i: G_i is the least hash whose quotient passes the share, or
// nullopt when none does.
std::vector<std::optional<uint64_t>> cdf_thresholds(const std::vector<double>& weights);

// A u64 the way Rust's str::parse::<u64> reads it (digits, an optional '+').
bool parse_u64(std::string_view text, uint64_t& out);

// The text of a string literal without interpolations, if `e` is one.
std::optional<std::string> literal_text(const Expr& e);

// nb-rs's combinations pattern: pieces split on ';', each expanded left to
// right (X-Y is every character from X to Y, anything else itself). A piece
// of one character written without '-' is literal text, as is a piece that
// expands to nothing (kept as written); any other is a digit of radix
// `chars.size()`.
struct CombinationPiece {
  bool literal = false;
  std::string text;                // a literal's text
  std::vector<std::string> chars;  // a digit's characters
};
std::vector<CombinationPiece> combination_pieces(std::string_view pattern);

// nb-rs's histribution spec: elements split on ' ', ',' and ';' (empty ones
// skipped but counted); "label:weight" when the spec has a ':' anywhere, else
// bare weights labelled by their position in that split. A weight must be
// finite and not negative, and some weight above 0 (nb-rs builds garbage otherwise).
std::vector<WeightedItem> parse_histribution_spec(std::string_view spec, std::string& error);

// The items of a checked weighted_u64 / weighted_strings call (its spec, a
// string literal) or weighted_pick call (weight, value literal pairs); on a
// problem, `error` says it and `at` points at the argument.
std::vector<WeightedItem> weighted_call_items(const Expr& call, bool pick, std::string& error, Span& at);

}  // namespace polydat::frontend
