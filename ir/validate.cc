// validate(): the independent oracle. Every graph-shape invariant is re-derived
// here and in validate_*.cc (the Validator of validator.h, split by concern)
// from the read API of graph.h; the only thing shared with the builder is
// the typing table (typing.h). The SCC walk, the loop peeling, the
// one-definition and return rules are written again on purpose, so that a bug
// in the builder cannot hide behind a helper both sides call.
//
// Each fault carries the IrErrorKind the builder uses for the same fault. For
// faults no builder call can make, the nearest kind:
//   a dangling id, or edge lists that disagree with the morphism table   UnknownObject
//   a function's input/output not its own Parameter/Return, or a stray one  UnknownObject
//   an object defined twice / never defined                      RetSlotConflict / RetSlotMissing
//   Pair and non-Pair definers of one object                     RetMixedWriters
//   LoopEnter/LoopBack/Output into the wrong kind of object      TypeMismatch
//   a cycle through no merge, or one its header's back edges do not break  IrreducibleLoop
//
// Robust on any corruption: every id is checked before it is followed, and
// adjacency is rebuilt from the morphism table (the ground truth) rather than
// read from the edge lists under test. Nothing recurses.
#include "ir/validate.h"

#include <map>
#include <span>
#include <string>
#include <vector>

#include "ir/validator.h"

