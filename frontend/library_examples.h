// A kernel calling each library function: `polydat functions --example NAME`
// prints it, the suites that hold the library to an engine (the hardware
// flow, the LLVM engine) run it, and tools/stdlib_table.py synthesizes it.
#pragma once

#include <string>

#include "frontend/library.h"

namespace polydat::frontend {

// A kernel that calls `f` with an input for each of its value parameters
// (a module's externs keep their defaults; built-ins take u64 operands, or f64
// for the float functions, and a constant where one is required). Its
// outputs are the call's results.
std::string example_kernel(const LibraryFunction& f);

}  // namespace polydat::frontend
