#include "hls/xor_network_pass.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"

namespace polydat::hls {

namespace {

// Ids of base bits, sorted: the set a linear bit is the XOR of.
using Terms = std::vector<uint32_t>;

// One bit of a linear value: XOR(terms) ^ inverted.
struct LinearBit {
  Terms terms;
  bool inverted = false;
  unsigned levels = 0;   // LUT levels on the input graph's path to it
  bool reduced = false;  // an XorReduce is on that path (exempt from the level bound)
};
using LinearValue = std::vector<LinearBit>;  // least significant first

// ceil(log4 k): the LUT4 levels of a k-input function (k >= 1).
unsigned log4_levels(size_t k) {
  unsigned levels = 0;
  for (size_t reach = 1; reach < k; reach *= 4) ++levels;
  return levels;
}

// The levels an operation of k inputs adds: at least one LUT.
unsigned op_levels(size_t k) { return std::max(1u, log4_levels(k)); }

// What a bit costs in levels once rebuilt: one XOR of its terms, then the inverter.
unsigned rebuilt_levels(const LinearBit& bit) {
  if (bit.terms.empty()) return 0;
  return log4_levels(bit.terms.size()) + (bit.inverted ? 1 : 0);
}

void xor_into(LinearBit& into, const LinearBit& from) {
  Terms sum;
  sum.reserve(into.terms.size() + from.terms.size());
  std::set_symmetric_difference(into.terms.begin(), into.terms.end(), from.terms.begin(), from.terms.end(),
                                std::back_inserter(sum));
  into.terms = std::move(sum);
  into.inverted ^= from.inverted;
  into.levels = std::max(into.levels, from.levels);
  into.reduced = into.reduced || from.reduced;
}

LinearBit constant_bit(bool one) {
  LinearBit b;
  b.inverted = one;
  return b;
}

// The bits of values outside the networks, numbered densely: value by value
// as first read, each value's bits in order.
class BaseBits {
 public:
  explicit BaseBits(const Dfg& g) : g_(g) {}

  uint32_t id(ValueId v, unsigned bit) {
    auto [at, fresh] = first_.try_emplace(v, static_cast<uint32_t>(value_.size()));
    if (fresh)
      for (unsigned i = 0; i < g_.width(v); ++i) {
        value_.push_back(v);
        bit_.push_back(i);
      }
    return at->second + bit;
  }
  ValueId value(uint32_t id) const { return value_[id]; }
  unsigned bit(uint32_t id) const { return bit_[id]; }

 private:
  const Dfg& g_;
  std::map<ValueId, uint32_t> first_;
  std::vector<ValueId> value_;
  std::vector<unsigned> bit_;
};

bool is_linear_op(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  if (!n.is_op()) return false;
  switch (n.op) {
    case Op::Slice: case Op::Concat: case Op::ZExt: case Op::SExt:
    case Op::Not: case Op::Xor: case Op::XorReduce:
      return true;
    case Op::And: case Op::Or:  // with a constant mask: each bit passes or is a constant
      return n.operands.size() == 2 && g.is_constant(n.operands[0]) != g.is_constant(n.operands[1]);
    default: return false;
  }
}

// A connected set of linear operations.
struct Network {
  std::vector<ValueId> nodes;  // in graph order
  std::vector<ValueId> roots;  // those read from outside it (in graph order)
};

// Every live linear value's bits as XORs of base bits, and the networks they form.
class LinearAnalysis {
 public:
  LinearAnalysis(const Dfg& g, const std::vector<bool>& live, size_t max_terms)
      : g_(g), live_(live), max_terms_(max_terms), bases_(g), bits_(g.nodes.size()), parent_(g.nodes.size()) {
    std::iota(parent_.begin(), parent_.end(), 0);
    for (ValueId v = 0; v < g.nodes.size(); ++v)
      if (live_[v] && is_linear_op(g, v)) bits_[v] = value_bits(v);
    join_networks();
    find_roots();
  }

