// The function library as a user sees it: every built-in and bundled module,
// with its signature, a one-line help, and whether the hardware flow takes it
// (`polydat functions` prints this).
#pragma once

#include <string>
#include <vector>

namespace polydat::frontend {

struct LibraryFunction {
  std::string name;
  std::string signature;  // "pcg(position: u64, seed: u64 = 0, stream: u64 = 0) -> u64"
  std::string help;       // one line
  std::string kind;       // "module" (a bundled .gk file), "built-in", "library" (one IR operation, software),
                          // or "distribution" (a table built with the kernel, sampled per evaluation)
  bool hardware = false;  // computes with integers and bools only (floats and text are software)
  bool nb_rs = false;     // the name is one of nb-rs's (and then so is the meaning)
};

// Every function, sorted by name.
std::vector<LibraryFunction> library_functions();

}  // namespace polydat::frontend
