#include "hls/dfg.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>

#include "hls/dfg_builder.h"
#include "ir/library_fn.h"
#include "ir/topo.h"

namespace polydat::hls {

using ir::ObjectId;
using ir::OpKind;

std::string_view op_name(Op op) {
  switch (op) {
    case Op::Slice: return "Slice";
    case Op::Concat: return "Concat";
    case Op::ZExt: return "ZExt";
    case Op::SExt: return "SExt";
    case Op::Not: return "Not";
    case Op::And: return "And";
    case Op::Or: return "Or";
    case Op::Xor: return "Xor";
    case Op::Mux: return "Mux";
    case Op::AndReduce: return "AndReduce";
    case Op::OrReduce: return "OrReduce";
    case Op::XorReduce: return "XorReduce";
    case Op::Eq: return "Eq";
    case Op::Ne: return "Ne";
    case Op::Lt: return "Lt";
    case Op::Le: return "Le";
    case Op::Gt: return "Gt";
    case Op::Ge: return "Ge";
    case Op::Add: return "Add";
    case Op::Sub: return "Sub";
    case Op::Neg: return "Neg";
    case Op::Mul: return "Mul";
    case Op::Div: return "Div";
    case Op::Mod: return "Mod";
    case Op::Shl: return "Shl";
    case Op::Shr: return "Shr";
    case Op::Rotl: return "Rotl";
    case Op::Rotr: return "Rotr";
    case Op::Popcount: return "Popcount";
    case Op::Clz: return "Clz";
    case Op::Ctz: return "Ctz";
    case Op::Rom: return "Rom";
  }
  return "?";
}

bool is_wiring(Op op) { return op == Op::Slice || op == Op::Concat || op == Op::ZExt || op == Op::SExt; }

bool Dfg::constant_rhs(ValueId v) const {
  const Node& n = nodes[v];
  return n.operands.size() >= 2 && nodes[n.operands[1]].kind == NodeKind::Constant;
}

std::vector<bool> Dfg::live() const {
  std::vector<bool> live(nodes.size(), false);
  std::vector<ValueId> work;
  for (const DfgPort& p : outputs) work.push_back(p.value);
  if (loop) {
    work.insert(work.end(), loop->next.begin(), loop->next.end());
    work.insert(work.end(), loop->init.begin(), loop->init.end());
    work.push_back(loop->cond);
  }
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    if (live[v]) continue;
    live[v] = true;
    for (ValueId o : nodes[v].operands) work.push_back(o);
  }
  return live;
}

std::vector<bool> Dfg::streamed() const {
  std::vector<bool> out(nodes.size(), false);
  for (ValueId v = 0; v < nodes.size(); ++v) {  // operands come before their users
    out[v] = nodes[v].kind == NodeKind::Input;
    for (ValueId o : nodes[v].operands) out[v] = out[v] || out[o];
  }
  return out;
}

