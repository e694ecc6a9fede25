#include "hls/mul_var_pass.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>

#include "hls/dfg_rewrite.h"
#include "hls/shifted_sum.h"

namespace polydat::hls {

namespace {

// An SB_MAC16 multiplies 16 x 16 bits.
constexpr unsigned kLimbBits = 16;
// Yosys's synth_ice40 -dsp maps a product to SB_MAC16 only from 11 result bits (DSP_Y_MINWIDTH).
constexpr unsigned kDspMinResultBits = 11;
// A limb this narrow is a few rows of ANDs: cheaper than a block, and shallower.
constexpr unsigned kRowsOnlyBits = 4;

struct Limb {
  unsigned lo, width;
};

std::vector<Limb> limbs_of(unsigned w) {
  std::vector<Limb> out;
  for (unsigned lo = 0; lo < w; lo += kLimbBits) out.push_back(Limb{lo, std::min(kLimbBits, w - lo)});
  return out;
}

// A limb product placed in the result: at bit `shift` (a square's cross
// product doubled: one more), `width` result bits needed, its operands' widths.
struct LimbProduct {
  unsigned i, j;
  unsigned shift;
  unsigned width;
  unsigned x_bits, y_bits;  // operand bits that reach the result
};

// Every limb product that reaches below `w` (x == y: a square, i <= j).
std::vector<LimbProduct> limb_products(unsigned wx, unsigned wy, unsigned w, bool square) {
  const std::vector<Limb> xl = limbs_of(std::min(wx, w)), yl = limbs_of(std::min(wy, w));
  std::vector<LimbProduct> out;
  for (unsigned i = 0; i < xl.size(); ++i)
    for (unsigned j = square ? i : 0; j < yl.size(); ++j) {
      const unsigned shift = xl[i].lo + yl[j].lo + (square && i != j ? 1 : 0);
      if (shift >= w) continue;
      const unsigned width = std::min(xl[i].width + yl[j].width, w - shift);
      out.push_back(LimbProduct{i, j, shift, width, std::min(xl[i].width, width), std::min(yl[j].width, width)});
    }
  return out;
}

bool suits_dsp(const LimbProduct& p) {
  return p.width >= kDspMinResultBits && std::min(p.x_bits, p.y_bits) > kRowsOnlyBits;
}

// The partial-product bits of limb product p in LUT form (the AND bits; the adders about as many).
unsigned partial_product_bits(const LimbProduct& p, bool square) {
  unsigned n = 0;
  for (unsigned k = 0; k < p.x_bits; ++k)
    for (unsigned l = 0; l < p.y_bits; ++l) {
      if (square && p.i == p.j && l < k) continue;  // a square's diagonal limb: each pair once
      n += k + l < p.width;
    }
  return n;
}

// One row of a LUT product: pieces from its lowest bit up (kZero: known-zero bits).
constexpr ValueId kZero = ~ValueId{0};
struct Piece {
  ValueId v;
  unsigned width;
};

// The row as a term at `at` (its first piece's position), known-zero pieces at either end trimmed.
std::optional<ShiftedTerm> row_term(DfgBuilder& b, const std::vector<Piece>& pieces, unsigned at) {
  size_t first = 0, last = pieces.size();
  while (first < last && pieces[first].v == kZero) at += pieces[first++].width;
  while (last > first && pieces[last - 1].v == kZero) --last;
  if (first == last) return std::nullopt;
  std::vector<ValueId> parts;  // most significant first
  for (size_t k = last; k-- > first;)
    parts.push_back(pieces[k].v == kZero ? b.constant(pieces[k].width, 0) : pieces[k].v);
  return ShiftedTerm{parts.size() == 1 ? parts[0] : b.concat(parts), at};
}

// The bits [lo, lo + width) of x where `bit` is set: one LUT level.
ValueId gated(DfgBuilder& b, ValueId x, unsigned lo, unsigned width, ValueId bit) {
  return b.band(b.slice(x, lo, width), b.sext(bit, width));
}

ValueId dsp_product(DfgBuilder& b, ValueId x, ValueId y, const LimbProduct& p) {
  return b.op(Op::Mul, p.width, {b.slice(x, kLimbBits * p.i, p.x_bits), b.slice(y, kLimbBits * p.j, p.y_bits)}, false, 1);
}

// Runs of adjacent pieces gated by one bit become one And each (a piece is
// bits [lo, lo + width) of x, or known zero where a DSP block has them).
struct Span {
  unsigned lo, width;
  bool in_dsp;
};

std::vector<Piece> gated_runs(DfgBuilder& b, ValueId x, const std::vector<Span>& spans, ValueId bit) {
  std::vector<Piece> pieces;
  for (size_t k = 0; k < spans.size();) {
    size_t end = k + 1;
    unsigned width = spans[k].width;
    for (; end < spans.size() && spans[end].in_dsp == spans[k].in_dsp; ++end) width += spans[end].width;
    pieces.push_back(Piece{spans[k].in_dsp ? kZero : gated(b, x, spans[k].lo, width, bit), width});
    k = end;
  }
  return pieces;
}

// Rows of x & y[k] << k for every bit k of y, without the limb products in DSP blocks.
void general_rows(DfgBuilder& b, ValueId x, ValueId y, unsigned w, const LimbPairs& dsp, std::vector<ShiftedTerm>& terms) {
  const unsigned wx = b.width(x), wy = b.width(y);
  for (unsigned k = 0; k < wy; ++k) {
    std::vector<Span> spans;
    for (const Limb& l : limbs_of(std::min(wx, w - k)))
      spans.push_back(Span{l.lo, l.width, dsp.count({l.lo / kLimbBits, k / kLimbBits}) > 0});
    if (auto t = row_term(b, gated_runs(b, x, spans, b.bit(y, k)), k)) terms.push_back(*t);
  }
}

// x^2 = sum of x_k 2^(2k) + sum over k < l of x_k x_l 2^(k + l + 1): row k is
// x_k at 2k, a zero, then x_k & x_l for l > k from bit 2k + 2 up.
void square_rows(DfgBuilder& b, ValueId x, unsigned w, const LimbPairs& dsp, std::vector<ShiftedTerm>& terms) {
  const unsigned wx = b.width(x);
  for (unsigned k = 0; 2 * k < w && k < wx; ++k) {
    const unsigned i = k / kLimbBits;
    const ValueId xk = b.bit(x, k);
    std::vector<Piece> pieces{Piece{dsp.count({i, i}) ? kZero : xk, 1}, Piece{kZero, 1}};
    // Bits l of x with k < l and k + l + 1 < w, limb by limb.
    std::vector<Span> spans;
    const unsigned end = std::min(wx, w - k - 1);
    for (unsigned from = k + 1; from < end;) {
      const unsigned j = from / kLimbBits, to = std::min(end, (j + 1) * kLimbBits);
      spans.push_back(Span{from, to - from, dsp.count({i, j}) > 0});
      from = to;
    }
    for (const Piece& p : gated_runs(b, x, spans, xk)) pieces.push_back(p);
    if (auto t = row_term(b, pieces, 2 * k)) terms.push_back(*t);
  }
}

// The DSP products asked for that suit a block, transposed when x and y swap.
LimbPairs usable(const std::vector<LimbProduct>& products, const LimbPairs& dsp, bool transposed) {
  LimbPairs out;
  for (const LimbProduct& p : products) {
    const auto asked = transposed ? std::pair{p.j, p.i} : std::pair{p.i, p.j};
    if (dsp.count(asked) && suits_dsp(p)) out.insert({p.i, p.j});
  }
  return out;
}

}  // namespace

std::vector<DspCandidate> dsp_candidates(unsigned wx, unsigned wy, unsigned w, bool square) {
  std::vector<DspCandidate> out;
  for (const LimbProduct& p : limb_products(wx, wy, w, square))
    if (suits_dsp(p)) out.push_back(DspCandidate{p.i, p.j, partial_product_bits(p, square)});
  std::stable_sort(out.begin(), out.end(), [](const DspCandidate& a, const DspCandidate& c) { return a.lut_bits > c.lut_bits; });
  return out;
}

ValueId lower_variable_multiply(DfgBuilder& b, ValueId x, ValueId y, unsigned w, const LimbPairs& dsp,
                                const CarryCuts& cuts) {
  x = b.width(x) > w ? b.slice(x, 0, w) : x;
  y = b.width(y) > w ? b.slice(y, 0, w) : y;
  const bool square = x == y;
  // Rows run over the narrower operand: y.
  const bool transposed = !square && b.width(y) > b.width(x);
  if (transposed) std::swap(x, y);
  const std::vector<LimbProduct> products = limb_products(b.width(x), b.width(y), w, square);
  const LimbPairs in_dsp = usable(products, dsp, transposed);
  std::vector<ShiftedTerm> terms;
  for (const LimbProduct& p : products)
    if (in_dsp.count({p.i, p.j})) terms.push_back(ShiftedTerm{dsp_product(b, x, y, p), p.shift});
  if (square) square_rows(b, x, w, in_dsp, terms);
  else general_rows(b, x, y, w, in_dsp, terms);
  return sum_shifted_terms(b, terms, w, cuts);
}

namespace {

class MulVarPass : public DfgRewriter {
 public:
  MulVarPass(const Dfg& g, const MulVarOptions& options) : DfgRewriter(g), options_(options) {}

