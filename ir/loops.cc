#include "ir/loops.h"

#include <deque>
#include <map>
#include <set>

#include "ir/scc.h"

namespace polydat::ir {

int LoopNest::index_of(ObjectId merge) const {
  for (size_t i = 0; i < loops.size(); ++i)
    if (loops[i].merge == merge) return static_cast<int>(i);
  return -1;
}

const Loop* LoopNest::loop_of(ObjectId merge) const {
  const int i = index_of(merge);
  return i < 0 ? nullptr : &loops[static_cast<size_t>(i)];
}

namespace {
std::optional<ObjectId> enter_source(const CategoryIr& ir, ObjectId merge) {
  for (MorphismId m : ir.in_edges(merge))
    if (ir.morphism(m).op.kind == OpKind::LoopEnter) return ir.morphism(m).source;
  return std::nullopt;
}
}  // namespace

LoopNest loop_nest(const CategoryIr& ir, FuncId f) {
  LoopNest nest;
  std::set<ObjectId> peeled;  // headers whose back edges no longer count
  const EdgeFilter keep = [&](const Morphism& m) {
    return !(m.op.kind == OpKind::LoopBack && peeled.count(m.target));
  };
  struct Work {
    std::vector<ObjectId> nodes;
    int parent;
  };
  // Where each merge's exits lead: an inner loop's exits stay inside the cycle of
  // the loop around it, the outer loop's leave it.
  std::map<ObjectId, std::vector<ObjectId>> exit_targets;
  for (MorphismId m : ir.func(f).morphisms)
    if (ir.morphism(m).op.kind == OpKind::LoopExit)
      for (ObjectId owner : exit_owners(ir, m)) exit_targets[owner].push_back(ir.morphism(m).target);
  std::deque<Work> work;
  work.push_back({ir.objects_of(f), -1});
  while (!work.empty()) {
    Work w = std::move(work.front());
    work.pop_front();
    for (std::vector<ObjectId>& comp : strong_components(ir, w.nodes, keep)) {
      if (comp.size() < 2) continue;  // no self-loops: a back edge leaves from a route object
      if (w.parent >= 0 && comp.size() == w.nodes.size()) {
        // Removing the header's back edges broke nothing: a cycle avoids them.
        nest.irreducible.push_back(comp.front());
        continue;
      }
      std::vector<ObjectId> headers, merges;
      for (ObjectId o : comp) {
        if (ir.object(o).kind != ObjectKind::LoopMerge) continue;
        merges.push_back(o);
        auto src = enter_source(ir, o);
        if (src && !std::binary_search(comp.begin(), comp.end(), *src)) headers.push_back(o);
      }
      // Several merges entered from outside (an inner loop whose initial state
      // does not read the outer one): the header is the one whose exits leave.
      if (headers.size() > 1) {
        std::erase_if(headers, [&](ObjectId h) {
          const auto& targets = exit_targets[h];
          return std::any_of(targets.begin(), targets.end(),
                             [&](ObjectId t) { return std::binary_search(comp.begin(), comp.end(), t); });
        });
      }
      if (headers.size() != 1) {
        nest.irreducible.push_back(merges.empty() ? comp.front() : merges.front());
        continue;
      }
      peeled.insert(headers.front());
      nest.loops.push_back(Loop{headers.front(), comp, w.parent});
      work.push_back({std::move(comp), static_cast<int>(nest.loops.size() - 1)});
    }
  }
  return nest;
}

std::vector<LoopScc> loop_structure(const CategoryIr& ir, FuncId f) {
  std::vector<LoopScc> out;
  for (std::vector<ObjectId>& comp : sccs(ir, f)) {
    if (comp.size() < 2) continue;
    LoopScc s;
    for (ObjectId o : comp)
      if (ir.object(o).kind == ObjectKind::LoopMerge) s.merges.push_back(o);
    s.objects = std::move(comp);
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<ObjectId> route_feeder(const CategoryIr& ir, ObjectId route, uint32_t slot) {
  for (MorphismId m : ir.in_edges(route)) {
    const Morphism& mm = ir.morphism(m);
    if (mm.op.kind == OpKind::Pair && mm.op.slot() == slot) return mm.source;
  }
  return std::nullopt;
}

std::vector<ObjectId> exit_owners(const CategoryIr& ir, MorphismId exit) {
  std::vector<ObjectId> owners;
  auto guard = route_feeder(ir, ir.morphism(exit).source, 1);
  if (!guard) return owners;
  for (MorphismId p : ir.out_edges(*guard)) {
    const Morphism& mp = ir.morphism(p);
    if (mp.op.kind != OpKind::Pair || mp.op.slot() != 1 || mp.op.arity() != 2) continue;
    for (MorphismId b : ir.out_edges(mp.target))
      if (ir.morphism(b).op.kind == OpKind::LoopBack) owners.push_back(ir.morphism(b).target);
  }
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  return owners;
}

namespace {
// Backward closure inside the loop's region from the guard and from every
// value that leaves the region; the loop's own back edge is not followed.
std::vector<ObjectId> loop_head(const CategoryIr& ir, const LoopNest& nest, int li, ObjectId cond) {
  const Loop& loop = nest.loops[static_cast<size_t>(li)];
  std::vector<int> child_of(ir.objects().size(), -1);  // the directly nested loop holding an object
  for (size_t c = 0; c < nest.loops.size(); ++c)
    if (nest.loops[c].parent == li)
      for (ObjectId o : nest.loops[c].region) child_of[o.v] = static_cast<int>(c);
  std::vector<ObjectId> work{cond};
  for (ObjectId o : loop.region)
    for (MorphismId m : ir.out_edges(o))
      if (!loop.contains(ir.morphism(m).target)) work.push_back(o);
  std::vector<bool> in_head(ir.objects().size(), false);
  auto reads_of = [&](ObjectId o, const Loop* unit) {
    for (MorphismId m : ir.in_edges(o)) {
      const Morphism& mm = ir.morphism(m);
      if (mm.op.kind == OpKind::LoopBack && mm.target == loop.merge) continue;
      if (unit == nullptr || !unit->contains(mm.source)) work.push_back(mm.source);
    }
  };
  while (!work.empty()) {
    const ObjectId o = work.back();
    work.pop_back();
    if (!loop.contains(o) || in_head[o.v]) continue;
    if (child_of[o.v] < 0) {
      in_head[o.v] = true;
      reads_of(o, nullptr);
      continue;
    }
    const Loop& child = nest.loops[static_cast<size_t>(child_of[o.v])];  // a nested loop runs whole
    for (ObjectId x : child.region) {
      in_head[x.v] = true;
      reads_of(x, &child);
    }
  }
  std::vector<ObjectId> head;
  for (ObjectId o : loop.region)
    if (in_head[o.v]) head.push_back(o);
  return head;
}
}  // namespace

std::optional<LoopPlan> loop_plan(const CategoryIr& ir, const LoopNest& nest, ObjectId merge) {
  const int li = nest.index_of(merge);
  if (li < 0) return std::nullopt;
  const Loop& loop = nest.loops[static_cast<size_t>(li)];
  LoopPlan p;
  p.merge = merge;
  p.region = loop.region;
  p.parent = loop.parent < 0 ? ObjectId() : nest.loops[static_cast<size_t>(loop.parent)].merge;
  int enters = 0, backs = 0;
  for (MorphismId m : ir.in_edges(merge)) {
    const Morphism& mm = ir.morphism(m);
    if (mm.op.kind == OpKind::LoopEnter) {
      ++enters;
      p.enter = m;
      p.init = mm.source;
    } else if (mm.op.kind == OpKind::LoopBack) {
      ++backs;
      p.back = m;
      p.back_route = mm.source;
    }
  }
  if (enters != 1 || backs != 1) return std::nullopt;
  auto next = route_feeder(ir, p.back_route, 0);
  auto cond = route_feeder(ir, p.back_route, 1);
  if (!next || !cond) return std::nullopt;
  p.next = *next;
  p.cond = *cond;
  int exits = 0;
  for (MorphismId m : ir.func(ir.owner(merge)).morphisms) {
    if (ir.morphism(m).op.kind != OpKind::LoopExit) continue;
    if (exit_owners(ir, m) != std::vector<ObjectId>{merge}) continue;
    ++exits;
    p.exit = m;
    p.exit_route = ir.morphism(m).source;
    p.exit_target = ir.morphism(m).target;
  }
  if (exits != 1) return std::nullopt;
  auto value = route_feeder(ir, p.exit_route, 0);
  if (!value) return std::nullopt;
  p.exit_value = *value;
  p.head = loop_head(ir, nest, li, p.cond);
  return p;
}

std::optional<LoopPlan> loop_plan(const CategoryIr& ir, FuncId f, ObjectId merge) {
  return loop_plan(ir, loop_nest(ir, f), merge);
}

}  // namespace polydat::ir
