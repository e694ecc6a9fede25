// nb-rs's legacy binding chains, the Java nosqlbench syntax its workloads'
// top-level `bindings:` maps still take: `user_id: Hash(); Mod(1000000)`.
// Each `;`-separated step is a function applied to the previous step's
// value, the first to `cycle`; Java names map to GK names as nb-rs maps them
// (nbrs-activity's bindings.rs), and the steps become GK bindings.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "ir/expected.h"

namespace polydat::frontend {

struct ChainError {
  size_t offset = 0;  // into the chain's text
  std::string message;
};

// One GK line binding `name` to the chain: `__chain_NAME_0 := hash(cycle); NAME
// := mod(__chain_NAME_0, 1000000)`, nb-rs's names for the steps. A step nb-rs
// would misread (a `;` or `,` inside quotes, a call inside the arguments) is
// an error rather than a different reading.
ir::Expected<std::string, ChainError> legacy_chain_to_gk(std::string_view name, std::string_view chain);

// Whether `text` has a `;` outside quotes and brackets: a chain's shape, where
// a bindings map takes a GK expression instead.
bool looks_like_legacy_chain(std::string_view text);

}  // namespace polydat::frontend
