// What one scope shows the scopes inside it: every name visible there, with
// its type, what kind of thing it is, and whether it changes per cycle. The
// subcontext builder checks an inner scope's kernel against it; the runner
// resolves names through the frames that carry the values.
#pragma once

#include <map>
#include <string>

#include "frontend/ast.h"
#include "ir/ty.h"
#include "workload/model.h"

namespace polydat::workload {

struct VisibleName {
  enum class Kind : uint8_t {
    Binding,  // an output of a scope's kernel
    Cell,     // a shared cell (owned by `scope`)
    Var,      // a for_each variable or a do_while counter
    Param,    // a workload param
    Coordinate,  // `cycle`, fed per evaluation
  };
  std::string name;
  ir::Ty ty;
  Kind kind = Kind::Binding;
  bool is_const = false;   // const: no inner scope may shadow it
  bool dynamic = false;    // changes per cycle: an inner scope reads it per cycle, not once
  bool reads_cell = false; // a binding that reads a shared cell, directly or through others
  frontend::Combine combine = frontend::Combine::Last;  // cells
  std::string scope;       // the scope that defines it ("workload", "phase rampup", ...)
  Mark at;                 // where, in the workload file
};

using Manifest = std::map<std::string, VisibleName>;

const char* kind_word(VisibleName::Kind k);

}  // namespace polydat::workload
