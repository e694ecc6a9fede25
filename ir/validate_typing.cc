// The Validator's type checks: each object's type and constant, struct types
// sharing a name, and every edge a row of the typing table (typing.h).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/typing.h"
#include "ir/validator.h"

namespace polydat::ir::validation {

namespace {
// Whether a value's payload fits its own type, all the way down (iterative).
bool payload_fits(const Value& root) {
  std::vector<const Value*> work{&root};
  while (!work.empty()) {
    const Value& v = *work.back();
    work.pop_back();
    const Ty& t = v.ty();
    if (t.is_product()) {
      if (v.elems().size() != t.arity()) return false;
      for (size_t i = 0; i < t.arity(); ++i) {
        if (!(v.elems()[i].ty() == t.component(i))) return false;
        work.push_back(&v.elems()[i]);
      }
      continue;
    }
    if (!v.elems().empty()) return false;
    const bool bits_ok = t.is_scalar() ? truncate_bits(v.bits(), t.bits()) == v.bits() : v.bits() == 0;
    if (!bits_ok) return false;
    if (!t.is_str() && !v.as_str().empty()) return false;
  }
  return true;
}

// The struct types a type mentions, outermost first (iterative).
std::vector<const Ty*> structs_in(const Ty& t) {
  std::vector<const Ty*> found;
  std::vector<const Ty*> work{&t};
  while (!work.empty()) {
    const Ty* x = work.back();
    work.pop_back();
    if (x->kind() == TyKind::Struct) found.push_back(x);
    for (size_t i = x->arity(); i-- > 0;) work.push_back(&x->component(i));
  }
  return found;
}

bool target_kind_ok(OpKind op, ObjectKind target) {
  if (op == OpKind::LoopEnter || op == OpKind::LoopBack) return target == ObjectKind::LoopMerge;
  if (op == OpKind::Output) return target == ObjectKind::Return;
  return true;
}
}  // namespace

bool is_known_op(OpKind k) {
  for (const OpTyping& row : typing_table())
    if (row.op == k) return true;
  return false;
}

// ---- objects: types, constants, struct names ----

void Validator::check_type(ObjectId id) {
  const Object& o = ir_.object(id);
  const FuncId f = owner_or_none(id);
  if (o.ty.depth() > kMaxTyDepth) {
    report(IrErrorKind::TyTooDeep, obj_text(id) + "'s type nests " + std::to_string(o.ty.depth()) + " deep", f, id);
  } else if (std::string p = ty_problem(o.ty); !p.empty()) {
    report(IrErrorKind::NonCoreType, obj_text(id) + ": " + p, f, id);
  } else if (o.kind == ObjectKind::LoopMerge && o.ty.is_unit()) {
    report(IrErrorKind::NonCoreType, obj_text(id) + ": a loop needs state", f, id);
  }
}

void Validator::check_constant(ObjectId id) {
  const Object& o = ir_.object(id);
  const FuncId f = owner_or_none(id);
  const bool is_constant = o.kind == ObjectKind::Constant;
  if (is_constant != o.value.has_value()) {
    report(IrErrorKind::ValueTyMismatch,
           obj_text(id) + (is_constant ? " has no value" : " carries a value but is no Constant"), f, id);
  } else if (o.value && !(o.value->ty() == o.ty)) {
    report(IrErrorKind::ValueTyMismatch,
           obj_text(id) + " is " + ty_label(o.ty) + " but its value is " + ty_label(o.value->ty()), f, id);
  } else if (o.value && !payload_fits(*o.value)) {
    report(IrErrorKind::ValueTyMismatch, obj_text(id) + "'s value does not fit " + ty_label(o.ty), f, id);
  }
}

// All struct types sharing a name in one graph are one type.
void Validator::check_struct_names() {
  std::map<std::string, const Ty*> first;
  std::set<std::string> reported;
  for (const Object& o : ir_.objects()) {
    for (const Ty* s : structs_in(o.ty)) {
      auto [it, fresh] = first.emplace(s->struct_name(), s);
      if (fresh || *it->second == *s || !reported.insert(s->struct_name()).second) continue;
      report(IrErrorKind::StructNameConflict,
             "two different struct types are both named " + s->struct_name() + " (seen at " + obj_text(o.id) + ")",
             owner_or_none(o.id), o.id);
    }
  }
}

// ---- typing: every edge is a row of the table ----

void Validator::check_typing() {
  for (uint32_t i = 0; i < ir_.morphisms().size(); ++i)
    if (sound_[i]) check_edge(MorphismId(i));
}

void Validator::check_edge(MorphismId id) {
  const Morphism& m = mor(id);
  const Object& src = ir_.object(m.source);
  const Object& tgt = ir_.object(m.target);
  const FuncId f = owner_or_none(m.source);
  const bool into_return = tgt.kind == ObjectKind::Return;
  const IrErrorKind mismatch = into_return ? IrErrorKind::RetTypeMismatch : IrErrorKind::TypeMismatch;
  if (!is_known_op(m.op.kind))
    return report(IrErrorKind::TypeMismatch, edge_text(id) + " is no operation of the table", f, {}, id);
  if (!target_kind_ok(m.op.kind, tgt.kind))
    return report(IrErrorKind::TypeMismatch, edge_text(id) + " cannot target " + obj_text(m.target), f, m.target, id);
  if (m.op.kind == OpKind::Pair) return check_pair_edge(id, mismatch);
  if (m.op.kind == OpKind::Proj) return check_proj_edge(id);
  Signature sig;
  const Signature* callee = nullptr;
  if (m.op.kind == OpKind::Call) {
    if (!ir_.has_func(m.op.callee()))
      return report(IrErrorKind::UnknownFunction,
                    edge_text(id) + " calls " + id_text("function #", m.op.callee().v) + ", which does not exist", f,
                    {}, id);
    const FuncDef& fd = ir_.func(m.op.callee());
    if (!ir_.has_object(fd.input) || !ir_.has_object(fd.output)) return;  // reported with the callee
    sig = Signature{ir_.object(fd.input).ty, ir_.object(fd.output).ty};
    callee = &sig;
  }
  if (m.op.kind == OpKind::Rom) {
    if (!ir_.has_rom(m.op.rom()))
      return report(IrErrorKind::UnknownObject, edge_text(id) + " reads table #" + std::to_string(m.op.rom()) + ", which does not exist", f, {}, id);
    sig = Signature{src.ty, ir_.rom(m.op.rom()).element};
    callee = &sig;
  }
  if (!edge_type_ok(m.op, src.ty, tgt.ty, callee))
    report(mismatch, edge_text(id) + " does not type " + ty_label(src.ty) + " -> " + ty_label(tgt.ty), f, m.target,
           id);
}

void Validator::check_pair_edge(MorphismId id, IrErrorKind mismatch) {
  const Morphism& m = mor(id);
  const Ty& t = ir_.object(m.target).ty;
  const FuncId f = owner_or_none(m.source);
  const bool into_return = ir_.object(m.target).kind == ObjectKind::Return;
  if (!t.is_product())
    return report(into_return ? IrErrorKind::RetNotProduct : IrErrorKind::NotAProduct,
                  edge_text(id) + " writes a slot of " + ty_label(t), f, m.target, id);
  if (m.op.arity() != t.arity())
    return report(IrErrorKind::ArityMismatch,
                  edge_text(id) + " says arity " + std::to_string(m.op.arity()) + " for " + ty_label(t), f, m.target,
                  id);
  if (m.op.slot() >= t.arity())
    return report(IrErrorKind::SlotOutOfRange,
                  edge_text(id) + " writes slot " + std::to_string(m.op.slot()) + " of " + ty_label(t), f, m.target,
                  id);
  if (!edge_type_ok(m.op, ir_.object(m.source).ty, t))
    report(mismatch,
           edge_text(id) + " puts " + ty_label(ir_.object(m.source).ty) + " into slot " +
               std::to_string(m.op.slot()) + " of " + ty_label(t),
           f, m.target, id);
}

void Validator::check_proj_edge(MorphismId id) {
  const Morphism& m = mor(id);
  const Ty& s = ir_.object(m.source).ty;
  const FuncId f = owner_or_none(m.source);
  const IrErrorKind mismatch =
      ir_.object(m.target).kind == ObjectKind::Return ? IrErrorKind::RetTypeMismatch : IrErrorKind::TypeMismatch;
  if (!s.is_product())
    return report(IrErrorKind::NotAProduct, edge_text(id) + " projects out of " + ty_label(s), f, m.source, id);
  if (m.op.index() >= s.arity())
    return report(IrErrorKind::SlotOutOfRange,
                  edge_text(id) + " projects component " + std::to_string(m.op.index()) + " of " + ty_label(s), f,
                  m.source, id);
  if (!edge_type_ok(m.op, s, ir_.object(m.target).ty))
    report(
        mismatch,
        edge_text(id) + " gives " + ty_label(s.component(m.op.index())) + " to " + ty_label(ir_.object(m.target).ty),
        f, m.target, id);
}

}  // namespace polydat::ir::validation
