// A phase rendered in batches on native code. When a phase's kernel writes
// no shared cell and reads nothing per cycle from the scopes around it, every
// value its ops show is either an output of its kernel at that cycle or fixed
// for the whole phase. Then the kernel runs over thousands of cycles per call
// (its externs read once per batch), and each line is the fixed text with the
// outputs' fields formatted straight from the output records. Output is
// byte-identical to rendering op by op through the frame.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/llvm/native_kernel.h"
#include "workload/frame.h"
#include "workload/op_template.h"

namespace polydat::workload {

class BatchPhase {
 public:
  // A plan for `ops` (stmt lines) of frame `f` on `kernel`, or nullopt when the
  // phase cannot run this way (it writes cells, reads per-cycle outer values,
  // or shows one); the caller then renders op by op.
  // Cycle c renders ops[lut[c % lut.size()]] (nb-rs's stanza).
  static std::optional<BatchPhase> plan(Frame& f, const std::vector<PreparedOp>& ops, const std::vector<size_t>& lut,
                                        std::shared_ptr<const sim::NativeKernel> kernel);

  struct Done {
    size_t rows = 0;     // cycles rendered; fewer than asked when a loop passed the iteration limit
    uint64_t lines = 0;  // ops rendered
    uint64_t skipped = 0;
  };
  // Renders cycles [first, first + n) onto `out`.
  Done render(uint64_t first, size_t n, std::string& out);

 private:
  struct Part {
    enum class Kind : uint8_t { Text, Output, Cycle } kind = Kind::Text;
    std::string text;
    size_t field = 0;
  };
  struct Op {
    std::vector<Part> parts;
    enum class Gate : uint8_t { Always, Never, Output } gate = Gate::Always;
    size_t gate_field = 0;
  };
  BatchPhase(std::shared_ptr<const sim::NativeKernel> k) : k_(std::move(k)), state_(k_->make_state()) {}

  std::shared_ptr<const sim::NativeKernel> k_;
  sim::NativeKernel::State state_;
  std::vector<ir::Value> held_;          // the values whose strings the input template points into
  std::vector<unsigned char> template_;  // one input record with every extern set
  std::optional<size_t> cycle_offset_;
  std::vector<Op> ops_;
  std::vector<size_t> lut_;
  sim::RecordBuffer in_, out_;
};

}  // namespace polydat::workload
