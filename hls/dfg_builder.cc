#include "hls/dfg_builder.h"

#include <algorithm>
#include <limits>

#include "hls/dfg_eval.h"

namespace polydat::hls {

namespace {

constexpr ValueId kNone = std::numeric_limits<ValueId>::max();

bool commutative(Op op) {
  switch (op) {
    case Op::And: case Op::Or: case Op::Xor: case Op::Eq: case Op::Ne: case Op::Mul: return true;
    default: return false;
  }
}

}  // namespace

DfgBuilder::DfgBuilder(Dfg& g) : g_(g) {
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    const Node& n = g.nodes[v];
    if (n.kind == NodeKind::Constant || n.kind == NodeKind::Op)
      seen_.emplace(Key{static_cast<uint8_t>(n.kind), static_cast<uint8_t>(n.op), n.width, n.sgn, n.param, n.operands,
                        n.constant, n.table},
                    v);
  }
}

ValueId DfgBuilder::raw(Node n) {
  g_.nodes.push_back(std::move(n));
  return static_cast<ValueId>(g_.nodes.size() - 1);
}

ValueId DfgBuilder::intern(Node n) {
  Key k{static_cast<uint8_t>(n.kind), static_cast<uint8_t>(n.op), n.width, n.sgn, n.param, n.operands, n.constant,
        n.table};
  auto it = seen_.find(k);
  if (it != seen_.end()) return it->second;
  const ValueId v = raw(std::move(n));
  seen_.emplace(std::move(k), v);
  return v;
}

bool DfgBuilder::is_constant(ValueId v, uint64_t* bits) const {
  if (g_.nodes[v].kind != NodeKind::Constant) return false;
  if (bits) *bits = g_.nodes[v].constant;
  return true;
}

ValueId DfgBuilder::constant(unsigned width, uint64_t bits) {
  Node n;
  n.kind = NodeKind::Constant;
  n.width = width;
  n.constant = bits & width_mask(width);
  return intern(std::move(n));
}

ValueId DfgBuilder::op(Op op, unsigned width, std::vector<ValueId> operands, bool sgn, uint32_t param,
                       std::vector<uint64_t> table) {
  bool all_constant = !operands.empty();
  for (ValueId o : operands) all_constant = all_constant && is_constant(o);
  if (all_constant) {
    Node n;
    n.op = op;
    n.width = width;
    n.sgn = sgn;
    n.param = param;
    n.table = table;
    std::vector<uint64_t> x;
    std::vector<unsigned> xw;
    for (ValueId o : operands) {
      x.push_back(g_.nodes[o].constant);
      xw.push_back(g_.nodes[o].width);
    }
    return constant(width, eval_node(n, x, xw));
  }
  if (ValueId s = simplify(op, width, operands, sgn, param, table); s != kNone) return s;
  if (commutative(op)) std::sort(operands.begin(), operands.end());
  if (op == Op::Add) std::sort(operands.begin(), operands.begin() + 2);
  Node n;
  n.kind = NodeKind::Op;
  n.op = op;
  n.width = width;
  n.sgn = sgn;
  n.operands = std::move(operands);
  n.param = param;
  n.table = std::move(table);
  n.name = name_;
  n.loc = loc_;
  return intern(std::move(n));
}

ValueId DfgBuilder::slice(ValueId v, unsigned lo, unsigned width) { return op(Op::Slice, width, {v}, false, lo); }

ValueId DfgBuilder::concat(std::vector<ValueId> parts) {
  unsigned w = 0;
  for (ValueId p : parts) w += width(p);
  return op(Op::Concat, w, std::move(parts));
}

ValueId DfgBuilder::zext(ValueId v, unsigned width) { return op(Op::ZExt, width, {v}); }
ValueId DfgBuilder::sext(ValueId v, unsigned width) { return op(Op::SExt, width, {v}); }

ValueId DfgBuilder::resize(ValueId v, unsigned width) {
  if (width == this->width(v)) return v;
  return width < this->width(v) ? slice(v, 0, width) : zext(v, width);
}

ValueId DfgBuilder::shl_const(ValueId v, unsigned k) {
  const unsigned w = width(v);
  if (k == 0) return v;
  if (k >= w) return constant(w, 0);
  return concat({slice(v, 0, w - k), constant(k, 0)});
}

ValueId DfgBuilder::shr_const(ValueId v, unsigned k) {
  const unsigned w = width(v);
  if (k == 0) return v;
  if (k >= w) return constant(w, 0);
  return zext(slice(v, k, w - k), w);
}

