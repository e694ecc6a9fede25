// The bundled example kernel, `id := mod(hash(cycle), 1000)`, built through the
// IR builder (the language frontend arrives with a later issue).
#pragma once

#include "ir/graph.h"

namespace polydat::cli {

// Entry "example": {cycle: u64} -> {id: u64}; it calls "hash": u64 -> u64,
// XXH3-64 of the 8 little-endian bytes of its argument, written with IR operations.
ir::CategoryIr build_example_kernel(uint64_t modulus = 1000);

}  // namespace polydat::cli
