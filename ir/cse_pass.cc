#include "ir/cse_pass.h"

#include <map>
#include <string>
#include <vector>

#include "ir/graph_copier.h"
#include "ir/loops.h"

namespace polydat::ir {

namespace {
// The exact bits of a value (NaN payloads and the sign of zero included).
void append_value(std::string& key, const Value& v) {
  key += ty_label(v.ty());
  key += '#';
  key += std::to_string(v.bits());
  if (v.ty().is_str()) {
    key += ':' + std::to_string(v.as_str().size()) + ':';
    key += v.as_str();
  }
  if (!v.elems().empty()) {
    key += '(';
    for (const Value& e : v.elems()) {
      append_value(key, e);  // types nest at most kMaxTyDepth deep
      key += ',';
    }
    key += ')';
  }
}

// Slot 1 of every back or exit route: the objects loops test.
std::vector<bool> loop_guards(const CategoryIr& ir) {
  std::vector<bool> guard(ir.objects().size(), false);
  for (const Morphism& m : ir.morphisms())
    if (m.op.kind == OpKind::LoopBack || m.op.kind == OpKind::LoopExit)
      if (auto g = route_feeder(ir, m.source, 1)) guard[g->v] = true;
  return guard;
}

class Cse {
 public:
  explicit Cse(const CategoryIr& ir) : ir_(ir), guard_(loop_guards(ir)) {}

  std::optional<Replacement> replace(CopyScope& s, ObjectId o) {
    std::string key = key_of(s, o);
    if (key.empty()) return std::nullopt;
    if (!guard_[o.v]) {
      if (auto it = table_.find(key); it != table_.end()) return Replacement::existing(it->second);
    }
    pending_.emplace(o, std::move(key));
    return std::nullopt;
  }

  // The first object made with a key represents it (a guard too, for later non-guards).
  void made(ObjectId o, ObjectId id) {
    auto it = pending_.find(o);
    if (it == pending_.end()) return;
    table_.emplace(std::move(it->second), id);
    pending_.erase(it);
  }

 private:
  // Empty for objects that never merge.
  std::string key_of(CopyScope& s, ObjectId o) {
    const Object& obj = ir_.object(o);
    if (obj.is_volatile) return {};
    std::string key = "f" + std::to_string(obj.owner.v) + "|";
    if (obj.kind == ObjectKind::Constant) {
      key += "const|";
      append_value(key, *obj.value);
      return key;
    }
    if (obj.kind != ObjectKind::Temporary) return {};  // parameters, merges, the Return
    auto in = ir_.in_edges(o);
    if (in.empty()) return {};
    const Operation& op = ir_.morphism(in.front()).op;
    if (op.kind == OpKind::LoopExit || op.kind == OpKind::LoopEnter || op.kind == OpKind::LoopBack ||
        op.kind == OpKind::Output)
      return {};
    key += std::string(op_name(op.kind)) + "/" + std::to_string(op.a) + "/" + std::to_string(op.b);
    key += "|" + ty_label(obj.ty) + "|";
    if (op.kind == OpKind::Pair) {
      std::vector<ObjectId> parts(obj.ty.arity());
      for (MorphismId m : in) parts.at(ir_.morphism(m).op.slot()) = s.materialize(ir_.morphism(m).source);
      for (ObjectId p : parts) key += std::to_string(p.v) + ",";
      return key;
    }
    if (in.size() != 1) return {};
    key += std::to_string(s.materialize(ir_.morphism(in.front()).source).v);
    return key;
  }

  const CategoryIr& ir_;
  std::vector<bool> guard_;
  std::map<std::string, ObjectId> table_;
  std::map<ObjectId, std::string> pending_;
};
}  // namespace

Result<CategoryIr> eliminate_common_subexpressions(const CategoryIr& ir) {
  Cse cse(ir);
  CopyHooks hooks;
  hooks.replace = [&cse](CopyScope& s, ObjectId o) { return cse.replace(s, o); };
  hooks.made = [&cse](CopyScope&, ObjectId o, ObjectId id) { cse.made(o, id); };
  return copy_graph(ir, hooks);
}

}  // namespace polydat::ir
