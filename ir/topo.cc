#include "ir/topo.h"

#include <algorithm>
#include <map>
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
  const std::vector<ObjectId>& objects = ir.objects_of(f);
  // Arrays are per function, indexed by position in its (id-sorted) lists:
  // nothing here scales with the whole graph.
  auto at = [](const auto& sorted, auto id) {
    return static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), id) - sorted.begin());
  };
  std::vector<uint32_t> need_of(objects.size(), 0);         // remaining definers per object
  std::vector<uint32_t> pending_of(fd.morphisms.size(), 0);  // unmet conditions per morphism
  auto need = [&](ObjectId o) -> uint32_t& { return need_of.at(at(objects, o)); };
  auto pending = [&](MorphismId m) -> uint32_t& { return pending_of.at(at(fd.morphisms, m)); };
  std::map<ObjectId, std::vector<MorphismId>> waiters;  // object -> loop morphisms that also wait on it

  for (ObjectId o : objects) {
    const Object& obj = ir.object(o);
    if (obj.kind == ObjectKind::LoopMerge) {
      need(o) = 1;  // its LoopEnter alone
    } else if (obj.kind != ObjectKind::Parameter && obj.kind != ObjectKind::Constant) {
      need(o) = static_cast<uint32_t>(ir.in_edges(o).size());
    }
  }
  for (MorphismId m : fd.morphisms) pending(m) = need(ir.morphism(m).source) > 0 ? 1 : 0;

  auto wait_on = [&](MorphismId m, ObjectId o) {
    if (need(o) == 0) return;  // complete from the start
    waiters[o].push_back(m);
    ++pending(m);
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
    if (--pending(m) == 0) release(m);
  };
  for (MorphismId m : fd.morphisms)
    if (pending(m) == 0) release(m);

  std::vector<MorphismId> order;
  order.reserve(fd.morphisms.size());
  while (!ready.empty() || !deferred.empty()) {
    MinHeap& from = ready.empty() ? deferred : ready;
    const MorphismId m(std::get<3>(from.top()));
    from.pop();
    order.push_back(m);
    const Morphism& mm = ir.morphism(m);
    if (mm.op.kind == OpKind::LoopBack) continue;  // closes the cycle, completes nothing
    if (need(mm.target) == 0 || --need(mm.target) > 0) continue;
    for (MorphismId next : ir.out_edges(mm.target)) satisfy(next);
    if (auto it = waiters.find(mm.target); it != waiters.end())
      for (MorphismId w : it->second) satisfy(w);
  }
  return order;
}

}  // namespace polydat::ir
