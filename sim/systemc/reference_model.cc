#include "sim/systemc/reference_model.h"

#include "frontend/compile.h"
#include "ir/interp.h"
#include "ir/pass_pipeline.h"

namespace polydat::sc {

struct ReferenceModel::Impl {
  explicit Impl(ir::CategoryIr optimised) : ir(std::move(optimised)), interp(ir) {}
  ir::CategoryIr ir;
  ir::Interpreter interp;
  std::vector<ir::Ty> param_types;
  std::vector<bool> is_config;
  size_t inputs = 0, configs = 0, outputs = 0;
};

namespace {
ir::Value value_of(const ir::Ty& ty, uint64_t pattern) {
  return ty.is_bool() ? ir::Value::boolean(pattern != 0) : ir::Value::integer(ty.kind(), pattern);
}
}  // namespace

std::unique_ptr<ReferenceModel> ReferenceModel::load(const std::string& kernel_file,
                                                     const std::vector<std::string>& lib_paths, std::string& error) {
  frontend::CompileOptions options;
  options.lib_paths = lib_paths;
  frontend::CompileResult r = frontend::compile_file(kernel_file, options);
  if (!r.ok()) {
    error = "the kernel does not compile: " + r.render_diagnostics();
    return nullptr;
  }
  auto optimised = ir::optimize(*r.ir);
  if (!optimised) {
    error = "the optimiser failed: " + optimised.error().message;
    return nullptr;
  }
  auto impl = std::make_unique<Impl>(std::move(*optimised));
  for (const frontend::Port& p : r.kernel().params) {
    impl->param_types.push_back(p.ty);
    impl->is_config.push_back(p.is_extern);
    ++(p.is_extern ? impl->configs : impl->inputs);
  }
  impl->outputs = r.kernel().outputs.size();
  return std::unique_ptr<ReferenceModel>(new ReferenceModel(std::move(impl)));
}

ReferenceModel::ReferenceModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ReferenceModel::~ReferenceModel() = default;

size_t ReferenceModel::input_count() const { return impl_->inputs; }
size_t ReferenceModel::config_count() const { return impl_->configs; }
size_t ReferenceModel::output_count() const { return impl_->outputs; }

bool ReferenceModel::evaluate(const std::vector<uint64_t>& inputs, const std::vector<uint64_t>& configs,
                              std::vector<uint64_t>& outputs, std::string& error) {
  const ir::CategoryIr& g = impl_->ir;
  const ir::Ty in_ty = g.object(g.func(g.entry()).input).ty;
  std::vector<ir::Value> fields;
  size_t next_in = 0, next_cfg = 0;
  for (size_t i = 0; i < impl_->is_config.size(); ++i) {
    const std::vector<uint64_t>& from = impl_->is_config[i] ? configs : inputs;
    size_t& next = impl_->is_config[i] ? next_cfg : next_in;
    if (next >= from.size()) {
      error = "too few input values for the kernel's parameters";
      return false;
    }
    fields.push_back(value_of(impl_->param_types[i], from[next++]));
  }
  auto r = impl_->interp.run(in_ty.is_unit() ? ir::Value() : ir::Value::structure(in_ty, std::move(fields)));
  if (!r) {
    error = "the interpreter stopped: " + r.error().message;
    return false;
  }
  outputs.clear();
  if (r->ty().is_product())
    for (const ir::Value& v : r->elems()) outputs.push_back(v.bits());
  else
    outputs.push_back(r->bits());
  return true;
}

}  // namespace polydat::sc