 protected:
  // Chooses the DSP products over the whole graph before anything is built.
  void prepare() override {
    struct Choice {
      ValueId v;
      DspCandidate c;
    };
    std::vector<Choice> all;
    uint32_t in_dsp_already = 0;
    for (ValueId v = 0; v < in_.nodes.size(); ++v) {
      if (!live_[v] || !in_.is_op(v) || in_.nodes[v].op != Op::Mul) continue;
      if (in_.nodes[v].param == 1) ++in_dsp_already;
      if (!variable_product(v)) continue;
      const Node& n = in_.nodes[v];
      const ValueId x = n.operands[0], y = n.operands[1];
      for (const DspCandidate& c : dsp_candidates(in_.width(x), in_.width(y), n.width, x == y)) all.push_back(Choice{v, c});
      plan_[v];
    }
    if (options_.dsp_limit == 0) return;
    // A pipeline holds every product in its own block (at II 1) or a slot of one: the dearest in LUTs get them.
    const bool shared = options_.kind == DesignKind::Fsm;
    const size_t slots = size_t{options_.dsp_limit} * std::max(1u, options_.ii);
    std::stable_sort(all.begin(), all.end(), [](const Choice& a, const Choice& c) { return a.c.lut_bits > c.c.lut_bits; });
    size_t budget = shared ? all.size() : slots - std::min<size_t>(slots, in_dsp_already);
    size_t k = 0;
    for (; k < all.size() && k < budget; ++k) plan_[all[k].v].insert({all[k].c.i, all[k].c.j});
    if (!shared && options_.ii > 1) constants_on_blocks(budget - k);
  }

