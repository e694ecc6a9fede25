// Module parameters that must be constants. nb-rs inlines a module at every
// call, so a parameter its body passes on to an init-time constant (a
// module's extern, a distribution's parameters, a regex pattern) simply takes
// the caller's constant. polydat checks and compiles a module once: such a
// parameter is a constant parameter, and every caller must pass a constant.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "frontend/program.h"

namespace polydat::frontend {

// Those of `candidates` that some call in `body` passes, as they are (the
// whole argument is the name), to a parameter fixed when the kernel is built.
// The unit's callees are resolved, and a callee module is already checked.
std::set<std::string> constant_parameters(const Program& p, const Unit& u, const std::vector<Stmt*>& body,
                                          const std::set<std::string>& candidates);

}  // namespace polydat::frontend
