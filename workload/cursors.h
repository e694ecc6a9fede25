// Cursors at the workload level (nb-rs's executor rules). A cursor declared
// in a scope's bindings (frontend/cursors.h) is read from that scope's
// compiled kernel:
//
//   - a phase whose own kernel declares a cursor runs that cursor's ordinals
//     instead of `cycles:`: the first cursor declared drives it, over
//     [0, end - start) of its range(start, end), or over the partition its
//     `over` names; `cycle` is the ordinal. (A workload's top-level ops run
//     `cycles=` whatever the workload's kernel declares, as nb-rs's single
//     activity does.)
//   - `all(NAME)` in a for_each spec iterates [start, end) of the cursor
//     NAME declared in the loop's scope or a scope around it.
//   - a spec given to `over` that does not resolve (a param, known only
//     when the scope starts) is an error at the `over`, before the phase runs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/expected.h"
#include "workload/frame.h"

namespace polydat::workload {

// The cursors the scope's kernel declares, in the order they are written.
std::vector<std::string> cursors_in(const CompiledScope& scope);

// Where the declaration of cursor `name` is in the workload file (at its `over` source when `at_over`).
Mark cursor_mark(const ScopeModule& m, const std::string& name, bool at_over = false);

// The ordinals the frame's own kernel makes it run.
struct CursorRange {
  std::string cursor;  // the first cursor declared
  uint64_t first = 0;  // the first cycle
  uint64_t end = 0;    // one past the last
};
// nullopt when the frame's kernel declares no cursor; an error when an `over` does not resolve.
ir::Expected<std::optional<CursorRange>, std::string> cursor_range(Frame& f);

// For a for_each in frame `loop`: the extent [start, end) of cursor `name`
// declared in `loop`'s scope or one around it (comprehension::Env::cursor_extent).
std::function<std::optional<std::pair<uint64_t, uint64_t>>(std::string_view)> cursor_extents(Frame& loop);

// Plan mode: a frame whose kernel declares a cursor or reads a partition
// cannot become hardware (kind hw-scenario, at the cursor or the loop that made the partition).
ir::Expected<void, std::string> refuse_cursors_in_hardware(const Frame& f);

}  // namespace polydat::workload