namespace polydat::ir {

namespace validation {

std::string id_text(const char* prefix, uint32_t v) {
  return v == kAbsent ? std::string(prefix) + "?" : prefix + std::to_string(v);
}

std::vector<IrViolation> Validator::run() {
  check_entry();
  check_functions();
  check_objects();
  check_struct_names();
  check_morphism_ids();
  index_adjacency();
  check_object_lists();
  check_edge_lists();
  check_definitions();
  check_typing();
  check_calls_acyclic();
  for (uint32_t f = 0; f < ir_.funcs().size(); ++f) check_loops(FuncId(f));
  return std::move(out_);
}

// ---- ids and functions ----

void Validator::check_entry() {
  if (!ir_.has_func(ir_.entry()))
    report(IrErrorKind::NoEntry, "the entry " + id_text("#", ir_.entry().v) + " names no function");
}

void Validator::check_functions() {
  std::map<std::string, FuncId> seen;
  for (uint32_t i = 0; i < ir_.funcs().size(); ++i) {
    const FuncDef& fd = ir_.funcs()[i];
    const FuncId f(i);
    if (fd.id != f)
      report(IrErrorKind::UnknownFunction, "function #" + std::to_string(i) + " carries " + id_text("id #", fd.id.v),
             f);
    if (!seen.emplace(fd.name, f).second) report(IrErrorKind::DuplicateName, "two functions are named " + fd.name, f);
    check_designated(f, fd.input, ObjectKind::Parameter, "input");
    check_designated(f, fd.output, ObjectKind::Return, "output");
  }
}

void Validator::check_designated(FuncId f, ObjectId o, ObjectKind want, const char* role) {
  if (!ir_.has_object(o)) {
    report(IrErrorKind::UnknownObject, fn_text(f) + "'s " + role + " " + obj_text(o) + " does not exist", f, o);
  } else if (ir_.object(o).owner != f) {
    report(IrErrorKind::ForeignObject,
           fn_text(f) + "'s " + role + " " + obj_text(o) + " belongs to " + fn_text(ir_.object(o).owner), f, o);
  } else if (ir_.object(o).kind != want) {
    report(IrErrorKind::UnknownObject,
           fn_text(f) + "'s " + role + " is " + obj_text(o) + ", not its " + std::string(kind_name(want)), f, o);
  }
}

// ---- objects: ids, owners, roles ----

// A function's object list is exactly the objects it owns, in id order.
void Validator::check_object_lists() {
  for (uint32_t f = 0; f < ir_.funcs().size(); ++f)
    if (ir_.funcs()[f].objects != objects_of_[f])
      report(IrErrorKind::UnknownObject, fn_text(FuncId(f)) + " lists other objects than it owns", FuncId(f));
}

void Validator::check_objects() {
  for (uint32_t i = 0; i < ir_.objects().size(); ++i) {
    const Object& o = ir_.objects()[i];
    const ObjectId id(i);
    if (o.id != id)
      report(IrErrorKind::UnknownObject, "object #" + std::to_string(i) + " carries " + id_text("id #", o.id.v),
             owner_or_none(id), id);
    if (!ir_.has_func(o.owner))
      report(IrErrorKind::UnknownFunction, obj_text(id) + " is owned by no function", {}, id);
    check_role(id);
    check_type(id);
    check_constant(id);
  }
}

// One Parameter and one Return per function: exactly the ones it designates.
void Validator::check_role(ObjectId id) {
  const Object& o = ir_.object(id);
  const bool is_param = o.kind == ObjectKind::Parameter;
  if (!is_param && o.kind != ObjectKind::Return) return;
  if (!ir_.has_func(o.owner)) return;
  const FuncDef& fd = ir_.func(o.owner);
  if ((is_param ? fd.input : fd.output) != id)
    report(IrErrorKind::UnknownObject,
           obj_text(id) + " is not the " + (is_param ? "input" : "output") + " of " + fn_text(o.owner), o.owner, id);
}

// ---- morphisms: ids, endpoints, the function that lists them ----

void Validator::check_morphism_ids() {
  const size_t n = ir_.morphisms().size();
  sound_.assign(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    const Morphism& m = ir_.morphisms()[i];
    const MorphismId id(i);
    if (m.id != id)
      report(IrErrorKind::UnknownObject, "morphism #" + std::to_string(i) + " carries " + id_text("id #", m.id.v), {},
             {}, id);
    if (!ir_.has_object(m.source) || !ir_.has_object(m.target)) {
      report(
          IrErrorKind::UnknownObject,
          edge_text(id) + " joins " + obj_text(m.source) + " to " + obj_text(m.target) + ", which do not both exist",
          owner_or_none(ir_.has_object(m.source) ? m.source : m.target), {}, id);
      continue;
    }
    sound_[i] = true;
  }
  std::vector<int> listings(n, 0);
  for (const FuncDef& fd : ir_.funcs()) {
    for (MorphismId m : fd.morphisms) {
      if (m.v >= n) {
        report(IrErrorKind::UnknownObject,
               fn_text(fd.id) + " lists " + id_text("morphism #", m.v) + ", which does not exist", fd.id, {}, m);
        continue;
      }
      ++listings[m.v];
      if (sound_[m.v] && (ir_.owner(mor(m).source) != fd.id || ir_.owner(mor(m).target) != fd.id))
        report(IrErrorKind::ForeignObject,
               fn_text(fd.id) + " lists " + edge_text(m) + " from " + obj_text(mor(m).source) + " to " +
                   obj_text(mor(m).target) + ", not both its own",
               fd.id, {}, m);
    }
  }
  for (uint32_t i = 0; i < n; ++i)
    if (listings[i] != 1)
      report(IrErrorKind::ForeignObject,
             edge_text(MorphismId(i)) + " is listed by " + std::to_string(listings[i]) + " function bodies, not one",
             sound_[i] ? owner_or_none(ir_.morphisms()[i].source) : FuncId(), {}, MorphismId(i));
}

// Adjacency from the morphism table, in id order: what later checks walk.
void Validator::index_adjacency() {
  const size_t n = ir_.objects().size();
  in_of_.assign(n, {});
  out_of_.assign(n, {});
  objects_of_.assign(ir_.funcs().size(), {});
  morphisms_of_.assign(ir_.funcs().size(), {});
  for (uint32_t i = 0; i < n; ++i)
    if (FuncId f = owner_or_none(ObjectId(i)); f.valid()) objects_of_[f.v].push_back(ObjectId(i));
  for (uint32_t i = 0; i < ir_.morphisms().size(); ++i) {
    if (!sound_[i]) continue;
    const Morphism& m = ir_.morphisms()[i];
    out_of_[m.source.v].push_back(MorphismId(i));
    in_of_[m.target.v].push_back(MorphismId(i));
    if (FuncId f = owner_or_none(m.source); f.valid()) morphisms_of_[f.v].push_back(MorphismId(i));
  }
}

// in_edges/out_edges hold each morphism exactly once, at its own endpoints.
void Validator::check_edge_lists() {
  const size_t n = ir_.morphisms().size();
  std::vector<int> in_count(n, 0), out_count(n, 0);
  for (uint32_t i = 0; i < ir_.objects().size(); ++i) {
    const ObjectId o(i);
    tally_edge_list(o, ir_.in_edges(o), true, in_count);
    tally_edge_list(o, ir_.out_edges(o), false, out_count);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (!sound_[i]) continue;
    const MorphismId m(i);
    const FuncId f = owner_or_none(mor(m).source);
    if (in_count[i] != 1)
      report(IrErrorKind::UnknownObject,
             edge_text(m) + " appears " + std::to_string(in_count[i]) + " times in its target's in-edges", f,
             mor(m).target, m);
    if (out_count[i] != 1)
      report(IrErrorKind::UnknownObject,
             edge_text(m) + " appears " + std::to_string(out_count[i]) + " times in its source's out-edges", f,
             mor(m).source, m);
  }
}

void Validator::tally_edge_list(ObjectId o, std::span<const MorphismId> list, bool incoming, std::vector<int>& count) {
  const char* which = incoming ? "in-edges" : "out-edges";
  for (MorphismId m : list) {
    if (m.v >= ir_.morphisms().size()) {
      report(IrErrorKind::UnknownObject,
             obj_text(o) + "'s " + which + " hold " + id_text("morphism #", m.v) + ", which does not exist",
             owner_or_none(o), o, m);
      continue;
    }
    if ((incoming ? mor(m).target : mor(m).source) != o) {
      report(IrErrorKind::UnknownObject,
             obj_text(o) + "'s " + which + " hold " + edge_text(m) + ", which does not " +
                 (incoming ? "end" : "start") + " there",
             owner_or_none(o), o, m);
      continue;
    }
    ++count[m.v];
  }
}

}  // namespace validation

std::vector<IrViolation> validate(const CategoryIr& ir) { return validation::Validator(ir).run(); }

}  // namespace polydat::ir
