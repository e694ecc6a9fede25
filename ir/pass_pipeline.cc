#include "ir/pass_pipeline.h"

#include <utility>

#include "ir/cse_pass.h"
#include "ir/dce_pass.h"
#include "ir/fold_pass.h"
#include "ir/graph_copier.h"
#include "ir/inline_pass.h"

namespace polydat::ir {

Result<CategoryIr> optimize(const CategoryIr& ir) {
  auto g = inline_calls(ir);
  if (!g) return g.error();
  CategoryIr cur = std::move(g).value();
  size_t size = graph_size(cur);
  for (int round = 0; round < kMaxOptimizeRounds; ++round) {
    auto folded = fold_constants(cur);
    if (!folded) return folded.error();
    auto merged = eliminate_common_subexpressions(*folded);
    if (!merged) return merged.error();
    auto pruned = eliminate_dead_code(*merged);
    if (!pruned) return pruned.error();
    cur = std::move(pruned).value();
    const size_t now = graph_size(cur);
    if (now >= size) break;
    size = now;
  }
  return cur;
}

}  // namespace polydat::ir
