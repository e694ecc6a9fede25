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
// `prepared`, or any other scalar field), an optional `if:` condition,
// op-level bindings, its ratio in the stanza and its tags. A plain string op
// is one field named `stmt`.
struct OpDef {
  std::string name;     // as nb-rs names it: the key, `name:`, or stmtN by position
  Mark at;
  std::vector<std::pair<std::string, Field>> fields;
  std::optional<Field> condition;  // if:
  std::optional<Field> bindings;   // op-level bindings (augment the enclosing scope)
  std::optional<Field> ratio;      // ratio: (or params.ratio): its share of the stanza; absent is 1
  // The op's tags with nb-rs's automatic ones (block, name, op; phase for a
  // phase's op), later entries overriding earlier: what `tags=` filters match.
  std::vector<std::pair<std::string, std::string>> tags;
  int block = -1;                  // index into Workload::blocks for a block's op
  bool map_form = false;           // written as a map of fields (nb-rs reads capture points in those)
};

// A block of `blocks:`: its ops join the top-level ops; its `bindings:` is
// shared by them (added once to the kernel that renders them).
struct BlockDef {
  std::string name;
  Mark at;
  std::optional<Field> bindings;
};

enum class ScopeMode : uint8_t { Default, Clean, Inherit };

// A for_each / for / for_combinations as written: the comprehension's text
// (one entry for the string form; one per item of the list form, each a
// sub-space), with the `where:` and `order:` written beside it.
struct LoopSpec {
  Mark at;                       // the key's place
  std::string key;               // for_each, for or for_combinations (for messages)
  std::vector<Field> entries;
  bool list = false;             // written as a YAML list
  std::optional<Field> where;
  std::optional<Field> order;
};

struct PhaseDef {
  std::string name;
  Mark at;
  std::optional<Field> cycles;    // a number, ===auto, or a `{...}` expression: the phase's stanzas
  std::optional<Field> bindings;  // the phase scope's kernel
  std::vector<OpDef> ops;
  std::optional<LoopSpec> for_each;
  ScopeMode loop_scope = ScopeMode::Default;
  ScopeMode iter_scope = ScopeMode::Default;
  std::optional<Field> tags;      // a tag filter selecting top-level ops (a phase without ops of its own)
};

// A scenario step: a phase by name, a loop over steps, another scenario
// included, or a scope over steps that sets variables (`set:`) or has
// bindings of its own (`bindings:`).
struct Step {
  enum class Kind : uint8_t { Phase, ForEach, DoWhile, DoUntil, Include, Scope };
  Kind kind = Kind::Phase;
  Mark at;
  std::string phase;           // Phase: the phase's name (checked against `phases:` by the loader)
  std::string scenario;        // Include: the scenario's name (checked, and cycles refused, by the loader)
  LoopSpec loop;               // ForEach
  Field spec;                  // DoWhile/DoUntil: the condition
  std::optional<std::string> counter;  // DoWhile/DoUntil: `counter:`, a name
  std::vector<std::pair<std::string, Field>> set;  // Scope: `set:` NAME: VALUE, in order
  std::optional<Field> bindings;                   // Scope: `bindings:` GK text
  ScopeMode loop_scope = ScopeMode::Default;  // ForEach/DoWhile/DoUntil
  ScopeMode iter_scope = ScopeMode::Default;
  std::vector<Step> body;      // loops and scopes: `phases:`, nested steps
};

struct Scenario {
  std::string name;
  Mark at;
  std::vector<Step> steps;
};

// A key nb-rs acts on that this runner does not (concurrency, rate, report,
// ...): what it does not change is said once on stderr, with its lines.
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
  std::vector<OpDef> ops;                             // top-level ops, or each block's, in order
  std::vector<BlockDef> blocks;                       // in file order
  std::vector<std::pair<std::string, std::string>> tags;  // the document's `tags:`, on every op
  std::vector<PhaseDef> phases;                       // in file order
  std::vector<Scenario> scenarios;                    // in file order
  std::vector<IgnoredKey> ignored;                    // in file order, each key path once
  std::vector<std::string> warnings;                  // rendered: what the loader found odd but ran (a no-op step)

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
