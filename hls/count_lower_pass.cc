#include "hls/count_lower_pass.h"

#include <algorithm>
#include <bit>
#include <optional>

#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

unsigned bits_for(uint64_t max) { return std::max(1u, static_cast<unsigned>(std::bit_width(max))); }

// The positions of v's bits that are not known constants, and the value of those that are.
struct Known {
  std::vector<unsigned> free;  // least significant first
  uint64_t ones = 0;
};

Known known_bits(const Dfg& g, ValueId v) {
  Known k;
  const std::vector<BitSource> sources = bit_sources(g, v);
  for (unsigned i = 0; i < sources.size(); ++i) {
    if (sources[i].value == kConstantBit) k.ones |= uint64_t{sources[i].bit} << i;
    else k.free.push_back(i);
  }
  return k;
}

// v's bits at `positions` (least significant first), as one value.
ValueId gather(DfgBuilder& b, ValueId v, const std::vector<unsigned>& positions) {
  std::vector<ValueId> bits;  // most significant first
  for (size_t i = positions.size(); i-- > 0;) bits.push_back(b.bit(v, positions[i]));
  return b.concat(bits);
}

// A result bit of a table over `inputs` index bits: its value at every entry.
struct Column {
  std::vector<bool> at;
  bool constant(bool& value) const {
    value = at[0];
    return std::all_of(at.begin(), at.end(), [&](bool x) { return x == value; });
  }
  // Whether it is index bit k, or (inverted) its complement.
  bool copies(unsigned k, bool inverted) const {
    for (uint64_t j = 0; j < at.size(); ++j)
      if (at[j] != ((((j >> k) & 1) != 0) != inverted)) return false;
    return true;
  }
};

}  // namespace

ValueId lut_function(DfgBuilder& b, ValueId index, unsigned width, const std::function<uint64_t(uint64_t)>& f) {
  const Known known = known_bits(b.graph(), index);
  const unsigned inputs = static_cast<unsigned>(known.free.size());
  std::vector<uint64_t> table;
  for (uint64_t j = 0; j < (uint64_t{1} << inputs); ++j) {
    uint64_t v = known.ones;
    for (unsigned k = 0; k < inputs; ++k) v |= ((j >> k) & 1) << known.free[k];
    table.push_back(f(v) & width_mask(width));
  }
  if (inputs == 0) return b.constant(width, table[0]);
  const ValueId free = gather(b, index, known.free);
  std::vector<ValueId> bits(width);
  std::vector<unsigned> in_rom;  // result bits the table computes
  for (unsigned o = 0; o < width; ++o) {
    Column c;
    for (uint64_t e : table) c.at.push_back((e >> o) & 1);
    bool value = false;
    std::optional<ValueId> wired;
    if (c.constant(value)) wired = b.constant(1, value);
    for (unsigned k = 0; k < inputs && !wired; ++k) {
      if (c.copies(k, false)) wired = b.bit(free, k);
      else if (c.copies(k, true)) wired = b.bnot(b.bit(free, k));
    }
    if (wired) bits[o] = *wired;
    else in_rom.push_back(o);
  }
  if (!in_rom.empty()) {
    std::vector<uint64_t> packed;
    for (uint64_t e : table) {
      uint64_t p = 0;
      for (size_t r = 0; r < in_rom.size(); ++r) p |= ((e >> in_rom[r]) & 1) << r;
      packed.push_back(p);
    }
    const ValueId rom = b.op(Op::Rom, static_cast<unsigned>(in_rom.size()), {free}, false, 0, std::move(packed));
    for (size_t r = 0; r < in_rom.size(); ++r) bits[in_rom[r]] = b.bit(rom, static_cast<unsigned>(r));
  }
  std::reverse(bits.begin(), bits.end());
  return b.concat(bits);
}

