// Comprehension text -> AST: clause lists, zipped groups, union detection,
// the inline `where` and `order`, and the sibling keys.
#include <map>
#include <set>

#include "workload/comprehension_detail.h"

namespace polydat::workload::comprehension {

using namespace detail;

namespace {

const char* const kClauseShape = "a clause reads `NAME in EXPR` or `(A, B) in (EXPR1, EXPR2)`";

// Unclosed quotes and unbalanced brackets, found before any splitting.
Result<void> check_brackets(std::string_view text) {
  std::vector<size_t> open;
  const std::string_view openers = "([{", closers = ")]}";
  const size_t unclosed_quote = scan(text, [&](size_t i, size_t) {
    if ((text[i] == '{' || text[i] == '}') && i > 0 && text[i - 1] == '\\') return true;  // \{ is text
    if (openers.find(text[i]) != std::string_view::npos) open.push_back(i);
    const size_t k = closers.find(text[i]);
    if (k == std::string_view::npos) return true;
    if (open.empty() || text[open.back()] != openers[k]) {
      open.assign(1, i);
      return false;
    }
    open.pop_back();
    return true;
  });
  if (unclosed_quote != std::string_view::npos) return Failure{"bad-spec", "a quote that is never closed", unclosed_quote};
  if (open.empty()) return {};
  const char c = text[open.back()];
  if (closers.find(c) != std::string_view::npos)
    return Failure{"bad-spec", std::string("a `") + c + "` that closes nothing open", open.back()};
  return Failure{"bad-spec", std::string("a `") + c + "` that is never closed", open.back()};
}

// Whitespace, then "in", then whitespace, at i: the offset after it, or npos.
size_t after_in(std::string_view t, size_t i) {
  const size_t start = i;
  while (i < t.size() && is_space(t[i])) ++i;
  if (i == start || t.compare(i, 2, "in") != 0 || (i + 2 < t.size() && !is_space(t[i + 2]))) return std::string_view::npos;
  return i + 2;
}

// Does a clause (`NAME in` or `(A, ...) in`) start at i (after whitespace)?
bool clause_starts_at(std::string_view t, size_t i) {
  while (i < t.size() && is_space(t[i])) ++i;
  if (i < t.size() && t[i] == '(') {
    size_t close = std::string_view::npos;
    scan(t.substr(i), [&](size_t j, size_t depth) {
      if (j > 0 && depth == 0 && t[i + j] == ')') {
        close = i + j;
        return false;
      }
      return true;
    });
    return close != std::string_view::npos && after_in(t, close + 1) != std::string_view::npos;
  }
  size_t j = i;
  while (j < t.size() && is_ident_char(t[j])) ++j;
  return j > i && is_ident_start(t[i]) && after_in(t, j) != std::string_view::npos;
}

// `zip_truncate(...)` / `zip_cycle(...)`: the mode and the parenthesised group.
std::optional<std::pair<ZipMode, Piece>> zip_call(Piece rhs) {
  const auto call = call_of(rhs.text);
  if (!call || (call->first != "zip_truncate" && call->first != "zip_cycle")) return std::nullopt;
  const size_t open = call->second.offset - 1;
  return std::pair{call->first == "zip_truncate" ? ZipMode::Truncate : ZipMode::Cycle,
                   Piece{rhs.text.substr(open), rhs.offset + open}};
}

// The items of a parenthesised group, each non-empty.
Result<std::vector<Piece>> group_items(Piece group, std::string_view what) {
  std::vector<Piece> items = split_commas(group.text.substr(1, group.text.size() - 2));
  for (Piece& p : items) {
    p.offset += group.offset + 1;
    if (p.text.empty()) return Failure{"bad-spec", "an empty " + std::string(what) + " in a zipped clause", p.offset};
  }
  return items;
}

Result<Clause> zipped_clause(Piece lhs, Piece rhs, Clause c) {
  Piece group = rhs;
  if (auto z = zip_call(rhs)) std::tie(c.zip, group) = *z;
  const bool lhs_group = wrapped(lhs.text, '(', ')'), rhs_group = wrapped(group.text, '(', ')');
  if (!lhs_group)
    return Failure{"bad-spec", "a zipped clause has its variables in parentheses too: `(a, b) in (E1, E2)`", lhs.offset};
  if (!rhs_group)
    return Failure{"bad-spec",
                   "`(a, b) in EXPR` (unpacking one list of tuples) is not supported: zip one expression per "
                   "variable, `(a, b) in (E1, E2)`",
                   rhs.offset};
  auto vars = group_items(lhs, "variable");
  if (!vars) return vars.error();
  auto exprs = group_items(group, "expression");
  if (!exprs) return exprs.error();
  for (const Piece& v : *vars)
    if (!is_identifier(v.text)) return Failure{"bad-spec", "`" + std::string(v.text) + "` is not a variable name", v.offset};
  if (vars->size() < 2)
    return Failure{"bad-spec", "a zipped clause binds two variables or more (write `x in EXPR` for one)", lhs.offset};
  if (vars->size() != exprs->size())
    return Failure{"bad-spec",
                   std::to_string(vars->size()) + " variables but " + std::to_string(exprs->size()) + " expressions",
                   rhs.offset};
  for (size_t k = 0; k < vars->size(); ++k) {
    c.vars.emplace_back((*vars)[k].text);
    c.exprs.emplace_back((*exprs)[k].text);
    c.expr_at.push_back(shifted(c.at, (*exprs)[k].offset));
  }
  c.at = shifted(c.at, lhs.offset);
  return c;
}

// One clause from its text; offsets in `base` count from the clause list's start.
Result<Clause> parse_clause(Piece text, Place base) {
  const size_t in = find_keyword(text.text, "in");
  if (in == std::string_view::npos) return Failure{"bad-spec", kClauseShape, text.offset};
  const Piece lhs = trimmed(text.text.substr(0, in), text.offset);
  const Piece rhs = trimmed(text.text.substr(in + 2), text.offset + in + 2);
  if (rhs.text.empty()) return Failure{"bad-spec", "no expression after `in`", text.offset + in};
  Clause c;
  c.at = base;
  if (wrapped(lhs.text, '(', ')') || wrapped(rhs.text, '(', ')') || zip_call(rhs)) return zipped_clause(lhs, rhs, c);
  if (!is_identifier(lhs.text)) return Failure{"bad-spec", "`" + std::string(lhs.text) + "` is not a variable name", lhs.offset};
  c.vars.emplace_back(lhs.text);
  c.exprs.emplace_back(rhs.text);
  c.expr_at.push_back(shifted(base, rhs.offset));
  c.at = shifted(base, lhs.offset);
  return c;
}

// A clause list: split at the top-level commas that a clause follows.
Result<std::vector<Clause>> parse_clauses(std::string_view text, Place base) {
  if (trimmed(text).text.empty()) return Failure{"bad-spec", "no clauses", 0};
  if (!clause_starts_at(text, 0)) return Failure{"bad-spec", kClauseShape, trimmed(text).offset};
  std::vector<size_t> starts{0};
  scan(text, [&](size_t i, size_t depth) {
    if (depth == 0 && text[i] == ',' && clause_starts_at(text, i + 1)) starts.push_back(i + 1);
    return true;
  });
  std::vector<Clause> out;
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t end = k + 1 < starts.size() ? starts[k + 1] - 1 : text.size();
    auto c = parse_clause(trimmed(text.substr(starts[k], end - starts[k]), starts[k]), base);
    if (!c) return c.error();
    out.push_back(std::move(*c));
  }
  return out;
}

Result<void> check_size_of(const std::vector<Clause>& clauses) {
  if (clauses.size() <= kMaxClauses) return {};
  return Failure{"spec-too-large", std::to_string(clauses.size()) + " clauses in one product; at most " +
                                       std::to_string(kMaxClauses) + " nest", std::nullopt};
}

ir::Expected<void, SpecError> check_order_fits(const Comprehension& c) {
  if (!c.is_union() || !c.order || !needs_lattice(c.order->strategy)) return {};
  return SpecError{c.order->at,
                   "order " + std::string(strategy_name(c.order->strategy)) +
                       " walks one Cartesian product; this spec is a union of " + std::to_string(c.subspaces.size()) +
                       " sub-spaces (lex and custom apply to unions; or split it into separate loops)",
                   "bad-spec"};
}

}  // namespace

