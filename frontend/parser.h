// The parser: tokens to a FileAst. Recovers at statement boundaries so one
// run reports several errors; recursion is bounded by kMaxExprDepth.
#pragma once

#include "frontend/ast.h"
#include "frontend/diagnostics.h"

namespace polydat::frontend {

FileAst parse_file(const SourceMap& sources, uint32_t file, Diagnostics& diags);

// One expression filling bytes [start, end) of a file (an interpolation, or
// an embedded expression); extra tokens after it are an error.
ExprPtr parse_expression(const SourceMap& sources, uint32_t file, Diagnostics& diags, uint32_t start = 0,
                         uint32_t end = UINT32_MAX);

}  // namespace polydat::frontend
