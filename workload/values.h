// Values at the workload level: params typed from their text, the text an op
// template shows for a value (nb-rs's rendering), and a value written back as
// a GK literal (so `{name}` in a field expression can be evaluated).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ir/value.h"
#include "sim/llvm/record_layout.h"

namespace polydat::workload {

// A param's value from its text: an unsigned integer -> u64, a negative one ->
// i64, a float -> f64, true/false -> bool, anything else -> str (as written).
// A number whose text differs from how it prints ("007", "1.10") stays str.
ir::Value param_value(std::string_view text);

// How an op template shows a value: integers in decimal, bool true/false,
// floats in the shortest form that reads back exactly, without an exponent and
// without a trailing ".0" (0.0 -> "0", 0.5 -> "0.5", 1e21 -> "1000000000000000000000",
// NaN, inf, -inf), str as is. This is nb-rs's stdout rendering.
void render_op_value(std::string& out, const ir::Value& v);
std::string op_text(const ir::Value& v);
// The same for a field of a native record (bit for bit what render_op_value shows for its value).
void render_op_field(std::string& out, const sim::RecordField& f, const unsigned char* rec);
// truthy() of a record field.
bool field_truthy(const sim::RecordField& f, const unsigned char* rec);

// The value as GK source text that evaluates back to it: 7, -3, true, a float
// literal, a quoted and escaped string. nullopt for a tuple or unit.
std::optional<std::string> gk_literal(const ir::Value& v);

// Is the value "true" for an `if:` condition: a bool; a nonzero number; a
// non-empty string other than "false" and "0".
bool truthy(const ir::Value& v);

}  // namespace polydat::workload
