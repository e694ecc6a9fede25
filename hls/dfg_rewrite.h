// The frame every DFG pass is written in: the input graph's live nodes are
// copied in order through a DfgBuilder (so the result is simplified, shared
// and free of dead nodes), and a pass overrides rewrite() for the nodes it
// changes. Ports keep their order; the loop and the outputs are mapped.
#pragma once

#include <vector>

#include "hls/dfg.h"
#include "hls/dfg_builder.h"

namespace polydat::hls {

class DfgRewriter {
 public:
  explicit DfgRewriter(const Dfg& in);
  virtual ~DfgRewriter() = default;

  // The rewritten graph (regions classified again).
  Dfg run();

 protected:
  // The new value for live operation v of the input; operands are available
  // through map(). The default copies the operation.
  virtual ValueId rewrite(ValueId v);
  // Called before the nodes are visited (analyses over the input go here).
  virtual void prepare() {}

  ValueId map(ValueId old) const { return map_[old]; }
  std::vector<ValueId> mapped_operands(ValueId old) const;
  ValueId copy(ValueId old);

  const Dfg& in_;
  Dfg out_;
  DfgBuilder b_;
  std::vector<bool> live_;

 private:
  std::vector<ValueId> map_;
};

// Simplifies and shares through the builder and drops dead nodes: the identity pass.
Dfg cleanup(const Dfg& g);

}  // namespace polydat::hls