ir::Expected<Comprehension, SpecError> parse(std::string_view text) {
  const Place base{Part::Spec, 0, 0};
  if (text.size() > kMaxTextBytes)
    return SpecError{base, "a spec of more than " + std::to_string(kMaxTextBytes) + " bytes", "spec-too-large"};
  if (auto st = check_brackets(text); !st) return located(st.error(), base);
  Comprehension c;
  std::string_view head = text;
  if (const size_t k = find_keyword(text, "order"); k != std::string_view::npos) {
    head = text.substr(0, k);
    if (trimmed(text.substr(k + 5)).text.empty()) return SpecError{shifted(base, k), "`order` without a strategy", "bad-spec"};
    auto o = parse_order_at(text.substr(k + 5), shifted(base, k + 5));
    if (!o) return o.error();
    c.order = std::move(*o);
  }
  std::string_view clause_text = head;
  if (const size_t k = find_keyword(head, "where"); k != std::string_view::npos) {
    clause_text = head.substr(0, k);
    const Piece pred = trimmed(head.substr(k + 5), k + 5);
    if (pred.text.empty()) return SpecError{shifted(base, k), "`where` without a predicate", "bad-spec"};
    c.filter = std::string(pred.text);
    c.filter_at = shifted(base, pred.offset);
  }
  auto clauses = parse_clauses(clause_text, base);
  if (!clauses) return located(clauses.error(), base);
  // A clause binding a variable the current sub-space already binds starts the next sub-space.
  std::set<std::string> bound;
  c.subspaces.emplace_back();
  for (Clause& cl : *clauses) {
    const bool again = std::any_of(cl.vars.begin(), cl.vars.end(), [&](const std::string& v) { return bound.count(v); });
    if (again) {
      c.subspaces.emplace_back();
      bound.clear();
    }
    bound.insert(cl.vars.begin(), cl.vars.end());
    c.subspaces.back().push_back(std::move(cl));
  }
  for (const auto& s : c.subspaces)
    if (auto st = check_size_of(s); !st) return located(st.error(), s.back().at);
  if (c.subspaces.size() > kMaxSubspaces)
    return SpecError{base, "a union of more than " + std::to_string(kMaxSubspaces) + " sub-spaces", "spec-too-large"};
  if (auto st = check_order_fits(c); !st) return st.error();
  return c;
}

