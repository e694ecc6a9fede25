// The graph copier: the one mechanism every optimisation pass uses. A pass
// never mutates a sealed graph; it copies it into a new IrBuilder, object by
// object, and says through hooks what to do differently on the way.
//
// Each function is walked along topo_order(); an object is recreated when it
// completes, with the builder call that made it:
//   Constant            -> constant()          (made when the copy first reads it;
//                                                one nothing reads is made at the end)
//   Parameter           -> the new function's input()
//   product of Pairs    -> pack() / pack_struct() of the copied components,
//                          or output(v, slot) per slot when it is the Return
//   Proj, unary, Cast   -> proj(), unop(), cast()
//   binary, select ops  -> apply(op, copied product)
//   Call                -> call(), or the callee's body inlined (hook)
//   Output              -> output()
//   LoopMerge           -> begin_loop(copied init), keeping the merge's name
//   back route          -> loop_back(handle, next, cond)      (the route is not copied)
//   exit route          -> loop_exit(handle, value, cond, dest) (likewise)
//   end_loop once every back and exit route of the loop is done.
// Names, SourceLocs and the volatile flag are kept. A whole-value writer of
// the Return is recreated with Dest::ret().
#pragma once

#include <functional>
#include <optional>
#include <span>

#include "ir/builder.h"
#include "ir/graph.h"
#include "ir/ir_error.h"
#include "ir/value.h"

namespace polydat::ir {

// What a pass puts in place of one source object instead of recreating it.
struct Replacement {
  enum class Kind : uint8_t {
    Existing,  // an object already made in the new function
    Constant,  // a constant of this value, made (once) when the copy first reads it
    SameAs,    // whatever another source object of the function was copied to
  };
  Kind kind = Kind::SameAs;
  ObjectId object;  // Existing: a new object; SameAs: a source object already copied
  Value value;      // Constant: of the replaced object's type

  static Replacement existing(ObjectId made) { return {Kind::Existing, made, {}}; }
  static Replacement constant(Value v) { return {Kind::Constant, ObjectId(), std::move(v)}; }
  static Replacement same_as(ObjectId source) { return {Kind::SameAs, source, {}}; }
};

class FunctionCopy;

// The copy of one source function under way, as hooks see it.
class CopyScope {
 public:
  const CategoryIr& source() const;
  FuncId func() const;  // the source function being copied
  // The value of what `src` was (or will be) copied to, when that is a
  // non-volatile constant; nullopt otherwise. Never reads a volatile object.
  std::optional<Value> known_value(ObjectId src) const;
  // The new object for `src` (an operand already copied), making a constant
  // on first use.
  ObjectId materialize(ObjectId src);

 private:
  friend class FunctionCopy;
  explicit CopyScope(FunctionCopy* impl) : impl_(impl) {}
  FunctionCopy* impl_;
};

struct CopyHooks {
  // Whether a source object is copied at all (default: every one). Parameters
  // and Return objects are always copied; a dropped object must not be read
  // by a kept one, and a kept loop merge needs a kept back route and exit.
  std::function<bool(ObjectId src)> keep;
  // Consulted for constants, products built by Pair edges (not loop routes,
  // not the Return), and objects made by Proj, a unary operation, Cast, a
  // binary or select operation or Call (the Return too, when one of these
  // writes it whole). Never for parameters, loop merges, loop exits or routes.
  // nullopt: recreate the object.
  std::function<std::optional<Replacement>(CopyScope&, ObjectId src)> replace;
  // Told about every object the copier recreates (not about replaced ones).
  std::function<void(CopyScope&, ObjectId src, ObjectId made)> made;
  // A sealed, call-free graph whose entry is the body to inline a call to
  // `callee` with, or nullptr to keep the call. The callee's parameter becomes
  // the copied argument and its result the copied Return value (packed when
  // the callee writes its Return slot by slot). Hooks do not apply inside.
  std::function<const CategoryIr*(FuncId callee)> inline_body;
};

// Copies every function of `src` (declaration order kept; entry kept).
Result<CategoryIr> copy_graph(const CategoryIr& src, const CopyHooks& hooks = {});
// Copies the functions `funcs` of `src`, in that order, and seals with `entry`
// (one of them). A call to a function not copied must be inlined.
Result<CategoryIr> copy_graph(const CategoryIr& src, std::span<const FuncId> funcs, FuncId entry,
                              const CopyHooks& hooks = {});

// Objects plus morphisms: the size a pipeline watches shrink.
size_t graph_size(const CategoryIr& g);

}  // namespace polydat::ir