  bool in_network(ValueId v) const { return bits_[v].has_value(); }
  const LinearValue& bits(ValueId v) const { return *bits_[v]; }
  const BaseBits& bases() const { return bases_; }
  std::map<ValueId, Network>& networks() { return networks_; }
  // Read in another FSM region than its own: a register holds it there.
  bool held(ValueId v) const { return held_[v]; }

  // An edge inside a network: both ends linear and, in an FSM, in one region
  // (rebuilding across the loop boundary would keep more values in registers).
  bool joined(ValueId user, ValueId operand) const {
    return in_network(user) && in_network(operand) && g_.nodes[user].region == g_.nodes[operand].region;
  }

 private:
  // Operand o of linear user v: its bits in v's network, a constant, or base bits.
  LinearValue operand_bits(ValueId user, ValueId o) {
    if (bits_[o] && g_.nodes[user].region == g_.nodes[o].region) return *bits_[o];
    LinearValue out(g_.width(o));
    for (unsigned i = 0; i < out.size(); ++i) {
      if (g_.is_constant(o)) out[i] = constant_bit((g_.nodes[o].constant >> i) & 1);
      else out[i].terms = {bases_.id(o, i)};
    }
    return out;
  }

  // The bits of linear operation v, or nothing when a bit has too many terms.
  std::optional<LinearValue> value_bits(ValueId v) {
    LinearValue out = operation_bits(v);
    for (const LinearBit& b : out)
      if (b.terms.size() > max_terms_) return std::nullopt;
    return out;
  }

