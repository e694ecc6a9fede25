// Scope kernels: the kernel runtime API of the scope model. Each scope (the
// workload, a phase, one for_each iteration) runs a kernel of its own; an
// inner scope reads an outer one's values through extern inputs and writes
// the outer's `shared` cells through the same SharedCell object. The kernels
// never hold references to each other: the wiring is done once, by the
// caller, at the scope boundary (bind_outer_scope), and from then on each
// kernel is an ordinary kernel whose cell-backed slots read and write a cell.
//
//   SharedCell   one value of one type for life, a combine template, a lock
//   ScopeKernel  an embed::Kernel compiled with scope_cells, plus its cells,
//                the outer-scope wiring, and one public read (lookup)
//
// Decisions, in one place (each is repeated where it applies):
//
//  * Cells are the compiler's: under CompileOptions::scope_cells a top-level
//    `shared[(KIND)] [const] x[: T] := literal` is an extern with a default.
//    compile() gives each such extern a fresh SharedCell holding the
//    default. The cell is the truth for the slot; the kernel's own copy of
//    the slot is refreshed from the cell before every evaluation.
//  * A write (set_input on a cell-backed slot) is checked where it happens
//    (workload::value_for_cell: same type; lossless widening; bool <-> 0/1)
//    and combined under the cell's lock (workload::combine), so sum, min,
//    max and count never lose a concurrent write, and last is last-write-wins
//    in lock-acquisition order. A refused write leaves the cell unchanged.
//  * Writes to a plain (not cell-backed) input or extern use embed::Kernel's
//    rule: the adapter catalog, lossless adapters only. The two rules differ
//    on purpose: only a cell has the bool <-> 0/1 convention.
//  * A `const` cell (`shared const x := 7`) is still a cell: `const` forbids
//    shadowing by inner scopes (the subcontext builder's job), not writes.
//  * Staleness: a kernel re-evaluates on pull when an input or extern was set
//    since its last evaluation, or when any cell it holds was written (each
//    cell counts its writes: a version). A volatile binding is not
//    re-evaluated on its own: set an input to ask for a fresh value.
//  * The one public read is lookup(): it never evaluates. It answers with the
//    last evaluation's output, else the param's value (a cell-backed slot
//    live from its cell), else nothing. pull() is the evaluating read.
//  * A ScopeKernel is not for concurrent use (like embed::Kernel): give each
//    thread a fork(). Forks share the compiled program and the cells; each
//    has its own evaluation state. SharedCell is the only thread-safe part.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/ast.h"
#include "frontend/embed.h"
#include "ir/expected.h"
#include "ir/ty.h"
#include "ir/value.h"

namespace polydat::workload {

// A cell shared by the kernels of several scopes (and by the threads running
// forks of them). Its type is fixed at construction and never changes: every
// write is converted to it or refused. Thread-safe: every member may be
// called from any thread at any time.
class SharedCell {
 public:
  // `initial` is stored through value_for_cell (a u32 7 into a u64 cell is
  // stored as u64 7). Preconditions, checked: combine_allows(c, ty) and an
  // initial value value_for_cell accepts; otherwise std::invalid_argument
  // (a programming error: ScopeKernel::compile only builds cells the
  // compiler accepted, and reports the rest as TypeMismatch instead).
  SharedCell(std::string name, ir::Ty ty, frontend::Combine c, ir::Value initial);
  SharedCell(const SharedCell&) = delete;
  SharedCell& operator=(const SharedCell&) = delete;

  const std::string& name() const { return name_; }
  const ir::Ty& ty() const { return ty_; }
  frontend::Combine combine() const { return combine_; }

  // The value now (a copy taken under the lock).
  ir::Value get() const;
  // How many writes the cell has taken (refused ones do not count). A reader
  // that remembers it can tell whether the cell changed since.
  uint64_t version() const;
  // The value and the version, read together under the lock.
  struct Snapshot {
    ir::Value value;
    uint64_t version = 0;
  };
  Snapshot snapshot() const;

