// The interpreter as an engine: the oracle the others are compared with.
#pragma once

#include <memory>

#include "ir/graph.h"
#include "ir/interp.h"
#include "sim/engine.h"

namespace polydat::sim {

class InterpreterEngine final : public Engine {
 public:
  // `config_fields[i]` marks field i of the entry's input struct as a cfg input.
  InterpreterEngine(const ir::CategoryIr& ir, std::vector<bool> config_fields, ir::InterpOptions options = {});
  std::string name() const override { return "interpreter"; }
  ir::Expected<EngineRun, std::string> run(const Batch& batch) override;

 private:
  const ir::CategoryIr& ir_;
  std::vector<bool> config_fields_;
  ir::Interpreter interp_;
};

}  // namespace polydat::sim