std::vector<ValueId> through_wiring(const Dfg& g, ValueId v) {
  std::vector<ValueId> out, work{v};
  while (!work.empty()) {
    const ValueId x = work.back();
    work.pop_back();
    if (g.is_op(x) && is_wiring(g.nodes[x].op)) work.insert(work.end(), g.nodes[x].operands.begin(), g.nodes[x].operands.end());
    else out.push_back(x);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<BitSource> bit_sources(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  std::vector<BitSource> bits;
  if (n.kind == NodeKind::Constant) {
    for (unsigned i = 0; i < n.width; ++i) bits.push_back(BitSource{kConstantBit, static_cast<unsigned>((n.constant >> i) & 1)});
    return bits;
  }
  if (!g.is_op(v) || !is_wiring(n.op)) {
    for (unsigned i = 0; i < n.width; ++i) bits.push_back(BitSource{v, i});
    return bits;
  }
  switch (n.op) {
    case Op::Slice: {
      const auto x = bit_sources(g, n.operands[0]);  // wiring chains are short: the builder folds them
      return std::vector<BitSource>(x.begin() + n.param, x.begin() + n.param + n.width);
    }
    case Op::Concat:
      for (size_t i = n.operands.size(); i-- > 0;) {
        const auto x = bit_sources(g, n.operands[i]);
        bits.insert(bits.end(), x.begin(), x.end());
      }
      return bits;
    default: {  // ZExt, SExt
      bits = bit_sources(g, n.operands[0]);
      const BitSource fill = n.op == Op::ZExt ? BitSource{kConstantBit, 0} : bits.back();
      bits.resize(n.width, fill);
      return bits;
    }
  }
}

void classify_regions(Dfg& g) {
  for (Node& n : g.nodes) n.region = Region::Pre;
  if (!g.loop) return;
  const size_t n = g.nodes.size();
  std::vector<bool> on_state(n, false), feeds(n, false);
  for (ValueId v = 0; v < n; ++v) {
    const Node& node = g.nodes[v];
    on_state[v] = node.kind == NodeKind::State;
    for (ValueId o : node.operands) on_state[v] = on_state[v] || on_state[o];
  }
  std::vector<ValueId> work(g.loop->next.begin(), g.loop->next.end());
  work.push_back(g.loop->cond);
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    if (feeds[v] || !on_state[v]) continue;
    feeds[v] = true;
    for (ValueId o : g.nodes[v].operands) work.push_back(o);
  }
  for (ValueId v = 0; v < n; ++v) g.nodes[v].region = !on_state[v] ? Region::Pre : feeds[v] ? Region::Loop : Region::Post;
}

namespace {

size_t leaf_count(const ir::Ty& t) {
  if (!t.is_product()) return 1;
  size_t n = 0;
  for (size_t i = 0; i < t.arity(); ++i) n += leaf_count(t.component(i));  // depth is bounded by the IR
  return n;
}

size_t leaf_offset(const ir::Ty& t, size_t component) {
  size_t n = 0;
  for (size_t i = 0; i < component; ++i) n += leaf_count(t.component(i));
  return n;
}

// The frontend names a loop's merge after its variables ("s, i"): one name per
// scalar of the state when they match, else the merge's name (or "state").
std::vector<std::string> state_names(const std::string& merge, size_t count) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= merge.size()) {
    const size_t comma = merge.find(", ", start);
    parts.push_back(merge.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  if (parts.size() == count) return parts;
  return std::vector<std::string>(count, merge.empty() ? "state" : merge);
}

class Builder {
 public:
  Builder(const ir::CategoryIr& g, ir::FuncId f, const std::vector<bool>& config_fields)
      : g_(g), f_(f), config_fields_(config_fields), b_(dfg_) {}

  ir::Expected<Dfg, HlsError> run() {
    const ir::FuncDef& fd = g_.func(f_);
    dfg_.name = fd.name;
    ports(fd);
    for (ir::MorphismId m : ir::topo_order(g_, f_)) {
      if (auto err = morphism(g_.morphism(m))) return *err;
    }
    const ir::Object& ret = g_.object(fd.output);
    const auto& out = leaves_.at(fd.output.v);
    if (ret.ty.kind() == ir::TyKind::Struct) {
      for (size_t i = 0; i < ret.ty.arity(); ++i)
        dfg_.outputs.push_back(DfgPort{ret.ty.field_name(i), ret.ty.component(i), out.at(leaf_offset(ret.ty, i))});
    } else {
      for (size_t i = 0; i < out.size(); ++i)
        dfg_.outputs.push_back(DfgPort{"out" + std::to_string(i), leaf_types(ret.ty).at(i), out[i]});
    }
    classify_regions(dfg_);
    return std::move(dfg_);
  }

 private:
  static std::vector<ir::Ty> leaf_types(const ir::Ty& t) {
    std::vector<ir::Ty> out;
    std::vector<const ir::Ty*> work{&t};
    while (!work.empty()) {
      const ir::Ty* x = work.back();
      work.pop_back();
      if (!x->is_product()) {
        out.push_back(*x);
        continue;
      }
      for (size_t i = x->arity(); i-- > 0;) work.push_back(&x->component(i));
    }
    return out;
  }

  std::vector<ValueId>& leaves(ObjectId o) {
    auto& l = leaves_[o.v];
    if (l.empty()) l.assign(leaf_count(g_.object(o).ty), 0);
    return l;
  }

  void ports(const ir::FuncDef& fd) {
    const ir::Object& in = g_.object(fd.input);
    if (in.ty.is_unit()) return;
    auto& l = leaves(fd.input);
    for (size_t i = 0; i < in.ty.arity(); ++i) {
      const bool config = i < config_fields_.size() && config_fields_[i];
      Node n;
      n.kind = config ? NodeKind::Config : NodeKind::Input;
      n.width = in.ty.component(i).bits();
      n.name = in.ty.field_name(i);
      n.index = static_cast<uint32_t>(config ? dfg_.configs.size() : dfg_.inputs.size());
      n.loc = in.loc;
      const ValueId v = b_.raw(n);
      (config ? dfg_.configs : dfg_.inputs).push_back(DfgPort{n.name, in.ty.component(i), v});
      l[leaf_offset(in.ty, i)] = v;
    }
  }

  void constant_leaves(const ir::Value& value, std::vector<ValueId>& out) {
    std::vector<const ir::Value*> work{&value};
    while (!work.empty()) {  // left to right: push components in reverse
      const ir::Value* v = work.back();
      work.pop_back();
      if (v->ty().is_product()) {
        for (size_t i = v->elems().size(); i-- > 0;) work.push_back(&v->elems()[i]);
        continue;
      }
      out.push_back(b_.constant(v->ty().bits(), v->bits()));
    }
  }

  // x ** k for a constant k: square and multiply, wrapping at the width.
  ValueId power(ValueId base, uint64_t k) {
    const unsigned w = b_.width(base);
    ValueId acc = b_.constant(w, 1);
    bool acc_is_one = true;
    ValueId sq = base;
    while (k) {
      if (k & 1) {
        acc = acc_is_one ? sq : b_.op(Op::Mul, w, {acc, sq});
        acc_is_one = false;
      }
      k >>= 1;
      if (k) sq = b_.op(Op::Mul, w, {sq, sq});
    }
    return acc;
  }

  // base ** e for a run-time e, wrapping at the width: square and multiply over e's low bits. A bit i
  // at or past `cut` multiplies by base^(2^i), which is 1 for an odd base (the unit group mod 2^w has
  // exponent 2^(w-2)) and 0 for an even one (2^i >= w), so the high bits only decide "zero or not".
  ValueId variable_power(ValueId base, ValueId e) {
    const unsigned w = b_.width(base), ew = b_.width(e);
    unsigned log2w = 0;
    while ((1u << log2w) < w) ++log2w;
    const unsigned cut = std::max(log2w, w >= 3 ? w - 2 : w - 1);
    ValueId acc = b_.constant(w, 1), sq = base;
    for (unsigned i = 0; i < std::min(cut, ew); ++i) {
      if (i) sq = b_.op(Op::Mul, w, {sq, sq});
      acc = b_.mux(b_.bit(e, i), b_.op(Op::Mul, w, {acc, sq}), acc);
    }
    if (ew <= cut) return acc;
    const ValueId high = as_bit(b_.slice(e, cut, ew - cut));
    return b_.mux(b_.band(high, b_.bnot(b_.bit(base, 0))), b_.constant(w, 0), acc);
  }

  ValueId as_bit(ValueId v) { return b_.width(v) == 1 ? v : b_.op(Op::OrReduce, 1, {v}); }

  ValueId cast(ValueId x, const ir::Ty& from, const ir::Ty& to) {
    if (to.is_bool()) return as_bit(x);
    const unsigned fw = b_.width(x), tw = to.bits();
    if (tw <= fw) return b_.slice(x, 0, tw);
    return from.is_signed_int() ? b_.sext(x, tw) : b_.zext(x, tw);
  }

  std::optional<HlsError> morphism(const ir::Morphism& m) {
    const ir::Object& src = g_.object(m.source);
    const ir::Object& tgt = g_.object(m.target);
    if (src.kind == ir::ObjectKind::Constant && leaves_[m.source.v].empty()) {
      std::vector<ValueId> l;
      constant_leaves(*src.value, l);
      leaves_[m.source.v] = std::move(l);
    }
    const std::vector<ValueId> in = leaves_[m.source.v];
    b_.set_origin(tgt.name, m.loc);
    const ir::Ty& a_ty = src.ty.is_product() && src.ty.arity() > 0 ? src.ty.component(0) : src.ty;
    const bool sgn = a_ty.is_signed_int();
    const unsigned w = tgt.ty.is_product() ? 0 : tgt.ty.bits();
    auto set = [&](ValueId v) { leaves_[m.target.v] = {v}; };
    switch (m.op.kind) {
      case OpKind::Pair: {
        auto& out = leaves(m.target);
        const size_t at = leaf_offset(tgt.ty, m.op.slot());
        std::copy(in.begin(), in.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
        return std::nullopt;
      }
      case OpKind::Proj: {
        const size_t at = leaf_offset(src.ty, m.op.index());
        leaves_[m.target.v].assign(in.begin() + static_cast<std::ptrdiff_t>(at),
                                   in.begin() + static_cast<std::ptrdiff_t>(at + leaf_count(tgt.ty)));
        return std::nullopt;
      }
      case OpKind::Output:
        leaves_[m.target.v] = in;
        return std::nullopt;
      case OpKind::LoopEnter: {
        DfgLoop loop;
        loop.init = in;
        loop.loc = tgt.loc;
        auto& state = leaves(m.target);
        const std::vector<std::string> names = state_names(tgt.name, in.size());
        for (size_t i = 0; i < in.size(); ++i) {
          Node n;
          n.kind = NodeKind::State;
          n.width = b_.width(in[i]);
          n.index = static_cast<uint32_t>(i);
          n.name = names[i];
          n.loc = tgt.loc;
          state[i] = b_.raw(n);
        }
        loop.state = state;
        dfg_.loop = std::move(loop);
        return std::nullopt;
      }
      case OpKind::LoopBack:
        dfg_.loop->next.assign(in.begin(), in.end() - 1);
        dfg_.loop->cond = as_bit(in.back());
        return std::nullopt;
      case OpKind::LoopExit:  // the exit reads the state whose guard failed
        leaves_[m.target.v].assign(in.begin(), in.end() - 1);
        return std::nullopt;
      case OpKind::Phi: {
        const size_t n = (in.size() - 1) / 2;
        auto& out = leaves(m.target);
        const ValueId cond = as_bit(in.back());
        for (size_t i = 0; i < n; ++i) out[i] = b_.mux(cond, in[i], in[n + i]);
        return std::nullopt;
      }
      case OpKind::Pow: {
        set(b_.is_constant(in[1]) ? power(in[0], b_.node(in[1]).constant) : variable_power(in[0], in[1]));
        return std::nullopt;
      }
      case OpKind::Call:
        return HlsError{"not-inlined", "a call was not inlined", m.loc};
      case OpKind::LibFn:
        return HlsError{"software-only",
                        std::string(ir::library_fns()[m.op.library_fn()].name) + " runs on the software engines only",
                        m.loc};
      case OpKind::Add: set(b_.op(Op::Add, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Sub: set(b_.op(Op::Sub, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Mul: set(b_.op(Op::Mul, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Div: set(b_.op(Op::Div, w, {in[0], in[1]}, sgn)); return std::nullopt;
      case OpKind::Mod: set(b_.op(Op::Mod, w, {in[0], in[1]}, sgn)); return std::nullopt;
      case OpKind::Neg: set(b_.op(Op::Neg, w, {in[0]})); return std::nullopt;
      case OpKind::Not: set(b_.op(Op::Not, w, {in[0]})); return std::nullopt;
      case OpKind::And: set(b_.op(Op::And, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Or: set(b_.op(Op::Or, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Xor: set(b_.op(Op::Xor, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Eq: set(b_.compare(Op::Eq, in[0], in[1])); return std::nullopt;
      case OpKind::Neq: set(b_.compare(Op::Ne, in[0], in[1])); return std::nullopt;
      case OpKind::Lt: set(b_.compare(Op::Lt, in[0], in[1], sgn)); return std::nullopt;
      case OpKind::Le: set(b_.compare(Op::Le, in[0], in[1], sgn)); return std::nullopt;
      case OpKind::Gt: set(b_.compare(Op::Gt, in[0], in[1], sgn)); return std::nullopt;
      case OpKind::Ge: set(b_.compare(Op::Ge, in[0], in[1], sgn)); return std::nullopt;
      case OpKind::Shl: set(b_.op(Op::Shl, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Shr: set(b_.op(Op::Shr, w, {in[0], in[1]}, sgn)); return std::nullopt;
      case OpKind::Rotl: set(b_.op(Op::Rotl, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Rotr: set(b_.op(Op::Rotr, w, {in[0], in[1]})); return std::nullopt;
      case OpKind::Popcount: set(b_.op(Op::Popcount, w, {in[0]})); return std::nullopt;
      case OpKind::Clz: set(b_.op(Op::Clz, w, {in[0]})); return std::nullopt;
      case OpKind::Ctz: set(b_.op(Op::Ctz, w, {in[0]})); return std::nullopt;
      case OpKind::Cast: set(cast(in[0], src.ty, tgt.ty)); return std::nullopt;
      // ir/op.cc's HardwareForm::None rows; every operation has a case, so a new one is a compile error here.
      case OpKind::ToStr: case OpKind::Concat: case OpKind::FormatDec: case OpKind::Hex: case OpKind::FormatRadix:
      case OpKind::FormatFixed: case OpKind::Sqrt: case OpKind::Exp: case OpKind::Ln: case OpKind::Sin:
      case OpKind::Cos: case OpKind::Tan: case OpKind::Asin: case OpKind::Acos: case OpKind::Atan:
      case OpKind::Atan2: case OpKind::Floor: case OpKind::Ceil: case OpKind::Round: case OpKind::Trunc:
      case OpKind::Abs: case OpKind::Rom:
        return HlsError{"no-hardware-width", std::string(ir::op_name(m.op.kind)) + " has no hardware form", m.loc};
    }
    return HlsError{"no-hardware-width", "an operation outside the registry", m.loc};
  }

  const ir::CategoryIr& g_;
  ir::FuncId f_;
  const std::vector<bool>& config_fields_;
  Dfg dfg_;
  DfgBuilder b_;
  std::map<uint32_t, std::vector<ValueId>> leaves_;  // IR object -> its scalars
};

// The operand widths an operation requires, given its own and its operands'.
std::string operand_problem(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  const size_t k = n.operands.size();
  auto w = [&](size_t i) { return g.nodes[n.operands[i]].width; };
  auto arity = [&](size_t lo, size_t hi) { return k >= lo && k <= hi ? "" : "the wrong number of operands"; };
  auto same = [&](size_t from) -> std::string {
    for (size_t i = from; i < k; ++i)
      if (w(i) != n.width) return fmt::format("operand {} is {} bits, not {}", i, w(i), n.width);
    return "";
  };
  switch (n.op) {
    case Op::Slice:
      if (k != 1) return arity(1, 1);
      return n.param + n.width <= w(0) ? "" : "a slice beyond its operand";
    case Op::Concat: {
      unsigned sum = 0;
      for (size_t i = 0; i < k; ++i) sum += w(i);
      return k >= 1 && sum == n.width ? "" : "a concatenation whose parts do not add up";
    }
    case Op::ZExt: case Op::SExt:
      if (k != 1) return arity(1, 1);
      return w(0) <= n.width ? "" : "an extension to fewer bits";
    case Op::Not: case Op::Neg:
      if (k != 1) return arity(1, 1);
      return same(0);
    case Op::And: case Op::Or: case Op::Xor:
      if (k < 2) return arity(2, 1000000);
      return same(0);
    case Op::Mux:
      if (k != 3) return arity(3, 3);
      if (w(0) != 1) return "a mux condition wider than one bit";
      return same(1);
    case Op::AndReduce: case Op::OrReduce: case Op::XorReduce:
      if (k != 1) return arity(1, 1);
      return n.width == 1 ? "" : "a reduction wider than one bit";
    case Op::Eq: case Op::Ne: case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge:
      if (k != 2) return arity(2, 2);
      if (n.width != 1) return "a comparison wider than one bit";
      return w(0) == w(1) ? "" : "comparing operands of different widths";
    case Op::Add:
      if (k < 2 || k > 3) return arity(2, 3);
      if (k == 3 && w(2) != 1) return "a carry in wider than one bit";
      return w(0) == n.width && w(1) == n.width ? "" : "an addition of operands of other widths";
    case Op::Sub: case Op::Div: case Op::Mod:
      if (k != 2) return arity(2, 2);
      return same(0);
    case Op::Mul:
      if (k != 2) return arity(2, 2);
      return w(0) <= n.width && w(1) <= n.width ? "" : "a multiplication of operands wider than its result";
    case Op::Shl: case Op::Shr: case Op::Rotl: case Op::Rotr:
      if (k != 2) return arity(2, 2);
      if ((n.op == Op::Rotl || n.op == Op::Rotr) && (n.width & (n.width - 1)) != 0)
        return "a rotation at a width that is not a power of two";
      return w(0) == n.width ? "" : "a shifted operand of another width";
    case Op::Popcount: case Op::Clz: case Op::Ctz: return arity(1, 1);
    case Op::Rom:
      if (k != 1) return arity(1, 1);
      return w(0) <= 12 && n.table.size() == (size_t{1} << w(0)) ? "" : "a table without one entry per index";
  }
  return "";
}

}  // namespace

ir::Expected<Dfg, HlsError> build_dfg(const ir::CategoryIr& ir, ir::FuncId f, const std::vector<bool>& config_fields) {
  return Builder(ir, f, config_fields).run();
}

std::vector<std::string> check_dfg(const Dfg& g) {
  std::vector<std::string> problems;
  const size_t n = g.nodes.size();
  for (ValueId v = 0; v < n; ++v) {
    const Node& node = g.nodes[v];
    if (node.width < 1 || node.width > kMaxWidth) problems.push_back(fmt::format("v{} is {} bits wide", v, node.width));
    for (ValueId o : node.operands)
      if (o >= v) problems.push_back(fmt::format("v{} reads v{}, which does not come before it", v, o));
    if (node.kind != NodeKind::Op) {
      if (!node.operands.empty()) problems.push_back(fmt::format("v{} is not an operation but has operands", v));
      continue;
    }
    bool operands_ok = true;
    for (ValueId o : node.operands) operands_ok = operands_ok && o < v;
    if (!operands_ok) continue;
    if (std::string p = operand_problem(g, v); !p.empty()) problems.push_back(fmt::format("v{} ({}): {}", v, node_label(g, v), p));
  }
  auto port = [&](const DfgPort& p, const char* what, NodeKind want) {
    if (p.value >= n) {
      problems.push_back(fmt::format("{} {} is not a node", what, p.name));
      return;
    }
    if (g.nodes[p.value].width != p.ty.bits())
      problems.push_back(fmt::format("{} {} is {} bits but its value is {}", what, p.name, p.ty.bits(), g.nodes[p.value].width));
    if (want != NodeKind::Op && g.nodes[p.value].kind != want) problems.push_back(fmt::format("{} {} is not a port node", what, p.name));
  };
  for (const DfgPort& p : g.inputs) port(p, "input", NodeKind::Input);
  for (const DfgPort& p : g.configs) port(p, "config", NodeKind::Config);
  for (const DfgPort& p : g.outputs) port(p, "output", NodeKind::Op);
  if (g.loop) {
    const DfgLoop& l = *g.loop;
    if (l.state.size() != l.init.size() || l.state.size() != l.next.size())
      problems.push_back("the loop's state, initial and next values differ in number");
    for (size_t i = 0; i < std::min({l.state.size(), l.init.size(), l.next.size()}); ++i) {
      if (l.state[i] >= n || l.init[i] >= n || l.next[i] >= n) {
        problems.push_back("a loop value is not a node");
        continue;
      }
      if (g.nodes[l.state[i]].kind != NodeKind::State) problems.push_back(fmt::format("loop state {} is not a State node", i));
      const unsigned sw = g.nodes[l.state[i]].width;
      if (g.nodes[l.init[i]].width != sw || g.nodes[l.next[i]].width != sw)
        problems.push_back(fmt::format("loop state {} is {} bits but its initial or next value is not", i, sw));
    }
    if (l.cond >= n || g.nodes[l.cond].width != 1) problems.push_back("the loop's guard is not a one-bit value");
  }
  return problems;
}

std::string node_label(const Dfg& g, ValueId v) {
  const Node& n = g.nodes[v];
  switch (n.kind) {
    case NodeKind::Input: return fmt::format("Input {}", n.width);
    case NodeKind::Config: return fmt::format("Config {}", n.width);
    case NodeKind::Constant: return fmt::format("Const {}", n.width);
    case NodeKind::State: return fmt::format("State {}", n.width);
    case NodeKind::Op: break;
  }
  const bool has_sign = n.op == Op::Lt || n.op == Op::Le || n.op == Op::Gt || n.op == Op::Ge || n.op == Op::Shr ||
                        n.op == Op::Div || n.op == Op::Mod;
  std::string s = std::string(op_name(n.op)) + (has_sign && n.sgn ? ".s" : "");
  const unsigned w = n.op == Op::Mul || n.width > 1 || n.operands.empty() ? n.width : g.nodes[n.operands[0]].width;
  s += fmt::format(" {}", w);
  if (n.op == Op::Slice) s += fmt::format(" [{}]", n.param);
  return s;
}

std::string dump(const Dfg& g) {
  std::string out = fmt::format("dfg {}\n", g.name);
  for (ValueId v = 0; v < g.nodes.size(); ++v) {
    const Node& n = g.nodes[v];
    out += fmt::format("  v{} = {}", v, node_label(g, v));
    if (n.kind == NodeKind::Constant) out += fmt::format(" 0x{:x}", n.constant);
    for (ValueId o : n.operands) out += fmt::format(" v{}", o);
    if (!n.name.empty()) out += "  (" + n.name + ")";
    out += "\n";
  }
  for (const DfgPort& p : g.outputs) out += fmt::format("  out {} = v{}\n", p.name, p.value);
  if (g.loop) {
    out += "  loop:";
    for (size_t i = 0; i < g.loop->state.size(); ++i)
      out += fmt::format(" v{} <- v{} / v{};", g.loop->state[i], g.loop->init[i], g.loop->next[i]);
    out += fmt::format(" while v{}\n", g.loop->cond);
  }
  return out;
}

}  // namespace polydat::hls
