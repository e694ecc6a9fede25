#include "hls/dfg_rewrite.h"

namespace polydat::hls {

DfgRewriter::DfgRewriter(const Dfg& in) : in_(in), b_(out_) {}

std::vector<ValueId> DfgRewriter::mapped_operands(ValueId old) const {
  std::vector<ValueId> ops;
  for (ValueId o : in_.nodes[old].operands) ops.push_back(map_[o]);
  return ops;
}

ValueId DfgRewriter::copy(ValueId old) {
  const Node& n = in_.nodes[old];
  b_.set_origin(n);
  return b_.op(n.op, n.width, mapped_operands(old), n.sgn, n.param, n.table);
}

ValueId DfgRewriter::rewrite(ValueId v) { return copy(v); }

Dfg DfgRewriter::run() {
  out_.name = in_.name;
  live_ = in_.live();
  map_.assign(in_.nodes.size(), 0);
  prepare();
  for (ValueId v = 0; v < in_.nodes.size(); ++v) {
    const Node& n = in_.nodes[v];
    switch (n.kind) {
      case NodeKind::Input:
      case NodeKind::Config:
      case NodeKind::State: {
        Node copy = n;
        copy.operands.clear();
        map_[v] = b_.raw(std::move(copy));
        break;
      }
      case NodeKind::Constant: map_[v] = b_.constant(n.width, n.constant); break;
      case NodeKind::Op:
        if (!live_[v]) break;
        b_.set_origin(n);
        map_[v] = rewrite(v);
        break;
    }
  }
  auto ports = [&](const std::vector<DfgPort>& from, std::vector<DfgPort>& to) {
    for (const DfgPort& p : from) to.push_back(DfgPort{p.name, p.ty, map_[p.value]});
  };
  ports(in_.inputs, out_.inputs);
  ports(in_.configs, out_.configs);
  ports(in_.outputs, out_.outputs);
  if (in_.loop) {
    DfgLoop l;
    l.loc = in_.loop->loc;
    for (ValueId s : in_.loop->state) l.state.push_back(map_[s]);
    for (ValueId s : in_.loop->init) l.init.push_back(map_[s]);
    for (ValueId s : in_.loop->next) l.next.push_back(map_[s]);
    l.cond = map_[in_.loop->cond];
    out_.loop = std::move(l);
  }
  classify_regions(out_);
  return std::move(out_);
}

Dfg cleanup(const Dfg& g) { return DfgRewriter(g).run(); }

}  // namespace polydat::hls
