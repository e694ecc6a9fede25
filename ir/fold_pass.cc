#include "ir/library_fn.h"
#include "ir/fold_pass.h"

#include <vector>

#include "ir/graph_copier.h"
#include "ir/loops.h"
#include "ir/semantics.h"
#include "ir/typing.h"

namespace polydat::ir {

namespace {
// Every object a loop merge reaches along dataflow edges: the loop regions and
// all that is computed from a loop's state or result.
std::vector<bool> depends_on_merge(const CategoryIr& ir) {
  std::vector<bool> reached(ir.objects().size(), false);
  std::vector<ObjectId> work;
  for (const Object& o : ir.objects())
    if (o.kind == ObjectKind::LoopMerge) {
      reached[o.id.v] = true;
      work.push_back(o.id);
    }
  while (!work.empty()) {
    const ObjectId o = work.back();
    work.pop_back();
    for (MorphismId m : ir.out_edges(o)) {
      const ObjectId t = ir.morphism(m).target;
      if (!reached[t.v]) {
        reached[t.v] = true;
        work.push_back(t);
      }
    }
  }
  return reached;
}

bool built_by_pairs(const CategoryIr& ir, ObjectId o) {
  auto in = ir.in_edges(o);
  return !in.empty() && ir.morphism(in.front()).op.kind == OpKind::Pair;
}

Value product_value(const Ty& ty, std::vector<Value> parts) {
  return ty.kind() == TyKind::Struct ? Value::structure(ty, std::move(parts)) : Value::tuple(std::move(parts));
}

// `b`, when `o` is `(b as T) as bool` for a bool b and an integer T: a comparison
// yields the u64 1 or 0, and a context that wants a bool wants the one bit back.
std::optional<ObjectId> bool_through_integer(const CategoryIr& ir, ObjectId o) {
  const Object& obj = ir.object(o);
  auto in = ir.in_edges(o);
  if (!obj.ty.is_bool() || in.size() != 1 || ir.morphism(in.front()).op.kind != OpKind::Cast) return std::nullopt;
  const ObjectId widened = ir.morphism(in.front()).source;
  auto inner = ir.in_edges(widened);
  if (ir.object(widened).is_volatile || inner.size() != 1 || ir.morphism(inner.front()).op.kind != OpKind::Cast)
    return std::nullopt;
  const ObjectId b = ir.morphism(inner.front()).source;
  if (!ir.object(b).ty.is_bool() || !ir.object(widened).ty.is_int()) return std::nullopt;
  return b;
}

std::optional<Replacement> fold(const CategoryIr& ir, const std::vector<bool>& looped, CopyScope& s, ObjectId o) {
  const Object& obj = ir.object(o);
  if (obj.is_volatile || (obj.kind != ObjectKind::Temporary && obj.kind != ObjectKind::Return)) return std::nullopt;
  // Inside loops too: this is rewiring, not folding to a constant.
  if (auto b = bool_through_integer(ir, o)) return Replacement::same_as(*b);
  if (looped[o.v]) return std::nullopt;
  auto in = ir.in_edges(o);
  if (in.empty()) return std::nullopt;
  const Morphism& m = ir.morphism(in.front());
  if (m.op.kind == OpKind::Pair) {  // a product of constants
    std::vector<Value> parts(obj.ty.arity());
    for (MorphismId p : in) {
      const Morphism& mp = ir.morphism(p);
      auto v = s.known_value(mp.source);
      if (!v) return std::nullopt;
      parts.at(mp.op.slot()) = std::move(*v);
    }
    return Replacement::constant(product_value(obj.ty, std::move(parts)));
  }
  if (in.size() != 1) return std::nullopt;
  const std::optional<Value> v = s.known_value(m.source);
  const Object& source = ir.object(m.source);
  switch (m.op.kind) {
    case OpKind::Proj:
      if (v) return Replacement::constant(v->elems().at(m.op.index()));
      if (!source.is_volatile && built_by_pairs(ir, m.source))
        if (auto c = route_feeder(ir, m.source, m.op.index())) return Replacement::same_as(*c);
      return std::nullopt;
    case OpKind::Cast:
      if (v) return Replacement::constant(eval_cast(*v, obj.ty));
      return std::nullopt;
    case OpKind::Rom:
      if (v) return Replacement::constant(rom_entry(ir.rom(m.op.rom()), v->as_u64()));
      return std::nullopt;
    case OpKind::Phi: {
      if (v) return Replacement::constant(v->elems()[2].as_bool() ? v->elems()[0] : v->elems()[1]);
      if (source.is_volatile || !built_by_pairs(ir, m.source)) return std::nullopt;
      auto cond = route_feeder(ir, m.source, 2);
      auto guard = cond ? s.known_value(*cond) : std::nullopt;
      if (!guard) return std::nullopt;
      if (auto branch = route_feeder(ir, m.source, guard->as_bool() ? 0 : 1)) return Replacement::same_as(*branch);
      return std::nullopt;
    }
    case OpKind::Call:
    case OpKind::LoopEnter:
    case OpKind::LoopBack:
    case OpKind::LoopExit:
    case OpKind::Output:
    case OpKind::Pair: return std::nullopt;
    default: break;
  }
  if (!v) return std::nullopt;
  switch (form_of(m.op.kind)) {
    case Form::Unary: return Replacement::constant(eval_unary(m.op.kind, *v));
    case Form::Binary: return Replacement::constant(eval_binary(m.op.kind, v->elems().at(0), v->elems().at(1)));
    case Form::Library: return Replacement::constant(eval_library(m.op.library_fn(), *v));
    default: return std::nullopt;
  }
}
}  // namespace

Result<CategoryIr> fold_constants(const CategoryIr& ir) {
  const std::vector<bool> looped = depends_on_merge(ir);
  CopyHooks hooks;
  hooks.replace = [&](CopyScope& s, ObjectId o) { return fold(ir, looped, s, o); };
  return copy_graph(ir, hooks);
}

}  // namespace polydat::ir
