#include "workload/cursors.h"

#include "frontend/block_names.h"
#include "frontend/cursors.h"
#include "ir/partition.h"
#include "workload/values.h"

namespace polydat::workload {

namespace {

bool has_output(const CompiledScope& s, const std::string& name) { return s.output_index.count(name) > 0; }

// An output of the frame's own kernel, evaluated when the scope starts (cursor values do not change per cycle).
ir::Expected<ir::Value, std::string> scope_value(Frame& f, const std::string& name) {
  auto v = f.lookup(name, 0);
  if (!v) return v.error();
  if (!*v) return render_workload_error(f.scope()->module.path, f.scope()->module.file_text, f.scope()->module.at,
                                        "internal: no value for '" + name + "'", "cursor");
  return **v;
}

ir::Expected<uint64_t, std::string> scope_u64(Frame& f, const std::string& name) {
  auto v = scope_value(f, name);
  if (!v) return v.error();
  return v->as_u64();
}

// Every cursor's `over` must resolve; a spec known only now (a param) is checked here.
ir::Expected<void, std::string> check_over(Frame& f, const std::string& cursor) {
  const CompiledScope& s = *f.scope();
  const std::string problem_name = frontend::cursor_problem_name(cursor);
  if (!has_output(s, problem_name)) return {};
  auto problem = scope_value(f, problem_name);
  if (!problem) return problem.error();
  if (problem->as_str().empty()) return {};
  auto spec = scope_value(f, frontend::cursor_over_name(cursor));
  auto start = scope_u64(f, frontend::cursor_start_name(cursor)), end = scope_u64(f, frontend::cursor_end_name(cursor));
  const uint64_t extent = start && end && *end > *start ? *end - *start : 0;
  const std::string shown = spec && spec->ty().is_str() ? " \"" + spec->as_str() + "\"" : "";
  return render_workload_error(s.module.path, s.module.file_text, cursor_mark(s.module, cursor, true),
                               "cursor '" + cursor + "': the partition spec" + shown + " of its `over` does not resolve against its " +
                                   std::to_string(extent) + " ordinals: " + problem->as_str(),
                               "bad-partition-spec");
}

}  // namespace

std::vector<std::string> cursors_in(const CompiledScope& scope) {
  std::vector<std::string> out;
  for (const std::string& name : scope.module.outputs)
    if (auto c = frontend::cursor_of_start_name(name)) out.push_back(*c);
  return out;
}

Mark cursor_mark(const ScopeModule& m, const std::string& name, bool at_over) {
  const std::string wanted = at_over ? frontend::cursor_problem_name(name) : frontend::cursor_start_name(name);
  const frontend::BlockNames names = frontend::analyze_block(m.path, m.source);
  for (const frontend::NameDef& d : names.defs)
    if (d.name == wanted) {
      const Mark at = m.placement.file_mark(d.name_span.start);
      if (at.line) return at;
    }
  return m.at;
}

ir::Expected<std::optional<CursorRange>, std::string> cursor_range(Frame& f) {
  if (!f.scope()) return std::optional<CursorRange>();
  const std::vector<std::string> cursors = cursors_in(*f.scope());
  if (cursors.empty()) return std::optional<CursorRange>();
  for (const std::string& c : cursors)
    if (auto st = check_over(f, c); !st) return st.error();
  CursorRange r{cursors.front(), 0, 0};
  const std::string partition = frontend::cursor_partition_name(r.cursor);
  if (has_output(*f.scope(), partition)) {
    auto v = scope_value(f, partition);
    if (!v) return v.error();
    const auto p = ir::as_partition(*v);
    if (!p) return render_workload_error(f.scope()->module.path, f.scope()->module.file_text, f.scope()->module.at,
                                         "internal: '" + partition + "' is not a partition", "cursor");
    r.first = p->start_ord;
    r.end = std::max(p->start_ord, p->end_ord);
    return std::optional(r);
  }
  auto start = scope_u64(f, frontend::cursor_start_name(r.cursor));
  if (!start) return start.error();
  auto end = scope_u64(f, frontend::cursor_end_name(r.cursor));
  if (!end) return end.error();
  r.end = *end > *start ? *end - *start : 0;  // nb-rs counts the ordinals from 0
  return std::optional(r);
}

std::function<std::optional<std::pair<uint64_t, uint64_t>>(std::string_view)> cursor_extents(Frame& loop) {
  return [&loop](std::string_view name) -> std::optional<std::pair<uint64_t, uint64_t>> {
    const std::string start = frontend::cursor_start_name(name), end = frontend::cursor_end_name(name);
    for (Frame* g = &loop; g; g = g->parent()) {
      if (!g->scope() || !has_output(*g->scope(), start)) continue;
      auto s = scope_u64(*g, start);
      auto e = scope_u64(*g, end);
      if (!s || !e) return std::nullopt;
      return std::pair(*s, *e);
    }
    return std::nullopt;
  };
}

ir::Expected<void, std::string> refuse_cursors_in_hardware(const Frame& f) {
  const CompiledScope* s = f.scope();
  if (!s) return {};
  const ScopeModule& m = s->module;
  if (const std::vector<std::string> cs = cursors_in(*s); !cs.empty())
    return render_workload_error(m.path, m.file_text, cursor_mark(m, cs.front()),
                                 m.label + " declares cursor '" + cs.front() + "', which sets the cycles it runs; the "
                                 "hardware sequencer runs a phase's `cycles:` from 0",
                                 "hw-scenario");
  for (const auto& [name, ty] : m.params) {
    if (!ir::is_partition(ty)) continue;
    const auto it = f.visible().find(name);
    const Mark at = it != f.visible().end() && it->second.at.line ? it->second.at : m.at;
    return render_workload_error(m.path, m.file_text, at,
                                 m.label + " reads partition '" + name + "', which has no hardware form (hardware "
                                 "carries bools and integers)",
                                 "hw-scenario");
  }
  return {};
}

}  // namespace polydat::workload
