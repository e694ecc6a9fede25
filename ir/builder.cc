#include "ir/library_fn.h"
#include "ir/builder.h"

#include <algorithm>
#include <utility>

#include "ir/loops.h"
#include "ir/typing.h"

namespace polydat::ir {

namespace {
IrError err(IrErrorKind k, std::string msg, SourceLoc loc) { return IrError{k, std::move(msg), loc}; }

std::string tys_text(std::span<const Ty> tys) {
  std::string s;
  for (size_t i = 0; i < tys.size(); ++i) s += (i ? ", " : "") + ty_label(tys[i]);
  return s;
}

// Whether a value's payload fits its type all the way down (iterative).
bool value_fits(const Value& root) {
  std::vector<const Value*> work{&root};
  while (!work.empty()) {
    const Value* v = work.back();
    work.pop_back();
    const Ty& t = v->ty();
    if (t.is_product()) {
      if (v->elems().size() != t.arity()) return false;
      for (size_t i = 0; i < t.arity(); ++i) {
        if (!(v->elems()[i].ty() == t.component(i))) return false;
        work.push_back(&v->elems()[i]);
      }
      continue;
    }
    if (!v->elems().empty()) return false;
    if (t.is_scalar() && truncate_bits(v->bits(), t.bits()) != v->bits()) return false;
    if (!t.is_scalar() && v->bits() != 0) return false;
    if (!t.is_str() && !v->as_str().empty()) return false;
  }
  return true;
}
}  // namespace

IrBuilder::IrBuilder() = default;

// Every type entering the graph passes here: shape, depth and struct-name agreement.
Result<Ty> IrBuilder::intake(const Ty& t, SourceLoc loc) {
  if (t.depth() > kMaxTyDepth)
    return err(IrErrorKind::TyTooDeep, "type nests deeper than " + std::to_string(kMaxTyDepth), loc);
  if (std::string p = ty_problem(t); !p.empty()) return err(IrErrorKind::NonCoreType, p, loc);
  std::vector<const Ty*> structs;
  std::vector<const Ty*> work{&t};
  while (!work.empty()) {
    const Ty* x = work.back();
    work.pop_back();
    if (x->kind() == TyKind::Struct) structs.push_back(x);
    for (size_t i = 0; i < x->arity(); ++i) work.push_back(&x->component(i));
  }
  for (const Ty* s : structs) {
    auto it = structs_.find(s->struct_name());
    if (it != structs_.end() && !(it->second == *s))
      return err(IrErrorKind::StructNameConflict,
                 "two different struct types are both named " + s->struct_name(), loc);
  }
  for (const Ty* s : structs) structs_.emplace(s->struct_name(), *s);
  return t;
}

ObjectId IrBuilder::mint(FuncId f, Ty ty, ObjectKind kind, std::string name, SourceLoc loc) {
  ObjectId id(static_cast<uint32_t>(g_.objects_.size()));
  g_.objects_.push_back(Object{id, std::move(ty), kind, std::nullopt, std::move(name), loc, f, false});
  g_.funcs_[f.v].objects.push_back(id);
  g_.in_edges_.emplace_back();
  g_.out_edges_.emplace_back();
  return id;
}

MorphismId IrBuilder::connect(ObjectId source, ObjectId target, Operation op, SourceLoc loc) {
  MorphismId id(static_cast<uint32_t>(g_.morphisms_.size()));
  g_.morphisms_.push_back(Morphism{id, source, target, op, loc});
  g_.out_edges_[source.v].push_back(id);
  g_.in_edges_[target.v].push_back(id);
  g_.funcs_[g_.owner(source).v].morphisms.push_back(id);
  return id;
}

Result<FuncId> IrBuilder::declare(std::string name, Ty input, Ty output, SourceLoc loc) {
  if (g_.find_func(name)) return err(IrErrorKind::DuplicateName, "function " + name + " is already declared", loc);
  if (auto r = intake(input, loc); !r) return r.error();
  if (auto r = intake(output, loc); !r) return r.error();
  FuncId f(static_cast<uint32_t>(g_.funcs_.size()));
  g_.funcs_.push_back(FuncDef{f, std::move(name), {}, {}, {}, {}, loc});
  fns_.emplace_back();
  fns_.back().slots_written.assign(output.is_product() ? output.arity() : 0, false);
  g_.funcs_[f.v].input = mint(f, std::move(input), ObjectKind::Parameter, "in", loc);
  g_.funcs_[f.v].output = mint(f, std::move(output), ObjectKind::Return, "ret", loc);
  return f;
}

Result<FnBuilder> IrBuilder::build_fn(FuncId f) {
  if (!g_.has_func(f)) return err(IrErrorKind::UnknownFunction, "no such function", {});
  FnState& s = fns_[f.v];
  if (s.building) return err(IrErrorKind::AlreadyBuilt, "function " + g_.func(f).name + " is already built", g_.func(f).loc);
  s.building = true;
  return FnBuilder(this, f);
}

Result<Unit> IrBuilder::check_calls_acyclic() const {
  // Iterative three-colour DFS over the call graph; a grey callee closes a cycle.
  const size_t n = g_.funcs_.size();
  std::vector<std::vector<FuncId>> callees(n);
  for (const FuncDef& fd : g_.funcs_)
    for (MorphismId m : fd.morphisms)
      if (g_.morphism(m).op.kind == OpKind::Call) callees[fd.id.v].push_back(g_.morphism(m).op.callee());
  std::vector<int> colour(n, 0);
  for (size_t root = 0; root < n; ++root) {
    if (colour[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [f, next] = stack.back();
      if (next == callees[f].size()) {
        colour[f] = 2;
        stack.pop_back();
        continue;
      }
      size_t c = callees[f][next++].v;
      if (colour[c] == 1) {
        std::string cycle;
        bool on = false;
        for (auto& [g, unused] : stack) {
          on = on || g == c;
          if (on) cycle += g_.funcs_[g].name + " -> ";
        }
        cycle += g_.funcs_[c].name;
        return err(IrErrorKind::RecursiveCall, "recursive calls: " + cycle, g_.funcs_[c].loc);
      }
      if (colour[c] == 0) {
        colour[c] = 1;
        stack.emplace_back(c, 0);
      }
    }
  }
  return Unit{};
}

Result<Unit> IrBuilder::check_loops(FuncId f) const {
  const LoopNest nest = loop_nest(g_, f);
  if (!nest.irreducible.empty()) {
    const Object& m = g_.object(nest.irreducible.front());
    return err(IrErrorKind::IrreducibleLoop, "a cycle is not a loop with one entering merge", m.loc);
  }
  std::vector<ObjectId> merges;
  for (ObjectId o : g_.objects_of(f))
    if (g_.object(o).kind == ObjectKind::LoopMerge) merges.push_back(o);
  for (ObjectId m : merges) {
    const Loop* loop = nest.loop_of(m);
    for (MorphismId b : g_.in_edges(m)) {
      const Morphism& mb = g_.morphism(b);
      if (mb.op.kind != OpKind::LoopBack) continue;
      if (loop == nullptr || !loop->contains(mb.source))
        return err(IrErrorKind::LoopBackOutsideScc, "the next loop state does not depend on the loop state", mb.loc);
      auto guard = route_feeder(g_, mb.source, 1);
      if (!guard || !loop->contains(*guard))
        return err(IrErrorKind::LoopGuardInvariant, "the loop guard does not depend on the loop state", mb.loc);
    }
  }
  std::map<ObjectId, int> exits_per_merge;
  for (MorphismId e : g_.func(f).morphisms) {
    const Morphism& me = g_.morphism(e);
    if (me.op.kind != OpKind::LoopExit) continue;
    std::vector<ObjectId> owners = exit_owners(g_, e);
    if (owners.size() != 1)
      return err(IrErrorKind::LoopExitUnattributed, "a loop exit must use the guard of exactly one loop", me.loc);
    if (nest.loop_of(owners[0])->contains(me.target))
      return err(IrErrorKind::LoopExitInsideScc, "a loop's result feeds back into the same loop", me.loc);
    ++exits_per_merge[owners[0]];
  }
  for (ObjectId m : merges)
    if (exits_per_merge[m] == 0)
      return err(IrErrorKind::LoopWithoutExit, "the loop has no exit", g_.object(m).loc);
  return Unit{};
}

Result<uint32_t> IrBuilder::add_rom(RomTable table, SourceLoc loc) {
  if (table.entries.empty() || !table.element.is_scalar())
    return err(IrErrorKind::TypeMismatch, "a table needs entries of one scalar type", loc);
  for (const Value& v : table.entries)
    if (!(v.ty() == table.element)) return err(IrErrorKind::TypeMismatch, "a table entry is not " + ty_label(table.element), loc);
  for (uint32_t r = 0; r < g_.roms_.size(); ++r)
    if (g_.roms_[r] == table) return r;
  g_.roms_.push_back(std::move(table));
  return static_cast<uint32_t>(g_.roms_.size() - 1);
}

Result<CategoryIr> IrBuilder::seal(FuncId entry) && {
  if (!g_.has_func(entry)) return err(IrErrorKind::NoEntry, "the entry is not a declared function", {});
  for (const FuncDef& fd : g_.funcs_)
    if (!fns_[fd.id.v].finished)
      return err(IrErrorKind::UnfinishedFunction, "function " + fd.name + " was not built and finished", fd.loc);
  if (auto r = check_calls_acyclic(); !r) return r.error();
  for (const FuncDef& fd : g_.funcs_)
    if (auto r = check_loops(fd.id); !r) return r.error();
  g_.entry_ = entry;
  return std::move(g_);
}

// ---- FnBuilder ----

ObjectId FnBuilder::input() const { return b_->g_.func(f_).input; }
ObjectId FnBuilder::output() const { return b_->g_.func(f_).output; }

Result<Unit> FnBuilder::usable() {
  if (b_->fns_[f_.v].finished)
    return err(IrErrorKind::AlreadyBuilt, "function " + b_->g_.func(f_).name + " is finished", {});
  return Unit{};
}

Result<Ty> FnBuilder::operand(ObjectId o, SourceLoc loc) const {
  const CategoryIr& g = b_->g_;
  if (!g.has_object(o)) return err(IrErrorKind::UnknownObject, "no such object", loc);
  const Object& obj = g.object(o);
  if (obj.owner != f_) return err(IrErrorKind::ForeignObject, "the object belongs to function " + g.func(obj.owner).name, loc);
  if (obj.kind == ObjectKind::Return) return err(IrErrorKind::ReturnAsOperand, "the return object cannot be read", loc);
  return obj.ty;
}

Result<FnBuilder::Target> FnBuilder::plan(Ty result, const Dest& dest, SourceLoc loc) {
  if (!dest.to_return) return Target{std::move(result), dest};
  const IrBuilder::FnState& s = b_->fns_[f_.v];
  const Ty& out = b_->g_.object(output()).ty;
  const bool any_slot = std::find(s.slots_written.begin(), s.slots_written.end(), true) != s.slots_written.end();
  if (!dest.slot) {
    if (s.whole_written) return err(IrErrorKind::RetSlotConflict, "the return value is already written", loc);
    if (any_slot) return err(IrErrorKind::RetMixedWriters, "the return value is already written slot by slot", loc);
    if (!(out == result))
      return err(IrErrorKind::RetTypeMismatch, "returns " + ty_label(result) + " but the function returns " + ty_label(out), loc);
    return Target{std::move(result), dest};
  }
  const uint32_t k = *dest.slot;
  if (!out.is_product()) return err(IrErrorKind::RetNotProduct, "the return type " + ty_label(out) + " has no slots", loc);
  if (k >= out.arity()) return err(IrErrorKind::SlotOutOfRange, "return slot " + std::to_string(k) + " is out of range", loc);
  if (s.whole_written) return err(IrErrorKind::RetMixedWriters, "the return value is already written whole", loc);
  if (s.slots_written[k]) return err(IrErrorKind::RetSlotConflict, "return slot " + std::to_string(k) + " is already written", loc);
  if (!(out.component(k) == result))
    return err(IrErrorKind::RetTypeMismatch, "return slot " + std::to_string(k) + " is " + ty_label(out.component(k)) + ", not " + ty_label(result), loc);
  return Target{std::move(result), dest};
}

ObjectId FnBuilder::place(const Target& t, SourceLoc loc) {
  IrBuilder::FnState& s = b_->fns_[f_.v];
  if (!t.dest.to_return) return b_->mint(f_, t.ty, ObjectKind::Temporary, t.dest.name, loc);
  if (!t.dest.slot) {
    s.whole_written = true;
    return output();
  }
  const uint32_t k = *t.dest.slot;
  ObjectId tmp = b_->mint(f_, t.ty, ObjectKind::Temporary, t.dest.name, loc);
  b_->connect(tmp, output(), Operation::pair(k, static_cast<uint32_t>(s.slots_written.size())), loc);
  s.slots_written[k] = true;
  return tmp;
}

ObjectId FnBuilder::product_of(std::span<const ObjectId> parts, const Ty& ty, ObjectId into, SourceLoc loc) {
  ObjectId p = into.valid() ? into : b_->mint(f_, ty, ObjectKind::Temporary, {}, loc);
  for (size_t i = 0; i < parts.size(); ++i)
    b_->connect(parts[i], p, Operation::pair(static_cast<uint32_t>(i), static_cast<uint32_t>(parts.size())), loc);
  return p;
}

ObjectId FnBuilder::apply(Operation op, ObjectId source, const Target& t, SourceLoc loc) {
  ObjectId target = place(t, loc);
  b_->connect(source, target, op, loc);
  return target;
}

Result<ObjectId> FnBuilder::constant(Value v, SourceLoc loc, std::string name) {
  if (auto r = usable(); !r) return r.error();
  if (!value_fits(v)) return err(IrErrorKind::ValueTyMismatch, "the value does not fit its type " + ty_label(v.ty()), loc);
  if (auto r = b_->intake(v.ty(), loc); !r) return r.error();
  ObjectId o = b_->mint(f_, v.ty(), ObjectKind::Constant, std::move(name), loc);
  b_->g_.objects_[o.v].value = std::move(v);
  return o;
}

Result<ObjectId> FnBuilder::proj(ObjectId src, uint32_t index, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  auto st = operand(src, loc);
  if (!st) return st.error();
  if (!st->is_product()) return err(IrErrorKind::NotAProduct, ty_label(*st) + " has no components", loc);
  if (index >= st->arity()) return err(IrErrorKind::SlotOutOfRange, "component " + std::to_string(index) + " of " + ty_label(*st) + " is out of range", loc);
  auto t = plan(st->component(index), dest, loc);
  if (!t) return t.error();
  return apply(Operation::proj(index), src, *t, loc);
}

// A product written straight into the Return object is its slot writers.
Result<ObjectId> FnBuilder::pack_struct(const Ty& ty, std::span<const ObjectId> components, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (auto r = b_->intake(ty, loc); !r) return r.error();
  if (ty.kind() != TyKind::Struct) return err(IrErrorKind::NotAProduct, ty_label(ty) + " is not a struct type", loc);
  if (components.size() != ty.arity())
    return err(IrErrorKind::ArityMismatch, ty_label(ty) + " has " + std::to_string(ty.arity()) + " fields, not " + std::to_string(components.size()), loc);
  for (size_t i = 0; i < components.size(); ++i) {
    auto ct = operand(components[i], loc);
    if (!ct) return ct.error();
    if (!(*ct == ty.component(i)))
      return err(IrErrorKind::TypeMismatch, "field " + ty.field_name(i) + " is " + ty_label(ty.component(i)) + ", not " + ty_label(*ct), loc);
  }
  return pack_into(ty, components, dest, loc);
}

Result<ObjectId> FnBuilder::pack(std::span<const ObjectId> components, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (components.empty()) return err(IrErrorKind::EmptyProduct, "a tuple needs components", loc);
  if (components.size() == 1) return err(IrErrorKind::SingletonTuple, "a tuple needs at least two components", loc);
  std::vector<Ty> tys;
  for (ObjectId c : components) {
    auto ct = operand(c, loc);
    if (!ct) return ct.error();
    tys.push_back(*ct);
  }
  Ty ty = Ty::tuple(std::move(tys));
  if (auto r = b_->intake(ty, loc); !r) return r.error();
  return pack_into(ty, components, dest, loc);
}

Result<ObjectId> FnBuilder::pack_into(const Ty& ty, std::span<const ObjectId> components, const Dest& dest, SourceLoc loc) {
  if (dest.to_return && !dest.slot) {
    // Whole-value check first, then all slots become written.
    auto t = plan(ty, dest, loc);
    if (!t) return t.error();
    IrBuilder::FnState& s = b_->fns_[f_.v];
    std::fill(s.slots_written.begin(), s.slots_written.end(), true);
    return product_of(components, ty, output(), loc);
  }
  auto t = plan(ty, dest, loc);
  if (!t) return t.error();
  ObjectId p = place(*t, loc);
  return product_of(components, ty, p, loc);
}

Result<ObjectId> FnBuilder::unop(OpKind op, ObjectId x, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (form_of(op) != Form::Unary || op == OpKind::Cast)
    return err(IrErrorKind::NotUnary, std::string(op_name(op)) + " is not a unary operation", loc);
  auto xt = operand(x, loc);
  if (!xt) return xt.error();
  auto rt = infer_target(op, *xt);
  if (!rt) return err(IrErrorKind::TypeMismatch, std::string(op_name(op)) + " does not apply to " + ty_label(*xt), loc);
  auto t = plan(*rt, dest, loc);
  if (!t) return t.error();
  return apply(Operation::simple(op), x, *t, loc);
}

Result<ObjectId> FnBuilder::cast(ObjectId x, const Ty& to, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  auto xt = operand(x, loc);
  if (!xt) return xt.error();
  auto rt = infer_target(OpKind::Cast, *xt, &to);
  if (!rt) return err(IrErrorKind::TypeMismatch, "cannot cast " + ty_label(*xt) + " to " + ty_label(to), loc);
  auto t = plan(*rt, dest, loc);
  if (!t) return t.error();
  return apply(Operation::simple(OpKind::Cast), x, *t, loc);
}

// Shared by binop and phi: pack the operands, then apply the operation to the product.
Result<ObjectId> FnBuilder::packed_op(OpKind op, std::span<const ObjectId> parts, Dest dest, SourceLoc loc) {
  std::vector<Ty> tys;
  for (ObjectId p : parts) {
    auto pt = operand(p, loc);
    if (!pt) return pt.error();
    tys.push_back(*pt);
  }
  Ty source = Ty::tuple(tys);
  if (auto r = b_->intake(source, loc); !r) return r.error();
  auto rt = infer_target(op, source);
  if (!rt) return err(IrErrorKind::TypeMismatch, std::string(op_name(op)) + " does not apply to (" + tys_text(tys) + ")", loc);
  auto t = plan(*rt, dest, loc);
  if (!t) return t.error();
  ObjectId product = product_of(parts, source, ObjectId(), loc);
  return apply(Operation::simple(op), product, *t, loc);
}

Result<ObjectId> FnBuilder::binop(OpKind op, ObjectId lhs, ObjectId rhs, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (form_of(op) != Form::Binary)
    return err(IrErrorKind::NotBinary, std::string(op_name(op)) + " is not a binary operation", loc);
  const ObjectId parts[] = {lhs, rhs};
  return packed_op(op, parts, std::move(dest), loc);
}

Result<ObjectId> FnBuilder::phi(ObjectId t, ObjectId f, ObjectId cond, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  const ObjectId parts[] = {t, f, cond};
  return packed_op(OpKind::Phi, parts, std::move(dest), loc);
}

Result<ObjectId> FnBuilder::apply(OpKind op, ObjectId product, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (form_of(op) != Form::Binary && form_of(op) != Form::Select)
    return err(IrErrorKind::NotBinary, std::string(op_name(op)) + " does not apply to a product", loc);
  auto pt = operand(product, loc);
  if (!pt) return pt.error();
  auto rt = infer_target(op, *pt);
  if (!rt) return err(IrErrorKind::TypeMismatch, std::string(op_name(op)) + " does not apply to " + ty_label(*pt), loc);
  auto t = plan(*rt, dest, loc);
  if (!t) return t.error();
  return apply(Operation::simple(op), product, *t, loc);
}

Result<Unit> FnBuilder::set_volatile(ObjectId o, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (auto r = operand(o, loc); !r) return r.error();
  b_->g_.objects_[o.v].is_volatile = true;
  return Unit{};
}

Result<ObjectId> FnBuilder::call(FuncId callee, ObjectId arg, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  const CategoryIr& g = b_->g_;
  if (!g.has_func(callee)) return err(IrErrorKind::UnknownFunction, "no such function", loc);
  auto at = operand(arg, loc);
  if (!at) return at.error();
  const FuncDef& fd = g.func(callee);
  const Ty& in = g.object(fd.input).ty;
  if (!(*at == in)) return err(IrErrorKind::TypeMismatch, fd.name + " takes " + ty_label(in) + ", not " + ty_label(*at), loc);
  auto t = plan(g.object(fd.output).ty, dest, loc);
  if (!t) return t.error();
  return apply(Operation::call(callee), arg, *t, loc);
}

Result<ObjectId> FnBuilder::library(uint32_t fn, ObjectId arg, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  auto at = operand(arg, loc);
  if (!at) return at.error();
  const auto rt = library_result(fn, *at);
  if (!rt) return err(IrErrorKind::TypeMismatch, "library function #" + std::to_string(fn) + " does not apply to " + ty_label(*at), loc);
  auto t = plan(*rt, dest, loc);
  if (!t) return t.error();
  return apply(Operation::library(fn), arg, *t, loc);
}

Result<ObjectId> FnBuilder::rom(uint32_t rom, ObjectId index, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  auto it = operand(index, loc);
  if (!it) return it.error();
  if (!b_->g_.has_rom(rom)) return err(IrErrorKind::UnknownObject, "no table #" + std::to_string(rom), loc);
  if (!it->is_unsigned_int()) return err(IrErrorKind::TypeMismatch, "a table index is unsigned, not " + ty_label(*it), loc);
  auto t = plan(b_->g_.roms_[rom].element, dest, loc);
  if (!t) return t.error();
  return apply(Operation::rom(rom), index, *t, loc);
}

Result<Unit> FnBuilder::output(ObjectId value, std::optional<uint32_t> slot, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  auto vt = operand(value, loc);
  if (!vt) return vt.error();
  Dest d = slot ? Dest::ret_slot(*slot) : Dest::ret();
  auto t = plan(*vt, d, loc);
  if (!t) return t.error();
  IrBuilder::FnState& s = b_->fns_[f_.v];
  if (slot) {
    b_->connect(value, output(), Operation::pair(*slot, static_cast<uint32_t>(s.slots_written.size())), loc);
    s.slots_written[*slot] = true;
  } else {
    b_->connect(value, output(), Operation::simple(OpKind::Output), loc);
    s.whole_written = true;
  }
  return Unit{};
}

Result<LoopHandle> FnBuilder::begin_loop(ObjectId init, SourceLoc loc, std::string name) {
  if (auto r = usable(); !r) return r.error();
  auto it = operand(init, loc);
  if (!it) return it.error();
  if (it->is_unit()) return err(IrErrorKind::NonCoreType, "a loop needs state", loc);
  ObjectId merge = b_->mint(f_, *it, ObjectKind::LoopMerge, std::move(name), loc);
  b_->connect(init, merge, Operation::simple(OpKind::LoopEnter), loc);
  b_->loops_.push_back(IrBuilder::LoopState{merge, f_});
  ++b_->fns_[f_.v].open_loops;
  return LoopHandle{static_cast<uint32_t>(b_->loops_.size() - 1)};
}

Ty FnBuilder::type_of(ObjectId o) const {
  const CategoryIr& g = b_->g_;
  return g.has_object(o) && g.object(o).owner == f_ ? g.object(o).ty : Ty::unit();
}

ObjectId FnBuilder::merge_of(LoopHandle lh) const {
  return lh.index < b_->loops_.size() ? b_->loops_[lh.index].merge : ObjectId();
}

Result<LoopHandle> FnBuilder::open_loop(LoopHandle lh, SourceLoc loc) const {
  if (lh.index >= b_->loops_.size() || b_->loops_[lh.index].owner != f_ || b_->loops_[lh.index].ended)
    return err(IrErrorKind::LoopClosed, "the loop is not open in this function", loc);
  return lh;
}

// A route is the (payload, guard) product that LoopBack and LoopExit consume.
Result<Ty> FnBuilder::route_ty(ObjectId payload, ObjectId cond, SourceLoc loc) {
  auto pt = operand(payload, loc);
  if (!pt) return pt.error();
  auto ct = operand(cond, loc);
  if (!ct) return ct.error();
  if (!ct->is_bool()) return err(IrErrorKind::TypeMismatch, "a loop guard is bool, not " + ty_label(*ct), loc);
  Ty route = Ty::tuple({*pt, *ct});
  if (auto r = b_->intake(route, loc); !r) return r.error();
  return route;
}

Result<Unit> FnBuilder::loop_back(LoopHandle lh, ObjectId next, ObjectId cond, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (auto r = open_loop(lh, loc); !r) return r.error();
  auto route = route_ty(next, cond, loc);
  if (!route) return route.error();
  ObjectId merge = merge_of(lh);
  const Ty& u = b_->g_.object(merge).ty;
  if (!(route->component(0) == u))
    return err(IrErrorKind::TypeMismatch, "the loop state is " + ty_label(u) + ", not " + ty_label(route->component(0)), loc);
  const ObjectId parts[] = {next, cond};
  ObjectId r = product_of(parts, *route, ObjectId(), loc);
  b_->connect(r, merge, Operation::simple(OpKind::LoopBack), loc);
  ++b_->loops_[lh.index].backs;
  return Unit{};
}

Result<ObjectId> FnBuilder::loop_exit(LoopHandle lh, ObjectId value, ObjectId cond, Dest dest, SourceLoc loc) {
  if (auto r = usable(); !r) return r.error();
  if (auto r = open_loop(lh, loc); !r) return r.error();
  auto route = route_ty(value, cond, loc);
  if (!route) return route.error();
  auto t = plan(route->component(0), dest, loc);
  if (!t) return t.error();
  const ObjectId parts[] = {value, cond};
  ObjectId r = product_of(parts, *route, ObjectId(), loc);
  ++b_->loops_[lh.index].exits;
  return apply(Operation::simple(OpKind::LoopExit), r, *t, loc);
}

Result<Unit> FnBuilder::end_loop(LoopHandle lh) {
  if (auto r = usable(); !r) return r.error();
  if (auto r = open_loop(lh, {}); !r) return r.error();
  IrBuilder::LoopState& l = b_->loops_[lh.index];
  const SourceLoc loc = b_->g_.object(l.merge).loc;
  if (l.backs == 0) return err(IrErrorKind::LoopWithoutBack, "the loop never routes its state back", loc);
  if (l.exits == 0) return err(IrErrorKind::LoopWithoutExit, "the loop has no exit", loc);
  l.ended = true;
  --b_->fns_[f_.v].open_loops;
  return Unit{};
}

Result<Unit> FnBuilder::finish() {
  if (auto r = usable(); !r) return r.error();
  IrBuilder::FnState& s = b_->fns_[f_.v];
  const FuncDef& fd = b_->g_.func(f_);
  if (s.open_loops > 0) return err(IrErrorKind::OpenLoop, "function " + fd.name + " has a loop that was not ended", fd.loc);
  const Ty& out = b_->g_.object(fd.output).ty;
  const bool all_slots = out.is_product() && std::find(s.slots_written.begin(), s.slots_written.end(), false) == s.slots_written.end();
  if (!out.is_unit() && !s.whole_written && !all_slots)
    return err(IrErrorKind::RetSlotMissing, "function " + fd.name + " does not write its whole result", fd.loc);
  s.finished = true;
  return Unit{};
}

}  // namespace polydat::ir