  // A write: value_for_cell (outside the lock: the type never changes), then
  // the combine template applied to the value under the lock — one atomic
  // read-modify-write, so concurrent writers lose nothing with sum, min, max
  // and count, and `last` keeps the write that took the lock last. Returns
  // the cell's value after the write. A refused write is an error naming the
  // cell, its type, the written value's type and `writer` (who wrote:
  // "set_input of 'total'", a binding's name, ...), and changes nothing.
  ir::Expected<ir::Value, std::string> write(const ir::Value& v, std::string_view writer);

 private:
  const std::string name_;
  const ir::Ty ty_;
  const frontend::Combine combine_;
  mutable std::mutex mutex_;
  ir::Value value_;       // guarded by mutex_
  uint64_t version_ = 0;  // guarded by mutex_
};

// A kernel of one scope: an embed::Kernel compiled with scope_cells, its
// cells, and the calls that wire it under an outer scope.
class ScopeKernel final : public embed::Lookup {
 public:
  struct Options {
    embed::ProgramFactory engine;         // empty: the interpreter; sim::native_engine(): LLVM
    std::vector<std::string> lib_paths;   // -L folders for the kernel's module calls
    std::vector<std::string> outputs;     // only these outputs, in this order; empty: the kernel's own
  };

  // Compiles `text` with scope_cells on: first with frontend::compile_source
  // to learn each port's facts (is_shared, combine, const, dynamic), then
  // with embed::Kernel::compile on the chosen engine (the same options, so
  // the two agree port for port). Each cell extern gets a new SharedCell
  // holding its default. Errors are embed::Kernel::compile's (Parse,
  // TypeMismatch, UnknownNode, ...); a cell whose combine template or
  // initial value the cell rules refuse is TypeMismatch naming the cell.
  static ir::Expected<ScopeKernel, embed::EmbeddingError> compile(std::string_view text, const Options& options = {});

  ScopeKernel(ScopeKernel&&) noexcept = default;
  ScopeKernel& operator=(ScopeKernel&&) noexcept = default;
  ~ScopeKernel() override = default;

  // The same compiled program with an evaluation state of its own, the same
  // values set (and bound), and the SAME cells (shared_ptr copies: a write
  // through either kernel is seen by both). The fork has not evaluated yet:
  // its lookup answers with params until its first pull. One per thread.
  ScopeKernel fork() const;

  // Sets an input or extern by name.
  //  - A cell-backed slot (the kernel's own cell, or one bound from an outer
  //    scope): the write goes through to the cell — SharedCell::write with
  //    writer "set_input of 'NAME'", so it is combined by the cell's
  //    template. A refused write is TypeMismatch (from_type: the value's,
  //    to_type: the cell's; the message names the cell and both types).
  //  - Any other param: embed::Kernel::set (lossless adapters only).
  // A name that is no param is UnknownNode (with a suggestion; an output's
  // name says it is an output); a unit value is NonePropagated. Setting an
  // extern counts as binding it (see scope_values).
  ir::Expected<void, embed::EmbeddingError> set_input(std::string_view name, const ir::Value& v);

  // The fresh value of `name`. An output: evaluates first when the kernel is
  // stale (never evaluated, a param set since, or a cell it holds written
  // since), reading each cell-backed slot from its cell just before the
  // evaluation — so a sibling's write is seen by the next pull without any
  // refresh step. A param: its value now (a cell-backed one from the cell),
  // without evaluating; an input never set is UnresolvedPlaceholder. Any
  // other name is UnknownNode. An evaluation error (an input not set,
  // NodeEvalPanic) is returned and the kernel stays stale.
  embed::Result<ir::Value> pull(std::string_view name);

  // The one public read; it never evaluates. The last evaluation's output of
  // that name, unless it is unit (a unit output does not shadow); else the
  // param's value: a cell-backed slot read live from its cell, else the value
  // set or bound, else its default; else nullopt (an unknown name, an input
  // never set, an output never evaluated). After a write, the outputs it
  // changes are those of the last evaluation until a pull.
  std::optional<ir::Value> lookup(std::string_view name) const override;

