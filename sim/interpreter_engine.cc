#include "sim/interpreter_engine.h"

#include <chrono>

namespace polydat::sim {

InterpreterEngine::InterpreterEngine(const ir::CategoryIr& ir, std::vector<bool> config_fields, ir::InterpOptions options)
    : ir_(ir), config_fields_(std::move(config_fields)), interp_(ir, options) {}

ir::Expected<EngineRun, std::string> InterpreterEngine::run(const Batch& batch) {
  const ir::Ty in_ty = ir_.object(ir_.func(ir_.entry()).input).ty;
  EngineRun out;
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::vector<ir::Value>& streamed : batch.inputs) {
    std::vector<ir::Value> fields;
    size_t next_in = 0, next_cfg = 0;
    for (bool config : config_fields_) fields.push_back(config ? batch.configs.at(next_cfg++) : streamed.at(next_in++));
    auto r = interp_.run(in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(fields)));
    if (!r) return "the interpreter stopped: " + r.error().message;
    out.outputs.push_back(r->ty().is_product() ? r->elems() : std::vector<ir::Value>{*r});
    out.iterations.push_back(interp_.last_iterations());
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace polydat::sim
