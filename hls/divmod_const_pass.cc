#include "hls/divmod_const_pass.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "hls/dfg_builder.h"
#include "hls/dfg_eval.h"
#include "hls/dfg_rewrite.h"
#include "hls/divmod_cost.h"
#include "hls/divmod_lowering.h"
#include "hls/divmod_plan.h"

namespace polydat::hls {

namespace {

using divmod::as_signed_magnitude;
using divmod::Division;
using divmod::kInfinity;
using divmod::kTarget;
using divmod::Lowering;
using divmod::Method;
using divmod::Needs;
using divmod::Parts;
using divmod::u128;
using divmod::width_for;

// The ways choose() weighs, in the order that breaks ties.
constexpr Method kMethods[] = {Method::Table, Method::Restoring, Method::ResidueInverse, Method::Reciprocal,
                               Method::ReciprocalResidue, Method::SignedTable, Method::FloorResidue};

// The cheapest way (estimated area, then delay) among those that apply, or
// the one asked for when it applies.
Method choose(Lowering& low, const Division& d, Method asked) {
  const uint64_t half = uint64_t{1} << (d.w - 1);
  const uint64_t xmax = d.sgn && d.xmax >= half ? half : d.xmax;
  const uint64_t c = d.sgn ? as_signed_magnitude(d.c, d.w) : d.c;
  std::vector<Method> methods;
  for (Method m : kMethods)
    if (low.applicable(m, d, xmax, c)) methods.push_back(m);
  if (std::find(methods.begin(), methods.end(), asked) != methods.end()) return asked;
  Method best = methods.front();
  ArithmeticEstimate best_cost{kInfinity, 0, kInfinity};
  for (Method method : methods) {
    Dfg scratch;
    DfgBuilder b(scratch);
    Node in;
    in.kind = NodeKind::Input;
    in.width = d.w;
    const ValueId x = b.raw(in);
    const Parts p = build_general(low, b, x, d, method);
    std::vector<ValueId> roots;
    if (d.needs.q) roots.push_back(p.q);
    if (d.needs.r) roots.push_back(p.r);
    const ArithmeticEstimate e = estimate_arithmetic(scratch, roots, kTarget);
    if (std::tie(e.area, e.delay_ns) < std::tie(best_cost.area, best_cost.delay_ns)) {
      best = method;
      best_cost = e;
    }
  }
  return best;
}

// A bound on v's value from its structure (zero-extended, sliced, masked ...).
// Not BitFacts: it bounds nodes of out_ while they are built, and BitFacts' other bounds would change the circuits.
class Bounds {
 public:
  explicit Bounds(const Dfg& g) : g_(g) {}

  uint64_t max(ValueId v, unsigned depth = 0) {
    if (auto it = memo_.find(v); it != memo_.end()) return it->second;
    // A bound cut short by the depth limit is looser, still sound: memoised all the same.
    return memo_[v] = compute(v, depth);
  }

 private:
  uint64_t compute(ValueId v, unsigned depth) {
    const Node& n = g_.nodes[v];
    const uint64_t all = width_mask(n.width);
    if (n.kind == NodeKind::Constant) return n.constant & all;
    if (!n.is_op() || depth > 16) return all;
    auto sub = [&](size_t i) { return max(n.operands[i], depth + 1); };
    auto capped = [&](u128 x) { return x > all ? all : static_cast<uint64_t>(x); };
    switch (n.op) {
      case Op::ZExt: return sub(0);
      case Op::Slice: return std::min(all, sub(0) >> n.param);
      case Op::Concat: {
        u128 total = 0;
        for (size_t i = 0; i < n.operands.size(); ++i) total = (total << g_.nodes[n.operands[i]].width) | sub(i);
        return capped(total);
      }
      case Op::And: {
        uint64_t m = all;
        for (size_t i = 0; i < n.operands.size(); ++i) m = std::min(m, sub(i));
        return m;
      }
      case Op::Or: case Op::Xor: {
        uint64_t m = 0;
        for (size_t i = 0; i < n.operands.size(); ++i) m = std::max(m, sub(i));
        return width_mask(width_for(m)) & all;
      }
      case Op::Mux: return std::max(sub(1), sub(2));
      case Op::Rom: {
        uint64_t m = 0;
        for (uint64_t e : n.table) m = std::max(m, e & all);
        return m;
      }
      case Op::Popcount: case Op::Clz: case Op::Ctz: return std::min<uint64_t>(all, g_.nodes[n.operands[0]].width);
      case Op::Add: {
        u128 total = u128{sub(0)} + sub(1) + (n.operands.size() > 2 ? sub(2) : 0);
        return total > all ? all : static_cast<uint64_t>(total);
      }
      case Op::Mul: return capped(u128{sub(0)} * sub(1));
      default: return all;
    }
  }

