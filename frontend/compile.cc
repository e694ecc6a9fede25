#include "frontend/compile.h"

#include "frontend/check.h"
#include "frontend/lower.h"

namespace polydat::frontend {

std::string CompileResult::render_diagnostics() const { return render_all(program->diags, program->sources); }

namespace {
CompileResult finish(std::unique_ptr<Program> p, bool loaded) {
  CompileResult r;
  if (loaded && check_program(*p)) {
    Unit& root = p->units.at(0);
    for (Port& port : root.params)
      if (port.default_value) port.default_constant = evaluate_constant(*p, root, *port.default_value);
    r.ir = lower_program(*p);
  }
  r.program = std::move(p);
  return r;
}
}  // namespace

CompileResult compile_file(const std::string& path, const CompileOptions& options) {
  auto p = std::make_unique<Program>(options);
  const bool loaded = p->load_root_file(path);
  return finish(std::move(p), loaded);
}

CompileResult compile_source(const std::string& name, std::string text, const CompileOptions& options) {
  auto p = std::make_unique<Program>(options);
  const bool loaded = p->load_root_source(name, std::move(text));
  return finish(std::move(p), loaded);
}

}  // namespace polydat::frontend
