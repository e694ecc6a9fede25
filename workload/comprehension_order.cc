// The traversal orders (nb-rs's order.rs semantics). Each works on a row's
// place in the lattice: its index on every axis and that axis's length. A
// row that `where` dropped is simply absent: the rows left keep their places
// (so a corner stays a corner). Ties go to enumeration (lex) order.
#include <cmath>
#include <numeric>

#include "workload/comprehension_detail.h"

namespace polydat::workload::comprehension::detail {

namespace {

std::vector<Row> first(std::vector<Row> rows, std::optional<uint64_t> n) {
  if (n && *n < rows.size()) rows.resize(static_cast<size_t>(*n));
  return rows;
}

// Rows sorted by key (ascending, ties by enumeration order), keeping those whose key passes `keep`.
template <class Key, class Keep>
std::vector<Row> stratified(std::vector<Row> rows, Key key, Keep keep) {
  std::vector<std::pair<uint64_t, size_t>> order;
  for (size_t p = 0; p < rows.size(); ++p) order.emplace_back(key(rows[p]), p);
  std::stable_sort(order.begin(), order.end());
  std::vector<Row> out;
  for (const auto& [k, p] : order)
    if (keep(k)) out.push_back(std::move(rows[p]));
  return out;
}

uint64_t index_sum(const Row& r) { return std::accumulate(r.index.begin(), r.index.end(), uint64_t{0}); }

// Axes whose index is neither end of the axis (a one-value axis is all ends).
uint64_t interior_count(const Row& r) {
  uint64_t n = 0;
  for (size_t a = 0; a < r.index.size(); ++a) n += r.size[a] > 1 && r.index[a] != 0 && r.index[a] != r.size[a] - 1;
  return n;
}

uint64_t shell(const Row& r, ShellOrigin origin) {
  uint64_t d = origin == ShellOrigin::Outer ? UINT64_MAX : 0;
  for (size_t a = 0; a < r.index.size(); ++a) {
    const uint64_t i = r.index[a], s = r.size[a];
    if (origin == ShellOrigin::Outer) d = std::min<uint64_t>(d, s <= 1 ? 0 : std::min(i, s - 1 - i));
    else if (origin == ShellOrigin::Center) d = std::max<uint64_t>(d, s <= 1 ? 0 : (i > (s - 1) / 2 ? i - (s - 1) / 2 : (s - 1) / 2 - i));
    else d = std::max<uint64_t>(d, i);
  }
  return d;
}

// Leftmost axis fastest: sort by the index vector read from its last axis.
std::vector<Row> reverse_lex(std::vector<Row> rows, std::optional<uint64_t> n) {
  std::vector<size_t> p(rows.size());
  std::iota(p.begin(), p.end(), 0);
  std::stable_sort(p.begin(), p.end(), [&](size_t a, size_t b) {
    return std::lexicographical_compare(rows[a].index.rbegin(), rows[a].index.rend(), rows[b].index.rbegin(),
                                        rows[b].index.rend());
  });
  std::vector<Row> out;
  for (size_t i : p) out.push_back(std::move(rows[i]));
  return first(std::move(out), n);
}

// Diagonal: index sum ascending, then enumeration order; antidiagonal: both descending.
std::vector<Row> diagonal(std::vector<Row> rows, std::optional<uint64_t> n, bool descending) {
  std::vector<Row> out = stratified(std::move(rows), index_sum, [](uint64_t) { return true; });
  if (descending) std::reverse(out.begin(), out.end());
  return first(std::move(out), n);
}

// A row as a point of the unit cube: index / (size - 1) per axis, 0.5 on a one-value axis.
std::vector<std::vector<double>> points(const std::vector<Row>& rows) {
  std::vector<std::vector<double>> out;
  for (const Row& r : rows) {
    std::vector<double> p;
    for (size_t a = 0; a < r.index.size(); ++a)
      p.push_back(r.size[a] <= 1 ? 0.5 : static_cast<double>(r.index[a]) / static_cast<double>(r.size[a] - 1));
    out.push_back(std::move(p));
  }
  return out;
}

// For each target point in turn, the nearest row (squared distance; the first on a tie) not yet taken.
std::vector<Row> nearest_walk(std::vector<Row> rows, size_t want,
                              const std::function<std::vector<double>(size_t)>& target) {
  const auto pts = points(rows);
  std::vector<bool> taken(rows.size(), false);
  std::vector<Row> out;
  for (size_t k = 0; out.size() < want; ++k) {
    const std::vector<double> t = target(k);
    size_t best = SIZE_MAX;
    double best_d = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (taken[i]) continue;
      double d = 0;
      for (size_t a = 0; a < t.size(); ++a) d += (pts[i][a] - t[a]) * (pts[i][a] - t[a]);
      if (best == SIZE_MAX || d < best_d) best = i, best_d = d;
    }
    if (best == SIZE_MAX) break;
    taken[best] = true;
    out.push_back(rows[best]);
  }
  return out;
}

// The first n primes: Halton's base for each axis.
std::vector<uint64_t> primes(size_t n) {
  std::vector<uint64_t> out;
  for (uint64_t c = 2; out.size() < n; ++c)
    if (std::none_of(out.begin(), out.end(), [&](uint64_t p) { return c % p == 0; })) out.push_back(c);
  return out;
}

// The radical inverse of `index` in `base`: Halton's coordinate.
double radical_inverse(uint64_t index, uint64_t base) {
  double result = 0, f = 1.0 / static_cast<double>(base);
  for (uint64_t i = index; i > 0; i /= base) {
    result += f * static_cast<double>(i % base);
    f /= static_cast<double>(base);
  }
  return result;
}

// A permutation of 0..n-1 by Fisher-Yates from a splitmix64 stream on `seed` (nb-rs's lhs).
std::vector<size_t> shuffled(size_t n, uint64_t seed) {
  std::vector<size_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  uint64_t state = seed + 0x9E3779B97F4A7C15ULL;
  for (size_t i = n; i-- > 1;) {
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    std::swap(perm[i], perm[z % (i + 1)]);
  }
  return perm;
}

Result<size_t> walk_size(const std::vector<Row>& rows, std::optional<uint64_t> count, std::string_view name) {
  const size_t want = static_cast<size_t>(std::min<uint64_t>(count.value_or(rows.size()), rows.size()));
  const size_t axes = rows.empty() ? 0 : rows[0].index.size();
  if (static_cast<unsigned __int128>(want) * rows.size() * axes > kMaxOrderWork)
    return too_large("order " + std::string(name) + " over " + std::to_string(rows.size()) + " tuples taking " +
                     std::to_string(want) + " is past the work cap (" + std::to_string(kMaxOrderWork) +
                     " coordinate comparisons): give a smaller count or a narrower spec");
  return want;
}

Result<std::vector<Row>> halton(std::vector<Row> rows, std::optional<uint64_t> count) {
  auto want = walk_size(rows, count, "halton");
  if (!want) return want.error();
  if (rows.empty()) return rows;
  const std::vector<uint64_t> base = primes(rows[0].index.size());
  return nearest_walk(std::move(rows), *want, [&](size_t k) {
    std::vector<double> t;
    for (uint64_t b : base) t.push_back(radical_inverse(k + 1, b));  // the sequence from index 1
    return t;
  });
}

Result<std::vector<Row>> lhs(std::vector<Row> rows, std::optional<uint64_t> count, uint64_t seed) {
  auto want = walk_size(rows, count, "lhs");
  if (!want) return want.error();
  if (rows.empty() || *want == 0) return std::vector<Row>{};
  const size_t axes = rows[0].index.size();
  // Stratum centres, each axis's order shuffled on its own stream (seed + axis).
  std::vector<std::vector<double>> targets(*want, std::vector<double>(axes));
  for (size_t a = 0; a < axes; ++a) {
    const std::vector<size_t> perm = shuffled(*want, seed + a);
    for (size_t i = 0; i < *want; ++i)
      targets[i][a] = (static_cast<double>(perm[i]) + 0.5) * (1.0 / static_cast<double>(*want));
  }
  return nearest_walk(std::move(rows), *want, [&](size_t k) { return targets[k]; });
}

}  // namespace

