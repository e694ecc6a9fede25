// A kernel around each library function, shared by the suites that hold the
// library to an engine (the hardware flow, the LLVM engine).
#pragma once

#include <string>

#include "frontend/library.h"

namespace polydat::testing {

// A kernel that calls `f` with an input for each of its value parameters
// (a module's externs keep their defaults; built-ins take u64 operands, or f64
// for the float functions, and a constant where one is required). Its
// outputs are the call's results.
std::string calling_kernel(const frontend::LibraryFunction& f);

}  // namespace polydat::testing
