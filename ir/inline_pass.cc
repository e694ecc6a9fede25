#include "ir/inline_pass.h"

#include <optional>
#include <utility>

#include "ir/graph_copier.h"

namespace polydat::ir {

namespace {
std::vector<FuncId> callees_of(const CategoryIr& ir, FuncId f) {
  std::vector<FuncId> out;
  for (MorphismId m : ir.func(f).morphisms)
    if (ir.morphism(m).op.kind == OpKind::Call) out.push_back(ir.morphism(m).op.callee());
  return out;
}
}  // namespace

std::vector<FuncId> callees_first(const CategoryIr& ir, FuncId root) {
  // Iterative depth-first post-order over the call graph.
  std::vector<FuncId> order;
  std::vector<bool> seen(ir.funcs().size(), false);
  struct Frame {
    FuncId f;
    std::vector<FuncId> callees;
    size_t next = 0;
  };
  std::vector<Frame> stack;
  seen.at(root.v) = true;
  stack.push_back({root, callees_of(ir, root)});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.callees.size()) {
      order.push_back(top.f);
      stack.pop_back();
      continue;
    }
    const FuncId c = top.callees[top.next++];
    if (seen.at(c.v)) continue;
    seen[c.v] = true;
    stack.push_back({c, callees_of(ir, c)});  // invalidates `top`
  }
  return order;
}

Result<CategoryIr> inline_calls(const CategoryIr& ir) {
  // flat[f]: f alone, every call in it already inlined.
  std::vector<std::optional<CategoryIr>> flat(ir.funcs().size());
  CopyHooks hooks;
  hooks.inline_body = [&flat](FuncId callee) -> const CategoryIr* {
    return flat.at(callee.v) ? &*flat[callee.v] : nullptr;
  };
  for (FuncId f : callees_first(ir, ir.entry())) {
    const FuncId one[] = {f};
    auto g = copy_graph(ir, one, f, hooks);
    if (!g) return g.error();
    flat[f.v].emplace(std::move(g).value());
  }
  return std::move(*flat.at(ir.entry().v));
}

}  // namespace polydat::ir