ValueId DfgBuilder::simplify(Op op, unsigned w, std::vector<ValueId>& x, bool sgn, uint32_t param,
                             std::vector<uint64_t>& table) {
  (void)table;
  uint64_t c = 0;
  switch (op) {
    case Op::Slice: return simplify_slice(x[0], param, w);
    case Op::Concat: return simplify_concat(x);
    case Op::ZExt: {
      if (w == width(x[0])) return x[0];
      const Node& n = node(x[0]);
      if (n.is_op() && n.op == Op::ZExt) return zext(n.operands[0], w);
      return kNone;
    }
    case Op::SExt: {
      if (w == width(x[0])) return x[0];
      const Node& n = node(x[0]);
      if (n.is_op() && n.op == Op::SExt) return sext(n.operands[0], w);
      if (n.is_op() && n.op == Op::ZExt && n.width > width(n.operands[0])) return zext(n.operands[0], w);
      return kNone;
    }
    case Op::Not: {
      const Node& n = node(x[0]);
      if (n.is_op() && n.op == Op::Not) return n.operands[0];
      if (n.is_op() && n.op == Op::Concat) {  // part by part: each inversion can merge into the part's producer
        std::vector<ValueId> parts;
        for (ValueId part : std::vector<ValueId>(n.operands)) parts.push_back(bnot(part));
        return concat(std::move(parts));
      }
      return kNone;
    }
    case Op::And: case Op::Or: case Op::Xor: return simplify_logic(op, w, x);
    case Op::Mux:
      if (is_constant(x[0], &c)) return c ? x[1] : x[2];
      if (x[1] == x[2]) return x[1];
      if (w == 1 && is_constant(x[1], &c) && c == 1 && is_constant(x[2], &c) && c == 0) return x[0];
      if (w == 1 && is_constant(x[1], &c) && c == 0 && is_constant(x[2], &c) && c == 1) return bnot(x[0]);
      return kNone;
    case Op::AndReduce: case Op::OrReduce: case Op::XorReduce: {
      if (width(x[0]) == 1) return x[0];
      const Node& n = node(x[0]);
      if (op != Op::AndReduce && n.is_op() && n.op == Op::ZExt) return this->op(op, 1, {n.operands[0]});
      return kNone;
    }
    case Op::Eq: case Op::Le: case Op::Ge:
      if (x[0] == x[1]) return constant(1, 1);
      return kNone;
    case Op::Ne: case Op::Lt: case Op::Gt:
      if (x[0] == x[1]) return constant(1, 0);
      return kNone;
    case Op::Add:
      if (x.size() == 3 && is_constant(x[2], &c) && c == 0) return add(x[0], x[1]);
      if (x.size() == 2 && is_constant(x[1], &c) && c == 0) return x[0];
      if (x.size() == 2 && is_constant(x[0], &c) && c == 0) return x[1];
      return kNone;
    case Op::Sub:
      if (is_constant(x[1], &c) && c == 0) return x[0];
      if (x[0] == x[1]) return constant(w, 0);
      return kNone;
    case Op::Mul:
      for (int i = 0; i < 2; ++i) {
        if (is_constant(x[i], &c) && c == 0) return constant(w, 0);
        if (is_constant(x[i], &c) && c == 1) return resize(x[1 - i], w);
      }
      return kNone;
    case Op::Shl: case Op::Shr: case Op::Rotl: case Op::Rotr: {
      if (!is_constant(x[1], &c)) return kNone;
      if (op == Op::Shl) return c >= w ? constant(w, 0) : shl_const(x[0], static_cast<unsigned>(c));
      if (op == Op::Shr && !sgn) return c >= w ? constant(w, 0) : shr_const(x[0], static_cast<unsigned>(c));
      if (op == Op::Shr) {
        if (c >= w) return sext(bit(x[0], w - 1), w);
        return c == 0 ? x[0] : sext(slice(x[0], static_cast<unsigned>(c), w - static_cast<unsigned>(c)), w);
      }
      unsigned k = static_cast<unsigned>(c % w);
      if (op == Op::Rotr) k = (w - k) % w;
      if (k == 0) return x[0];
      return concat({slice(x[0], 0, w - k), slice(x[0], w - k, k)});
    }
    case Op::Popcount:
      if (width(x[0]) == 1) return resize(x[0], w);
      return kNone;
    default: return kNone;
  }
}

