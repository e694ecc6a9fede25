#include "ir/interp.h"

#include <algorithm>

#include "ir/loops.h"
#include "ir/semantics.h"
#include "ir/topo.h"
#include "ir/typing.h"

namespace polydat::ir {

std::string_view interp_error_name(InterpErrorKind k) {
  switch (k) {
    case InterpErrorKind::IterationLimit: return "iteration-limit";
    case InterpErrorKind::NonCanonicalLoop: return "non-canonical-loop";
    case InterpErrorKind::InputTypeMismatch: return "input-type-mismatch";
  }
  return "?";
}

// A function flattened into blocks: block 0 is the body, block i+1 the body
// of loop i. A step runs one morphism or a whole nested loop.
struct Interpreter::Program {
  struct Step {
    bool is_loop;
    uint32_t id;  // morphism id, or loop index
  };
  std::vector<std::vector<Step>> blocks;
  // Per loop block: its first heads[b] steps compute the guard and every value read
  // from outside the loop (the head); the rest (the body) runs only while the guard holds.
  std::vector<size_t> heads;
  std::vector<LoopPlan> loops;
  std::vector<Value> initial;  // the frame before the first step: constants and product shells
  ObjectId input, output;
};

Interpreter::Interpreter(const CategoryIr& ir, InterpOptions options)
    : ir_(ir), options_(options), local_(ir.objects().size(), 0) {
  for (const FuncDef& fd : ir.funcs()) {
    uint32_t i = 0;
    for (ObjectId o : ir.objects_of(fd.id)) local_[o.v] = i++;
  }
}

Interpreter::~Interpreter() = default;

Expected<const Interpreter::Program*, InterpError> Interpreter::program(FuncId f) {
  if (auto it = programs_.find(f.v); it != programs_.end()) return it->second.get();
  auto p = std::make_unique<Program>();
  const LoopNest nest = loop_nest(ir_, f);
  std::vector<int> innermost(ir_.objects_of(f).size(), -1);  // by frame slot
  for (size_t i = 0; i < nest.loops.size(); ++i) {
    auto plan = loop_plan(ir_, nest, nest.loops[i].merge);
    if (!plan) {
      const Object& m = ir_.object(nest.loops[i].merge);
      return InterpError{InterpErrorKind::NonCanonicalLoop, "the loop has no canonical plan", m.loc};
    }
    p->loops.push_back(std::move(*plan));
    for (ObjectId o : nest.loops[i].region) innermost[local_[o.v]] = static_cast<int>(i);  // children come later
  }
  for (ObjectId o : ir_.objects_of(f))
    if (ir_.object(o).kind == ObjectKind::LoopMerge && nest.index_of(o) < 0)
      return InterpError{InterpErrorKind::NonCanonicalLoop, "the loop merge is on no loop", ir_.object(o).loc};

  p->blocks.resize(nest.loops.size() + 1);
  for (MorphismId m : topo_order(ir_, f)) {
    const Morphism& mm = ir_.morphism(m);
    if (mm.op.kind == OpKind::LoopBack) continue;  // taken by the loop driver
    if (mm.op.kind == OpKind::LoopEnter) {
      const int li = nest.index_of(mm.target);
      const int parent = nest.loops[static_cast<size_t>(li)].parent;
      p->blocks[static_cast<size_t>(parent + 1)].push_back({true, static_cast<uint32_t>(li)});
      continue;
    }
    p->blocks[static_cast<size_t>(innermost[local_[mm.target.v]] + 1)].push_back({false, m.v});
  }
  // LANGUAGE.md: the body runs only while the guard is true, and the exit reads
  // the state whose guard failed. So each loop block runs its head first (the
  // plan's head: the guard and all that leaves the loop), then, only while the
  // guard holds, the rest. Both parts keep topological order.
  p->heads.assign(p->blocks.size(), 0);
  for (size_t li = 0; li < p->loops.size(); ++li) {
    const LoopPlan& lp = p->loops[li];
    auto in_head = [&](const Program::Step& st) {
      return lp.in_head(st.is_loop ? p->loops[st.id].merge : ir_.morphism(MorphismId(st.id)).target);
    };
    std::vector<Program::Step>& block = p->blocks[li + 1];
    const auto body = std::stable_partition(block.begin(), block.end(), in_head);
    p->heads[li + 1] = static_cast<size_t>(body - block.begin());
  }
  for (ObjectId o : ir_.objects_of(f)) {
    const Object& obj = ir_.object(o);
    p->initial.push_back(obj.value ? *obj.value : Value::zero(obj.ty));
  }
  p->input = ir_.func(f).input;
  p->output = ir_.func(f).output;
  const Program* raw = p.get();
  programs_.emplace(f.v, std::move(p));
  return raw;
}

Expected<Value, InterpError> Interpreter::run(FuncId f, const Value& input) {
  const Object& param = ir_.object(ir_.func(f).input);
  if (!(input.ty() == param.ty))
    return InterpError{InterpErrorKind::InputTypeMismatch,
                       "expected " + ty_label(param.ty) + ", got " + ty_label(input.ty()), param.loc};

  struct Activation {
    const Program* prog;
    std::vector<Value> vals;
    size_t caller;      // activation index of the caller (unused for the first)
    ObjectId receiver;  // the caller's object that receives the result
  };
  struct Frame {
    size_t act;
    uint32_t block;
    size_t pc = 0;
    int loop = -1;
    uint64_t iterations = 0;
  };
  std::vector<Activation> acts;
  std::vector<Frame> frames;
  last_iterations_ = 0;

  auto enter = [&](FuncId callee, const Value& arg, size_t caller, ObjectId receiver) -> Expected<Unit, InterpError> {
    auto prog = program(callee);
    if (!prog) return prog.error();
    acts.push_back(Activation{*prog, (*prog)->initial, caller, receiver});
    acts.back().vals[local_[(*prog)->input.v]] = arg;
    frames.push_back(Frame{acts.size() - 1, 0});
    return Unit{};
  };
  if (auto r = enter(f, input, 0, ObjectId()); !r) return r.error();

  while (true) {
    Frame& fr = frames.back();
    Activation& a = acts[fr.act];
    auto val = [&](ObjectId o) -> Value& { return a.vals[local_[o.v]]; };
    const auto& block = a.prog->blocks[fr.block];

    if (fr.loop >= 0 && fr.pc == a.prog->heads[fr.block]) {  // the head is done: the guard is known
      const LoopPlan& lp = a.prog->loops[static_cast<size_t>(fr.loop)];
      if (!val(lp.cond).as_bool()) {  // exit on this state; the body does not run
        frames.pop_back();
        continue;
      }
    }
    if (fr.pc == block.size()) {
      if (fr.loop >= 0) {  // end of an iteration whose guard held: take the back edge
        const LoopPlan& lp = a.prog->loops[static_cast<size_t>(fr.loop)];
        const Value& route = val(lp.back_route);
        ++last_iterations_;
        if (++fr.iterations > options_.max_iterations)
          return InterpError{InterpErrorKind::IterationLimit,
                             "the loop ran more than " + std::to_string(options_.max_iterations) + " iterations",
                             ir_.object(lp.merge).loc};
        val(lp.merge) = route.elems()[0];
        fr.pc = 0;
        continue;
      }
      Value result = std::move(val(a.prog->output));
      const size_t caller = a.caller;
      const ObjectId receiver = a.receiver;
      frames.pop_back();
      acts.pop_back();
      if (acts.empty()) return result;
      acts[caller].vals[local_[receiver.v]] = std::move(result);
      continue;
    }

    const Program::Step step = block[fr.pc++];
    if (step.is_loop) {
      const LoopPlan& lp = a.prog->loops[step.id];
      val(lp.merge) = val(lp.init);
      frames.push_back(Frame{fr.act, step.id + 1, 0, static_cast<int>(step.id), 0});
      continue;
    }
    const Morphism& m = ir_.morphism(MorphismId(step.id));
    const Value& src = val(m.source);
    Value& dst = val(m.target);
    switch (m.op.kind) {
      case OpKind::Pair: dst.elems()[m.op.slot()] = src; break;
      case OpKind::Proj: dst = src.elems()[m.op.index()]; break;
      case OpKind::Output: dst = src; break;
      case OpKind::LoopExit: dst = src.elems()[0]; break;  // the guard is false once its loop has ended
      case OpKind::Phi: dst = src.elems()[2].as_bool() ? src.elems()[0] : src.elems()[1]; break;
      case OpKind::Cast: dst = eval_cast(src, ir_.object(m.target).ty); break;
      case OpKind::Call: {
        const Value arg = src;
        const size_t caller = fr.act;
        if (auto r = enter(m.op.callee(), arg, caller, m.target); !r) return r.error();
        break;
      }
      default:
        if (form_of(m.op.kind) == Form::Binary) {
          dst = eval_binary(m.op.kind, src.elems()[0], src.elems()[1]);
        } else {
          dst = eval_unary(m.op.kind, src);
        }
        break;
    }
  }
}

Expected<Value, InterpError> evaluate(const CategoryIr& ir, FuncId f, const Value& input, InterpOptions options) {
  Interpreter interp(ir, options);
  return interp.run(f, input);
}

}  // namespace polydat::ir
