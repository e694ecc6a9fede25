// evaluate(): enumerate each sub-space (a Cartesian product, the rightmost
// clause fastest, a clause reading the ones before it), keep the tuples the
// `where` predicate holds for, then apply the order.
#include <cmath>
#include <set>

#include "workload/comprehension_detail.h"
#include "workload/values.h"

namespace polydat::workload::comprehension {

using namespace detail;

namespace {

std::string clause_label(const Clause& c) {
  if (!c.zipped()) return "`" + c.vars[0] + "`";
  std::string s;
  for (const std::string& v : c.vars) s += (s.empty() ? "" : ", ") + v;
  return "`(" + s + ")`";
}

// Is the predicate's value "keep": true, a nonzero number (comparisons give u64 1/0).
ir::Expected<bool, Failure> holds(const ir::Value& v) {
  const ir::Ty& t = v.ty();
  if (t.kind() == ir::TyKind::Bool) return v.as_bool();
  if (t.is_int()) return v.bits() != 0;
  if (t.is_float()) return (t.kind() == ir::TyKind::F32 ? v.as_f32() : v.as_f64()) != 0.0;
  return eval_failure("the `where` predicate gives " + op_text(v) + ", not true/false or a number");
}

class Enumerator {
 public:
  Enumerator(const Comprehension& c, const Env& env) : c_(c), env_(env) {}

  ir::Expected<std::vector<Row>, SpecError> run() {
    for (size_t s = 0; s < c_.subspaces.size(); ++s) {
      subspace_ = s;
      Row prefix;
      if (auto st = level(c_.subspaces[s], 0, prefix); !st) return st.error();
    }
    return std::move(rows_);
  }

 private:
  using Status = ir::Expected<void, SpecError>;

  // The values of clause `cl`'s expressions for this prefix, as one list of columns.
  ir::Expected<std::vector<Values>, SpecError> columns(const Clause& cl, const Row& prefix) {
    const TupleLookup earlier(prefix.values);
    const embed::Layered names(earlier, env_.names);
    const ExprContext cx{env_, names};
    std::vector<Values> out;
    for (size_t e = 0; e < cl.exprs.size(); ++e) {
      auto fail = [&](const Failure& f) {
        SpecError err = located(f, cl.expr_at[e]);
        err.message = "clause " + clause_label(cl) + ": " + err.message;
        return err;
      };
      auto text = interpolate(cl.exprs[e], names);
      if (!text) return fail(text.error());
      auto v = eval_expr(*text, cx, 0);
      if (!v) {
        Failure f = v.error();
        f.offset.reset();  // an offset into the interpolated text, not the spec's
        return fail(f);
      }
      out.push_back(std::move(*v));
    }
    return out;
  }

  // How many zip steps the columns make, by the clause's mode.
  ir::Expected<size_t, SpecError> steps(const Clause& cl, const std::vector<Values>& cols) {
    if (cols.size() == 1) return cols[0].size();
    size_t shortest = SIZE_MAX, longest = 0;
    for (const Values& col : cols) shortest = std::min(shortest, col.size()), longest = std::max(longest, col.size());
    if (cl.zip == ZipMode::Truncate) return shortest;
    if (cl.zip == ZipMode::Cycle) return shortest == 0 ? 0 : longest;
    for (size_t e = 1; e < cols.size(); ++e)
      if (cols[e].size() != cols[0].size())
        return SpecError{cl.at,
                         "clause " + clause_label(cl) + ": expression 1 gives " + std::to_string(cols[0].size()) +
                             " values but expression " + std::to_string(e + 1) + " gives " +
                             std::to_string(cols[e].size()) + " (zip_truncate(...) or zip_cycle(...) allow that)",
                         "spec-eval"};
    return cols[0].size();
  }

  Status empty(const Clause& cl) {
    SpecError e{cl.at, "clause " + clause_label(cl) + " has no values here", "empty-clause"};
    if (env_.strict_empty) return e;
    if (env_.warn && warned_.insert({subspace_, &cl}).second) env_.warn(e);
    return {};
  }

