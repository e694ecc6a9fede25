#include "ir/exec_plan.h"

#include <algorithm>

#include "ir/topo.h"

namespace polydat::ir {

Expected<ExecPlan, ExecPlanError> exec_plan(const CategoryIr& ir, FuncId f) {
  ExecPlan p;
  const LoopNest nest = loop_nest(ir, f);
  std::vector<uint32_t> local(ir.objects().size(), 0);
  {
    uint32_t i = 0;
    for (ObjectId o : ir.objects_of(f)) local[o.v] = i++;
  }
  std::vector<int> innermost(ir.objects_of(f).size(), -1);  // by local index
  for (size_t i = 0; i < nest.loops.size(); ++i) {
    auto plan = loop_plan(ir, nest, nest.loops[i].merge);
    if (!plan) return ExecPlanError{"the loop has no canonical plan", ir.object(nest.loops[i].merge).loc};
    p.loops.push_back(std::move(*plan));
    for (ObjectId o : nest.loops[i].region) innermost[local[o.v]] = static_cast<int>(i);  // children come later
  }
  for (ObjectId o : ir.objects_of(f))
    if (ir.object(o).kind == ObjectKind::LoopMerge && nest.index_of(o) < 0)
      return ExecPlanError{"the loop merge is on no loop", ir.object(o).loc};

  p.blocks.resize(nest.loops.size() + 1);
  for (MorphismId m : topo_order(ir, f)) {
    const Morphism& mm = ir.morphism(m);
    if (mm.op.kind == OpKind::LoopBack) continue;
    if (mm.op.kind == OpKind::LoopEnter) {
      const int li = nest.index_of(mm.target);
      const int parent = nest.loops[static_cast<size_t>(li)].parent;
      p.blocks[static_cast<size_t>(parent + 1)].push_back({true, static_cast<uint32_t>(li)});
      continue;
    }
    p.blocks[static_cast<size_t>(innermost[local[mm.target.v]] + 1)].push_back({false, m.v});
  }
  // Each loop block runs its head first; both parts keep topological order.
  p.heads.assign(p.blocks.size(), 0);
  for (size_t li = 0; li < p.loops.size(); ++li) {
    const LoopPlan& lp = p.loops[li];
    auto in_head = [&](const ExecStep& st) {
      return lp.in_head(st.is_loop ? p.loops[st.id].merge : ir.morphism(MorphismId(st.id)).target);
    };
    std::vector<ExecStep>& block = p.blocks[li + 1];
    const auto body = std::stable_partition(block.begin(), block.end(), in_head);
    p.heads[li + 1] = static_cast<size_t>(body - block.begin());
  }
  return p;
}

}  // namespace polydat::ir
