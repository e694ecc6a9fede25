// Loop structure recovered from adjacency: nothing about loops is stored in the graph.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "ir/graph.h"

namespace polydat::ir {

// One loop: its merge (the loop state) and its region, the objects on cycles
// through the merge once every enclosing loop's back edges are removed.
// A nested loop's region lies inside its parent's.
struct Loop {
  ObjectId merge;
  std::vector<ObjectId> region;  // sorted by id; includes the merge and the back route
  int parent = -1;               // index of the enclosing loop, -1 when outermost

  bool contains(ObjectId o) const { return std::binary_search(region.begin(), region.end(), o); }
};

struct LoopNest {
  std::vector<Loop> loops;            // enclosing loops come before the loops inside them
  // One object (a merge where there is one) of each cycle that is not a loop:
  // entered through several merges or none, or not broken by its header's back edges.
  std::vector<ObjectId> irreducible;

  int index_of(ObjectId merge) const;
  const Loop* loop_of(ObjectId merge) const;
};

// Peels strongly connected components: the merge of a component whose initial
// value comes from outside is its header (when several do, the one whose exits
// leave the component: inner loops exit into the loop around them); removing
// the header's back edges exposes the loops nested inside. Iterative.
LoopNest loop_nest(const CategoryIr& ir, FuncId f);

// A non-trivial strongly connected component over all edges, with its merges.
// Nested loops share one component (with several merges); sequential loops
// are separate components.
struct LoopScc {
  std::vector<ObjectId> objects;
  std::vector<ObjectId> merges;
};
std::vector<LoopScc> loop_structure(const CategoryIr& ir, FuncId f);

// The object written into slot `slot` of a product (a loop route's payload is
// slot 0, its guard slot 1).
std::optional<ObjectId> route_feeder(const CategoryIr& ir, ObjectId route, uint32_t slot);

// The merges a LoopExit belongs to: those whose back route uses its guard object.
std::vector<ObjectId> exit_owners(const CategoryIr& ir, MorphismId exit);

// The canonical loop: one LoopEnter, one LoopBack and one LoopExit sharing
// one guard. The layout every consumer of loops drives from.
struct LoopPlan {
  ObjectId merge;
  MorphismId enter;
  ObjectId init;
  MorphismId back;
  ObjectId back_route;
  ObjectId next;
  ObjectId cond;
  MorphismId exit;
  ObjectId exit_route;
  ObjectId exit_value;
  ObjectId exit_target;
  std::vector<ObjectId> region;
  // The part of the region computed on a state before its guard is tested:
  // the guard and every region value read from outside the loop, with all
  // they read inside the region (a nested loop joins whole). The rest of the
  // region, the body proper, runs only while the guard holds. Sorted by id.
  std::vector<ObjectId> head;
  ObjectId parent;  // the enclosing loop's merge; invalid when outermost

  bool in_head(ObjectId o) const { return std::binary_search(head.begin(), head.end(), o); }
};

// nullopt for any non-canonical shape (not a loop header, several back edges
// or exits).
std::optional<LoopPlan> loop_plan(const CategoryIr& ir, const LoopNest& nest, ObjectId merge);
std::optional<LoopPlan> loop_plan(const CategoryIr& ir, FuncId f, ObjectId merge);

}  // namespace polydat::ir
