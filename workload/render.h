// One op's line as `polydat run` prints it, from a function that gives the
// value of each name the op reads: the software runner and the hardware
// record decoder render through the same code, so their lines agree.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ir/expected.h"
#include "ir/value.h"
#include "workload/op_template.h"

namespace polydat::workload {

enum class LineFormat : uint8_t {
  Stmt,   // the op's `stmt` field (else `raw`, else `prepared`, else every field, one per line)
  Csv,    // every field of the op, comma-separated, RFC 4180 quoting
  Jsonl,  // one JSON object per op: its fields (a field that is one `{name}` keeps its type)
};
std::optional<LineFormat> parse_line_format(std::string_view name);

// The value a name has for the line being rendered (an error is rendered already).
using ValueOf = std::function<ir::Expected<ir::Value, std::string>(const std::string& name)>;

// Appends op's line and its newline to `out` (the `if:` is the caller's).
// On an error `out` may hold part of the line.
ir::Expected<void, std::string> render_op_line(const PreparedOp& op, LineFormat format, const ValueOf& value,
                                               std::string& out);

}  // namespace polydat::workload