  Status level(const std::vector<Clause>& clauses, size_t k, Row& prefix) {
    if (k == clauses.size()) return leaf(prefix);
    const Clause& cl = clauses[k];
    if (++evaluations_ > kMaxTuples) return too_many(cl.at);
    auto cols = columns(cl, prefix);
    if (!cols) return cols.error();
    auto n = steps(cl, *cols);
    if (!n) return n.error();
    if (*n == 0) return empty(cl);
    for (size_t step = 0; step < *n; ++step) {
      for (size_t e = 0; e < cols->size(); ++e) {
        const Values& col = (*cols)[e];
        prefix.values.emplace_back(cl.vars[e], col[step % col.size()]);
      }
      prefix.index.push_back(static_cast<uint32_t>(step));
      prefix.size.push_back(static_cast<uint32_t>(*n));
      auto st = level(clauses, k + 1, prefix);
      prefix.values.resize(prefix.values.size() - cols->size());
      prefix.index.pop_back();
      prefix.size.pop_back();
      if (!st) return st;
    }
    return {};
  }

  Status leaf(const Row& row) {
    if (++enumerated_ > kMaxTuples) return too_many(c_.subspaces[subspace_].back().at);
    if (c_.filter) {
      auto keep = predicate(row);
      if (!keep) {
        SpecError e = located(keep.error(), c_.filter_at);
        e.message = "where `" + *c_.filter + "`: " + e.message;
        return e;
      }
      if (!*keep) return {};
    }
    rows_.push_back(row);
    return {};
  }

  ir::Expected<bool, Failure> predicate(const Row& row) {
    const TupleLookup values(row.values);
    const embed::Layered names(values, env_.names);
    auto text = interpolate(*c_.filter, names);
    if (!text) return text.error();
    auto v = eval_scalar(*text, names);
    if (!v) {
      Failure f = v.error();
      f.offset.reset();
      return f;
    }
    return holds(*v);
  }

  SpecError too_many(Place at) const {
    return SpecError{at, "a spec of more than " + std::to_string(kMaxTuples) + " tuples (or clause evaluations)",
                     "spec-too-large"};
  }

  const Comprehension& c_;
  const Env& env_;
  std::vector<Row> rows_;
  size_t subspace_ = 0, enumerated_ = 0, evaluations_ = 0;
  std::set<std::pair<size_t, const Clause*>> warned_;
};

// The AST's invariants, for one built by hand rather than parsed.
ir::Expected<void, SpecError> check_shape(const Comprehension& c) {
  if (c.subspaces.empty()) return SpecError{Place{}, "a spec with no clauses", "bad-spec"};
  if (c.subspaces.size() > kMaxSubspaces) return SpecError{Place{}, "too many sub-spaces", "spec-too-large"};
  for (const auto& s : c.subspaces) {
    if (s.empty()) return SpecError{Place{}, "a sub-space with no clauses", "bad-spec"};
    if (s.size() > kMaxClauses) return SpecError{s.back().at, "more than " + std::to_string(kMaxClauses) + " clauses", "spec-too-large"};
    std::set<std::string> vars;
    for (const Clause& cl : s) {
      if (cl.vars.empty() || cl.vars.size() != cl.exprs.size() || cl.exprs.size() != cl.expr_at.size())
        return SpecError{cl.at, "a clause whose variables, expressions and places do not pair up", "bad-spec"};
      for (const std::string& v : cl.vars)
        if (!vars.insert(v).second) return SpecError{cl.at, "`" + v + "` is bound twice in one product", "bad-spec"};
    }
  }
  if (c.order && c.is_union() && needs_lattice(c.order->strategy))
    return SpecError{c.order->at, "order " + std::string(strategy_name(c.order->strategy)) + " on a union", "bad-spec"};
  return {};
}

}  // namespace

ir::Expected<std::vector<Tuple>, SpecError> evaluate(const Comprehension& c, const Env& env) {
  if (auto st = check_shape(c); !st) return st.error();
  auto rows = Enumerator(c, env).run();
  if (!rows) return rows.error();
  if (c.order) {
    auto ordered = apply_order(std::move(*rows), *c.order);
    if (!ordered) return located(ordered.error(), c.order->at);
    *rows = std::move(*ordered);
  }
  std::vector<Tuple> out;
  out.reserve(rows->size());
  for (Row& r : *rows) out.push_back(std::move(r.values));
  return out;
}

}  // namespace polydat::workload::comprehension