  LinearValue operation_bits(ValueId v) {
    const Node& n = g_.nodes[v];
    auto operand = [&](size_t i) { return operand_bits(v, n.operands[i]); };
    switch (n.op) {
      case Op::Slice: {
        LinearValue x = operand(0);
        return LinearValue(x.begin() + n.param, x.begin() + n.param + n.width);
      }
      case Op::Concat: {
        LinearValue out;
        for (size_t i = n.operands.size(); i-- > 0;) {
          LinearValue part = operand(i);
          out.insert(out.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
        }
        return out;
      }
      case Op::ZExt: case Op::SExt: {
        LinearValue out = operand(0);
        const LinearBit fill = n.op == Op::SExt ? out.back() : constant_bit(false);
        out.resize(n.width, fill);
        return out;
      }
      case Op::Not: {
        LinearValue out = operand(0);
        for (LinearBit& b : out) {
          b.inverted = !b.inverted;
          b.levels += 1;
        }
        return out;
      }
      case Op::Xor: return xor_bits(v);
      case Op::And: case Op::Or: return masked_bits(v);
      case Op::XorReduce: return {reduced_bit(operand(0))};
      default: return {};
    }
  }

  LinearValue xor_bits(ValueId v) {
    const Node& n = g_.nodes[v];
    LinearValue out(n.width);
    for (ValueId o : n.operands) {
      const LinearValue x = operand_bits(v, o);
      for (unsigned i = 0; i < n.width; ++i) xor_into(out[i], x[i]);
    }
    for (LinearBit& b : out) b.levels += op_levels(n.operands.size());
    return out;
  }

  // x & c: a bit of x where c has a one, else 0; x | c: a bit of x where c has a zero, else 1.
  LinearValue masked_bits(ValueId v) {
    const Node& n = g_.nodes[v];
    const size_t k = g_.is_constant(n.operands[0]) ? 0 : 1;
    const uint64_t mask = g_.nodes[n.operands[k]].constant;
    LinearValue out = operand_bits(v, n.operands[1 - k]);
    const bool and_op = n.op == Op::And;
    for (unsigned i = 0; i < n.width; ++i) {
      const bool c = (mask >> i) & 1;
      if (c != and_op) out[i] = constant_bit(!and_op);
      else out[i].levels += 1;
    }
    return out;
  }

  LinearBit reduced_bit(const LinearValue& x) {
    LinearBit out;
    for (const LinearBit& b : x) xor_into(out, b);
    out.levels += op_levels(x.size());
    out.reduced = true;
    return out;
  }

  ValueId find(ValueId v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }

  void join_networks() {
    for (ValueId v = 0; v < g_.nodes.size(); ++v) {
      if (!in_network(v)) continue;
      for (ValueId o : g_.nodes[v].operands)
        if (joined(v, o)) parent_[find(o)] = find(v);
    }
    for (ValueId v = 0; v < g_.nodes.size(); ++v) {
      if (!in_network(v)) continue;
      Network& net = networks_[find(v)];
      net.nodes.push_back(v);
    }
  }

  // A network value is a root when something outside its network reads it;
  // in an FSM it is held in a register when that reader is in another region.
  void find_roots() {
    root_.assign(g_.nodes.size(), false);
    held_.assign(g_.nodes.size(), false);
    auto read_outside = [&](ValueId v, Region reader) {
      if (!in_network(v)) return;
      root_[v] = true;
      held_[v] = held_[v] || (g_.loop && reader != g_.nodes[v].region);
    };
    for (ValueId u = 0; u < g_.nodes.size(); ++u) {
      if (!live_[u] || !g_.is_op(u)) continue;
      for (ValueId o : g_.nodes[u].operands)
        if (!joined(u, o)) read_outside(o, g_.nodes[u].region);
    }
    for (const DfgPort& p : g_.outputs) read_outside(p.value, Region::Post);
    if (g_.loop) {
      for (ValueId v : g_.loop->init) read_outside(v, Region::Pre);
      for (ValueId v : g_.loop->next) read_outside(v, Region::Loop);
      read_outside(g_.loop->cond, Region::Loop);
    }
    for (auto& [rep, net] : networks_)
      for (ValueId v : net.nodes)
        if (root_[v]) net.roots.push_back(v);
  }

  const Dfg& g_;
  const std::vector<bool>& live_;
  size_t max_terms_;
  BaseBits bases_;
  std::vector<std::optional<LinearValue>> bits_;
  std::vector<ValueId> parent_;
  std::map<ValueId, Network> networks_;
  std::vector<bool> root_, held_;
};

constexpr size_t kLutInputs = 4;

// A function of k signals, built from LUT4s: an XOR of k inputs, an inverter
// (k = 1, inverted), a wire or a constant.
double function_area(size_t k, bool inverted, Target target) {
  OpShape s;
  s.op = k >= 2 ? Op::Xor : Op::Not;
  s.operands = static_cast<unsigned>(std::max<size_t>(k, 1));
  if (k >= 2 || (k == 1 && inverted)) return op_cost(target, s).area;
  return 0;
}

// What a rebuilt root adds to the model, and how many operations.
struct FormCost {
  double model = 0;
  size_t ops = 0;
};

// The root bit by bit: one XOR per distinct set, an inverter per set wanted inverted.
FormCost bits_form_cost(const LinearValue& bits, Target target) {
  std::map<Terms, bool> inverted;
  for (const LinearBit& bit : bits)
    if (!bit.terms.empty()) inverted[bit.terms] = inverted[bit.terms] || bit.inverted;
  FormCost c;
  for (const auto& [terms, inv] : inverted) {
    if (terms.size() >= 2) {
      c.model += function_area(terms.size(), false, target);
      ++c.ops;
    }
    if (inv) {
      c.model += function_area(1, true, target);
      ++c.ops;
    }
  }
  return c;
}

// The root as one XOR as wide as the span of its bits with terms: each term
// of bit i is bit (i + k) mod w of a base value of w bits, and the terms of
// one alignment (base value, k) make one operand, a shifted or rotated slice
// of it (zeros where a bit has no such term); the inverted bits one constant.
struct WordPlan {
  unsigned lo = 0, width = 0;
  std::map<std::pair<ValueId, unsigned>, std::vector<bool>> alignments;  // -> the span bits it covers
  uint64_t constant = 0;                                                 // over the span

