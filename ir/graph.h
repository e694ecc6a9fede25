// CategoryIr: one sealed dataflow graph of objects (values) and morphisms
// (single-source, single-target edges), grouped into functions.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ids.h"
#include "ir/op.h"
#include "ir/source_loc.h"
#include "ir/ty.h"
#include "ir/value.h"

namespace polydat::ir {

enum class ObjectKind : uint8_t { Parameter, Temporary, Constant, Return, LoopMerge };

std::string_view kind_name(ObjectKind k);

struct Object {
  ObjectId id;
  Ty ty;
  ObjectKind kind = ObjectKind::Temporary;
  std::optional<Value> value;  // present exactly on Constants
  std::string name;            // surface name for dumps; empty when synthesized
  SourceLoc loc;
  FuncId owner;
  bool is_volatile = false;  // never constant-folded (the language's `volatile`)
};

struct Morphism {
  MorphismId id;
  ObjectId source;
  ObjectId target;
  Operation op;
  SourceLoc loc;
};

struct FuncDef {
  FuncId id;
  std::string name;
  ObjectId input;                    // the one Parameter object
  ObjectId output;                   // the one Return object
  std::vector<MorphismId> morphisms;  // insertion order; execution order is topo_order()
  std::vector<ObjectId> objects;      // the objects it owns, in insertion (id) order
  SourceLoc loc;
};

// A constant table the Rom operation reads: entries of one scalar type.
struct RomTable {
  Ty element;
  std::vector<Value> entries;  // at least one
  friend bool operator==(const RomTable&, const RomTable&) = default;
};

// Out-of-range indexes wrap, the language's rule for tables.
inline const Value& rom_entry(const RomTable& t, uint64_t index) { return t.entries[index % t.entries.size()]; }

struct GraphSurgery;  // tests only: corrupts sealed graphs to exercise validate()

// Immutable after IrBuilder::seal. Ids index dense vectors in insertion order,
// so every iteration below is deterministic.
class CategoryIr {
 public:
  const Object& object(ObjectId id) const { return objects_.at(id.v); }
  const Morphism& morphism(MorphismId id) const { return morphisms_.at(id.v); }
  const FuncDef& func(FuncId id) const { return funcs_.at(id.v); }
  std::span<const Object> objects() const { return objects_; }
  std::span<const Morphism> morphisms() const { return morphisms_; }
  std::span<const FuncDef> funcs() const { return funcs_; }
  std::span<const MorphismId> in_edges(ObjectId id) const { return in_edges_.at(id.v); }
  std::span<const MorphismId> out_edges(ObjectId id) const { return out_edges_.at(id.v); }
  FuncId owner(ObjectId id) const { return object(id).owner; }
  FuncId entry() const { return entry_; }
  std::span<const RomTable> roms() const { return roms_; }
  bool has_rom(uint32_t r) const { return r < roms_.size(); }
  const RomTable& rom(uint32_t r) const { return roms_.at(r); }

  bool has_object(ObjectId id) const { return id.v < objects_.size(); }
  bool has_func(FuncId id) const { return id.v < funcs_.size(); }
  std::optional<FuncId> find_func(std::string_view name) const;
  // The objects a function owns, in insertion (so id) order.
  const std::vector<ObjectId>& objects_of(FuncId f) const { return func(f).objects; }

 private:
  friend class IrBuilder;
  friend class FnBuilder;
  friend struct GraphSurgery;

  std::vector<Object> objects_;
  std::vector<Morphism> morphisms_;
  std::vector<FuncDef> funcs_;
  std::vector<RomTable> roms_;
  std::vector<std::vector<MorphismId>> in_edges_;   // by target
  std::vector<std::vector<MorphismId>> out_edges_;  // by source
  FuncId entry_;
};

}  // namespace polydat::ir
