#include "ir/topo.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "ir/loops.h"

namespace polydat::ir {

namespace {
using Key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>;

Key key_of(const Morphism& m) { return {m.loc.file, m.loc.start, m.loc.end, m.id.v}; }

using MinHeap = std::priority_queue<Key, std::vector<Key>, std::greater<Key>>;
}  // namespace

std::vector<MorphismId> topo_order(const CategoryIr& ir, FuncId f) {
  const FuncDef& fd = ir.func(f);
  const size_t n_obj = ir.objects().size();
  const size_t n_mor = ir.morphisms().size();

  // Unmet conditions per morphism; remaining definers per object.
  std::vector<uint32_t> pending(n_mor, 0);
  std::vector<uint32_t> need(n_obj, 0);
  std::vector<std::vector<MorphismId>> waiters(n_obj);  // object -> loop morphisms that also wait on it

  for (ObjectId o : ir.objects_of(f)) {
    const Object& obj = ir.object(o);
    if (obj.kind == ObjectKind::LoopMerge) {
      need[o.v] = 1;  // its LoopEnter alone
    } else if (obj.kind != ObjectKind::Parameter && obj.kind != ObjectKind::Constant) {
      need[o.v] = static_cast<uint32_t>(ir.in_edges(o).size());
    }
  }
  for (MorphismId m : fd.morphisms) pending[m.v] = need[ir.morphism(m).source.v] > 0 ? 1 : 0;

  auto wait_on = [&](MorphismId m, ObjectId o) {
    if (need[o.v] == 0) return;  // complete from the start
    waiters[o.v].push_back(m);
    ++pending[m.v];
  };
  const LoopNest nest = loop_nest(ir, f);
  // An exit fires once the whole body has run: after every back route of its loop.
  for (MorphismId m : fd.morphisms) {
    if (ir.morphism(m).op.kind != OpKind::LoopExit) continue;
    for (ObjectId merge : exit_owners(ir, m))
      for (MorphismId b : ir.in_edges(merge))
        if (ir.morphism(b).op.kind == OpKind::LoopBack) wait_on(m, ir.morphism(b).source);
  }
  for (const Loop& loop : nest.loops) {
    MorphismId enter;
    for (MorphismId m : ir.in_edges(loop.merge))
      if (ir.morphism(m).op.kind == OpKind::LoopEnter) enter = m;
    if (!enter.valid()) continue;
    std::vector<ObjectId> outside;
    for (ObjectId o : loop.region)
      for (MorphismId m : ir.in_edges(o))
        if (m != enter && !loop.contains(ir.morphism(m).source)) outside.push_back(ir.morphism(m).source);
    std::sort(outside.begin(), outside.end());
    outside.erase(std::unique(outside.begin(), outside.end()), outside.end());
    for (ObjectId src : outside) wait_on(enter, src);
  }

  MinHeap ready, deferred;
  auto release = [&](MorphismId m) {
    const Morphism& mm = ir.morphism(m);
    (mm.op.kind == OpKind::LoopEnter ? deferred : ready).push(key_of(mm));
  };
  auto satisfy = [&](MorphismId m) {
    if (--pending[m.v] == 0) release(m);
  };
  for (MorphismId m : fd.morphisms)
    if (pending[m.v] == 0) release(m);

  std::vector<MorphismId> order;
  order.reserve(fd.morphisms.size());
  while (!ready.empty() || !deferred.empty()) {
    MinHeap& from = ready.empty() ? deferred : ready;
    const MorphismId m(std::get<3>(from.top()));
    from.pop();
    order.push_back(m);
    const Morphism& mm = ir.morphism(m);
    if (mm.op.kind == OpKind::LoopBack) continue;  // closes the cycle, completes nothing
    if (need[mm.target.v] == 0 || --need[mm.target.v] > 0) continue;
    for (MorphismId next : ir.out_edges(mm.target)) satisfy(next);
    for (MorphismId w : waiters[mm.target.v]) satisfy(w);
  }
  return order;
}

}  // namespace polydat::ir
