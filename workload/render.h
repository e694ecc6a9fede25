// One op's line as `polydat run` prints it, from a function that gives the
// value of each name the op reads: the software runner and the hardware
// record decoder render through the same code, so their lines agree. The
// formats and options are those of nb-rs's stdout adapter; where nb-rs
// quietly falls back (an unknown format, header=maybe) polydat refuses.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expected.h"
#include "ir/value.h"
#include "workload/op_template.h"

namespace polydat::workload {

// Each shows the op's fields (those `fields=` keeps, in the op's order).
enum class LineFormat : uint8_t {
  Stmt,         // the `stmt` field, else `raw`, else `prepared`, else every field's text, one per line
  Readout,      // a line per field: two spaces, the name padded to the longest, " = ", the text
  Assignments,  // name=text, joined by ", "
  Json,         // one JSON object; a field that is one `{name}` keeps the value's type
  Csv,          // the texts joined by ','; one holding ',', '"' or a newline is quoted
  Tsv,          // the texts joined by tabs; a tab inside one is written \t
  Raw,          // the texts joined by the separator, as they are
  Jsonl = Json, // polydat's first name for json
};

// A format by any of its names (case-insensitive, as nb-rs): stmt or
// statement, readout, assignments or assign, json or jsonl or inlinejson,
// csv, tsv, raw.
std::optional<LineFormat> parse_line_format(std::string_view name);
// The names, for messages: "stmt (or statement), readout, ...".
std::string line_format_names();

struct RenderOptions {
  LineFormat format = LineFormat::Stmt;
  std::string separator = ",";      // raw's
  bool header = false;              // csv, tsv, raw: a row of field names before the first line
  std::vector<std::string> fields;  // the fields shown; empty: all
};

// The options as given (`format=`, `separator=`, `header=`, `fields=`);
// an unset one keeps its default.
struct RenderSettings {
  std::optional<std::string> format, separator, header, fields;
};
struct RenderOptionError {
  std::string option;  // format, separator, header or fields
  std::string message;
  std::string kind;    // unknown-format, bad-value, not-applicable
};
ir::Expected<RenderOptions, RenderOptionError> render_options(const RenderSettings& settings);

// The first name of `fields=` that no op of `ops` has (it would show nothing).
std::optional<std::string> unknown_field(const RenderOptions& options, const std::vector<PreparedOp>& ops);

// The value a name has for the line being rendered (an error is rendered already).
using ValueOf = std::function<ir::Expected<ir::Value, std::string>(const std::string& name)>;

// Appends op's line and its newline to `out` (the `if:` is the caller's).
// On an error `out` may hold part of the line.
ir::Expected<void, std::string> render_op_line(const PreparedOp& op, const RenderOptions& options, const ValueOf& value,
                                               std::string& out);
ir::Expected<void, std::string> render_op_line(const PreparedOp& op, LineFormat format, const ValueOf& value,
                                               std::string& out);

// The header row nb-rs writes once per run, for the first op that renders a
// line, before that line: the names of the fields it shows, joined as the
// format joins values (not quoted), and a newline. Appends nothing unless
// options.header (which render_options allows for csv, tsv and raw only), or
// when the op shows no field; the row is not written later either way.
void render_header(const PreparedOp& op, const RenderOptions& options, std::string& out);

// A float as nb-rs's JSON writes it (serde_json): the shortest digits that
// read back, "1.0", "0.5", "1e+16", "1.5e-7", "0.0", "-0.0"; finite only.
void json_float(std::string& out, double d);

}  // namespace polydat::workload
