#include "hls/dfg.h"

#include <algorithm>
#include <map>

#include "ir/topo.h"

namespace polydat::hls {

using ir::ObjectId;
using ir::OpKind;

bool Dfg::constant_rhs(ValueId v) const {
  const Node& n = nodes[v];
  return n.operands.size() >= 2 && nodes[n.operands[1]].kind == NodeKind::Constant;
}

bool Dfg::constant_operand(ValueId v) const {
  const Node& n = nodes[v];
  if (n.op == ir::OpKind::Mul && n.operands.size() == 2)
    return nodes[n.operands[0]].kind == NodeKind::Constant || nodes[n.operands[1]].kind == NodeKind::Constant;
  return constant_rhs(v);
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
      : g_(g), f_(f), config_fields_(config_fields) {}

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
      for (size_t i = 0; i < out.size(); ++i) dfg_.outputs.push_back(DfgPort{"out" + std::to_string(i), dfg_.nodes[out[i]].ty, out[i]});
    }
    classify_regions();
    return std::move(dfg_);
  }

 private:
  ValueId add(Node n) {
    dfg_.nodes.push_back(std::move(n));
    return static_cast<ValueId>(dfg_.nodes.size() - 1);
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
      n.ty = in.ty.component(i);
      n.name = in.ty.field_name(i);
      n.index = static_cast<uint32_t>(config ? dfg_.configs.size() : dfg_.inputs.size());
      n.loc = in.loc;
      const ValueId v = add(n);
      (config ? dfg_.configs : dfg_.inputs).push_back(DfgPort{n.name, n.ty, v});
      l[leaf_offset(in.ty, i)] = v;
    }
  }

  void constant_leaves(const ir::Value& value, const ir::Object& obj, std::vector<ValueId>& out) {
    std::vector<const ir::Value*> work{&value};
    while (!work.empty()) {  // left to right: push components in reverse
      const ir::Value* v = work.back();
      work.pop_back();
      if (v->ty().is_product()) {
        for (size_t i = v->elems().size(); i-- > 0;) work.push_back(&v->elems()[i]);
        continue;
      }
      Node n;
      n.kind = NodeKind::Constant;
      n.ty = v->ty();
      n.constant = v->bits();
      n.loc = obj.loc;
      out.push_back(add(n));
    }
  }

  ValueId op(OpKind k, const ir::Ty& ty, std::vector<ValueId> operands, const ir::Object& target, ir::SourceLoc loc) {
    Node n;
    n.kind = NodeKind::Op;
    n.op = k;
    n.ty = ty;
    n.operands = std::move(operands);
    n.name = target.name;
    n.loc = loc;
    return add(n);
  }

  // x ** k for a constant k: square and multiply, wrapping at the width.
  ValueId power(ValueId base, uint64_t k, const ir::Object& target, ir::SourceLoc loc) {
    const ir::Ty ty = dfg_.nodes[base].ty;  // a copy: add() may move the nodes
    Node one;
    one.kind = NodeKind::Constant;
    one.ty = ty;
    one.constant = 1;
    ValueId acc = add(one);
    bool acc_is_one = true;
    ValueId sq = base;
    while (k) {
      if (k & 1) {
        acc = acc_is_one ? sq : op(OpKind::Mul, ty, {acc, sq}, target, loc);
        acc_is_one = false;
      }
      k >>= 1;
      if (k) sq = op(OpKind::Mul, ty, {sq, sq}, target, loc);
    }
    return acc;
  }

  std::optional<HlsError> morphism(const ir::Morphism& m) {
    const ir::Object& src = g_.object(m.source);
    const ir::Object& tgt = g_.object(m.target);
    if (src.kind == ir::ObjectKind::Constant && leaves_[m.source.v].empty()) {
      std::vector<ValueId> l;
      constant_leaves(*src.value, src, l);
      leaves_[m.source.v] = std::move(l);
    }
    const std::vector<ValueId> in = leaves_[m.source.v];
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
          n.ty = dfg_.nodes[in[i]].ty;
          n.index = static_cast<uint32_t>(i);
          n.name = names[i];
          n.loc = tgt.loc;
          state[i] = add(n);
        }
        loop.state = state;
        dfg_.loop = std::move(loop);
        return std::nullopt;
      }
      case OpKind::LoopBack:
        dfg_.loop->next.assign(in.begin(), in.end() - 1);
        dfg_.loop->cond = in.back();
        return std::nullopt;
      case OpKind::LoopExit:  // the exit reads the state whose guard failed
        leaves_[m.target.v].assign(in.begin(), in.end() - 1);
        return std::nullopt;
      case OpKind::Phi: {
        const size_t n = (in.size() - 1) / 2;
        auto& out = leaves(m.target);
        for (size_t i = 0; i < n; ++i)
          out[i] = op(OpKind::Phi, dfg_.nodes[in[i]].ty, {in[i], in[n + i], in.back()}, tgt, m.loc);
        return std::nullopt;
      }
      case OpKind::Pow: {
        const Node& e = dfg_.nodes[in[1]];
        if (e.kind != NodeKind::Constant)
          return HlsError{"variable-exponent", "** with an exponent that is not a constant has no hardware form", m.loc};
        leaves_[m.target.v] = {power(in[0], e.constant, tgt, m.loc)};
        return std::nullopt;
      }
      case OpKind::Call:
        return HlsError{"not-inlined", "a call was not inlined", m.loc};
      default:
        leaves_[m.target.v] = {op(m.op.kind, tgt.ty, in, tgt, m.loc)};
        return std::nullopt;
    }
  }

  // Pre: does not depend on the loop state; Loop: depends on it and feeds the
  // next state or the guard; Post: depends on it and feeds only the outputs.
  void classify_regions() {
    if (!dfg_.loop) return;
    const size_t n = dfg_.nodes.size();
    std::vector<bool> on_state(n, false), feeds(n, false);
    for (ValueId v = 0; v < n; ++v) {
      const Node& node = dfg_.nodes[v];
      on_state[v] = node.kind == NodeKind::State;
      for (ValueId o : node.operands) on_state[v] = on_state[v] || on_state[o];
    }
    std::vector<ValueId> work(dfg_.loop->next.begin(), dfg_.loop->next.end());
    work.push_back(dfg_.loop->cond);
    while (!work.empty()) {
      const ValueId v = work.back();
      work.pop_back();
      if (feeds[v] || !on_state[v]) continue;
      feeds[v] = true;
      for (ValueId o : dfg_.nodes[v].operands) work.push_back(o);
    }
    for (ValueId v = 0; v < n; ++v)
      dfg_.nodes[v].region = !on_state[v] ? Region::Pre : feeds[v] ? Region::Loop : Region::Post;
  }

  const ir::CategoryIr& g_;
  ir::FuncId f_;
  const std::vector<bool>& config_fields_;
  Dfg dfg_;
  std::map<uint32_t, std::vector<ValueId>> leaves_;  // IR object -> its scalars
};

}  // namespace

ir::Expected<Dfg, HlsError> build_dfg(const ir::CategoryIr& ir, ir::FuncId f, const std::vector<bool>& config_fields) {
  return Builder(ir, f, config_fields).run();
}

}  // namespace polydat::hls