Result<std::vector<Row>> apply_order(std::vector<Row> rows, const Order& o) {
  switch (o.strategy) {
    case Strategy::Lex: return first(std::move(rows), o.limit);
    case Strategy::ReverseLex: return reverse_lex(std::move(rows), o.limit);
    case Strategy::Diagonal: return diagonal(std::move(rows), o.limit, false);
    case Strategy::Antidiagonal: return diagonal(std::move(rows), o.limit, true);
    case Strategy::Extrema:
      return stratified(std::move(rows), interior_count, [&](uint64_t k) { return !o.limit || k < *o.limit; });
    case Strategy::Shells:
      return stratified(std::move(rows), [&](const Row& r) { return shell(r, o.origin); },
                        [&](uint64_t d) { return !o.limit || d < *o.limit; });
    case Strategy::Halton: return halton(std::move(rows), o.limit);
    case Strategy::Lhs: return lhs(std::move(rows), o.limit, o.seed.value_or(0));
    case Strategy::Sobol:
      return Failure{"spec-unsupported",
                     "order sobol is not implemented (nb-rs has no Sobol direction numbers either): halton/N gives "
                     "low-discrepancy coverage, lhs/N stratified samples", std::nullopt};
    case Strategy::Custom:
      return Failure{"spec-unsupported",
                     "order custom(" + o.function + ") is not implemented (nb-rs neither): a GK function cannot take "
                     "a list of tuples; use a named order",
                     std::nullopt};
  }
  return rows;
}

}  // namespace polydat::workload::comprehension::detail
