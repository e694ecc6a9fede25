// Test-only write access to a sealed graph, to show that validate() catches
// each kind of corruption. Nothing outside tests may include this.
#pragma once

#include "ir/graph.h"

namespace polydat::ir {

struct GraphSurgery {
  static Object& object(CategoryIr& g, ObjectId id) { return g.objects_.at(id.v); }
  static Morphism& morphism(CategoryIr& g, MorphismId id) { return g.morphisms_.at(id.v); }
  static FuncDef& func(CategoryIr& g, FuncId id) { return g.funcs_.at(id.v); }
  static std::vector<MorphismId>& in_edges(CategoryIr& g, ObjectId id) { return g.in_edges_.at(id.v); }
  static std::vector<MorphismId>& out_edges(CategoryIr& g, ObjectId id) { return g.out_edges_.at(id.v); }
  static void set_entry(CategoryIr& g, FuncId f) { g.entry_ = f; }

  // Moves a morphism's target, keeping the edge lists consistent.
  static void retarget(CategoryIr& g, MorphismId m, ObjectId target);
  // Adds a morphism (owned by the source's function), keeping the edge lists consistent.
  static MorphismId add_edge(CategoryIr& g, ObjectId source, ObjectId target, Operation op);
  // Adds an object to function f.
  static ObjectId add_object(CategoryIr& g, FuncId f, Ty ty, ObjectKind kind);
};

inline void GraphSurgery::retarget(CategoryIr& g, MorphismId m, ObjectId target) {
  Morphism& mm = morphism(g, m);
  auto& old_in = in_edges(g, mm.target);
  std::erase(old_in, m);
  mm.target = target;
  in_edges(g, target).push_back(m);
}

inline MorphismId GraphSurgery::add_edge(CategoryIr& g, ObjectId source, ObjectId target, Operation op) {
  MorphismId id(static_cast<uint32_t>(g.morphisms_.size()));
  g.morphisms_.push_back(Morphism{id, source, target, op, {}});
  g.out_edges_.at(source.v).push_back(id);
  g.in_edges_.at(target.v).push_back(id);
  g.funcs_.at(g.objects_.at(source.v).owner.v).morphisms.push_back(id);
  return id;
}

inline ObjectId GraphSurgery::add_object(CategoryIr& g, FuncId f, Ty ty, ObjectKind kind) {
  ObjectId id(static_cast<uint32_t>(g.objects_.size()));
  g.objects_.push_back(Object{id, std::move(ty), kind, std::nullopt, {}, {}, f, false});
  g.funcs_.at(f.v).objects.push_back(id);
  g.in_edges_.emplace_back();
  g.out_edges_.emplace_back();
  return id;
}

}  // namespace polydat::ir
