// Why the builder refused a call or a seal: a stable kind, a message, a place.
#pragma once

#include <string>
#include <string_view>

#include "ir/expected.h"
#include "ir/source_loc.h"

namespace polydat::ir {

enum class IrErrorKind : uint8_t {
  // functions and the graph as a whole
  DuplicateName,        // a second function with the same name
  UnknownFunction,      // a FuncId this builder never issued
  NoEntry,              // seal() named no declared function
  AlreadyBuilt,         // build_fn twice, or a call on a finished FnBuilder
  UnfinishedFunction,   // seal() with a declared function not built and finished
  RecursiveCall,        // the call graph has a cycle
  // operands
  UnknownObject,        // an ObjectId this builder never issued
  ForeignObject,        // an object of another function
  ReturnAsOperand,      // the Return object read as an operand (it is a sink)
  // typing
  NotUnary,             // unop() with an operation that is not unary
  NotBinary,            // binop() with an operation that is not binary
  TypeMismatch,         // no row of the typing table admits the operands
  NonCoreType,          // a tuple of arity < 2, a struct without fields, () inside a product
  TyTooDeep,            // a type nested deeper than kMaxTyDepth
  NotAProduct,          // proj()/pack_struct() on a non-product
  SlotOutOfRange,       // a projection or slot index beyond the arity
  ArityMismatch,        // pack_struct() with the wrong number of components
  EmptyProduct,         // pack() of nothing
  SingletonTuple,       // pack() of one component
  ValueTyMismatch,      // a constant whose value does not fit its type
  StructNameConflict,   // two struct types with one name and different fields
  // loops
  LoopClosed,           // a LoopHandle used after end_loop, or from another function
  OpenLoop,             // finish() with a loop not ended
  LoopWithoutBack,      // end_loop() with no loop_back
  LoopWithoutExit,      // end_loop() with no loop_exit; or no exit attributable at seal
  LoopBackOutsideScc,   // a LoopBack whose route is not on a cycle through its merge
  LoopExitInsideScc,    // a LoopExit whose target feeds back into its own loop
  LoopExitUnattributed, // a LoopExit whose guard is the guard of no loop (or of two)
  LoopGuardInvariant,   // a loop guard that does not depend on the loop's state
  IrreducibleLoop,      // a cycle with more than one entering merge
  // the return object
  RetMixedWriters,      // whole-value and slot writes to one Return
  RetSlotConflict,      // the Return (or one of its slots) written twice
  RetSlotMissing,       // finish() with the Return (or a slot) never written
  RetNotProduct,        // a slot write to a non-product Return
  RetTypeMismatch,      // a write whose type is not the Return's (slot) type
};

std::string_view error_kind_name(IrErrorKind k);

struct IrError {
  IrErrorKind kind = IrErrorKind::TypeMismatch;
  std::string message;
  SourceLoc loc;
};

template <class T>
using Result = Expected<T, IrError>;

}  // namespace polydat::ir
