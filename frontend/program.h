// A compilation: the files read, their syntax trees, and the units (the root
// kernel, file modules, module definitions) in the order callees come first.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast.h"
#include "frontend/builtins.h"
#include "frontend/distributions.h"
#include "frontend/sampled_functions.h"
#include "frontend/diagnostics.h"
#include "ir/value.h"

namespace polydat::frontend {

struct CompileOptions {
  std::vector<std::string> lib_paths;  // -L folders, searched after the calling file's folder
  bool bundled_stdlib = true;          // then the standard library built into the binary
  // The root file's outputs, in this order, instead of its own (eval --outputs,
  // embed's pull): only their cone of the graph is lowered and run.
  std::vector<std::string> outputs;
  // For the workload runner, which makes each scope a kernel of its own. Each
  // top-level `shared` binding of the root kernel becomes a cell: an extern of
  // the root kernel (is_shared, with its combine) whose default is the
  // binding's value (a constant; the type is the annotation's, else a
  // literal's). Bindings that read it read the extern.
  bool scope_cells = false;
  // Before checking, each top-level binding `K := ...` of the root kernel is
  // renamed rename_bindings[K] (its spans stay, so diagnostics point at the
  // text). Other references to K are not renamed: they resolve to whatever
  // else defines K (a write-through: `budget := budget - 1` becomes
  // `__write_budget := budget - 1`, with `extern budget: u64` declared by the caller).
  std::map<std::string, std::string> rename_bindings;
};

// An input, extern, parameter or result of a unit.
struct Port {
  std::string name;
  Span span;
  ir::Ty ty;
  bool is_extern = false;             // an effectively-const input
  bool is_shared = false;             // a shared cell (results; under scope_cells, the root's cell externs)
  const Expr* default_value = nullptr;  // externs and module parameters
  std::optional<ir::Value> default_constant;  // its value, for the root's externs
  // Facts the checker fills in for file units' params and outputs.
  bool is_const = false;              // declared `const` (a binding, or a `shared const` cell)
  bool is_volatile = false;           // declared `volatile`
  // Changes per evaluation: an input, a value that depends on an input (not
  // on externs only), or one that is volatile or reads a volatile value.
  bool dynamic = false;
  Combine combine = Combine::Last;    // is_shared: how writes to the cell combine
  // An integer result known to be 0 or 1 (a comparison, ...): it may be
  // written into a bool cell as an annotation `x: bool := ...` takes it.
  bool zero_or_one = false;
};

struct Callee {
  std::optional<Builtin> builtin;
  size_t unit = 0;  // a module, when neither a builtin nor a library function
  std::optional<uint32_t> library;  // a function of ir/library_fn.h
  const DistributionInfo* distribution = nullptr;  // a table-sampled distribution (distributions.h)
  const SampledFunction* sampled = nullptr;        // nb-rs's sampling modules (sampled_functions.h)
};

struct Unit {
  bool is_def = false;       // a module definition inside a file (else a whole file)
  std::string name;          // how callers name it
  std::string ir_name;       // its IR function's name (unique)
  uint32_t file = 0;
  std::string folder;        // where its calls are resolved first
  FileAst* ast = nullptr;    // the file (for definitions: the file holding it)
  Stmt* def = nullptr;       // definitions only
  std::map<std::string, Callee> callees;  // every name it calls, resolved
  std::vector<size_t> deps;               // units it calls

  // The signature, filled in by the checker.
  std::vector<Port> params;   // inputs and externs (file units) or parameters, in order
  std::vector<Port> outputs;  // results, in declaration order
  bool inputs_inferred = false;
  std::vector<Stmt*> ordered;  // bindings in dependency order (the checker's)
  bool checked_ok = false;
  // A module whose body needs a constant parameter's value when the kernel is
  // built (a distribution's table): why, e.g. "'mean' sets icd_normal's table".
  // Its body is checked without the value; it is not compiled, and calls of it
  // are refused (polydat compiles a module once, nb-rs inlines it per call).
  std::string needs_values;

  // The statements of its body (a file's, without its module definitions).
  std::vector<Stmt*> statements() const;
};

class Program {
 public:
  explicit Program(CompileOptions options) : options(std::move(options)) {}

  // Reads and parses the root kernel and every module it reaches.
  bool load_root_file(const std::string& path);
  bool load_root_source(const std::string& name, std::string text);

  CompileOptions options;
  SourceMap sources;
  Diagnostics diags;
  std::vector<std::unique_ptr<FileAst>> asts;
  std::vector<Unit> units;   // units[0] is the root kernel
  std::vector<size_t> order;  // callees before callers

  // A place inside a module the root kernel calls, seen from the user's side:
  // each call in the root kernel that leads there, with the chain of modules
  // ("pcg -> pcg_stream"), at most `limit` of them. Empty for the root's own code.
  struct CallSite {
    Span at;
    std::string chain;
  };
  std::vector<CallSite> call_sites_reaching(uint32_t file, uint32_t pos, size_t limit = 4) const;

 private:
  bool discover(uint32_t root_file, const std::string& folder, const std::string& name);
  void discover_unit(size_t u);
  std::optional<size_t> resolve_module(const std::string& name, const std::string& folder, Span at,
                                      const FileAst* caller);
  bool named_with_L(const std::string& dir) const;  // one of the -L folders
  size_t add_file_unit(uint32_t file, const std::string& folder, const std::string& name);
  void order_units();
  std::string unique_ir_name(const std::string& base);

  std::map<std::string, size_t> file_units_;  // resolved path -> unit
  std::map<std::string, int> ir_names_;
};

// The folder name the bundled library's files are shown under.
inline constexpr const char* kBundledFolder = "<stdlib>";

// The standard library compiled into the binary: module name -> source text.
std::optional<std::string_view> bundled_module(std::string_view name);
std::vector<std::string> bundled_module_names();

}  // namespace polydat::frontend
