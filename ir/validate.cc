// validate(): the independent oracle. Every graph-shape invariant is re-derived
// here from the read API of graph.h; the only thing shared with the builder is
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

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ir/typing.h"

namespace polydat::ir {

namespace {

constexpr uint32_t kAbsent = UINT32_MAX;
using Adjacency = std::vector<std::vector<uint32_t>>;

// Tarjan's strongly connected components with an explicit call stack, so a
// 100,000-object chain costs heap, not host stack. Each component is sorted;
// components are ordered by their smallest node.
std::vector<std::vector<uint32_t>> strong_components_of(const Adjacency& adj) {
  const size_t n = adj.size();
  std::vector<uint32_t> index(n, kAbsent), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<uint32_t> stack;
  struct Frame {
    uint32_t v;
    size_t next;
  };
  std::vector<Frame> calls;
  std::vector<std::vector<uint32_t>> comps;
  uint32_t counter = 0;
  auto visit = [&](uint32_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    on_stack[v] = true;
    calls.push_back({v, 0});
  };
  for (uint32_t root = 0; root < n; ++root) {
    if (index[root] != kAbsent) continue;
    visit(root);
    while (!calls.empty()) {
      const uint32_t v = calls.back().v;
      if (calls.back().next < adj[v].size()) {
        const uint32_t w = adj[v][calls.back().next++];
        if (index[w] == kAbsent)
          visit(w);
        else if (on_stack[w])
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().v] = std::min(low[calls.back().v], low[v]);
      if (low[v] != index[v]) continue;
      std::vector<uint32_t> comp;
      uint32_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        comp.push_back(w);
      } while (w != v);
      std::sort(comp.begin(), comp.end());
      comps.push_back(std::move(comp));
    }
  }
  std::sort(comps.begin(), comps.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return comps;
}

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

bool is_known_op(OpKind k) {
  for (const OpTyping& row : typing_table())
    if (row.op == k) return true;
  return false;
}

std::string id_text(const char* prefix, uint32_t v) {
  return v == kAbsent ? std::string(prefix) + "?" : prefix + std::to_string(v);
}

// One loop re-derived by peeling: its header merge and its region (sorted).
struct PeeledLoop {
  ObjectId merge;
  std::vector<ObjectId> region;
  int parent = -1;

  bool contains(ObjectId o) const { return std::binary_search(region.begin(), region.end(), o); }
};

struct LoopForest {
  std::vector<PeeledLoop> loops;
  std::map<ObjectId, size_t> by_merge;
  std::set<ObjectId> irreducible;  // merges on cycles with no single header

  const PeeledLoop* loop_of(ObjectId merge) const {
    auto it = by_merge.find(merge);
    return it == by_merge.end() ? nullptr : &loops[it->second];
  }
};

class Validator {
 public:
  explicit Validator(const CategoryIr& ir) : ir_(ir) {}

