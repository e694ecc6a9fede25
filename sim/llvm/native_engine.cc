#include "sim/llvm/native_engine.h"

#include <chrono>

#include "ir/interp.h"

namespace polydat::sim {

NativeEngine::NativeEngine(const ir::CategoryIr& ir, std::vector<bool> config_fields)
    : ir_(ir), config_fields_(std::move(config_fields)) {}

ir::Expected<void, std::string> NativeEngine::build() {
  if (kernel_) return {};
  auto k = NativeKernel::cached(ir_, ir_.entry());
  if (!k) return "cannot compile: " + k.error();
  kernel_ = std::move(*k);
  return {};
}

ir::Expected<EngineRun, std::string> NativeEngine::run(const Batch& batch) {
  if (auto built = build(); !built) return built.error();
  const ir::Ty in_ty = ir_.object(ir_.func(ir_.entry()).input).ty;
  std::vector<ir::Value> inputs;
  inputs.reserve(batch.inputs.size());
  for (const std::vector<ir::Value>& streamed : batch.inputs) {
    std::vector<ir::Value> fields;
    size_t next_in = 0, next_cfg = 0;
    for (bool config : config_fields_) fields.push_back(config ? batch.configs.at(next_cfg++) : streamed.at(next_in++));
    inputs.push_back(in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(fields)));
  }
  EngineRun out;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<ir::Value> results = kernel_->evaluate(inputs);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (results.size() < inputs.size())
    return "the native kernel stopped at evaluation " + std::to_string(results.size()) + ": a loop ran past " +
           std::to_string(ir::kMaxLoopIterations) + " iterations";
  for (const ir::Value& r : results) out.outputs.push_back(r.ty().is_product() ? r.elems() : std::vector<ir::Value>{r});
  return out;
}

}  // namespace polydat::sim
