#include "ir/library_fn.h"
#include "ir/interp.h"

#include "ir/exec_plan.h"
#include "ir/semantics.h"
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

// A function's execution plan, with the frame it starts from.
struct Interpreter::Program {
  ExecPlan plan;
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
  auto plan = exec_plan(ir_, f);
  if (!plan) return InterpError{InterpErrorKind::NonCanonicalLoop, plan.error().message, plan.error().loc};
  p->plan = std::move(*plan);
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
    const auto& block = a.prog->plan.blocks[fr.block];

    if (fr.loop >= 0 && fr.pc == a.prog->plan.heads[fr.block]) {  // the head is done: the guard is known
      const LoopPlan& lp = a.prog->plan.loops[static_cast<size_t>(fr.loop)];
      if (!val(lp.cond).as_bool()) {  // exit on this state; the body does not run
        frames.pop_back();
        continue;
      }
    }
    if (fr.pc == block.size()) {
      if (fr.loop >= 0) {  // end of an iteration whose guard held: take the back edge
        const LoopPlan& lp = a.prog->plan.loops[static_cast<size_t>(fr.loop)];
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

    const ExecStep step = block[fr.pc++];
    if (step.is_loop) {
      const LoopPlan& lp = a.prog->plan.loops[step.id];
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
      case OpKind::LibFn: dst = eval_library(m.op.library_fn(), src); break;
      case OpKind::Rom: dst = rom_entry(ir_.rom(m.op.rom()), src.as_u64()); break;
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