  std::vector<IrViolation> run() {
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

 private:
  void report(IrErrorKind k, std::string msg, FuncId f = {}, ObjectId o = {}, MorphismId m = {}) {
    out_.push_back(IrViolation{k, std::move(msg), f, o, m});
  }
  FuncId owner_or_none(ObjectId o) const {
    return ir_.has_object(o) && ir_.has_func(ir_.object(o).owner) ? ir_.object(o).owner : FuncId();
  }
  std::string fn_text(FuncId f) const {
    return ir_.has_func(f) ? "function " + ir_.func(f).name : id_text("function #", f.v);
  }
  std::string obj_text(ObjectId o) const {
    if (!ir_.has_object(o)) return id_text("object #", o.v);
    const Object& obj = ir_.object(o);
    return std::string(kind_name(obj.kind)) + " o" + std::to_string(o.v) +
           (obj.name.empty() ? "" : " '" + obj.name + "'");
  }
  // op_name() indexes a table, so a corrupted operation kind is not passed to it.
  std::string edge_text(MorphismId m) const {
    const OpKind k = ir_.morphism(m).op.kind;
    return (is_known_op(k) ? std::string(op_name(k)) : "operation #" + std::to_string(static_cast<int>(k))) + " m" +
           std::to_string(m.v);
  }
  const Morphism& mor(MorphismId m) const { return ir_.morphism(m); }

  // ---- ids and functions ----

  void check_entry() {
    if (!ir_.has_func(ir_.entry()))
      report(IrErrorKind::NoEntry, "the entry " + id_text("#", ir_.entry().v) + " names no function");
  }

  void check_functions() {
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

  void check_designated(FuncId f, ObjectId o, ObjectKind want, const char* role) {
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

  // ---- objects: ids, owners, roles, types, constants ----

  // A function's object list is exactly the objects it owns, in id order.
  void check_object_lists() {
    for (uint32_t f = 0; f < ir_.funcs().size(); ++f)
      if (ir_.funcs()[f].objects != objects_of_[f])
        report(IrErrorKind::UnknownObject, fn_text(FuncId(f)) + " lists other objects than it owns", FuncId(f));
  }

  void check_objects() {
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
  void check_role(ObjectId id) {
    const Object& o = ir_.object(id);
    const bool is_param = o.kind == ObjectKind::Parameter;
    if (!is_param && o.kind != ObjectKind::Return) return;
    if (!ir_.has_func(o.owner)) return;
    const FuncDef& fd = ir_.func(o.owner);
    if ((is_param ? fd.input : fd.output) != id)
      report(IrErrorKind::UnknownObject,
             obj_text(id) + " is not the " + (is_param ? "input" : "output") + " of " + fn_text(o.owner), o.owner, id);
  }

  void check_type(ObjectId id) {
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

  void check_constant(ObjectId id) {
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
  void check_struct_names() {
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

  // ---- morphisms: ids, endpoints, the function that lists them ----

  void check_morphism_ids() {
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
  void index_adjacency() {
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
  void check_edge_lists() {
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

  void tally_edge_list(ObjectId o, std::span<const MorphismId> list, bool incoming, std::vector<int>& count) {
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

  // ---- the one-definition rule, by kind ----

  void check_definitions() {
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

  void check_undefined(ObjectId o) {
    for (MorphismId m : in_of_[o.v])
      report(IrErrorKind::RetSlotConflict,
             obj_text(o) + " is defined by its function, yet " + edge_text(m) + " writes it", owner_or_none(o), o, m);
  }

  void check_temporary(ObjectId o) {
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
  void check_slots(ObjectId o, const std::vector<MorphismId>& pairs) {
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

  void check_merge(ObjectId o) {
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
  void check_return(ObjectId o) {
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

  // ---- typing: every edge is a row of the table ----

  void check_typing() {
    for (uint32_t i = 0; i < ir_.morphisms().size(); ++i)
      if (sound_[i]) check_edge(MorphismId(i));
  }

  void check_edge(MorphismId id) {
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

  static bool target_kind_ok(OpKind op, ObjectKind target) {
    if (op == OpKind::LoopEnter || op == OpKind::LoopBack) return target == ObjectKind::LoopMerge;
    if (op == OpKind::Output) return target == ObjectKind::Return;
    return true;
  }

  void check_pair_edge(MorphismId id, IrErrorKind mismatch) {
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

  void check_proj_edge(MorphismId id) {
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

  // ---- calls ----

  void check_calls_acyclic() {
    const size_t n = ir_.funcs().size();
    Adjacency calls(n);
    for (uint32_t i = 0; i < ir_.morphisms().size(); ++i) {
      if (!sound_[i] || ir_.morphisms()[i].op.kind != OpKind::Call) continue;
      const FuncId caller = owner_or_none(ir_.morphisms()[i].source);
      const FuncId callee = ir_.morphisms()[i].op.callee();
      if (caller.valid() && ir_.has_func(callee)) calls[caller.v].push_back(callee.v);
    }
    for (const std::vector<uint32_t>& comp : strong_components_of(calls)) {
      const uint32_t f = comp.front();
      const bool self = std::find(calls[f].begin(), calls[f].end(), f) != calls[f].end();
      if (comp.size() < 2 && !self) continue;
      std::string cycle;
      for (uint32_t g : comp) cycle += (cycle.empty() ? "" : ", ") + ir_.funcs()[g].name;
      report(IrErrorKind::RecursiveCall, "recursive calls among " + cycle, FuncId(f));
    }
  }

  // ---- loops ----

  // Components of the subgraph induced by `nodes`, without the back edges of
  // already peeled headers.
  std::vector<std::vector<ObjectId>> components(const std::vector<ObjectId>& nodes) {
    local_.resize(ir_.objects().size(), kAbsent);
    peeled_.resize(ir_.objects().size(), false);
    for (uint32_t i = 0; i < nodes.size(); ++i) local_[nodes[i].v] = i;
    Adjacency adj(nodes.size());
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      for (MorphismId m : out_of_[nodes[i].v]) {
        const uint32_t t = local_[mor(m).target.v];
        if (t == kAbsent || (mor(m).op.kind == OpKind::LoopBack && peeled_[mor(m).target.v])) continue;
        adj[i].push_back(t);
      }
    }
    for (ObjectId o : nodes) local_[o.v] = kAbsent;
    std::vector<std::vector<ObjectId>> comps;
    for (const std::vector<uint32_t>& c : strong_components_of(adj)) {
      std::vector<ObjectId> comp;
      for (uint32_t i : c) comp.push_back(nodes[i]);
      comps.push_back(std::move(comp));  // nodes are in id order, so comp stays sorted
    }
    return comps;
  }

  bool enters_from_outside(ObjectId merge, const std::vector<ObjectId>& comp) const {
    for (MorphismId m : in_of_[merge.v])
      if (mor(m).op.kind == OpKind::LoopEnter) return !std::binary_search(comp.begin(), comp.end(), mor(m).source);
    return false;
  }

  // Whether some loop exit guarded like `merge` lands inside `comp`.
  bool exits_into(ObjectId merge, const std::vector<ObjectId>& comp) const {
    for (uint32_t i = 0; i < ir_.morphisms().size(); ++i) {
      if (!sound_[i] || mor(MorphismId(i)).op.kind != OpKind::LoopExit) continue;
      const std::vector<ObjectId> owners = guard_owners(MorphismId(i));
      if (std::find(owners.begin(), owners.end(), merge) != owners.end() &&
          std::binary_search(comp.begin(), comp.end(), mor(MorphismId(i)).target))
        return true;
    }
    return false;
  }

  // Peels SCCs: the one merge of a component entered from outside is its
  // header; dropping its back edges exposes the loops nested inside.
  LoopForest peel_loops(FuncId f) {
    LoopForest forest;
    struct Work {
      std::vector<ObjectId> nodes;
      int parent;
    };
    std::deque<Work> work;
    work.push_back({objects_of_[f.v], -1});
    while (!work.empty()) {
      Work w = std::move(work.front());
      work.pop_front();
      for (std::vector<ObjectId>& comp : components(w.nodes)) {
        if (comp.size() < 2) continue;
        std::vector<ObjectId> merges, headers;
        for (ObjectId o : comp) {
          if (ir_.object(o).kind != ObjectKind::LoopMerge) continue;
          merges.push_back(o);
          if (enters_from_outside(o, comp)) headers.push_back(o);
        }
        // Several entered from outside: an inner loop whose initial state does not
        // read the outer one. The outer loop is the one whose exits leave the cycle.
        if (headers.size() > 1)
          std::erase_if(headers, [&](ObjectId h) { return exits_into(h, comp); });
        // A sub-component as large as its parent: the header's back edges did not break the cycle.
        const bool stuck = w.parent >= 0 && comp.size() == w.nodes.size();
        if (headers.size() != 1 || stuck) {
          report_irreducible(f, comp, merges, headers.size(), stuck);
          forest.irreducible.insert(merges.begin(), merges.end());
          continue;
        }
        peeled_[headers.front().v] = true;
        forest.by_merge.emplace(headers.front(), forest.loops.size());
        forest.loops.push_back(PeeledLoop{headers.front(), comp, w.parent});
        work.push_back({std::move(comp), static_cast<int>(forest.loops.size() - 1)});
      }
    }
    return forest;
  }

  void report_irreducible(FuncId f, const std::vector<ObjectId>& comp, const std::vector<ObjectId>& merges,
                          size_t headers, bool stuck) {
    const ObjectId at = merges.empty() ? comp.front() : merges.front();
    std::string why = merges.empty() ? "passes through no loop merge"
                      : stuck        ? "does not close through its header's back edges"
                                     : "is entered through " + std::to_string(headers) + " merges, not one";
    report(IrErrorKind::IrreducibleLoop, "the cycle through " + obj_text(at) + " " + why, f, at);
  }

  // The object written into slot `slot` of a product (first such Pair).
  std::optional<ObjectId> slot_feeder(ObjectId product, uint32_t slot) const {
    for (MorphismId m : in_of_[product.v])
      if (mor(m).op.kind == OpKind::Pair && mor(m).op.slot() == slot) return mor(m).source;
    return std::nullopt;
  }

  // The merges whose back route carries the same guard object as this exit's route.
  std::vector<ObjectId> guard_owners(MorphismId exit) const {
    std::vector<ObjectId> owners;
    const std::optional<ObjectId> guard = slot_feeder(mor(exit).source, 1);
    if (!guard) return owners;
    for (MorphismId p : out_of_[guard->v]) {
      const Operation& op = mor(p).op;
      if (op.kind != OpKind::Pair || op.slot() != 1 || op.arity() != 2) continue;
      for (MorphismId b : out_of_[mor(p).target.v])
        if (mor(b).op.kind == OpKind::LoopBack) owners.push_back(mor(b).target);
    }
    std::sort(owners.begin(), owners.end());
    owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
    return owners;
  }

  void check_loops(FuncId f) {
    const LoopForest forest = peel_loops(f);
    std::vector<ObjectId> merges;
    for (ObjectId o : objects_of_[f.v])
      if (ir_.object(o).kind == ObjectKind::LoopMerge && !forest.irreducible.count(o)) merges.push_back(o);
    for (ObjectId m : merges) check_back_edges(f, m, forest.loop_of(m));
    std::map<ObjectId, int> exits;
    for (MorphismId e : morphisms_of_[f.v])
      if (mor(e).op.kind == OpKind::LoopExit) check_exit(f, e, forest, exits);
    for (ObjectId m : merges)
      if (exits[m] == 0) report(IrErrorKind::LoopWithoutExit, obj_text(m) + " has no loop exit using its guard", f, m);
  }

  void check_back_edges(FuncId f, ObjectId merge, const PeeledLoop* loop) {
    for (MorphismId b : in_of_[merge.v]) {
      if (mor(b).op.kind != OpKind::LoopBack) continue;
      const ObjectId route = mor(b).source;
      if (loop == nullptr || !loop->contains(route)) {
        report(IrErrorKind::LoopBackOutsideScc,
               edge_text(b) + " routes a state into " + obj_text(merge) + " from outside its loop", f, merge, b);
        continue;
      }
      const std::optional<ObjectId> guard = slot_feeder(route, 1);
      if (!guard || !loop->contains(*guard))
        report(IrErrorKind::LoopGuardInvariant,
               "the guard of " + edge_text(b) + " does not depend on the state of " + obj_text(merge), f, merge, b);
    }
  }

  void check_exit(FuncId f, MorphismId e, const LoopForest& forest, std::map<ObjectId, int>& exits) {
    const std::vector<ObjectId> owners = guard_owners(e);
    if (owners.size() != 1)
      return report(
          IrErrorKind::LoopExitUnattributed,
          edge_text(e) + "'s guard is the back-edge guard of " + std::to_string(owners.size()) + " loops, not one", f,
          mor(e).target, e);
    const PeeledLoop* loop = forest.loop_of(owners.front());
    if (loop == nullptr) return;  // the merge's own fault is reported with it
    if (loop->contains(mor(e).target))
      return report(IrErrorKind::LoopExitInsideScc,
                    edge_text(e) + " leaves " + obj_text(owners.front()) + " into its own loop", f, mor(e).target, e);
    ++exits[owners.front()];
  }

  const CategoryIr& ir_;
  std::vector<IrViolation> out_;
  std::vector<bool> sound_;                     // by morphism: both endpoints exist
  std::vector<std::vector<MorphismId>> in_of_;  // by object, from the morphism table
  std::vector<std::vector<MorphismId>> out_of_;
  std::vector<std::vector<ObjectId>> objects_of_;      // by owning function, in id order
  std::vector<std::vector<MorphismId>> morphisms_of_;  // by the source's owner, in id order
  std::vector<uint32_t> local_;                        // scratch: object -> index in a subgraph
  std::vector<bool> peeled_;                           // headers whose back edges no longer count
};

}  // namespace

std::vector<IrViolation> validate(const CategoryIr& ir) { return Validator(ir).run(); }

}  // namespace polydat::ir
