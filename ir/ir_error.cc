#include "ir/ir_error.h"

namespace polydat::ir {

std::string_view error_kind_name(IrErrorKind k) {
  switch (k) {
#define KIND(x) case IrErrorKind::x: return #x;
    KIND(DuplicateName) KIND(UnknownFunction) KIND(NoEntry) KIND(AlreadyBuilt)
    KIND(UnfinishedFunction) KIND(RecursiveCall) KIND(UnknownObject) KIND(ForeignObject)
    KIND(ReturnAsOperand) KIND(NotUnary) KIND(NotBinary) KIND(TypeMismatch) KIND(NonCoreType)
    KIND(TyTooDeep) KIND(NotAProduct) KIND(SlotOutOfRange) KIND(ArityMismatch) KIND(EmptyProduct)
    KIND(SingletonTuple) KIND(ValueTyMismatch) KIND(StructNameConflict) KIND(LoopClosed)
    KIND(OpenLoop) KIND(LoopWithoutBack) KIND(LoopWithoutExit) KIND(LoopBackOutsideScc)
    KIND(LoopExitInsideScc) KIND(LoopExitUnattributed) KIND(LoopGuardInvariant)
    KIND(IrreducibleLoop) KIND(RetMixedWriters) KIND(RetSlotConflict) KIND(RetSlotMissing)
    KIND(RetNotProduct) KIND(RetTypeMismatch)
#undef KIND
  }
  return "?";
}

}  // namespace polydat::ir