ir::Expected<Comprehension, SpecError> parse_entries(const std::vector<std::string>& entries) {
  if (entries.empty()) return SpecError{Place{}, "a list of no clause entries", "bad-spec"};
  if (entries.size() > kMaxSubspaces)
    return SpecError{Place{}, "more than " + std::to_string(kMaxSubspaces) + " entries", "spec-too-large"};
  Comprehension c;
  std::map<std::string, size_t> first_entry;  // variable -> the entry that binds it first
  bool repeats = false;
  for (size_t e = 0; e < entries.size(); ++e) {
    const Place base{Part::Entry, e, 0};
    const std::string_view text = entries[e];
    if (text.size() > kMaxTextBytes)
      return SpecError{base, "an entry of more than " + std::to_string(kMaxTextBytes) + " bytes", "spec-too-large"};
    if (auto st = check_brackets(text); !st) return located(st.error(), base);
    for (const char* word : {"where", "order"})
      if (const size_t k = find_keyword(text, word); k != std::string_view::npos)
        return SpecError{shifted(base, k),
                         std::string("`") + word + "` inside a list entry: give it as the `" + word +
                             ":` key beside the list, for all its entries",
                         "bad-spec"};
    auto clauses = parse_clauses(text, base);
    if (!clauses) return located(clauses.error(), base);
    std::set<std::string> in_entry;
    for (const Clause& cl : *clauses)
      for (const std::string& v : cl.vars) {
        if (!in_entry.insert(v).second)
          return SpecError{cl.at, "`" + v + "` is bound twice in one entry (a union takes one entry per sub-space)",
                           "bad-spec"};
        if (auto [it, fresh] = first_entry.emplace(v, e); !fresh) repeats = true;
      }
    if (auto st = check_size_of(*clauses); !st) return located(st.error(), base);
    c.subspaces.push_back(std::move(*clauses));
  }
  if (!repeats) {  // distinct names throughout: one product of every entry's clauses
    std::vector<Clause> all;
    for (auto& s : c.subspaces) std::move(s.begin(), s.end(), std::back_inserter(all));
    if (auto st = check_size_of(all); !st) return located(st.error(), all.back().at);
    c.subspaces.assign(1, std::move(all));
  }
  return c;
}

ir::Expected<Order, SpecError> parse_order(std::string_view text) { return parse_order_at(text, Place{Part::Order, 0, 0}); }

ir::Expected<void, SpecError> set_where(Comprehension& c, std::string_view text) {
  const Place base{Part::Where, 0, 0};
  if (c.filter) return SpecError{base, "a `where:` key and an inline `where` in the spec; give one", "bad-spec"};
  if (auto st = check_brackets(text); !st) return located(st.error(), base);
  const Piece pred = trimmed(text);
  if (pred.text.empty()) return SpecError{base, "an empty `where:`", "bad-spec"};
  c.filter = std::string(pred.text);
  c.filter_at = shifted(base, pred.offset);
  return {};
}

ir::Expected<void, SpecError> set_order(Comprehension& c, std::string_view text) {
  if (c.order) return SpecError{Place{Part::Order, 0, 0}, "an `order:` key and an inline `order` in the spec; give one", "bad-spec"};
  auto o = parse_order(text);
  if (!o) return o.error();
  c.order = std::move(*o);
  if (auto st = check_order_fits(c); !st) {
    c.order.reset();
    return st.error();
  }
  return {};
}

std::vector<std::string> coordinate_names(const Comprehension& c) {
  std::vector<std::string> out;
  for (const auto& s : c.subspaces)
    for (const Clause& cl : s)
      for (const std::string& v : cl.vars)
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

}  // namespace polydat::workload::comprehension