ValueId DfgBuilder::simplify_slice(ValueId v, unsigned lo, unsigned w) {
  if (lo == 0 && w == width(v)) return v;
  const Node& n = node(v);
  if (!n.is_op()) return kNone;
  switch (n.op) {
    case Op::Slice: return slice(n.operands[0], lo + n.param, w);
    case Op::Concat: {
      // Parts from the least significant (the last operand) upwards.
      std::vector<ValueId> taken;  // least significant first
      unsigned at = 0;
      const std::vector<ValueId> parts = n.operands;
      for (size_t i = parts.size(); i-- > 0;) {
        const unsigned pw = width(parts[i]);
        const unsigned from = std::max(lo, at), to = std::min(lo + w, at + pw);
        if (from < to) taken.push_back(slice(parts[i], from - at, to - from));
        at += pw;
      }
      if (taken.size() == 1) return taken[0];
      std::reverse(taken.begin(), taken.end());
      return concat(std::move(taken));
    }
    case Op::ZExt: {
      const ValueId x = n.operands[0];
      const unsigned wx = width(x);
      if (lo + w <= wx) return slice(x, lo, w);
      if (lo >= wx) return constant(w, 0);
      return zext(slice(x, lo, wx - lo), w);
    }
    case Op::SExt: {
      const ValueId x = n.operands[0];
      const unsigned wx = width(x);
      if (lo + w <= wx) return slice(x, lo, w);
      if (lo >= wx) return sext(bit(x, wx - 1), w);
      return sext(slice(x, lo, wx - lo), w);
    }
    default: return kNone;
  }
}

ValueId DfgBuilder::simplify_concat(std::vector<ValueId>& x) {
  // Flatten, then merge neighbours: constants, and adjacent slices of one value.
  std::vector<ValueId> flat;
  for (ValueId p : x) {
    const Node& n = node(p);
    if (n.is_op() && n.op == Op::Concat) flat.insert(flat.end(), n.operands.begin(), n.operands.end());
    else flat.push_back(p);
  }
  auto source = [&](ValueId p, ValueId& base, unsigned& lo) {
    const Node& n = node(p);
    if (n.is_op() && n.op == Op::Slice) {
      base = n.operands[0];
      lo = n.param;
    } else {
      base = p;
      lo = 0;
    }
  };
  std::vector<ValueId> merged;
  for (ValueId p : flat) {
    if (!merged.empty()) {
      const ValueId hi = merged.back();
      uint64_t ch = 0, cl = 0;
      const unsigned wh = width(hi), wl = width(p);
      if (is_constant(hi, &ch) && is_constant(p, &cl) && wh + wl <= kMaxWidth) {
        merged.back() = constant(wh + wl, (ch << wl) | cl);
        continue;
      }
      ValueId bh = 0, bl = 0;
      unsigned lh = 0, ll = 0;
      source(hi, bh, lh);
      source(p, bl, ll);
      if (bh == bl && !is_constant(bh) && lh == ll + wl) {
        merged.back() = slice(bl, ll, wh + wl);
        continue;
      }
    }
    merged.push_back(p);
  }
  unsigned total = 0;
  for (ValueId p : merged) total += width(p);
  uint64_t c = 0;
  if (merged.size() >= 2 && is_constant(merged.front(), &c) && c == 0) {
    std::vector<ValueId> rest(merged.begin() + 1, merged.end());
    return zext(rest.size() == 1 ? rest[0] : concat(std::move(rest)), total);
  }
  if (merged.size() == 1) return merged[0];
  if (merged == x) return kNone;
  return concat(std::move(merged));
}

ValueId DfgBuilder::simplify_logic(Op op, unsigned w, std::vector<ValueId>& x) {
  const uint64_t ones = width_mask(w);
  uint64_t folded = op == Op::And ? ones : 0;
  bool any_constant = false;
  std::vector<ValueId> rest;
  for (ValueId o : x) {
    uint64_t c = 0;
    if (is_constant(o, &c)) {
      any_constant = true;
      folded = op == Op::And ? folded & c : op == Op::Or ? folded | c : folded ^ c;
    } else {
      rest.push_back(o);
    }
  }
  std::sort(rest.begin(), rest.end());
  std::vector<ValueId> kept;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (op == Op::Xor && i + 1 < rest.size() && rest[i] == rest[i + 1]) {
      ++i;  // x ^ x cancels
      continue;
    }
    if (!kept.empty() && kept.back() == rest[i]) continue;  // x & x, x | x
    kept.push_back(rest[i]);
  }
  if (op == Op::And && folded == 0) return constant(w, 0);
  if (op == Op::Or && folded == ones) return constant(w, ones);
  bool invert = false;
  if (op == Op::Xor && folded == ones) {
    invert = true;
    folded = 0;
  }
  const uint64_t identity = op == Op::And ? ones : 0;
  if (folded != identity) kept.push_back(constant(w, folded));
  if (kept.empty()) return constant(w, invert ? ones : identity);
  ValueId r = kNone;
  if (kept.size() == 1) {
    r = kept[0];
  } else {
    std::vector<ValueId> a = x, b = kept;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) r = this->op(op, w, kept);  // changed: simplify again (it terminates: nothing is left to fold)
  }
  (void)any_constant;
  if (invert) return bnot(r == kNone ? this->op(op, w, kept) : r);
  return r;
}

}  // namespace polydat::hls
