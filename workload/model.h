// A workload file, as written: params, the workload scope's bindings, ops,
// phases and scenarios, each field with the place in the YAML file it came
// from (so a diagnostic, in a bindings block or anywhere else, points there).
// The loader checks shape only; names, expressions and kernels are checked by
// the scope builder (workload/scope_tree.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/expected.h"

namespace polydat::workload {

// A place in the workload file, 1-based.
struct Mark {
  uint32_t line = 0;
  uint32_t col = 0;
};

// A scalar field's text and where it sits. For a literal block (`|`), line i
// of `text` (0-based) is file line content.line + i from column content.col;
// for a one-line scalar (plain or quoted), `text` starts at `content` (after
// any opening quote). Other shapes (folded, multi-line quoted) keep their
// first line exact and the rest approximate.
struct Field {
  std::string text;
  Mark at;              // the value node's mark (the `|` of a block)
  Mark content;         // where text's first character is in the file
  bool literal_block = false;
  std::string key;      // its key path, for messages: "phases.rampup.cycles"
};

// One op template: its rendered fields in the order written (`stmt`, `raw`,
// `prepared`, or any other string field), an optional `if:` condition and
// op-level bindings. A plain string op is one field named `stmt`.
struct OpDef {
  std::string name;
  Mark at;
  std::vector<std::pair<std::string, Field>> fields;
  std::optional<Field> condition;  // if:
  std::optional<Field> bindings;   // op-level bindings (augment the enclosing scope)
};

enum class ScopeMode : uint8_t { Default, Clean, Inherit };

struct PhaseDef {
  std::string name;
  Mark at;
  std::optional<Field> cycles;    // a number or a `{...}` expression
  std::optional<Field> bindings;  // the phase scope's kernel
  std::vector<OpDef> ops;
  std::optional<Field> for_each;  // `for_each:` or `for:`: "v in SPEC[, w in SPEC]..."
  ScopeMode loop_scope = ScopeMode::Default;
  ScopeMode iter_scope = ScopeMode::Default;
  std::vector<std::string> tags;  // accepted; `tags:` map entries as "k:v", a list's items as they are
};

// A scenario step: a phase by name, or a loop over steps.
struct Step {
  enum class Kind : uint8_t { Phase, ForEach, DoWhile, DoUntil };
  Kind kind = Kind::Phase;
  Mark at;
  std::string phase;           // Phase: the phase's name (checked against `phases:` by the loader)
  Field spec;                  // ForEach: the clause text; DoWhile/DoUntil: the condition
  std::optional<std::string> counter;  // DoWhile/DoUntil: `counter:`, a name
  ScopeMode loop_scope = ScopeMode::Default;  // ForEach/DoWhile/DoUntil
  ScopeMode iter_scope = ScopeMode::Default;
  std::vector<Step> body;      // loops: `phases:`, nested steps
};

struct Scenario {
  std::string name;
  Mark at;
  std::vector<Step> steps;
};

// A key this runner accepts but does not act on (concurrency, rate, adapter, ...).
struct IgnoredKey {
  std::string key;  // its key path
  Mark at;
};

struct Workload {
  std::string path;  // as given (shown in diagnostics)
  std::string text;  // the whole file (diagnostics show its lines)
  std::optional<Field> description;
  std::vector<std::pair<std::string, Field>> params;  // in file order; values are text
  std::optional<Field> bindings;                      // the workload scope's kernel
  std::vector<OpDef> ops;                             // top-level ops, then each block's, in order
  std::vector<PhaseDef> phases;                       // in file order
  std::vector<Scenario> scenarios;                    // in file order
  std::vector<IgnoredKey> ignored;                    // in file order, each key path once

  const PhaseDef* find_phase(std::string_view name) const;
  const Scenario* find_scenario(std::string_view name) const;
};

// A rejection: where, which key, what, and a stable kind.
struct LoadError {
  std::string path;
  Mark at;
  std::string key;      // the key path ("phases.rampup.loop_scope"), empty for the document
  std::string message;
  std::string kind;     // yaml-syntax, not-a-map, not-a-scalar, bad-value, unknown-phase, duplicate-key, ...
  std::string rendered; // "PATH:LINE:COL: error: MESSAGE (at KEY) [KIND]", the source line, a caret
};

ir::Expected<Workload, LoadError> load_workload_file(const std::filesystem::path& file);
// Text as if read from `path` (tests and the fuzzer).
ir::Expected<Workload, LoadError> parse_workload_text(std::string_view text, const std::string& path);

// "PATH:LINE:COL: error: MESSAGE [KIND]", then the file's line and a caret under
// COL: how every workload-level error is shown (the scope builder's too).
std::string render_workload_error(const std::string& path, std::string_view text, Mark at,
                                  std::string_view message, std::string_view kind);

}  // namespace polydat::workload
