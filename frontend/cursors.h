// nb-rs's cursors and partitions in GK text.
//
//   cursor NAME = range(START, END) [over SOURCE]
//
// The parser turns the statement into bindings with reserved names, which
// the checker and the lowering treat as any other binding and the workload
// runner reads from the compiled kernel:
//
//   __cursor_extent_NAME_start: u64 := START     the declared range [START, END),
//   __cursor_extent_NAME_end: u64 := END         fixed when the scope starts
//   __cursor_NAME_over := SOURCE                 `over`: a spec (str) or a partition
//   NAME__cursor := __cursor_over(...)           NAME.cursor: the partition it runs over
//   __cursor_NAME_problem := __cursor_problem(...)  "" or why a spec does not resolve
//   NAME := cycle                                NAME (and NAME.ordinal): its ordinal, when read
//
// A partition is a value of ir::partition_ty() (ir/partition.h); the
// built-ins start_of, end_of, idx_of, cardinality, mod_in, clamp_in and at
// read it. docs/workloads.md ("Cursors and partitions") is the user's view.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ast.h"
#include "frontend/builtins.h"
#include "frontend/diagnostics.h"
#include "ir/builder.h"

namespace polydat::frontend {

// ---- the reserved names ----
std::string cursor_start_name(std::string_view cursor);
std::string cursor_end_name(std::string_view cursor);
std::string cursor_over_name(std::string_view cursor);
std::string cursor_problem_name(std::string_view cursor);
std::string cursor_partition_name(std::string_view cursor);  // NAME__cursor
// The cursor whose start binding `name` is.
std::optional<std::string> cursor_of_start_name(std::string_view name);
// A binding of a cursor's own ("__cursor_..."): not one of the kernel's outputs unless asked for.
bool is_cursor_helper(std::string_view name);
// The cursor a reserved name belongs to ("q" for __cursor_q_over, q__cursor, ...), if it is one.
std::optional<std::string> cursor_of(std::string_view name);
// A name as messages show it: 'q.cursor' for q__cursor, cursor q's `over` for
// __cursor_q_over and the like, else the name quoted.
std::string written_name(std::string_view name);

// ---- parsing ----
struct CursorDecl {
  std::string name;
  Span name_span, span;  // the name; the whole statement
  std::string doc;
  ExprPtr range;         // range(START, END)
  ExprPtr over;          // SOURCE, when written
};
// The bindings a cursor statement stands for; empty after an error (reported).
std::vector<StmtPtr> desugar_cursor(CursorDecl d, Diagnostics& diags);
// `base.field`: `.cursor` is base__cursor, `.ordinal` base itself; nullptr after an error (reported).
ExprPtr cursor_member(const std::string& base, Span base_span, const std::string& field, Span field_span,
                      Diagnostics& diags);
// After a file is parsed: `NAME := cycle` for each cursor whose name the file reads.
void add_cursor_ordinals(FileAst& ast, Diagnostics& diags);

// ---- the partition built-ins ----
const std::vector<BuiltinInfo>& partition_builtins();
// The kinds of a partition built-in's arguments, one letter each: 'p' a
// partition, 'n' a u64, 's' a source (a spec or a partition), 'S' a constant
// spec; empty for other built-ins.
std::string_view partition_arg_kinds(Builtin b);
// Why `spec` does not resolve against [0, extent) (a compile-time check), or nullopt.
std::optional<std::string> spec_problem(const std::string& spec, uint64_t extent);

// The IR of a partition built-in on its lowered arguments.
ir::Result<ir::ObjectId> lower_partition_builtin(ir::FnBuilder& fb, Builtin b, std::span<const ir::ObjectId> args,
                                                 ir::SourceLoc at, const std::string& name);
// nb-rs's text of a partition value (for `{p}` in a string).
ir::Result<ir::ObjectId> lower_partition_text(ir::FnBuilder& fb, ir::ObjectId p, ir::SourceLoc at);

}  // namespace polydat::frontend
