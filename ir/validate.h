// validate(): the independent oracle of well-formedness. It re-derives every
// graph-shape invariant from the sealed graph alone and shares no code with
// the builder beyond the typing table (typing.h).
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"
#include "ir/ir_error.h"

namespace polydat::ir {

struct IrViolation {
  IrErrorKind kind;    // the builder's error kind for the same fault
  std::string message;
  FuncId func;         // where it is, when known
  ObjectId object;
  MorphismId morphism;
};

// Empty exactly when the graph is well-formed.
std::vector<IrViolation> validate(const CategoryIr& ir);

}  // namespace polydat::ir