  size_t operands() const {
    return alignments.size() + (constant != 0 && constant != width_mask(width) ? 1 : 0);
  }
  bool inverts() const { return constant != 0 && constant == width_mask(width); }
  // ceil(log4) levels of the XOR, then the inverter.
  unsigned levels() const { return log4_levels(operands()) + (inverts() ? 1 : 0); }

  FormCost cost(Target target) const {
    FormCost c;
    OpShape s;
    s.op = Op::Xor;
    s.width = width;
    s.operands = static_cast<unsigned>(operands());
    if (operands() >= 2) {
      c.model += op_cost(target, s).area;
      ++c.ops;
    }
    if (inverts()) {
      c.model += width * function_area(1, true, target);
      ++c.ops;
    }
    return c;
  }
};

std::optional<WordPlan> word_plan(const Dfg& g, const BaseBits& bases, const LinearValue& bits) {
  WordPlan plan;
  unsigned hi = 0;
  bool any = false;
  for (unsigned i = 0; i < bits.size(); ++i)
    if (!bits[i].terms.empty()) {
      if (!any) plan.lo = i;
      hi = i;
      any = true;
    }
  if (!any) return std::nullopt;
  plan.width = hi - plan.lo + 1;
  for (unsigned j = 0; j < plan.width; ++j) {
    const unsigned i = plan.lo + j;
    if (bits[i].inverted) plan.constant |= uint64_t{1} << j;
    for (uint32_t t : bits[i].terms) {
      const ValueId base = bases.value(t);
      const unsigned w = g.width(base);
      auto& covered = plan.alignments[{base, (bases.bit(t) + w - i % w) % w}];
      covered.resize(plan.width, false);
      covered[j] = true;
    }
  }
  return plan;
}

// Builds linear values from base bits: each bit one XOR of 1-bit slices (an
// inverter for a constant 1), the bits concatenated. The builder shares equal
// XORs, so bits with one set are one node.
class BitNetworkBuilder {
 public:
  BitNetworkBuilder(DfgBuilder& b, const BaseBits& bases, std::function<ValueId(ValueId)> base_value, bool trees)
      : b_(b), bases_(bases), base_value_(std::move(base_value)), trees_(trees) {}

  ValueId value(const LinearValue& bits) {
    std::vector<ValueId> parts;  // most significant first
    for (size_t i = bits.size(); i-- > 0;) parts.push_back(bit(bits[i]));
    return parts.size() == 1 ? parts[0] : b_.concat(std::move(parts));
  }

  // The value as one wide XOR over the plan's span, constant bits around it.
  ValueId word(const LinearValue& bits, const WordPlan& plan) {
    std::vector<ValueId> operands;
    for (const auto& [alignment, covered] : plan.alignments)
      operands.push_back(aligned(alignment.first, alignment.second, covered, plan.lo));
    operands.push_back(b_.constant(plan.width, plan.constant));
    const ValueId x = b_.op(Op::Xor, plan.width, std::move(operands));
    std::vector<ValueId> parts;  // most significant first
    for (size_t i = bits.size(); i-- > plan.lo + plan.width;) parts.push_back(bit(bits[i]));
    parts.push_back(x);
    for (size_t i = plan.lo; i-- > 0;) parts.push_back(bit(bits[i]));
    return parts.size() == 1 ? parts[0] : b_.concat(std::move(parts));
  }

 private:
  // Span bit j is bit (lo + j + k) mod w of the base where covered, else 0:
  // runs of slices and zeros.
  ValueId aligned(ValueId base, unsigned k, const std::vector<bool>& covered, unsigned lo) {
    const ValueId v = base_value_(base);
    const unsigned w = b_.width(v);
    std::vector<ValueId> parts;  // least significant first
    for (unsigned j = 0; j < covered.size();) {
      const unsigned from = (lo + j + k) % w;
      unsigned n = 1;
      while (j + n < covered.size() && covered[j + n] == covered[j] && (!covered[j] || from + n < w)) ++n;
      parts.push_back(covered[j] ? b_.slice(v, from, n) : b_.constant(n, 0));
      j += n;
    }
    std::reverse(parts.begin(), parts.end());
    return parts.size() == 1 ? parts[0] : b_.concat(std::move(parts));
  }

