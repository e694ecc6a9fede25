// The Validator's cycle checks: no recursive calls, and every loop re-derived
// by peeling strongly connected components, with its back edges, guard and exits.
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/validator.h"

namespace polydat::ir::validation {

namespace {
using Adjacency = std::vector<std::vector<uint32_t>>;

// Tarjan's strongly connected components with an explicit call stack, so a
// 100,000-object chain costs heap, not host stack. Each component is sorted;
// components are ordered by their smallest node.
std::vector<std::vector<uint32_t>> strong_components_of(const Adjacency& adj) {
  const size_t n = adj.size();
  std::vector<uint32_t> index(n, kAbsent), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<uint32_t> stack;
  struct Frame {
    uint32_t v;
    size_t next;
  };
  std::vector<Frame> calls;
  std::vector<std::vector<uint32_t>> comps;
  uint32_t counter = 0;
  auto visit = [&](uint32_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.push_back({v, 0});
  };
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kAbsent) continue;
    visit(root);
    while (!calls.empty()) {
      const uint32_t v = calls.back().v;
      if (calls.back().next < adj[v].size()) {
        const uint32_t w = adj[v][calls.back().next++];
        if (index[w] == kAbsent)
          visit(w);
        else if (on_stack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().v] = std::min(low[calls.back().v], low[v]);
      if (low[v] != index[v]) continue;
      std::vector<uint32_t> comp;
      uint32_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        comp.push_back(w);
      } while (w != v);
      std::sort(comp.begin(), comp.end());
      comps.push_back(std::move(comp));
    }
  }
  std::sort(comps.begin(), comps.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return comps;
}
}  // namespace

// One loop re-derived by peeling: its header merge and its region (sorted).
struct PeeledLoop {
  ObjectId merge;
  std::vector<ObjectId> region;
  int parent = -1;

  bool contains(ObjectId o) const { return std::binary_search(region.begin(), region.end(), o); }
};

struct LoopForest {
  std::vector<PeeledLoop> loops;
  std::map<ObjectId, size_t> by_merge;
  std::set<ObjectId> irreducible;  // merges on cycles with no single header

  const PeeledLoop* loop_of(ObjectId merge) const {
    auto it = by_merge.find(merge);
    return it == by_merge.end() ? nullptr : &loops[it->second];
  }
};

// ---- calls ----

void Validator::check_calls_acyclic() {
  const size_t n = ir_.funcs().size();
  Adjacency calls(n);
  for (uint32_t i = 0; i < ir_.morphisms().size(); ++i) {
    if (!sound_[i] || ir_.morphisms()[i].op.kind != OpKind::Call) continue;
    const FuncId caller = owner_or_none(ir_.morphisms()[i].source);
    const FuncId callee = ir_.morphisms()[i].op.callee();
    if (caller.valid() && ir_.has_func(callee)) calls[caller.v].push_back(callee.v);
  }
  for (const std::vector<uint32_t>& comp : strong_components_of(calls)) {
    const uint32_t f = comp.front();
    const bool self = std::find(calls[f].begin(), calls[f].end(), f) != calls[f].end();
    if (comp.size() < 2 && !self) continue;
    std::string cycle;
    for (uint32_t g : comp) cycle += (cycle.empty() ? "" : ", ") + ir_.funcs()[g].name;
    report(IrErrorKind::RecursiveCall, "recursive calls among " + cycle, FuncId(f));
  }
}

// ---- loops ----

// Components of the subgraph induced by `nodes`, without the back edges of
// already peeled headers.
std::vector<std::vector<ObjectId>> Validator::components(const std::vector<ObjectId>& nodes) {
  local_.resize(ir_.objects().size(), kAbsent);
  peeled_.resize(ir_.objects().size(), false);
  for (uint32_t i = 0; i < nodes.size(); ++i) local_[nodes[i].v] = i;
  Adjacency adj(nodes.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    for (MorphismId m : out_of_[nodes[i].v]) {
      const uint32_t t = local_[mor(m).target.v];
      if (t == kAbsent || (mor(m).op.kind == OpKind::LoopBack && peeled_[mor(m).target.v])) continue;
      adj[i].push_back(t);
    }
  }
  for (ObjectId o : nodes) local_[o.v] = kAbsent;
  std::vector<std::vector<ObjectId>> comps;
  for (const std::vector<uint32_t>& c : strong_components_of(adj)) {
    std::vector<ObjectId> comp;
    for (uint32_t i : c) comp.push_back(nodes[i]);
    comps.push_back(std::move(comp));  // nodes are in id order, so comp stays sorted
  }
  return comps;
}

bool Validator::enters_from_outside(ObjectId merge, const std::vector<ObjectId>& comp) const {
  for (MorphismId m : in_of_[merge.v])
    if (mor(m).op.kind == OpKind::LoopEnter) return !std::binary_search(comp.begin(), comp.end(), mor(m).source);
  return false;
}

// Whether some loop exit guarded like `merge` lands inside `comp`.
bool Validator::exits_into(ObjectId merge, const std::vector<ObjectId>& comp) const {
  for (uint32_t i = 0; i < ir_.morphisms().size(); ++i) {
    if (!sound_[i] || mor(MorphismId(i)).op.kind != OpKind::LoopExit) continue;
    const std::vector<ObjectId> owners = guard_owners(MorphismId(i));
    if (std::find(owners.begin(), owners.end(), merge) != owners.end() &&
        std::binary_search(comp.begin(), comp.end(), mor(MorphismId(i)).target))
      return true;
  }
  return false;
}

