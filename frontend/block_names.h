// What a block of GK text defines and what it reads, from its syntax alone
// (no module resolution, no checking): how the workload runner composes a
// scope's kernel with the scopes around it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "frontend/source.h"

namespace polydat::frontend {

// A name a top-level statement of the block defines.
struct NameDef {
  std::string name;
  enum Kind { Input, Extern, Binding, Part /* of a destructuring */, Module } kind = Binding;
  Span span;       // the statement
  Span name_span;  // the name
  bool is_const = false, is_shared = false, is_volatile = false;  // Binding
  Combine combine = Combine::Last;                                // Binding, is_shared
  std::optional<std::string> type;  // the annotation's text (Input, Extern, Binding), if written
  // The names its value (an extern's default; a module's body and defaults)
  // reads, in first-use order, once each: loop variables, loop-body locals and
  // a module's parameters and bindings excluded; callees are not names read.
  std::vector<std::string> refs;
};

struct NameRef {
  std::string name;
  Span span;  // its first use
};

struct BlockNames {
  std::vector<NameDef> defs;  // in statement order ('_' parts of a destructuring excluded)
  // The names used but not defined in the block, in first-use order, once
  // each: those of every value (string interpolations included), of extern
  // defaults, of module bodies, and those listed by `output` statements.
  std::vector<NameRef> free_refs;
  bool parse_ok = true;
  std::string diagnostics;  // rendered, when !parse_ok
};

// Parses `text` (shown as `name` in diagnostics; spans are byte offsets of
// `text`, file 0) and lists what it defines and reads. A text that does not
// parse gives what the parser recovered, with parse_ok false.
BlockNames analyze_block(const std::string& name, std::string text);

// The names an op template's `{...}` placeholders read, in first-use order,
// once each. `{{` and `}}` are literal braces. A placeholder that is a plain
// identifier (spaces around it allowed) is that name; any other contributes
// the identifiers of its expression (callees, type names after `as` and
// argument names excluded; string interpolations inside it included). An
// unclosed `{` ends the scan; a stray `}` is text.
std::vector<std::string> placeholder_names(std::string_view template_text);

}  // namespace polydat::frontend
