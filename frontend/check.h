// The checker: resolves names, orders bindings by dependency, applies the
// typing rules (annotating every expression with its type and inserting
// implicit conversions as Cast nodes), checks lifecycles (const, loops), and
// fills in each unit's signature.
#pragma once

#include "frontend/program.h"

namespace polydat::frontend {

// Checks the units in callee-first order; returns false on any error.
bool check_program(Program& program);

}  // namespace polydat::frontend