  const Dfg& g_;
  std::map<ValueId, uint64_t> memo_;
};

class DivmodConstRewriter : public DfgRewriter {
 public:
  DivmodConstRewriter(const Dfg& g, Method method) : DfgRewriter(g), method_(method), bounds_(out_) {}

 protected:
  using Key = std::tuple<ValueId, ValueId, unsigned, bool>;  // dividend, divisor, width, signed (input nodes)

  // A Div or Mod whose divisor is constant or an operation of constants (the
  // builder folds those); others may still fold to a constant (x ^ x): rewrite() looks again.
  bool is_target(ValueId v) const {
    const Node& n = in_.nodes[v];
    return n.is_op() && (n.op == Op::Div || n.op == Op::Mod) && constant_valued_[n.operands[1]];
  }

  Key key_of(ValueId v) const {
    const Node& n = in_.nodes[v];
    return {n.operands[0], n.operands[1], n.width, n.sgn};
  }

  void prepare() override {
    // The builder folds every operation of constants: these map to Constant nodes.
    // Not BitFacts' constants: which divisors the builder will fold decides the pairs, not which values are known.
    constant_valued_.assign(in_.nodes.size(), false);
    for (ValueId v = 0; v < in_.nodes.size(); ++v) {
      const Node& n = in_.nodes[v];
      bool all = n.kind == NodeKind::Constant || (n.is_op() && !n.operands.empty());
      for (ValueId o : n.operands) all = all && constant_valued_[o];
      constant_valued_[v] = all && n.kind != NodeKind::Input && n.kind != NodeKind::Config && n.kind != NodeKind::State;
    }
    for (ValueId v = 0; v < in_.nodes.size(); ++v) {
      if (!live_[v] || !is_target(v)) continue;
      Needs& needs = needs_[key_of(v)];
      (in_.nodes[v].op == Op::Div ? needs.q : needs.r) = true;
    }
  }

  ValueId rewrite(ValueId v) override {
    const Node& n = in_.nodes[v];
    if (!(n.is_op() && (n.op == Op::Div || n.op == Op::Mod) && out_.is_constant(map(n.operands[1])))) return copy(v);
    const Key key = key_of(v);
    const bool div = n.op == Op::Div;
    Built& built = built_[key];
    std::optional<ValueId>& result = div ? built.q : built.r;
    if (!result) {  // both of a pair at the first, or this one alone when the divisor folded unforeseen
      Needs needs = needs_[key];
      (div ? needs.q : needs.r) = true;
      needs.q = needs.q && !built.q;
      needs.r = needs.r && !built.r;
      const Parts p = lower(key, needs);
      if (needs.q) built.q = p.q;
      if (needs.r) built.r = p.r;
    }
    return *result;
  }

 private:
  struct Built {
    std::optional<ValueId> q, r;
  };

  Parts lower(const Key& key, Needs needs) {
    const auto [x_in, c_in, w, sgn] = key;
    const ValueId x = map(x_in), c = map(c_in);
    Division d{out_.nodes[c].constant & width_mask(w), w, sgn, bounds_.max(x), needs};
    if (auto p = build_special(b_, x, d)) return *p;
    return build_general(lowering_, b_, x, d, choose(lowering_, d, method_));
  }

  Method method_;
  Bounds bounds_;
  Lowering lowering_;
  std::vector<bool> constant_valued_;
  std::map<Key, Needs> needs_;
  std::map<Key, Built> built_;
};

}  // namespace

Dfg divmod_const_pass(const Dfg& g, DivmodMethod method) { return cleanup(DivmodConstRewriter(g, method).run()); }

Dfg divmod_const_pass(const Dfg& g) { return divmod_const_pass(g, DivmodMethod::Cheapest); }

}  // namespace polydat::hls