namespace {

// A partial count and the largest value it can take.
struct Count {
  ValueId v;
  uint64_t max;
};

// x + y (+ a one-bit carry in), at the width their largest sum needs.
Count add_counts(DfgBuilder& b, const Count& x, const Count& y, const Count* carry) {
  const uint64_t max = x.max + y.max + (carry ? carry->max : 0);
  const unsigned w = bits_for(max);
  const ValueId a = b.resize(x.v, w), c = b.resize(y.v, w);
  return Count{carry ? b.add_carry(a, c, carry->v) : b.add(a, c), max};
}

// One level of the tree: neighbours (by size) added in pairs, lone bits as their carry ins.
std::vector<Count> add_level(DfgBuilder& b, std::vector<Count> counts, std::vector<Count>& bits) {
  std::stable_sort(counts.begin(), counts.end(), [](const Count& x, const Count& y) { return x.max < y.max; });
  std::vector<Count> next;
  auto take_bit = [&]() -> std::optional<Count> {
    if (bits.empty()) return std::nullopt;
    const Count c = bits.back();
    bits.pop_back();
    return c;
  };
  for (size_t i = 0; i + 1 < counts.size(); i += 2) {
    const auto carry = take_bit();
    next.push_back(add_counts(b, counts[i], counts[i + 1], carry ? &*carry : nullptr));
  }
  if (counts.size() % 2) {
    const Count last = counts.back();
    const auto other = take_bit();
    if (!other) {
      next.push_back(last);
    } else {
      const auto carry = take_bit();
      next.push_back(add_counts(b, last, *other, carry ? &*carry : nullptr));
    }
  }
  while (bits.size() >= 2) {  // lone bits left: two (and a carry in) make a 2-bit count
    const Count x = *take_bit(), y = *take_bit();
    const auto carry = take_bit();
    next.push_back(add_counts(b, x, y, carry ? &*carry : nullptr));
  }
  return next;
}

Count sum_counts(DfgBuilder& b, std::vector<Count> counts, std::vector<Count> bits) {
  while (counts.size() + bits.size() > 1) counts = add_level(b, std::move(counts), bits);
  if (!counts.empty()) return counts.front();
  if (!bits.empty()) return bits.front();
  return Count{b.constant(1, 0), 0};
}

// A part of a zero count's tree: whether any of its bits is set, and its
// count (`bits` bits, the part being 2^bits wide; 0 when none is set).
struct Scan {
  ValueId any;
  ValueId count;
  unsigned bits;
};

// `first` the half scanned first: its count while it has a set bit, else
// its width plus the other's count (0 with the top bit clear when neither has one).
ValueId combined_count(DfgBuilder& b, const Scan& first, const Scan& second) {
  const ValueId mine = b.zext(first.count, first.bits + 1);
  const ValueId past = b.concat({second.any, second.count});
  return b.mux(first.any, mine, past);
}

Scan combine(DfgBuilder& b, const Scan& first, const Scan& second) {
  return Scan{b.bor(first.any, second.any), combined_count(b, first, second), first.bits + 1};
}

// The least k with 2^k >= n (n >= 1).
unsigned levels_to_reach(unsigned n) { return static_cast<unsigned>(std::bit_width(n - 1)); }

// x padded to `size` bits (a power of two) with a 1 just past its end, below
// it for clz and above it for ctz: the count is x's, and w when x = 0.
ValueId padded(DfgBuilder& b, bool leading, ValueId x, unsigned size) {
  const unsigned w = b.width(x);
  if (size == w) return x;
  if (leading) return b.concat({x, b.constant(size - w, uint64_t{1} << (size - w - 1))});
  return b.concat({b.constant(size - w, 1), x});
}

// The zeros a group of `group` bits with value v starts (clz) or ends (ctz) with; `group` when v = 0.
uint64_t group_count(bool leading, unsigned group, uint64_t v) {
  if (v == 0) return group;
  return leading ? group - static_cast<unsigned>(std::bit_width(v)) : static_cast<unsigned>(std::countr_zero(v));
}

}  // namespace

ValueId lower_popcount(DfgBuilder& b, ValueId x, unsigned width) {
  const Known known = known_bits(b.graph(), x);
  std::vector<Count> counts, bits;
  const auto pop = [](uint64_t v) { return static_cast<uint64_t>(std::popcount(v)); };
  for (size_t i = 0; i < known.free.size(); i += 4) {
    const size_t n = std::min<size_t>(4, known.free.size() - i);
    const std::vector<unsigned> group(known.free.begin() + static_cast<std::ptrdiff_t>(i),
                                      known.free.begin() + static_cast<std::ptrdiff_t>(i + n));
    const ValueId index = gather(b, x, group);
    if (n == 1) bits.push_back(Count{index, 1});
    else counts.push_back(Count{lut_function(b, index, bits_for(n), pop), n});
  }
  const uint64_t ones = pop(known.ones);
  if (ones) counts.push_back(Count{b.constant(bits_for(ones), ones), ones});
  return b.resize(sum_counts(b, std::move(counts), std::move(bits)).v, width);
}

ValueId lower_zero_count(DfgBuilder& b, Op op, ValueId x, unsigned width) {
  const bool leading = op == Op::Clz;
  const unsigned w = b.width(x), size = 1u << levels_to_reach(w);
  const ValueId p = padded(b, leading, x, size);
  const unsigned group = std::min(4u, size), group_levels = levels_to_reach(group);
  const auto count_in = [&](uint64_t v) { return group_count(leading, group, v); };
  if (size == group) return b.resize(lut_function(b, p, group_levels + 1, count_in), width);
  std::vector<Scan> parts;  // least significant first
  for (unsigned i = 0; i < size; i += group) {
    // The group's table: "any" above its count (0 when none is set).
    const ValueId t = lut_function(b, b.slice(p, i, group), group_levels + 1, [&](uint64_t v) {
      return v == 0 ? 0 : count_in(v) | (uint64_t{1} << group_levels);
    });
    parts.push_back(Scan{b.bit(t, group_levels), b.slice(t, 0, group_levels), group_levels});
  }
  while (parts.size() > 2) {
    std::vector<Scan> next;
    for (size_t i = 0; i < parts.size(); i += 2)
      next.push_back(leading ? combine(b, parts[i + 1], parts[i]) : combine(b, parts[i], parts[i + 1]));
    parts = std::move(next);
  }
  const Scan& first = leading ? parts[1] : parts[0];
  const Scan& second = leading ? parts[0] : parts[1];
  // The last level: the count, and "no bit set" as one LUT on the halves' flags.
  const ValueId none = lut_function(b, b.concat({first.any, second.any}), 1, [](uint64_t v) { return v == 0 ? 1 : 0; });
  return b.resize(b.concat({none, combined_count(b, first, second)}), width);
}

namespace {

class CountLowerPass : public DfgRewriter {
 public:
  CountLowerPass(const Dfg& g, const LowerOptions& options) : DfgRewriter(g), options_(options) {}

 protected:
  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    const bool count = n.op == Op::Popcount || n.op == Op::Clz || n.op == Op::Ctz;
    if (!count || !lowering_pays(in_, v, options_)) return copy(v);
    if (n.op == Op::Popcount) return lower_popcount(b_, map(n.operands[0]), n.width);
    return lower_zero_count(b_, n.op, map(n.operands[0]), n.width);
  }

 private:
  LowerOptions options_;
};

}  // namespace

Dfg count_lower_pass(const Dfg& g, const LowerOptions& options) { return CountLowerPass(g, options).run(); }

}  // namespace polydat::hls
