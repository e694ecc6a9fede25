// The Validator's one-definition rule: each object written as its kind
// requires, each product slot exactly once.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "ir/validator.h"

namespace polydat::ir::validation {

// ---- the one-definition rule, by kind ----

void Validator::check_definitions() {
  for (uint32_t i = 0; i < ir_.objects().size(); ++i) {
    const ObjectId o(i);
    switch (ir_.object(o).kind) {
      case ObjectKind::Parameter:
      case ObjectKind::Constant: check_undefined(o); break;
      case ObjectKind::Temporary: check_temporary(o); break;
      case ObjectKind::LoopMerge: check_merge(o); break;
      case ObjectKind::Return: check_return(o); break;
      default: report(IrErrorKind::UnknownObject, obj_text(o) + " has no known kind", owner_or_none(o), o); break;
    }
  }
}

void Validator::check_undefined(ObjectId o) {
  for (MorphismId m : in_of_[o.v])
    report(IrErrorKind::RetSlotConflict,
           obj_text(o) + " is defined by its function, yet " + edge_text(m) + " writes it", owner_or_none(o), o, m);
}

void Validator::check_temporary(ObjectId o) {
  const auto& writers = in_of_[o.v];
  const FuncId f = owner_or_none(o);
  if (writers.empty()) return report(IrErrorKind::RetSlotMissing, obj_text(o) + " is never defined", f, o);
  const auto pairs =
      std::count_if(writers.begin(), writers.end(), [&](MorphismId m) { return mor(m).op.kind == OpKind::Pair; });
  const auto others = static_cast<std::ptrdiff_t>(writers.size()) - pairs;
  if (pairs > 0 && others > 0)
    return report(IrErrorKind::RetMixedWriters, obj_text(o) + " is defined both whole and slot by slot", f, o);
  if (others > 1)
    return report(IrErrorKind::RetSlotConflict,
                  obj_text(o) + " is defined by " + std::to_string(others) + " morphisms", f, o, writers[1]);
  if (pairs > 0) check_slots(o, writers);
}

// Pair writers: each slot of the product exactly once. Per-edge faults
// (non-product target, arity, slot range) are the typing check's.
void Validator::check_slots(ObjectId o, const std::vector<MorphismId>& pairs) {
  const Ty& t = ir_.object(o).ty;
  if (!t.is_product()) return;
  const FuncId f = owner_or_none(o);
  std::vector<int> seen(t.arity(), 0);
  for (MorphismId m : pairs) {
    const uint32_t k = mor(m).op.slot();
    if (k >= t.arity()) continue;
    if (seen[k]++ == 1)
      report(IrErrorKind::RetSlotConflict, "slot " + std::to_string(k) + " of " + obj_text(o) + " is written twice",
             f, o, m);
  }
  for (size_t k = 0; k < seen.size(); ++k)
    if (seen[k] == 0)
      report(IrErrorKind::RetSlotMissing, "slot " + std::to_string(k) + " of " + obj_text(o) + " is never written", f,
             o);
}

void Validator::check_merge(ObjectId o) {
  const FuncId f = owner_or_none(o);
  int enters = 0, backs = 0;
  for (MorphismId m : in_of_[o.v]) {
    const OpKind k = mor(m).op.kind;
    if (k == OpKind::LoopEnter)
      ++enters;
    else if (k == OpKind::LoopBack)
      ++backs;
    else
      report(IrErrorKind::RetMixedWriters, obj_text(o) + " is a loop merge, yet " + edge_text(m) + " writes it", f, o,
             m);
  }
  if (enters == 0) report(IrErrorKind::RetSlotMissing, obj_text(o) + " is never entered (no LoopEnter)", f, o);
  if (enters > 1)
    report(IrErrorKind::RetSlotConflict, obj_text(o) + " is entered by " + std::to_string(enters) + " LoopEnters", f,
           o);
  if (backs == 0) report(IrErrorKind::LoopWithoutBack, obj_text(o) + " has no LoopBack", f, o);
}

// Either whole writers (at most one) or the product's slot writers, never
// both; a unit Return may stay unwritten. Nothing reads a Return.
void Validator::check_return(ObjectId o) {
  const auto& writers = in_of_[o.v];
  const FuncId f = owner_or_none(o);
  const Ty& t = ir_.object(o).ty;
  for (MorphismId m : out_of_[o.v])
    report(IrErrorKind::ReturnAsOperand, obj_text(o) + " is read by " + edge_text(m), f, o, m);
  const auto pairs =
      std::count_if(writers.begin(), writers.end(), [&](MorphismId m) { return mor(m).op.kind == OpKind::Pair; });
  const auto wholes = static_cast<std::ptrdiff_t>(writers.size()) - pairs;
  if (pairs > 0 && wholes > 0)
    return report(IrErrorKind::RetMixedWriters, obj_text(o) + " is written both whole and slot by slot", f, o);
  if (wholes > 1)
    return report(IrErrorKind::RetSlotConflict,
                  obj_text(o) + " is written whole " + std::to_string(wholes) + " times", f, o, writers[1]);
  if (pairs > 0 && !t.is_product())
    return report(IrErrorKind::RetNotProduct, obj_text(o) + " is " + ty_label(t) + " and has no slots", f, o,
                  writers[0]);
  if (pairs > 0) return check_slots(o, writers);
  if (writers.empty() && !t.is_unit()) report(IrErrorKind::RetSlotMissing, obj_text(o) + " is never written", f, o);
}

}  // namespace polydat::ir::validation