  ValueId bit(const LinearBit& bit) {
    if (bit.terms.empty()) return b_.constant(1, bit.inverted ? 1 : 0);
    std::vector<ValueId> leaves;
    for (uint32_t t : bit.terms) leaves.push_back(b_.bit(base_value_(bases_.value(t)), bases_.bit(t)));
    const ValueId x = xor_of(std::move(leaves));
    return bit.inverted ? b_.bnot(x) : x;
  }

  // One n-ary XOR, or a balanced tree of 4-input ones.
  ValueId xor_of(std::vector<ValueId> leaves) {
    if (leaves.size() == 1) return leaves[0];
    if (!trees_) return b_.op(Op::Xor, 1, std::move(leaves));
    return tree(leaves, 0, leaves.size());
  }

  // The XOR of leaves [from, to) in ceil(log4 n) levels of ceil((n - 1) / 3)
  // XORs: the root's four slots take, in turn, the largest full sub-tree that
  // leaves each later slot a leaf, the last slot the rest. Bits whose sorted
  // sets share a prefix share those sub-trees.
  ValueId tree(const std::vector<ValueId>& leaves, size_t from, size_t to) {
    const size_t n = to - from;
    if (n == 1) return leaves[from];
    size_t cap = 1;  // the most leaves a slot may take: 4^(depth - 1)
    while (cap * 4 < n) cap *= 4;
    std::vector<ValueId> parts;
    size_t at = from;
    for (size_t slots = 4; at < to; --slots) {
      const size_t left = to - at;
      size_t take = 1;
      if (slots == 1) {
        take = left;
      } else if (left > slots) {
        const size_t room = std::min(cap, left - (slots - 1));
        while (take * 4 <= room) take *= 4;
      }
      parts.push_back(tree(leaves, at, at + take));
      at += take;
    }
    return b_.op(Op::Xor, 1, std::move(parts));
  }

  DfgBuilder& b_;
  const BaseBits& bases_;
  std::function<ValueId(ValueId)> base_value_;
  bool trees_;
};

// The LUT4s a mapper needs for a network as it stands, estimated bit by bit.
// A bit's XOR stays virtual (folded into its readers' LUTs, copied into each)
// while it depends on at most four signals; a reader that would depend on
// more makes its virtual operands real LUTs first, and if it still depends on
// more becomes a tree of ceil((k - 1) / 3) LUTs itself. Roots are made real.
// Inversions are free inside a LUT. Constant bits (a shift's zeros, a mask)
// cost nothing.
class LutPacking {
 public:
  LutPacking(const Dfg& g, const LinearAnalysis& a, Target target) : g_(g), a_(a), target_(target) {
    pool_.push_back(Cone{});  // the constant 0
    pool_.push_back(Cone{{}, true});
  }

  double area(const Network& net) {
    for (ValueId v : net.nodes) refs_[v] = node_cones(v);
    for (ValueId r : net.roots)
      for (uint32_t c : refs_[r]) make_real(c);
    return area_;
  }

 private:
  using Signals = std::vector<uint64_t>;  // sorted
  struct Cone {
    Signals leaves;         // what a virtual cone depends on
    bool inverted = false;  // a virtual cone's constant 1
    bool real = false;      // built: then one signal
    uint64_t signal = 0;
  };

