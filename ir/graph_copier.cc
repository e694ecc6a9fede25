#include "ir/graph_copier.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/loops.h"
#include "ir/topo.h"
#include "ir/typing.h"

namespace polydat::ir {

namespace {
// A refused builder call (or an inconsistent hook) ends the whole copy; it is
// thrown inside the copier and returned as an IrError at its entry points.
struct CopyFailure {
  IrError error;
};

template <class T>
T take(Result<T> r) {
  if (!r) throw CopyFailure{r.error()};
  return std::move(r).value();
}

[[noreturn]] void fail(IrErrorKind kind, std::string message, SourceLoc loc) {
  throw CopyFailure{IrError{kind, "copy: " + std::move(message), loc}};
}

// What one copy_graph shares between its functions.
struct Shared {
  std::vector<FuncId> new_func;                     // source function -> its copy (invalid: not copied)
  std::unordered_map<uint32_t, Value> made_value;  // new object -> value, for non-volatile constants
};

enum class ResultMode : uint8_t {
  ToReturn,  // the source's Return is the builder's Return (a copied function, or an inlined call writing ret)
  ToFresh,   // the source's Return becomes a fresh object (an inlined call's result)
};

struct ResultSpec {
  ResultMode mode = ResultMode::ToReturn;
  std::string name;  // ToFresh: the name of the fresh result
  SourceLoc loc;
};
}  // namespace

// Copies one source function into an open FnBuilder.
class FunctionCopy {
 public:
  struct Out {
    ObjectId id;         // ToFresh: the object holding the result
    bool fresh = false;  // made for the result (not an existing object)
  };

  FunctionCopy(Shared& sh, const CategoryIr& src, FuncId f, FnBuilder& fb, ObjectId param, ResultSpec spec,
               const CopyHooks* hooks, bool inlined)
      : sh_(sh), src_(src), f_(f), fb_(fb), param_(param), spec_(std::move(spec)), hooks_(hooks),
        inlined_(inlined), objects_(src.objects_of(f)), entries_(objects_.size()), scope_(this) {}

  Out run();

  // CopyScope's view.
  const CategoryIr& source() const { return src_; }
  FuncId func() const { return f_; }
  std::optional<Value> known_value(ObjectId o) const;
  ObjectId materialize(ObjectId o);

 private:
  enum class State : uint8_t { Pending, Made, Lazy, Alias, Skipped };
  struct Entry {
    State state = State::Pending;
    ObjectId made;               // Made
    ObjectId alias;              // Alias: a source object
    std::optional<Value> lazy;   // Lazy: the constant to make on first use
    uint32_t need = 0;           // definers still to come
    std::vector<ObjectId> slots;  // ToFresh Return: the components so far
  };
  struct LoopCopy {
    LoopHandle handle;
    uint32_t pending = 0;  // back and exit routes still to copy
  };

  size_t index(ObjectId o) const {
    auto it = std::lower_bound(objects_.begin(), objects_.end(), o);
    if (it == objects_.end() || *it != o)
      fail(IrErrorKind::ForeignObject, "object " + std::to_string(o.v) + " is not in function " + src_.func(f_).name,
           {});
    return static_cast<size_t>(it - objects_.begin());
  }
  Entry& at(ObjectId o) { return entries_[index(o)]; }
  const Entry& at(ObjectId o) const { return entries_[index(o)]; }
  ObjectId resolve(ObjectId o) const {
    for (size_t hops = 0; at(o).state == State::Alias; ++hops) {
      if (hops > objects_.size()) fail(IrErrorKind::UnknownObject, "a cycle of replacements", src_.object(o).loc);
      o = at(o).alias;
    }
    return o;
  }
  bool keep(ObjectId o) const {
    const ObjectKind k = src_.object(o).kind;
    if (k == ObjectKind::Parameter || k == ObjectKind::Return) return true;
    return hooks_ == nullptr || !hooks_->keep || hooks_->keep(o);
  }
  bool is_ret(ObjectId o) const { return o == src_.func(f_).output; }

