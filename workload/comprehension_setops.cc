// Set operations (concat, unique, intersect, subtract, interleave, cycle,
// reverse, take, skip) and sequencers (bucket, concat_seq, interval_seq: nb-rs's
// op-sequencing tables as lists) of clause expressions.
#include <cmath>
#include <unordered_set>

#include "workload/comprehension_detail.h"
#include "workload/values.h"

namespace polydat::workload::comprehension::detail {

namespace {

// ---------------------------------------------------------------------------
// Set operations

struct ValueHash {
  size_t operator()(const ir::Value& v) const {
    const bool nan = v.ty().is_float() && std::isnan(v.ty().kind() == ir::TyKind::F32 ? v.as_f32() : v.as_f64());
    const size_t h = std::hash<uint64_t>{}(nan ? 0x7ff8000000000000ULL : v.bits());
    return h ^ (std::hash<std::string>{}(v.as_str()) << 1) ^ (static_cast<size_t>(v.ty().kind()) << 7);
  }
};
using ValueSet = std::unordered_set<ir::Value, ValueHash>;

Result<std::vector<Values>> all_lists(const Call& c) {
  std::vector<Values> out;
  for (size_t i = 0; i < c.args.size(); ++i) {
    auto l = c.list(i);
    if (!l) return l.error();
    out.push_back(std::move(*l));
  }
  return out;
}

Result<Values> concat(const Call& c) {
  auto lists = all_lists(c);
  if (!lists) return lists.error();
  Values out;
  for (Values& l : *lists) {
    std::move(l.begin(), l.end(), std::back_inserter(out));
    if (auto st = check_size(out.size(), "concat"); !st) return st.error();
  }
  return out;
}

Result<Values> unique(const Call& c) {
  auto all = concat(c);
  if (!all) return all.error();
  ValueSet seen;
  Values out;
  for (ir::Value& v : *all)
    if (seen.insert(v).second) out.push_back(std::move(v));
  return out;
}

Result<Values> intersect(const Call& c) {
  auto lists = all_lists(c);
  if (!lists) return lists.error();
  if (lists->empty()) return Values{};
  std::vector<ValueSet> others;
  for (size_t i = 1; i < lists->size(); ++i) others.emplace_back((*lists)[i].begin(), (*lists)[i].end());
  ValueSet taken;
  Values out;
  for (const ir::Value& v : lists->front())
    if (std::all_of(others.begin(), others.end(), [&](const ValueSet& s) { return s.count(v) > 0; }) &&
        taken.insert(v).second)
      out.push_back(v);
  return out;
}

Result<Values> subtract(const Call& c) {
  auto lists = all_lists(c);
  if (!lists) return lists.error();
  const ValueSet drop((*lists)[1].begin(), (*lists)[1].end());
  Values out;
  for (const ir::Value& v : (*lists)[0])
    if (!drop.count(v)) out.push_back(v);
  return out;
}

Result<Values> interleave(const Call& c) {
  auto lists = all_lists(c);
  if (!lists) return lists.error();
  size_t longest = 0, total = 0;
  for (const Values& l : *lists) longest = std::max(longest, l.size()), total += l.size();
  if (auto st = check_size(total, "interleave"); !st) return st.error();
  Values out;
  for (size_t i = 0; i < longest; ++i)
    for (const Values& l : *lists)
      if (i < l.size()) out.push_back(l[i]);
  return out;
}

Result<Values> cycle(const Call& c) {
  auto a = c.list(0);
  auto n = c.count(1);
  if (!a) return a.error();
  if (!n) return n.error();
  if (!a->empty() && *n > kMaxTuples / a->size())
    return too_large("cycle of more than " + std::to_string(kMaxTuples) + " values");
  Values out;
  for (uint64_t k = 0; k < *n; ++k) out.insert(out.end(), a->begin(), a->end());
  return out;
}

Result<Values> reverse(const Call& c) {
  auto a = c.list(0);
  if (!a) return a.error();
  std::reverse(a->begin(), a->end());
  return std::move(*a);
}

Result<Values> take_or_skip(const Call& c, bool take) {
  auto a = c.list(0);
  auto n = c.count(1);
  if (!a) return a.error();
  if (!n) return n.error();
  const size_t k = static_cast<size_t>(std::min<uint64_t>(*n, a->size()));
  if (take) a->resize(k);
  else a->erase(a->begin(), a->begin() + static_cast<ptrdiff_t>(k));
  return std::move(*a);
}
Result<Values> take(const Call& c) { return take_or_skip(c, true); }
Result<Values> skip(const Call& c) { return take_or_skip(c, false); }

// ---------------------------------------------------------------------------
// Sequencers: nb-rs's op-sequencing tables as lists of sum(ratios) values

struct Weighted {
  Values items;
  std::vector<uint64_t> ratios;
  uint64_t total = 0;
};

// `"3:a, 1:b"` (one argument), or two lists: the items and their ratios.
Result<Weighted> weighted(const Call& c) {
  Weighted w;
  if (c.args.size() == 1) {
    std::string_view text = c.args[0].text;
    while (!text.empty() && (text.front() == '"' || text.front() == '\'')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == '"' || text.back() == '\'')) text.remove_suffix(1);
    for (const Piece& p : split_commas_plain(text)) {
      if (p.text.empty()) continue;
      const size_t colon = p.text.find(':');
      if (colon == std::string_view::npos)
        return eval_failure(std::string(c.name) + ": `" + std::string(p.text) + "` is not RATIO:ITEM");
      const auto r = parse_u64(trimmed(p.text.substr(0, colon)).text);
      if (!r) return eval_failure(std::string(c.name) + ": the ratio of `" + std::string(p.text) + "` is not a whole number");
      auto item = typed_item(trimmed(p.text.substr(colon + 1)).text, false);
      if (!item) return item.error();
      w.items.push_back(std::move(*item));
      w.ratios.push_back(*r);
    }
  } else {
    auto items = c.list(0), ratios = c.list(1);
    if (!items) return items.error();
    if (!ratios) return ratios.error();
    w.items = std::move(*items);
    for (const ir::Value& r : *ratios) {
      if (!r.ty().is_unsigned_int() && !(r.ty().is_signed_int() && r.as_i64() >= 0))
        return eval_failure(std::string(c.name) + ": a ratio is a whole number, not " + op_text(r));
      w.ratios.push_back(r.as_u64());
    }
    if (w.items.size() != w.ratios.size())
      return eval_failure(std::string(c.name) + ": " + std::to_string(w.items.size()) + " items but " +
                          std::to_string(w.ratios.size()) + " ratios");
  }
  for (uint64_t r : w.ratios) {
    if (r > kMaxTuples || (w.total += r) > kMaxTuples)
      return too_large(std::string(c.name) + " of more than " + std::to_string(kMaxTuples) + " values");
  }
  return w;
}

// Round robin over the buckets, each holding `ratio` copies of its item.
Result<Values> bucket(const Call& c) {
  auto w = weighted(c);
  if (!w) return w.error();
  std::vector<uint64_t> left = w->ratios;
  Values out;
  while (out.size() < w->total)
    for (size_t i = 0; i < w->items.size(); ++i)
      if (left[i] > 0) {
        out.push_back(w->items[i]);
        --left[i];
      }
  return out;
}

Result<Values> concat_seq(const Call& c) {
  auto w = weighted(c);
  if (!w) return w.error();
  Values out;
  for (size_t i = 0; i < w->items.size(); ++i) out.insert(out.end(), w->ratios[i], w->items[i]);
  return out;
}

// Each slot goes to the item furthest behind its share (the first such, on a tie).
Result<Values> interval_seq(const Call& c) {
  auto w = weighted(c);
  if (!w) return w.error();
  std::vector<uint64_t> emitted(w->items.size(), 0);
  Values out;
  const double total = static_cast<double>(w->total);
  for (uint64_t slot = 0; slot < w->total; ++slot) {
    size_t best = 0;
    double best_deficit = -INFINITY;
    for (size_t i = 0; i < w->items.size(); ++i) {
      const double target = static_cast<double>(w->ratios[i]) * static_cast<double>(slot + 1) / total;
      const double deficit = target - static_cast<double>(emitted[i]);
      if (deficit > best_deficit) best_deficit = deficit, best = i;
    }
    out.push_back(w->items[best]);
    ++emitted[best];
  }
  return out;
}

constexpr ListFn kSetFunctions[] = {
    {"concat", 0, kMany, concat},
    {"unique", 0, kMany, unique},
    {"intersect", 0, kMany, intersect},
    {"subtract", 2, 2, subtract},
    {"interleave", 0, kMany, interleave},
    {"cycle", 2, 2, cycle},
    {"reverse", 1, 1, reverse},
    {"take", 2, 2, take},
    {"skip", 2, 2, skip},
    {"bucket", 1, 2, bucket},
    {"concat_seq", 1, 2, concat_seq},
    {"interval_seq", 1, 2, interval_seq},
};

}  // namespace

std::span<const ListFn> set_functions() { return kSetFunctions; }

}  // namespace polydat::workload::comprehension::detail