  std::vector<uint32_t> node_cones(ValueId v) {
    const Node& n = g_.nodes[v];
    auto operand = [&](size_t k) { return operand_cones(v, n.operands[k]); };
    switch (n.op) {
      case Op::Slice: {
        const std::vector<uint32_t> x = operand(0);
        return std::vector<uint32_t>(x.begin() + n.param, x.begin() + n.param + n.width);
      }
      case Op::Concat: {
        std::vector<uint32_t> out;
        for (size_t k = n.operands.size(); k-- > 0;) {
          const std::vector<uint32_t> part = operand(k);
          out.insert(out.end(), part.begin(), part.end());
        }
        return out;
      }
      case Op::ZExt: case Op::SExt: {
        std::vector<uint32_t> out = operand(0);
        out.resize(n.width, n.op == Op::SExt ? out.back() : 0);
        return out;
      }
      case Op::Not: {
        std::vector<uint32_t> out;
        for (uint32_t c : operand(0)) out.push_back(inverse(c));
        return out;
      }
      case Op::And: case Op::Or: {
        const size_t k = g_.is_constant(n.operands[0]) ? 0 : 1;
        const uint64_t mask = g_.nodes[n.operands[k]].constant;
        std::vector<uint32_t> out = operand(1 - k);
        for (unsigned i = 0; i < n.width; ++i)
          if (((mask >> i) & 1) != (n.op == Op::And)) out[i] = n.op == Op::And ? 0 : 1;
        return out;
      }
      case Op::Xor: {
        std::vector<std::vector<uint32_t>> xs;
        for (size_t k = 0; k < n.operands.size(); ++k) xs.push_back(operand(k));
        std::vector<uint32_t> out;
        for (unsigned i = 0; i < n.width; ++i) {
          std::vector<uint32_t> bit;
          for (const auto& x : xs) bit.push_back(x[i]);
          out.push_back(xor_cone(bit));
        }
        return out;
      }
      case Op::XorReduce: return {xor_cone(operand(0))};
      default: return {};
    }
  }

  // Operand o's bits as network node `user` reads them: its cones, constants, or base signals.
  std::vector<uint32_t> operand_cones(ValueId user, ValueId o) {
    if (a_.joined(user, o)) return refs_.at(o);
    std::vector<uint32_t> out;
    for (unsigned i = 0; i < g_.width(o); ++i) {
      if (g_.is_constant(o)) {
        out.push_back((g_.nodes[o].constant >> i) & 1);
        continue;
      }
      const uint64_t signal = (uint64_t{o} << 7) | i;
      auto [at, fresh] = base_.try_emplace(signal, static_cast<uint32_t>(pool_.size()));
      if (fresh) pool_.push_back(Cone{{}, false, true, signal});
      out.push_back(at->second);
    }
    return out;
  }

  uint32_t add(Cone c) {
    pool_.push_back(std::move(c));
    return static_cast<uint32_t>(pool_.size() - 1);
  }

  uint32_t inverse(uint32_t c) {
    Cone x = pool_[c];
    if (x.real) x = Cone{{x.signal}, false};
    x.inverted = !x.inverted;
    return add(std::move(x));
  }

  // The XOR of the cones as the signals it depends on.
  Cone gather(const std::vector<uint32_t>& cones) const {
    Cone out;
    for (uint32_t c : cones) {
      const Cone& x = pool_[c];
      const Signals one{x.signal};
      const Signals& leaves = x.real ? one : x.leaves;
      Signals sum;
      std::set_symmetric_difference(out.leaves.begin(), out.leaves.end(), leaves.begin(), leaves.end(),
                                    std::back_inserter(sum));
      out.leaves = std::move(sum);
      if (!x.real) out.inverted ^= x.inverted;
    }
    return out;
  }

  uint32_t xor_cone(const std::vector<uint32_t>& cones) {
    Cone out = gather(cones);
    if (out.leaves.size() <= kLutInputs) return add(std::move(out));
    for (uint32_t c : cones)
      if (!pool_[c].real && pool_[c].leaves.size() >= 2) make_real(c);
    out = gather(cones);
    const uint32_t at = add(std::move(out));
    if (pool_[at].leaves.size() > kLutInputs) make_real(at);
    return at;
  }