  // Wires this kernel (the inner scope) under `outer`. For each extern of
  // this kernel that is not one of its own cells (an own cell is an inner
  // definition and shadows the outer name):
  //  - when `outer` holds a cell of that name (its own, or one it attached)
  //    whose values the extern's type holds (the same type, or a lossless
  //    widening), the slot is attached to that very SharedCell: both kernels
  //    now hold it, reads come from it and set_input writes through to it;
  //  - otherwise the outer's lookup of that name (a unit or missing value
  //    binds nothing) is set into the extern, a copy: later changes in the
  //    outer are not seen until the next bind. Before reading, the outer is
  //    evaluated when it is stale and one of these names is an output of it
  //    (hence `outer` is not const); if that evaluation fails, its outputs
  //    are not bound (its last evaluation's, if any, are).
  // A value the extern's type refuses (lossless adapters only), or a cell of
  // a type the extern cannot hold, binds nothing. Inputs (non-extern params)
  // are never bound: they are per-evaluation values the caller feeds.
  // Returns the names bound, in param order. Binding again rebinds.
  std::vector<std::string> bind_outer_scope(ScopeKernel& outer);

  // The values bound into this kernel's externs (by bind_outer_scope or
  // set_input), in param order: what a caller replicates into the per-thread
  // forks of kernels that were not forked from this one. Cell-backed externs
  // are left out on purpose: a cell is shared, not replicated, and replaying
  // its value through set_input would be a write (a second `sum`).
  std::vector<std::pair<std::string, ir::Value>> scope_values() const;

  // The cells this kernel holds, in param order: its own (declared `shared`)
  // and the ones attached by bind_outer_scope. cell(name): that slot's cell,
  // or nullptr.
  std::vector<std::shared_ptr<SharedCell>> cells() const;
  std::shared_ptr<SharedCell> cell(std::string_view name) const;

  // The output manifest: what this scope shows inner scopes, and what their
  // externs are typed from. The kernel's outputs (declaration order), then
  // its externs (param order) — cells, its own and attached (is_shared), and
  // read-through values bound from further out. Inputs are not listed: they
  // are fed per evaluation by the caller, not visible as scope values.
  struct ManifestEntry {
    std::string name;
    ir::Ty ty;
    bool is_const = false;   // declared `const` (no inner scope may shadow it)
    bool is_shared = false;  // a cell this kernel holds (outputs: declared `shared`)
    bool dynamic = false;    // changes per evaluation (reads an input, or volatile)
  };
  std::vector<ManifestEntry> manifest() const;

  // The wrapped kernel's signature, for callers that need it.
  const std::vector<embed::KernelPort>& params() const { return kernel_.params(); }
  const std::vector<embed::KernelPort>& outputs() const { return kernel_.outputs(); }
  const std::string& source() const { return kernel_.source(); }

 private:
  // What the compiler knows of each port; shared, immutable, by all forks.
  struct Facts;
  // One param's runtime wiring.
  struct Slot {
    std::shared_ptr<SharedCell> cell;  // set: the slot reads and writes this cell
    bool own = false;                  // the cell is this kernel's own declaration
    bool bound = false;                // an extern set or bound from an outer scope
    uint64_t seen = 0;                 // the cell's version read for the last evaluation
  };

  ScopeKernel(embed::Kernel kernel, std::shared_ptr<const Facts> facts, std::vector<Slot> slots);

  std::optional<size_t> param_index(std::string_view name) const;
  std::optional<size_t> output_index(std::string_view name) const;
  bool stale() const;
  // Refreshes the cell-backed slots from their cells and evaluates.
  ir::Expected<void, embed::EmbeddingError> evaluate();
  // A param's value now (cell-backed: from the cell, in the slot's type).
  std::optional<ir::Value> param_value(size_t i) const;

  embed::Kernel kernel_;
  std::shared_ptr<const Facts> facts_;
  std::vector<Slot> slots_;                   // per param
  std::optional<std::vector<ir::Value>> last_;  // the outputs of the last evaluation
  bool dirty_ = true;                         // a param set since the last evaluation
};

}  // namespace polydat::workload
