// Lowering: the checked units become IR functions through the IrBuilder; the
// root kernel is the entry, taking a struct of its inputs and externs and
// returning a struct of its outputs.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "frontend/program.h"
#include "ir/graph.h"

namespace polydat::frontend {

// Every unit, callees first; nullopt (with a diagnostic) if the builder refuses.
std::optional<ir::CategoryIr> lower_program(Program& program);

// The value of a constant expression (an extern's default), through the
// interpreter; the names it reads take their values from `names`.
std::optional<ir::Value> evaluate_constant(Program& program, const Unit& unit, const Expr& e,
                                           const std::map<std::string, ir::Value>& names = {});

}  // namespace polydat::frontend