  void make_real(uint32_t c) {
    Cone& x = pool_[c];
    if (x.real || x.leaves.empty()) return;  // constants stay constants
    area_ += function_area(x.leaves.size(), x.inverted, target_);
    x.real = true;
    x.signal = x.leaves.size() == 1 && !x.inverted ? x.leaves[0] : (uint64_t{1} << 63) | c;
  }

  const Dfg& g_;
  const LinearAnalysis& a_;
  Target target_;
  std::vector<Cone> pool_;
  std::map<uint64_t, uint32_t> base_;
  std::map<ValueId, std::vector<uint32_t>> refs_;
  double area_ = 0;
};

// A network's cost: first the LUT4s a mapper builds, then, between equals,
// the operation-by-operation model the scheduler and the report read.
struct Cost {
  double luts = 0;
  double model = 0;
  bool operator<(const Cost& o) const { return luts != o.luts ? luts < o.luts : model < o.model; }
};

// The roots rebuilt: one XOR per distinct set of base bits (the builder
// shares them), and an inverter per set wanted inverted (which a LUT absorbs
// unless the set is also wanted plain or is a single bit).
Cost rebuilt_cost(const LinearAnalysis& a, const Network& net, Target target) {
  std::map<Terms, std::pair<bool, bool>> wanted;  // set -> (plain, inverted)
  for (ValueId r : net.roots)
    for (const LinearBit& bit : a.bits(r)) {
      auto& ways = wanted[bit.terms];
      (bit.inverted ? ways.second : ways.first) = true;
    }
  Cost c;
  for (const auto& [terms, ways] : wanted) {
    const double xor_area = terms.size() >= 2 ? function_area(terms.size(), false, target) : 0;
    const double inverter = terms.empty() || !ways.second ? 0 : function_area(1, true, target);
    c.luts += xor_area + (ways.second && (terms.size() == 1 || ways.first) ? inverter : 0);
    c.model += xor_area + inverter;
  }
  return c;
}

double op_area(const Dfg& g, ValueId v, Target target) { return op_cost(target, shape_of(g, v, false)).area; }

class XorNetworkRewriter : public DfgRewriter {
 public:
  XorNetworkRewriter(const Dfg& in, const XorNetworkOptions& options, XorNetworkStats& stats)
      : DfgRewriter(in), options_(options), stats_(stats) {}

 protected:
  void prepare() override {
    analysis_.emplace(in_, live_, options_.max_terms);
    rebuild_.assign(in_.nodes.size(), false);
    for (auto& [rep, net] : analysis_->networks()) decide(net);
  }

  ValueId rewrite(ValueId v) override {
    if (!rebuild_[v]) return copy(v);
    BitNetworkBuilder nb(b_, analysis_->bases(), [this](ValueId base) { return map(base); }, options_.balanced_trees);
    if (auto it = word_.find(v); it != word_.end()) return nb.word(analysis_->bits(v), it->second);
    return nb.value(analysis_->bits(v));
  }

 private:
  // Rebuild the network's roots when the LUT mapper would need fewer LUT4s;
  // when it would need as many, only if the model costs less without more
  // operations (the network as one wide XOR, or collapsed to wiring); and
  // never when a bit gets deeper than allowed.
  void decide(Network& net) {
    size_t ops_before = 0;
    Cost before;
    for (ValueId v : net.nodes)
      if (in_.is_logic(v)) {
        before.model += op_area(in_, v, options_.target);
        ++ops_before;
      }
    if (ops_before == 0) return;
    ++stats_.regions;
    before.luts = LutPacking(in_, *analysis_, options_.target).area(net);
    Cost after = rebuilt_cost(*analysis_, net, options_.target);
    after.model = 0;
    size_t ops_after = 0;
    std::map<ValueId, WordPlan> words;
    for (ValueId r : net.roots) {
      const FormCost c = choose_form(r, words);
      after.model += c.model;
      ops_after += c.ops;
    }
    const bool cheaper = after.luts < before.luts || (after.luts == before.luts && after.model < before.model &&
                                                      ops_after <= ops_before);
    if (!cheaper) return;
    if (too_deep(net, words)) {
      ++stats_.too_deep;
      return;
    }
    if (widens_registers(net)) {
      ++stats_.held;
      return;
    }
    ++stats_.rebuilt;
    stats_.area_before += before.luts;
    stats_.area_after += after.luts;
    for (ValueId r : net.roots) rebuild_[r] = true;
    stats_.wide_roots += words.size();
    stats_.bit_roots += net.roots.size() - words.size();
    word_.merge(words);
  }

