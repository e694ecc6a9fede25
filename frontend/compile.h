// The front door of the frontend: a kernel file or text in, a sealed IR and
// its signature (or diagnostics) out.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "frontend/program.h"
#include "ir/graph.h"

namespace polydat::frontend {

struct CompileResult {
  std::unique_ptr<Program> program;  // the sources, syntax trees and diagnostics
  std::optional<ir::CategoryIr> ir;  // present exactly when there is no error

  bool ok() const { return ir.has_value(); }
  const Diagnostics& diagnostics() const { return program->diags; }
  // The root kernel: its inputs and externs (in struct order) and outputs.
  const Unit& kernel() const { return program->units.at(0); }
  std::string render_diagnostics() const;
};

CompileResult compile_file(const std::string& path, const CompileOptions& options = {});
CompileResult compile_source(const std::string& name, std::string text, const CompileOptions& options = {});

}  // namespace polydat::frontend
