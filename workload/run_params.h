// nb-rs's command-line parameters: `NAME=VALUE` words after the workload, as
// `nbrs run workload=FILE scenario=NAME cycles=10 ...` takes them. Each name is
// nb-rs's (an activity setting, a stdout-adapter option), a param the workload
// declares, or an error with nb-rs's wording and the nearest known name. A
// setting acts, is noted on stderr (it changes nothing a stdout run prints:
// concurrency, rate, ...) or is refused by name (another adapter, resume).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/expected.h"
#include "workload/model.h"
#include "workload/runner.h"

namespace polydat::workload {

using Assignment = std::pair<std::string, std::string>;

// `NAME=VALUE` words split at their first '='; an error names the word that is not one.
ir::Expected<std::vector<Assignment>, std::string> split_assignments(const std::vector<std::string>& words);

// For a run with no workload file (nb-rs's `run op=...`): the error for the
// first parameter polydat refuses by name (op=, dryrun=, ...), if any.
std::optional<std::string> refused_param(const std::vector<Assignment>& assignments);

// `workload=FILE` taken out of the assignments (nullopt when absent).
std::optional<std::string> take_workload(std::vector<Assignment>& assignments);

// What a command does with the lines of the run: `polydat run` and `cosim`
// print them (the stdout adapter's options act); `emit-sv` and `synth` build
// hardware (those options are refused).
enum class ParamUse : uint8_t { Lines, Hardware };

struct ResolvedParams {
  std::vector<std::string> notes;      // one per setting noted, for stderr
  std::optional<std::string> filename;  // filename=: where the lines go
};

// Applies `assignments` to `o` for workload `w`: scenario=, seq=, tags=,
// format= and its options (over `render`, what the command's own flags
// chose), params the workload declares or nb-rs knows (cycles=), noting the
// rest. Refusals name the parameter. A rendered error ends in its [kind].
ir::Expected<ResolvedParams, std::string> resolve_params(const std::vector<Assignment>& assignments, const Workload& w,
                                                         ParamUse use, RunOptions& o, RenderSettings render = {});

}  // namespace polydat::workload