// Peels SCCs: the one merge of a component entered from outside is its
// header; dropping its back edges exposes the loops nested inside.
LoopForest Validator::peel_loops(FuncId f) {
  LoopForest forest;
  struct Work {
    std::vector<ObjectId> nodes;
    int parent;
  };
  std::deque<Work> work;
  work.push_back({objects_of_[f.v], -1});
  while (!work.empty()) {
    Work w = std::move(work.front());
    work.pop_front();
    for (std::vector<ObjectId>& comp : components(w.nodes)) {
      if (comp.size() < 2) continue;
      std::vector<ObjectId> merges, headers;
      for (ObjectId o : comp) {
        if (ir_.object(o).kind != ObjectKind::LoopMerge) continue;
        merges.push_back(o);
        if (enters_from_outside(o, comp)) headers.push_back(o);
      }
      // Several entered from outside: an inner loop whose initial state does not
      // read the outer one. The outer loop is the one whose exits leave the cycle.
      if (headers.size() > 1)
        std::erase_if(headers, [&](ObjectId h) { return exits_into(h, comp); });
      // A sub-component as large as its parent: the header's back edges did not break the cycle.
      const bool stuck = w.parent >= 0 && comp.size() == w.nodes.size();
      if (headers.size() != 1 || stuck) {
        report_irreducible(f, comp, merges, headers.size(), stuck);
        forest.irreducible.insert(merges.begin(), merges.end());
        continue;
      }
      peeled_[headers.front().v] = true;
      forest.by_merge.emplace(headers.front(), forest.loops.size());
      forest.loops.push_back(PeeledLoop{headers.front(), comp, w.parent});
      work.push_back({std::move(comp), static_cast<int>(forest.loops.size() - 1)});
    }
  }
  return forest;
}

void Validator::report_irreducible(FuncId f, const std::vector<ObjectId>& comp, const std::vector<ObjectId>& merges,
                                   size_t headers, bool stuck) {
  const ObjectId at = merges.empty() ? comp.front() : merges.front();
  std::string why = merges.empty() ? "passes through no loop merge"
                    : stuck        ? "does not close through its header's back edges"
                                   : "is entered through " + std::to_string(headers) + " merges, not one";
  report(IrErrorKind::IrreducibleLoop, "the cycle through " + obj_text(at) + " " + why, f, at);
}

// The object written into slot `slot` of a product (first such Pair).
std::optional<ObjectId> Validator::slot_feeder(ObjectId product, uint32_t slot) const {
  for (MorphismId m : in_of_[product.v])
    if (mor(m).op.kind == OpKind::Pair && mor(m).op.slot() == slot) return mor(m).source;
  return std::nullopt;
}

// The merges whose back route carries the same guard object as this exit's route.
std::vector<ObjectId> Validator::guard_owners(MorphismId exit) const {
  std::vector<ObjectId> owners;
  const std::optional<ObjectId> guard = slot_feeder(mor(exit).source, 1);
  if (!guard) return owners;
  for (MorphismId p : out_of_[guard->v]) {
    const Operation& op = mor(p).op;
    if (op.kind != OpKind::Pair || op.slot() != 1 || op.arity() != 2) continue;
    for (MorphismId b : out_of_[mor(p).target.v])
      if (mor(b).op.kind == OpKind::LoopBack) owners.push_back(mor(b).target);
  }
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  return owners;
}

void Validator::check_loops(FuncId f) {
  const LoopForest forest = peel_loops(f);
  std::vector<ObjectId> merges;
  for (ObjectId o : objects_of_[f.v])
    if (ir_.object(o).kind == ObjectKind::LoopMerge && !forest.irreducible.count(o)) merges.push_back(o);
  for (ObjectId m : merges) check_back_edges(f, m, forest.loop_of(m));
  std::map<ObjectId, int> exits;
  for (MorphismId e : morphisms_of_[f.v])
    if (mor(e).op.kind == OpKind::LoopExit) check_exit(f, e, forest, exits);
  for (ObjectId m : merges)
    if (exits[m] == 0) report(IrErrorKind::LoopWithoutExit, obj_text(m) + " has no loop exit using its guard", f, m);
}

void Validator::check_back_edges(FuncId f, ObjectId merge, const PeeledLoop* loop) {
  for (MorphismId b : in_of_[merge.v]) {
    if (mor(b).op.kind != OpKind::LoopBack) continue;
    const ObjectId route = mor(b).source;
    if (loop == nullptr || !loop->contains(route)) {
      report(IrErrorKind::LoopBackOutsideScc,
             edge_text(b) + " routes a state into " + obj_text(merge) + " from outside its loop", f, merge, b);
      continue;
    }
    const std::optional<ObjectId> guard = slot_feeder(route, 1);
    if (!guard || !loop->contains(*guard))
      report(IrErrorKind::LoopGuardInvariant,
             "the guard of " + edge_text(b) + " does not depend on the state of " + obj_text(merge), f, merge, b);
  }
}

void Validator::check_exit(FuncId f, MorphismId e, const LoopForest& forest, std::map<ObjectId, int>& exits) {
  const std::vector<ObjectId> owners = guard_owners(e);
  if (owners.size() != 1)
    return report(
        IrErrorKind::LoopExitUnattributed,
        edge_text(e) + "'s guard is the back-edge guard of " + std::to_string(owners.size()) + " loops, not one", f,
        mor(e).target, e);
  const PeeledLoop* loop = forest.loop_of(owners.front());
  if (loop == nullptr) return;  // the merge's own fault is reported with it
  if (loop->contains(mor(e).target))
    return report(IrErrorKind::LoopExitInsideScc,
                  edge_text(e) + " leaves " + obj_text(owners.front()) + " into its own loop", f, mor(e).target, e);
  ++exits[owners.front()];
}

}  // namespace polydat::ir::validation
