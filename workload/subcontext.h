// The subcontext builder: how an inner scope's kernel is made under an outer
// one. It collects imports (names read from outer scopes), exports (the
// scope's own bindings), body fragments (bindings blocks, with where each sits
// in the workload file) and result bindings, then `finalize` checks the
// contract against the parent and compiles one kernel:
//
//   - an import the parent does not have is UnboundImport;
//   - an export over a parent `const` is FinalShadow (naming both places);
//   - an export over a `shared` cell visible at the parent (its own or an
//     ancestor's) is a write-through: `X := e` compiles as `__write_X := e`
//     with `extern X` fed from the cell, and the runner stores __write_X into
//     the cell after each evaluation (type checked here: WriteType);
//   - a fragment marked `no_shadow` (op-level bindings) may not define a name
//     the parent shows (OpShadow);
//   - result bindings may read `ok`, `count`, `body`, declared as externs only
//     when referenced, and may not assign them (ReservedName);
//   - an import the compiled kernel does not read is reported, not refused.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "frontend/compile.h"
#include "ir/expected.h"
#include "ir/value.h"
#include "workload/model.h"
#include "workload/scope_names.h"

namespace polydat::workload {

struct ContractViolation {
  enum class Kind : uint8_t { UnboundImport, FinalShadow, OpShadow, WriteType, ReservedName, Compile };
  Kind kind = Kind::Compile;
  std::string name;      // the name at fault
  std::string message;   // one line
  std::string rendered;  // the full diagnostic(s): file:line:col, the line, a caret, the kind
};
// "unbound-import", "final-shadow", "op-shadow", "write-type", "reserved-name", "compile".
const char* kind_name(ContractViolation::Kind k);

// A piece of kernel text and where it sits in the workload file.
struct Fragment {
  std::string text;
  Mark content;               // where text's first character is (0 line: nowhere in particular)
  bool literal_block = false; // line i of text is file line content.line + i
  bool no_shadow = false;     // op-level bindings: may not define a name the parent shows
  uint32_t prefix = 0;        // text's first `prefix` bytes are made here (`__x := ` of an inline
                              // binding); `content` is where text[prefix] sits in the file
};

struct WriteThrough {
  std::string cell;           // the cell's name (an extern of the kernel)
  std::string output;         // the kernel output holding the value to write: "__write_" + cell
  ir::Ty ty;                  // the cell's type
  frontend::Combine combine = frontend::Combine::Last;
  std::string binding_scope;  // for run-time messages
  Mark at;                    // the writing binding, in the workload file
};

// The fragments laid out at their lines in the workload file (blank lines
// between), so the compiler's line:col are the file's: what finalize compiles
// before its declarations. Where a fragment cannot sit at its own place (its
// line is taken, or its made-up prefix does not fit before its column), it
// goes after what is there, and `origin` says where each placed line came
// from, so a diagnostic is still shown at the file's line and column.
struct LineOrigin {
  uint32_t line = 0;   // the file's line (0: made here, nowhere in the file)
  int64_t shift = 0;   // file column = placed column + shift
  uint32_t first = 1;  // placed columns before this are made here: they show at first + shift
  uint32_t fragment = UINT32_MAX;  // the index of the fragment it holds a line of
};
struct Placement {
  std::string text;
  std::vector<LineOrigin> origin;  // per placed line (1-based: origin[0] is line 1)
  std::vector<uint32_t> line_starts;  // byte offset of each placed line, and one past the last
  // Where byte `offset` of `text` (or of text followed by more) is in the file.
  Mark file_mark(uint32_t offset) const;
  // The index (in place()'s argument) of the fragment byte `offset` is in; UINT32_MAX past them.
  uint32_t fragment_at(uint32_t offset) const;
};
Placement place(const std::vector<Fragment>& fragments);
std::string place_fragments(const std::vector<Fragment>& fragments);

// A cell the scope declares (`shared x := 0`): an extern of its kernel.
struct OwnCell {
  std::string name;
  ir::Ty ty;
  frontend::Combine combine = frontend::Combine::Last;
  ir::Value initial;
};

// A compiled scope kernel and what the runner needs to wire it.
struct ScopeModule {
  std::string label;                      // "phase rampup"
  std::string source;                     // the kernel text compiled (fragments in place, then declarations)
  size_t declarations_at = 0;             // where the builder's declarations start in `source`
  frontend::CompileOptions options;       // what it was compiled with (the runner compiles it for its engine)
  std::vector<std::string> imports;       // read once at scope start (externs)
  std::vector<std::string> cycle_imports; // read per cycle from an outer scope's per-cycle binding (inputs)
  bool reads_cycle = false;               // declares `input cycle`
  std::vector<std::string> exports;       // its own bindings, in order
  std::vector<WriteThrough> write_throughs;
  std::vector<std::string> diagnostics;   // warnings: unused imports
  Manifest names;                         // what it shows inner scopes: its outputs and its own cells
  std::vector<OwnCell> cells;             // the cells it declares
  std::vector<std::string> outputs;       // the kernel's outputs, in record order
  std::vector<ir::Ty> output_types;       // their types
  std::set<std::string> cell_readers;     // the outputs that read a shared cell, directly or through others
  std::vector<std::pair<std::string, ir::Ty>> params;  // the kernel's inputs and externs, in record order
  // Where run-time errors are shown: the workload file, the scope's mark, and
  // where each byte of `source` came from.
  std::string path, file_text;
  Mark at;
  Placement placement;
};

// `m.source` with once-per-scope imports folded to constants: the builder's
// `extern NAME: TY` declaration becomes `NAME: TY := VALUE`. An import the
// block declares itself, or whose value is not of its type, stays an extern.
std::string source_with_constants(const ScopeModule& m, const std::map<std::string, ir::Value>& values);

// The parent as the builder sees it: every name visible there.
struct ParentView {
  Manifest names;
  std::string path;   // the workload file (diagnostics)
  std::string text;   // its text
};

class SubcontextBuilder {
 public:
  SubcontextBuilder(ParentView parent, std::string label, Mark at);

  SubcontextBuilder& import(std::string name, Mark at = {});
  SubcontextBuilder& body(Fragment f);
  // Imports every name the fragments read that the parent shows (except `cycle`),
  // and reports the ones nobody defines at finalize (UnboundImport).
  SubcontextBuilder& import_free_names();
  // A `result:` block: its bindings become exports; `ok` (bool), `count` (u64)
  // and `body` (str) are declared when referenced.
  ir::Expected<void, ContractViolation> add_result_bindings(Fragment f);
  // Library folders for the kernel's calls (the workload file's folder first).
  SubcontextBuilder& lib_paths(std::vector<std::string> paths);

  ir::Expected<ScopeModule, ContractViolation> finalize() const;

  const ParentView& parent() const { return parent_; }

 private:
  ParentView parent_;
  std::string label_;
  Mark at_;
  std::vector<std::pair<std::string, Mark>> imports_;
  std::vector<Fragment> body_;
  std::vector<std::string> magic_;  // result externs to declare
  std::vector<std::string> lib_paths_;
  bool import_free_ = false;
};



}  // namespace polydat::workload
