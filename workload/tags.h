// An op's tags as nb-rs gives them: what `tags=` filters (tag_filter.h) match.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace polydat::workload {

// An op's tags in the order set; a later entry for a key replaces an earlier one.
using Tags = std::vector<std::pair<std::string, std::string>>;

// The value of tag `key`, or null.
const std::string* find_tag(const Tags& tags, std::string_view key);

// nb-rs's tags for an op: the workload's `tags:`, then `scope` (its block's
// `tags:`, or `phase: NAME` for an op written inside a phase), then the op's
// own, each replacing the ones before; then `block` set to `block` (a
// block's name, "block0" for top-level ops of a file without blocks, the
// phase's name for a phase's op) and `name` and `op` to the op's name
// unless its tags set them.
Tags op_tags(const Tags& workload, const Tags& scope, const Tags& own, std::string_view block, std::string_view op_name);

}  // namespace polydat::workload
