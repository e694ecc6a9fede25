#include "sim/llvm/native_embed.h"

#include <memory>
#include <vector>

#include "sim/llvm/native_kernel.h"

namespace polydat::sim {

namespace {

class NativeRunner : public embed::Runner {
 public:
  explicit NativeRunner(std::shared_ptr<const NativeKernel> k)
      : kernel_(std::move(k)),
        state_(kernel_->make_state()),
        in_(kernel_->inputs().size / 8 + 2),
        out_(kernel_->outputs().size / 8 + 2) {}

  std::optional<ir::Value> run(const ir::Value& input) override {
    in_value_ = input;  // the record's strings point into it
    store_record(kernel_->inputs(), in_value_, in_.data());
    if (kernel_->run(state_, in_.data(), out_.data(), 1) != 1) return std::nullopt;  // the iteration limit
    return load_record(kernel_->outputs(), kernel_->output_type(), out_.data());
  }

 private:
  std::shared_ptr<const NativeKernel> kernel_;
  NativeKernel::State state_;
  std::vector<uint64_t> in_, out_;  // one record each, 8-byte aligned
  ir::Value in_value_;
};

class NativeProgram : public embed::Program {
 public:
  explicit NativeProgram(std::shared_ptr<const NativeKernel> k) : kernel_(std::move(k)) {}
  std::unique_ptr<embed::Runner> runner() const override { return std::make_unique<NativeRunner>(kernel_); }

 private:
  std::shared_ptr<const NativeKernel> kernel_;
};

}  // namespace

embed::ProgramFactory native_engine() {
  return [](const ir::CategoryIr& optimized, const std::vector<bool>&)
             -> ir::Expected<std::shared_ptr<const embed::Program>, std::string> {
    // One evaluation per call: nothing is batch-invariant, every input is read each time.
    auto k = NativeKernel::compile(optimized, optimized.entry());
    if (!k) return k.error();
    return std::shared_ptr<const embed::Program>(
        std::make_shared<NativeProgram>(std::shared_ptr<const NativeKernel>(std::move(*k))));
  };
}

embed::ProgramFactory native_engine(std::function<void(std::shared_ptr<const NativeKernel>)> keep) {
  return [keep = std::move(keep)](const ir::CategoryIr& optimized, const std::vector<bool>& is_extern)
             -> ir::Expected<std::shared_ptr<const embed::Program>, std::string> {
    LowerOptions lower;
    lower.batch_invariant = is_extern;  // one row per embed call agrees with itself; batches hold externs fixed
    auto k = NativeKernel::compile(optimized, optimized.entry(), lower);
    if (!k) return k.error();
    std::shared_ptr<const NativeKernel> kernel(std::move(*k));
    if (keep) keep(kernel);
    return std::shared_ptr<const embed::Program>(std::make_shared<NativeProgram>(std::move(kernel)));
  };
}

}  // namespace polydat::sim
