// IrBuilder / FnBuilder: the only way to make a CategoryIr. Every call either
// adds a well-typed piece or returns an IrError and changes nothing, and
// seal() runs the global checks; an ill-formed graph cannot be constructed.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

// Where a value-producing call puts its result: a fresh object (with an
// optional debug name), or the function's Return object (whole, or slot k).
struct Dest {
  bool to_return = false;
  std::optional<uint32_t> slot;
  std::string name;

  static Dest fresh(std::string name = {}) { return {false, std::nullopt, std::move(name)}; }
  static Dest ret() { return {true, std::nullopt, {}}; }
  static Dest ret_slot(uint32_t k) { return {true, k, {}}; }
};

// A loop under construction; it cannot outlive its end_loop().
struct LoopHandle {
  uint32_t index = 0;
};

class FnBuilder;

class IrBuilder {
 public:
  IrBuilder();

  // Declares a function before its body, so calls may name functions defined later.
  Result<FuncId> declare(std::string name, Ty input, Ty output, SourceLoc loc);
  // Opens the body of a declared function; once per function.
  Result<FnBuilder> build_fn(FuncId f);
  // Freezes the graph and runs the global checks.
  Result<CategoryIr> seal(FuncId entry) &&;
  // A constant table for Rom lookups (an equal table already added is reused).
  Result<uint32_t> add_rom(RomTable table, SourceLoc loc);

 private:
  friend class FnBuilder;

  struct FnState {
    bool building = false;
    bool finished = false;
    int open_loops = 0;
    bool whole_written = false;
    std::vector<bool> slots_written;
  };
  struct LoopState {
    ObjectId merge;
    FuncId owner;
    int backs = 0;
    int exits = 0;
    bool ended = false;
  };

  Result<Ty> intake(const Ty& t, SourceLoc loc);
  ObjectId mint(FuncId f, Ty ty, ObjectKind kind, std::string name, SourceLoc loc);
  MorphismId connect(ObjectId source, ObjectId target, Operation op, SourceLoc loc);
  Result<Unit> check_calls_acyclic() const;
  Result<Unit> check_loops(FuncId f) const;

  CategoryIr g_;
  std::vector<FnState> fns_;
  std::vector<LoopState> loops_;
  std::map<std::string, Ty> structs_;  // every struct type seen, by name
};

class FnBuilder {
 public:
  FuncId id() const { return f_; }
  ObjectId input() const;   // the Parameter object
  ObjectId output() const;  // the Return object

  Result<ObjectId> constant(Value v, SourceLoc loc, std::string name = {});
  Result<ObjectId> proj(ObjectId src, uint32_t index, Dest dest, SourceLoc loc);
  Result<ObjectId> pack(std::span<const ObjectId> components, Dest dest, SourceLoc loc);
  Result<ObjectId> pack_struct(const Ty& ty, std::span<const ObjectId> components, Dest dest,
                               SourceLoc loc);
  // Neg, Not, Popcount, Clz, Ctz, ToStr, Hex, and the float functions Sqrt .. Abs.
  Result<ObjectId> unop(OpKind op, ObjectId x, Dest dest, SourceLoc loc);
  // Add..Pow: packs (lhs, rhs) into a 2-tuple, then applies the operation.
  Result<ObjectId> binop(OpKind op, ObjectId lhs, ObjectId rhs, Dest dest, SourceLoc loc);
  Result<ObjectId> cast(ObjectId x, const Ty& to, Dest dest, SourceLoc loc);
  // A binary or select operation applied to an existing product of its
  // operands (what binop and phi build internally); passes copy graphs with it.
  Result<ObjectId> apply(OpKind op, ObjectId product, Dest dest, SourceLoc loc);
  // Marks a value as never constant-folded (the language's `volatile`).
  Result<Unit> set_volatile(ObjectId o, SourceLoc loc);
  // cond ? t : f, both evaluated.
  Result<ObjectId> phi(ObjectId t, ObjectId f, ObjectId cond, Dest dest, SourceLoc loc);
  Result<ObjectId> call(FuncId callee, ObjectId arg, Dest dest, SourceLoc loc);
  // Library function `fn` of ir/library_fn.h on its argument (a product when several).
  Result<ObjectId> library(uint32_t fn, ObjectId arg, Dest dest, SourceLoc loc);
  Result<uint32_t> add_rom(RomTable table, SourceLoc loc) { return b_->add_rom(std::move(table), loc); }
  // Entry `index % size` of the graph's table `rom` (from add_rom).
  Result<ObjectId> rom(uint32_t rom, ObjectId index, Dest dest, SourceLoc loc);
  // A bare `x -> ret` (slot empty) or `x -> ret.k` for an existing object.
  Result<Unit> output(ObjectId value, std::optional<uint32_t> slot, SourceLoc loc);

  // Loops: begin_loop makes the merge (the loop state) from its initial value;
  // loop_back routes the next state back while cond is true; loop_exit routes
  // a value out when cond is false.
  Result<LoopHandle> begin_loop(ObjectId init, SourceLoc loc, std::string name = {});
  ObjectId merge_of(LoopHandle lh) const;
  // The type of an object of this function (invalid ids give unit).
  Ty type_of(ObjectId o) const;
  Result<Unit> loop_back(LoopHandle lh, ObjectId next, ObjectId cond, SourceLoc loc);
  Result<ObjectId> loop_exit(LoopHandle lh, ObjectId value, ObjectId cond, Dest dest, SourceLoc loc);
  Result<Unit> end_loop(LoopHandle lh);

  Result<Unit> finish();

 private:
  friend class IrBuilder;
  FnBuilder(IrBuilder* b, FuncId f) : b_(b), f_(f) {}

  // A planned write of a result: checked before anything is added.
  struct Target {
    Ty ty;
    Dest dest;
  };
  Result<Unit> usable();
  Result<Ty> operand(ObjectId o, SourceLoc loc) const;
  Result<Target> plan(Ty result, const Dest& dest, SourceLoc loc);
  ObjectId place(const Target& t, SourceLoc loc);
  Result<LoopHandle> open_loop(LoopHandle lh, SourceLoc loc) const;
  ObjectId product_of(std::span<const ObjectId> parts, const Ty& ty, ObjectId into, SourceLoc loc);
  ObjectId apply(Operation op, ObjectId source, const Target& t, SourceLoc loc);
  Result<ObjectId> pack_into(const Ty& ty, std::span<const ObjectId> components, const Dest& dest,
                             SourceLoc loc);
  Result<ObjectId> packed_op(OpKind op, std::span<const ObjectId> parts, Dest dest, SourceLoc loc);
  Result<Ty> route_ty(ObjectId payload, ObjectId cond, SourceLoc loc);

  IrBuilder* b_;
  FuncId f_;
};

}  // namespace polydat::ir
