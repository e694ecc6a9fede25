#include "flow/pipeline.h"

#include "ir/pass_pipeline.h"

namespace polydat::flow {

std::vector<bool> config_fields(const frontend::CompileResult& checked) {
  std::vector<bool> fields;
  for (const frontend::Port& p : checked.kernel().params) fields.push_back(p.is_extern);
  return fields;
}

ir::Expected<Optimized, std::string> optimize(const frontend::CompileResult& checked) {
  auto o = ir::optimize(*checked.ir);
  if (!o) return std::string(ir::error_kind_name(o.error().kind)) + ": " + o.error().message;
  return Optimized{std::move(*o), config_fields(checked)};
}

ir::Expected<Scheduled, hls::HlsError> schedule(Optimized optimized, const hls::HlsOptions& options) {
  auto d = hls::synthesize(optimized.ir, optimized.ir.entry(), optimized.config_fields, options);
  if (!d) return d.error();
  return Scheduled{std::move(optimized), std::move(*d)};
}

Emitted emit(Scheduled scheduled) {
  rtl::Module module = rtl::emit_module(scheduled.design);
  return Emitted{std::move(scheduled), std::move(module)};
}

ir::Expected<Emitted, HardwareError> hardware(const frontend::CompileResult& checked, const hls::HlsOptions& options) {
  if (!checked.ok()) return HardwareError{"compile", checked.render_diagnostics(), {}};
  auto opt = optimize(checked);
  if (!opt) return HardwareError{"optimize", opt.error(), {}};
  auto s = schedule(std::move(*opt), options);
  if (!s) return HardwareError{s.error().kind, s.error().message, s.error().loc};
  return emit(std::move(*s));
}

}  // namespace polydat::flow