  void setup();
  void step(MorphismId m);
  void copy_constant(ObjectId c);
  void complete_product(ObjectId p);
  void complete_single(ObjectId t, const Morphism& m);
  ObjectId copy_call(ObjectId t, const Morphism& m, const Dest& d);
  bool try_replace(ObjectId t, const Morphism* writer);
  void apply_replacement(ObjectId o, const Replacement& r);
  void record(ObjectId t, ObjectId id);
  void set_result(ObjectId id, bool fresh);
  void loop_done(ObjectId merge);
  Dest dest_for(ObjectId t) const;
  ObjectId volatile_alias(ObjectId x, const Ty& ty, const std::string& name, SourceLoc loc);
  ObjectId pack_components(const Ty& ty, std::span<const ObjectId> parts, Dest d, SourceLoc loc);

  Shared& sh_;
  const CategoryIr& src_;
  FuncId f_;
  FnBuilder& fb_;
  ObjectId param_;
  ResultSpec spec_;
  const CopyHooks* hooks_;
  bool inlined_;
  const std::vector<ObjectId>& objects_;
  std::vector<Entry> entries_;
  std::map<ObjectId, LoopCopy> loops_;  // by source merge
  std::optional<Out> result_;
  CopyScope scope_;
};

const CategoryIr& CopyScope::source() const { return impl_->source(); }
FuncId CopyScope::func() const { return impl_->func(); }
std::optional<Value> CopyScope::known_value(ObjectId src) const { return impl_->known_value(src); }
ObjectId CopyScope::materialize(ObjectId src) { return impl_->materialize(src); }

std::optional<Value> FunctionCopy::known_value(ObjectId o) const {
  const ObjectId root = resolve(o);
  const Entry& e = at(root);
  const Object& obj = src_.object(root);
  switch (e.state) {
    case State::Made: {
      auto it = sh_.made_value.find(e.made.v);
      if (it == sh_.made_value.end()) return std::nullopt;
      return it->second;
    }
    case State::Lazy: return obj.is_volatile ? std::nullopt : e.lazy;
    case State::Pending:
      // A constant not made yet: any replacement keeps its value.
      if (obj.kind == ObjectKind::Constant && !obj.is_volatile) return obj.value;
      return std::nullopt;
    default: return std::nullopt;
  }
}

ObjectId FunctionCopy::materialize(ObjectId o) {
  const ObjectId root = resolve(o);
  Entry& e = at(root);
  const Object& obj = src_.object(root);
  switch (e.state) {
    case State::Made: return e.made;
    case State::Lazy: {
      const ObjectId id = take(fb_.constant(*e.lazy, obj.loc, obj.name));
      if (obj.is_volatile)
        take(fb_.set_volatile(id, obj.loc));
      else
        sh_.made_value.emplace(id.v, *e.lazy);
      e.state = State::Made;  // entries_ never grows, so e is still this object's entry
      e.made = id;
      e.lazy.reset();
      return id;
    }
    case State::Pending:
      if (obj.kind == ObjectKind::Constant && keep(root)) {
        copy_constant(root);
        return materialize(root);  // now made, or replaced (a hook's chain of replacements bounds the depth)
      }
      break;
    default: break;
  }
  fail(IrErrorKind::UnknownObject,
       "object " + std::to_string(root.v) + " (" + std::string(kind_name(obj.kind)) + ") is read but was not copied",
       obj.loc);
}

void FunctionCopy::copy_constant(ObjectId c) {
  const Object& obj = src_.object(c);
  if (hooks_ != nullptr && hooks_->replace) {
    if (auto r = hooks_->replace(scope_, c)) {
      if (r->kind == Replacement::Kind::SameAs && resolve(r->object) == c)
        fail(IrErrorKind::UnknownObject, "a constant replaced by itself", obj.loc);
      apply_replacement(c, *r);
      return;
    }
  }
  const ObjectId id = take(fb_.constant(*obj.value, obj.loc, obj.name));
  if (obj.is_volatile)
    take(fb_.set_volatile(id, obj.loc));
  else
    sh_.made_value.emplace(id.v, *obj.value);
  Entry& e = at(c);
  e.state = State::Made;
  e.made = id;
  if (hooks_ != nullptr && hooks_->made) hooks_->made(scope_, c, id);
}

void FunctionCopy::apply_replacement(ObjectId o, const Replacement& r) {
  const Object& obj = src_.object(o);
  Entry& e = at(o);
  switch (r.kind) {
    case Replacement::Kind::Existing:
      if (!r.object.valid()) fail(IrErrorKind::UnknownObject, "a replacement names no object", obj.loc);
      e.state = State::Made;
      e.made = r.object;
      return;
    case Replacement::Kind::Constant:
      if (!(r.value.ty() == obj.ty))
        fail(IrErrorKind::TypeMismatch, "a replacement constant of type " + ty_label(r.value.ty()) + " for " +
                                            ty_label(obj.ty), obj.loc);
      e.state = State::Lazy;
      e.lazy = r.value;
      return;
    case Replacement::Kind::SameAs: {
      const ObjectId root = resolve(r.object);
      const Object& other = src_.object(root);
      if (!(other.ty == obj.ty) || root == o)
        fail(IrErrorKind::TypeMismatch, "a replacement by an object of another type, or by itself", obj.loc);
      const State s = at(root).state;
      if (s != State::Made && s != State::Lazy && !(s == State::Pending && other.kind == ObjectKind::Constant))
        fail(IrErrorKind::UnknownObject, "a replacement by an object not copied yet", obj.loc);
      Entry& e2 = at(o);
      e2.state = State::Alias;
      e2.alias = root;
      return;
    }
  }
}

Dest FunctionCopy::dest_for(ObjectId t) const {
  if (!is_ret(t)) return Dest::fresh(src_.object(t).name);
  return spec_.mode == ResultMode::ToReturn ? Dest::ret() : Dest::fresh(spec_.name);
}

// An object of x's value that may carry the volatile flag without touching x:
// component 0 of the pair (x, x).
ObjectId FunctionCopy::volatile_alias(ObjectId x, const Ty& ty, const std::string& name, SourceLoc loc) {
  if (ty.is_unit()) return x;  // no product can hold it; and a unit has nothing to fold
  const ObjectId parts[] = {x, x};
  const ObjectId p = take(fb_.pack(parts, Dest::fresh(), loc));
  const ObjectId a = take(fb_.proj(p, 0, Dest::fresh(name), loc));
  take(fb_.set_volatile(a, loc));
  return a;
}

ObjectId FunctionCopy::pack_components(const Ty& ty, std::span<const ObjectId> parts, Dest d, SourceLoc loc) {
  if (ty.kind() == TyKind::Struct) return take(fb_.pack_struct(ty, parts, std::move(d), loc));
  return take(fb_.pack(parts, std::move(d), loc));
}

void FunctionCopy::set_result(ObjectId id, bool fresh) {
  if (result_) fail(IrErrorKind::RetSlotConflict, "the result is written twice", spec_.loc);
  result_ = Out{id, fresh};
}

// A recreated object: its flag, its entry, the hook.
void FunctionCopy::record(ObjectId t, ObjectId id) {
  if (is_ret(t)) {
    if (spec_.mode == ResultMode::ToFresh) set_result(id, true);
    return;
  }
  const Object& obj = src_.object(t);
  if (obj.is_volatile) take(fb_.set_volatile(id, obj.loc));
  Entry& e = at(t);
  e.state = State::Made;
  e.made = id;
  if (hooks_ != nullptr && hooks_->made) hooks_->made(scope_, t, id);
}

void FunctionCopy::loop_done(ObjectId merge) {
  auto it = loops_.find(merge);
  if (it == loops_.end()) fail(IrErrorKind::LoopClosed, "a route of a loop that was not begun", src_.object(merge).loc);
  if (--it->second.pending == 0) take(fb_.end_loop(it->second.handle));
}

// Whether a hook replaced t; the Return, replaced, is written from the replacement.
bool FunctionCopy::try_replace(ObjectId t, const Morphism* writer) {
  if (hooks_ == nullptr || !hooks_->replace) return false;
  auto r = hooks_->replace(scope_, t);
  if (!r) return false;
  if (!is_ret(t)) {
    apply_replacement(t, *r);
    return true;
  }
  // The Return is no operand: stand the replacement in its entry, then write it.
  apply_replacement(t, *r);
  const ObjectId id = materialize(t);
  if (spec_.mode == ResultMode::ToReturn)
    take(fb_.output(id, std::nullopt, writer != nullptr ? writer->loc : src_.object(t).loc));
  else
    set_result(id, false);
  return true;
}

void FunctionCopy::complete_product(ObjectId p) {
  const Object& obj = src_.object(p);
  bool route = false, other_use = false;
  for (MorphismId m : src_.out_edges(p)) {
    const OpKind k = src_.morphism(m).op.kind;
    (k == OpKind::LoopBack || k == OpKind::LoopExit ? route : other_use) = true;
  }
  if (route && !other_use) {  // loop_back / loop_exit build it again
    at(p).state = State::Skipped;
    return;
  }
  if (try_replace(p, nullptr)) return;
  std::vector<ObjectId> parts(obj.ty.arity());
  for (MorphismId m : src_.in_edges(p)) {
    const Morphism& mm = src_.morphism(m);
    parts.at(mm.op.slot()) = materialize(mm.source);
  }
  record(p, pack_components(obj.ty, parts, Dest::fresh(obj.name), obj.loc));
}

ObjectId FunctionCopy::copy_call(ObjectId t, const Morphism& m, const Dest& d) {
  const FuncId callee = m.op.callee();
  if (inlined_) fail(IrErrorKind::UnknownFunction, "an inlined body still calls " + src_.func(callee).name, m.loc);
  const CategoryIr* body = hooks_ != nullptr && hooks_->inline_body ? hooks_->inline_body(callee) : nullptr;
  if (body == nullptr) {
    const FuncId to = callee.v < sh_.new_func.size() ? sh_.new_func[callee.v] : FuncId();
    if (!to.valid()) fail(IrErrorKind::UnknownFunction, src_.func(callee).name + " was neither copied nor inlined", m.loc);
    return take(fb_.call(to, materialize(m.source), d, m.loc));
  }
  const FuncId bf = body->entry();
  const Object& bparam = body->object(body->func(bf).input);
  ObjectId arg = materialize(m.source);
  if (bparam.is_volatile) arg = volatile_alias(arg, bparam.ty, bparam.name, bparam.loc);
  ResultSpec spec{d.to_return ? ResultMode::ToReturn : ResultMode::ToFresh, d.name, m.loc};
  FunctionCopy inner(sh_, *body, bf, fb_, arg, std::move(spec), nullptr, true);
  const Out out = inner.run();
  if (d.to_return) return ObjectId();
  const Object& obj = src_.object(t);
  if (obj.is_volatile && !out.fresh) {  // the flag must not land on an object shared with others
    const ObjectId a = volatile_alias(out.id, obj.ty, obj.name, obj.loc);
    Entry& e = at(t);
    e.state = State::Made;
    e.made = a;
    if (hooks_ != nullptr && hooks_->made) hooks_->made(scope_, t, a);
    return ObjectId();
  }
  return out.id;
}

void FunctionCopy::complete_single(ObjectId t, const Morphism& m) {
  if (try_replace(t, &m)) return;
  const Object& obj = src_.object(t);
  const Dest d = dest_for(t);
  ObjectId id;
  switch (m.op.kind) {
    case OpKind::Proj: id = take(fb_.proj(materialize(m.source), m.op.index(), d, m.loc)); break;
    case OpKind::Cast: id = take(fb_.cast(materialize(m.source), obj.ty, d, m.loc)); break;
    case OpKind::LibFn: id = take(fb_.library(m.op.library_fn(), materialize(m.source), d, m.loc)); break;
    case OpKind::Rom: id = take(fb_.rom(m.op.rom(), materialize(m.source), d, m.loc)); break;
    case OpKind::Call:
      id = copy_call(t, m, d);
      if (!id.valid()) return;  // written to the Return, or recorded as an alias
      break;
    default:
      switch (form_of(m.op.kind)) {
        case Form::Unary: id = take(fb_.unop(m.op.kind, materialize(m.source), d, m.loc)); break;
        case Form::Binary:
        case Form::Select: id = take(fb_.apply(m.op.kind, materialize(m.source), d, m.loc)); break;
        default:
          fail(IrErrorKind::NotUnary, "cannot copy a " + std::string(op_name(m.op.kind)) + " definition", m.loc);
      }
  }
  record(t, id);
}

void FunctionCopy::step(MorphismId mid) {
  const Morphism& m = src_.morphism(mid);
  const ObjectId t = m.target;
  if (!keep(t)) return;
  switch (m.op.kind) {
    case OpKind::LoopEnter: {
      const Object& obj = src_.object(t);
      const LoopHandle h = take(fb_.begin_loop(materialize(m.source), m.loc, obj.name));
      const ObjectId id = fb_.merge_of(h);
      auto it = loops_.find(t);
      if (it == loops_.end() || it->second.pending == 0)
        fail(IrErrorKind::LoopWithoutExit, "a kept loop merge without kept routes", obj.loc);
      it->second.handle = h;
      record(t, id);
      return;
    }
    case OpKind::LoopBack: {
      auto next = route_feeder(src_, m.source, 0), cond = route_feeder(src_, m.source, 1);
      if (!next || !cond) fail(IrErrorKind::NotAProduct, "a back route without its payload or guard", m.loc);
      auto it = loops_.find(t);
      if (it == loops_.end()) fail(IrErrorKind::LoopClosed, "a back route of a loop not begun", m.loc);
      take(fb_.loop_back(it->second.handle, materialize(*next), materialize(*cond), m.loc));
      loop_done(t);
      return;
    }
    case OpKind::LoopExit: {
      const std::vector<ObjectId> owners = exit_owners(src_, mid);
      if (owners.size() != 1) fail(IrErrorKind::LoopExitUnattributed, "an exit of no single loop", m.loc);
      auto value = route_feeder(src_, m.source, 0), cond = route_feeder(src_, m.source, 1);
      if (!value || !cond) fail(IrErrorKind::NotAProduct, "an exit route without its payload or guard", m.loc);
      auto it = loops_.find(owners[0]);
      if (it == loops_.end()) fail(IrErrorKind::LoopClosed, "an exit of a loop not begun", m.loc);
      const ObjectId v = materialize(*value), c = materialize(*cond);
      record(t, take(fb_.loop_exit(it->second.handle, v, c, dest_for(t), m.loc)));
      loop_done(owners[0]);
      return;
    }
    case OpKind::Pair: {
      if (is_ret(t)) {
        if (spec_.mode == ResultMode::ToReturn) {
          take(fb_.output(materialize(m.source), m.op.slot(), m.loc));
          return;
        }
        Entry& e = at(t);
        e.slots.at(m.op.slot()) = materialize(m.source);
        if (--at(t).need == 0) {
          const Ty& ty = src_.object(t).ty;
          const std::vector<ObjectId> parts = at(t).slots;
          set_result(pack_components(ty, parts, Dest::fresh(spec_.name), spec_.loc), true);
        }
        return;
      }
      if (--at(t).need == 0) complete_product(t);
      return;
    }
    case OpKind::Output:
      if (spec_.mode == ResultMode::ToReturn)
        take(fb_.output(materialize(m.source), std::nullopt, m.loc));
      else
        set_result(materialize(m.source), false);
      return;
    default: complete_single(t, m); return;
  }
}

void FunctionCopy::setup() {
  const FuncDef& fd = src_.func(f_);
  at(fd.input).state = State::Made;
  at(fd.input).made = param_;
  for (ObjectId o : objects_) {
    Entry& e = at(o);
    for (MorphismId m : src_.in_edges(o))
      if (src_.morphism(m).op.kind == OpKind::Pair) ++e.need;
    if (is_ret(o)) e.slots.resize(src_.object(o).ty.arity());
  }
  for (MorphismId m : fd.morphisms) {
    const Morphism& mm = src_.morphism(m);
    if (mm.op.kind == OpKind::LoopBack && keep(mm.target)) ++loops_[mm.target].pending;
    if (mm.op.kind == OpKind::LoopExit && keep(mm.target)) {
      const std::vector<ObjectId> owners = exit_owners(src_, m);
      if (owners.size() != 1) fail(IrErrorKind::LoopExitUnattributed, "an exit of no single loop", mm.loc);
      ++loops_[owners[0]].pending;
    }
  }
}

FunctionCopy::Out FunctionCopy::run() {
  setup();
  for (MorphismId m : topo_order(src_, f_)) step(m);
  // Constants nothing read in the source still belong to a faithful copy.
  for (ObjectId o : objects_) {
    const Object& obj = src_.object(o);
    if (obj.kind == ObjectKind::Constant && at(o).state == State::Pending && src_.out_edges(o).empty() && keep(o))
      materialize(o);
  }
  for (const auto& [merge, loop] : loops_)
    if (loop.pending != 0) fail(IrErrorKind::OpenLoop, "a loop whose routes were not all copied", src_.object(merge).loc);
  if (spec_.mode == ResultMode::ToFresh && !result_) {
    const Ty& ty = src_.object(src_.func(f_).output).ty;
    if (!ty.is_unit()) fail(IrErrorKind::RetSlotMissing, "the inlined body writes no result", spec_.loc);
    set_result(take(fb_.constant(Value(), spec_.loc, spec_.name)), true);
  }
  return result_.value_or(Out{});
}

Result<CategoryIr> copy_graph(const CategoryIr& src, std::span<const FuncId> funcs, FuncId entry,
                              const CopyHooks& hooks) {
  try {
    IrBuilder b;
    for (const RomTable& t : src.roms()) take(b.add_rom(t, {}));  // the same ids: each table once
    Shared sh{std::vector<FuncId>(src.funcs().size()), {}};
    for (FuncId f : funcs) {
      const FuncDef& fd = src.func(f);
      sh.new_func.at(f.v) = take(b.declare(fd.name, src.object(fd.input).ty, src.object(fd.output).ty, fd.loc));
    }
    if (!src.has_func(entry) || !sh.new_func[entry.v].valid())
      return IrError{IrErrorKind::NoEntry, "copy: the entry is not among the functions copied", {}};
    for (FuncId f : funcs) {
      FnBuilder fb = take(b.build_fn(sh.new_func[f.v]));
      const Object& param = src.object(src.func(f).input);
      if (param.is_volatile) take(fb.set_volatile(fb.input(), param.loc));
      FunctionCopy copy(sh, src, f, fb, fb.input(), ResultSpec{}, &hooks, false);
      copy.run();
      take(fb.finish());
    }
    return std::move(b).seal(sh.new_func[entry.v]);
  } catch (const CopyFailure& failure) {
    return failure.error;
  }
}

Result<CategoryIr> copy_graph(const CategoryIr& src, const CopyHooks& hooks) {
  std::vector<FuncId> all;
  for (const FuncDef& fd : src.funcs()) all.push_back(fd.id);
  return copy_graph(src, all, src.entry(), hooks);
}

size_t graph_size(const CategoryIr& g) { return g.objects().size() + g.morphisms().size(); }

}  // namespace polydat::ir
