// Internal to ir/: the Validator that validate() runs; its checks are defined by concern in
// validate.cc (ids, owners, edge lists), validate_typing.cc, validate_definitions.cc, validate_cycles.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/validate.h"

namespace polydat::ir::validation {

inline constexpr uint32_t kAbsent = UINT32_MAX;

std::string id_text(const char* prefix, uint32_t v);
bool is_known_op(OpKind k);

// The loops one function's graph re-derives by peeling (validate_cycles.cc).
struct PeeledLoop;
struct LoopForest;

class Validator {
 public:
  explicit Validator(const CategoryIr& ir) : ir_(ir) {}

  std::vector<IrViolation> run();

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

  // ids, functions, objects, morphisms, adjacency, edge lists (validate.cc)
  void check_entry();
  void check_functions();
  void check_designated(FuncId f, ObjectId o, ObjectKind want, const char* role);
  void check_object_lists();
  void check_objects();
  void check_role(ObjectId id);
  void check_morphism_ids();
  void index_adjacency();
  void check_edge_lists();
  void tally_edge_list(ObjectId o, std::span<const MorphismId> list, bool incoming, std::vector<int>& count);

  // objects' types and constants, struct names, edge typing (validate_typing.cc)
  void check_type(ObjectId id);
  void check_constant(ObjectId id);
  void check_struct_names();
  void check_typing();
  void check_edge(MorphismId id);
  void check_pair_edge(MorphismId id, IrErrorKind mismatch);
  void check_proj_edge(MorphismId id);

  // the one-definition rule (validate_definitions.cc)
  void check_definitions();
  void check_undefined(ObjectId o);
  void check_temporary(ObjectId o);
  void check_slots(ObjectId o, const std::vector<MorphismId>& pairs);
  void check_merge(ObjectId o);
  void check_return(ObjectId o);

  // call recursion and loop structure (validate_cycles.cc)
  void check_calls_acyclic();
  std::vector<std::vector<ObjectId>> components(const std::vector<ObjectId>& nodes);
  bool enters_from_outside(ObjectId merge, const std::vector<ObjectId>& comp) const;
  bool exits_into(ObjectId merge, const std::vector<ObjectId>& comp) const;
  LoopForest peel_loops(FuncId f);
  void report_irreducible(FuncId f, const std::vector<ObjectId>& comp, const std::vector<ObjectId>& merges,
                          size_t headers, bool stuck);
  std::optional<ObjectId> slot_feeder(ObjectId product, uint32_t slot) const;
  std::vector<ObjectId> guard_owners(MorphismId exit) const;
  void check_loops(FuncId f);
  void check_back_edges(FuncId f, ObjectId merge, const PeeledLoop* loop);
  void check_exit(FuncId f, MorphismId e, const LoopForest& forest, std::map<ObjectId, int>& exits);

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

}  // namespace polydat::ir::validation