  // Multiplications by constants, widest first, each on blocks if all its limb products fit in `left`.
  void constants_on_blocks(size_t left) {
    std::vector<std::pair<ValueId, std::vector<DspCandidate>>> muls;
    for (ValueId v = 0; v < in_.nodes.size(); ++v) {
      const Node& n = in_.nodes[v];
      if (!live_[v] || !in_.is_op(v) || n.op != Op::Mul || n.param != 0) continue;
      const bool cx = in_.is_constant(n.operands[0]), cy = in_.is_constant(n.operands[1]);
      if (cx == cy) continue;
      const ValueId x = n.operands[cx ? 1 : 0], c = n.operands[cx ? 0 : 1];
      auto cands = dsp_candidates(in_.width(x), in_.width(c), n.width, false);
      // A constant limb of one or two set bits is a shift or two in LUTs: no block for it.
      const uint64_t bits = in_.nodes[c].constant;
      std::erase_if(cands, [&](const DspCandidate& d) { return std::popcount((bits >> (kLimbBits * d.j)) & 0xFFFF) < 3; });
      if (!cands.empty()) muls.emplace_back(v, std::move(cands));
    }
    std::stable_sort(muls.begin(), muls.end(), [&](const auto& a, const auto& b) {
      return in_.nodes[a.first].width * a.second.size() > in_.nodes[b.first].width * b.second.size();
    });
    for (const auto& [v, cands] : muls) {
      if (cands.size() > left) continue;
      left -= cands.size();
      LimbPairs& pairs = plan_[v];
      for (const DspCandidate& d : cands) pairs.insert({d.i, d.j});
    }
  }

  ValueId rewrite(ValueId v) override {
    auto it = plan_.find(v);
    if (it == plan_.end()) return copy(v);
    const Node& n = in_.nodes[v];
    ValueId x = map(n.operands[0]), y = map(n.operands[1]);
    if (b_.is_constant(x) && b_.is_constant(y)) return copy(v);
    if (b_.is_constant(x) || b_.is_constant(y)) {  // on blocks (constants_on_blocks), else mul_const_pass's
      if (it->second.empty()) return copy(v);
      if (b_.is_constant(x)) std::swap(x, y);  // the pairs were chosen with the constant as y
    }
    return lower_variable_multiply(b_, x, y, n.width, it->second, options_.cuts);
  }

 private:
  bool variable_product(ValueId v) const {
    const Node& n = in_.nodes[v];
    return n.param == 0 && !in_.is_constant(n.operands[0]) && !in_.is_constant(n.operands[1]);
  }

  MulVarOptions options_;
  std::map<ValueId, LimbPairs> plan_;  // every variable product -> its limb products in DSP blocks
};

}  // namespace

Dfg mul_var_pass(const Dfg& g, const MulVarOptions& options) { return MulVarPass(g, options).run(); }

}  // namespace polydat::hls
