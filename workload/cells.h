// Shared cells: a value of one type for life, owned by the scope that declares
// it, written through by inner scopes. A write is checked where it happens and
// combined into the cell by the cell's template (`shared(sum) total := 0`).
#pragma once

#include <string>

#include "frontend/ast.h"
#include "ir/expected.h"
#include "ir/value.h"

namespace polydat::workload {

// The value a write stores into a cell of type `cell`: the same type as is;
// a type every value of which the cell's type holds exactly (u32 -> u64,
// u32 -> f64, f32 -> f64; not u64 -> f64); bool -> 0/1; an integer 0 or 1
// into a bool cell. Anything else (narrowing,
// a kind change, 7 into a bool) is refused with the reason.
ir::Expected<ir::Value, std::string> value_for_cell(const ir::Value& written, const ir::Ty& cell);

// Whether values of type `written` may be written into a cell of type `cell`
// at all (the compile-time half of value_for_cell: same type, lossless
// widening, bool <-> integer).
bool writable_into(const ir::Ty& written, const ir::Ty& cell);

// The cell's next value after a write of `w` (already value_for_cell'd):
//   last  -> w;           sum -> cell + w (integers wrap, floats IEEE);
//   min   -> the smaller; max -> the larger (str compares bytewise);
//   count -> cell + 1, whatever w is.
ir::Value combine(frontend::Combine c, const ir::Value& cell, const ir::Value& w);

// Whether a cell of this type may carry this template: sum needs a number,
// min/max a number or str, count an integer; last takes anything.
bool combine_allows(frontend::Combine c, const ir::Ty& cell);

}  // namespace polydat::workload