  // One wide XOR where the model finds it no dearer than the bits apart and
  // it is no deeper than allowed (it is what the source wrote, unfragmented).
  FormCost choose_form(ValueId root, std::map<ValueId, WordPlan>& words) const {
    const LinearValue& bits = analysis_->bits(root);
    const FormCost apart = bits_form_cost(bits, options_.target);
    const auto plan = word_plan(in_, analysis_->bases(), bits);
    if (!plan || plan->width == 1) return apart;  // one bit: the bits apart (as a tree, if asked)
    const FormCost whole = plan->cost(options_.target);
    if (whole.model > apart.model || word_too_deep(bits, *plan)) return apart;
    words.emplace(root, *plan);
    return whole;
  }

  bool deeper_than_allowed(const LinearBit& bit, unsigned levels) const {
    return !bit.reduced && levels > bit.levels + options_.extra_levels;
  }

  bool word_too_deep(const LinearValue& bits, const WordPlan& plan) const {
    for (unsigned j = 0; j < plan.width; ++j) {
      const LinearBit& bit = bits[plan.lo + j];
      if (!bit.terms.empty() && deeper_than_allowed(bit, plan.levels())) return true;  // a constant bit folds
    }
    return false;
  }

  bool too_deep(const Network& net, const std::map<ValueId, WordPlan>& words) const {
    for (ValueId r : net.roots) {
      if (words.count(r)) continue;  // checked when chosen
      for (const LinearBit& bit : analysis_->bits(r))
        if (deeper_than_allowed(bit, rebuilt_levels(bit))) return true;
    }
    return false;
  }

  // A held root rebuilt with a bit that is a plain bit of a computed value
  // would hold that whole value in registers, where it held one bit a bit.
  bool widens_registers(const Network& net) const {
    for (ValueId r : net.roots) {
      if (!analysis_->held(r)) continue;
      for (const LinearBit& bit : analysis_->bits(r)) {
        if (bit.terms.size() != 1 || bit.inverted) continue;
        const NodeKind base = in_.nodes[analysis_->bases().value(bit.terms[0])].kind;
        if (base == NodeKind::Input || base == NodeKind::Op) return true;
      }
    }
    return false;
  }

  const XorNetworkOptions& options_;
  XorNetworkStats& stats_;
  std::optional<LinearAnalysis> analysis_;
  std::vector<bool> rebuild_;
  std::map<ValueId, WordPlan> word_;  // roots rebuilt as one wide XOR
};

}  // namespace

Dfg xor_network_pass(const Dfg& g, const XorNetworkOptions& options, XorNetworkStats* stats) {
  XorNetworkStats local;
  Dfg classified = g;  // the FSM regions bound the networks: make sure they are current
  classify_regions(classified);
  // Interior nodes of rebuilt networks were copied too: cleanup drops them.
  return cleanup(XorNetworkRewriter(classified, options, stats ? *stats : local).run());
}

Dfg xor_network_pass(const Dfg& g) { return xor_network_pass(g, XorNetworkOptions{}); }

double live_logic_area(const Dfg& g, Target target) {
  const std::vector<bool> live = g.live();
  double area = 0;
  for (ValueId v = 0; v < g.nodes.size(); ++v)
    if (live[v] && g.is_logic(v)) area += op_area(g, v, target);
  return area;
}

}  // namespace polydat::hls
