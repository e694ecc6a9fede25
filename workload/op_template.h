// An op field as nb-rs writes it: literal text with bind points. `{name}`
// (also `{bind:name}`, `{input:name}`) reads a name of the enclosing scope;
// `{{expr}}`, or `{expr}` when expr is not a plain name, is an inline binding:
// a binding of the enclosing scope's kernel made for this field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expected.h"
#include "workload/model.h"

namespace polydat::workload {

struct TemplatePart {
  std::string text;  // literal text, or the name a bind point reads
  bool is_name = false;
};

// A capture point of nb-rs (`[name]`): a value the adapter's result would
// give the op's scope. A stdout op has no result, so nothing is captured.
struct Capture {
  std::string source;  // the result's column
  std::string as;      // the name it would bind
};

struct OpTemplate {
  std::vector<TemplatePart> parts;
  std::vector<Capture> captures;  // the field's capture points, shown as their source names
  // The field is exactly one bind point: its name (json keeps the value's type).
  std::optional<std::string> whole_name;
};

struct InlineBinding {
  std::string name;  // the binding made for it
  std::string expr;
  Mark at;           // where expr starts in the file (line 0 when unknown)
};

struct TemplateError {
  std::string message;
  Mark at;
};

// Parses `field`; inline bindings get names `prefix` + their index in
// `inlines` and are appended to it. With `captures` (a field of an op
// written as a map, where nb-rs reads them), `[name]` is a capture point.
ir::Expected<OpTemplate, TemplateError> parse_template(const Field& field, const std::string& prefix,
                                                       std::vector<InlineBinding>& inlines, bool captures = false);

// An op ready to render: its fields' templates and the name its `if:` reads
// (a plain name, or the inline binding made for an expression).
struct PreparedOp {
  const OpDef* def = nullptr;
  std::vector<std::pair<std::string, OpTemplate>> fields;
  std::optional<std::string> condition;
};

// What a `stmt` line shows of an op: its `stmt` field, else `raw`, else
// `prepared` (nb-rs's stdout adapter), else every field, one per line.
std::vector<const OpTemplate*> stmt_fields(const PreparedOp& op);

// The error when op `op` reads a name no scope around it defines.
std::string unbound_op_name(const Workload& w, const OpDef& op, const std::string& name);

// Whether `text` is a plain identifier.
bool is_identifier(std::string_view text);

}  // namespace polydat::workload
