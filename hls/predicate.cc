#include "hls/predicate.h"

#include "ir/loops.h"

namespace polydat::hls {

namespace {
// The first scalar in a type that has no hardware width (a float or a string).
const ir::Ty* non_hardware_leaf(const ir::Ty& t) {
  std::vector<const ir::Ty*> work{&t};
  while (!work.empty()) {
    const ir::Ty* x = work.back();
    work.pop_back();
    if (x->is_float() || x->is_str()) return x;
    for (size_t i = x->arity(); i-- > 0;) work.push_back(&x->component(i));
  }
  return nullptr;
}

std::string binding_text(const ir::Object& o) { return o.name.empty() ? "a value" : "'" + o.name + "'"; }
}  // namespace

ir::Expected<DesignKind, HlsError> single_loop_fsm(const ir::CategoryIr& g, ir::FuncId f) {
  const ir::FuncDef& fd = g.func(f);
  // Named bindings first (the message can name the source line's binding), then the rest.
  std::vector<ir::ObjectId> order;
  for (int pass = 0; pass < 2; ++pass)
    for (ir::ObjectId o : fd.objects) {
      const ir::Object& obj = g.object(o);
      const bool named = !obj.name.empty() && obj.kind != ir::ObjectKind::Return && obj.kind != ir::ObjectKind::Parameter;
      if (named == (pass == 0)) order.push_back(o);
    }
  for (ir::ObjectId o : order) {
    const ir::Object& obj = g.object(o);
    if (const ir::Ty* bad = non_hardware_leaf(obj.ty))
      return HlsError{"no-hardware-width",
                      binding_text(obj) + " has type " + ir::ty_label(obj.ty) + ": " + ir::ty_label(*bad) +
                          " has no hardware width (hardware takes bool and integers)",
                      obj.loc};
  }
  for (ir::MorphismId m : fd.morphisms) {
    const ir::Morphism& mm = g.morphism(m);
    if (mm.op.kind == ir::OpKind::Call)
      return HlsError{"not-inlined", "a call to " + g.func(mm.op.callee()).name + " was not inlined", mm.loc};
  }
  const std::vector<ir::LoopScc> loops = ir::loop_structure(g, f);
  if (loops.size() > 1) {
    const ir::Object& second = g.object(loops[1].merges.front());
    return HlsError{"two-loops",
                    "a second loop: the kernel has " + std::to_string(loops.size()) +
                        " loops, and hardware takes at most one (an FSM around one loop body)",
                    second.loc};
  }
  if (!loops.empty() && loops[0].merges.size() > 1) {
    const ir::Object& inner = g.object(loops[0].merges[1]);
    return HlsError{"nested-loops",
                    "this loop is nested inside another; hardware takes one loop, not a loop within a loop",
                    inner.loc};
  }
  return loops.empty() ? DesignKind::Pipeline : DesignKind::Fsm;
}

}  // namespace polydat::hls
