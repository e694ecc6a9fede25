#include "ir/dce_pass.h"

#include <map>
#include <vector>

#include "ir/graph_copier.h"
#include "ir/loops.h"

namespace polydat::ir {

Result<CategoryIr> eliminate_dead_code(const CategoryIr& ir) {
  // Every exit, by the merge of its loop.
  std::map<ObjectId, std::vector<ObjectId>> exits;
  for (const Morphism& m : ir.morphisms())
    if (m.op.kind == OpKind::LoopExit)
      for (ObjectId merge : exit_owners(ir, m.id)) exits[merge].push_back(m.target);

  std::vector<bool> live(ir.objects().size(), false);
  std::vector<bool> func_live(ir.funcs().size(), false);
  std::vector<ObjectId> work;
  auto mark = [&](ObjectId o) {
    if (!live[o.v]) {
      live[o.v] = true;
      work.push_back(o);
    }
  };
  auto reach_func = [&](FuncId f) {
    if (func_live[f.v]) return;
    func_live[f.v] = true;
    mark(ir.func(f).output);
    mark(ir.func(f).input);
  };
  reach_func(ir.entry());
  while (!work.empty()) {
    const ObjectId o = work.back();
    work.pop_back();
    for (MorphismId m : ir.in_edges(o)) {  // operands, an enter source, back routes
      const Morphism& mm = ir.morphism(m);
      mark(mm.source);
      if (mm.op.kind == OpKind::Call) reach_func(mm.op.callee());
    }
    if (ir.object(o).kind == ObjectKind::LoopMerge)
      if (auto it = exits.find(o); it != exits.end())
        for (ObjectId t : it->second) mark(t);
  }

  std::vector<FuncId> kept;
  for (const FuncDef& fd : ir.funcs())
    if (func_live[fd.id.v]) kept.push_back(fd.id);
  CopyHooks hooks;
  hooks.keep = [&live](ObjectId o) { return static_cast<bool>(live[o.v]); };
  return copy_graph(ir, kept, ir.entry(), hooks);
}

}  // namespace polydat::ir
