#include "tests/llvm/native_support.h"

#include "ir/interp.h"
#include "ir/pass_pipeline.h"

namespace polydat::nativetest {

namespace {
Compiled finish(frontend::CompileResult r) {
  Compiled c;
  if (!r.ok()) {
    c.diagnostics = r.render_diagnostics();
    c.front = std::move(r);
    return c;
  }
  auto opt = ir::optimize(*r.ir);
  if (!opt) {
    c.diagnostics = "optimize: " + opt.error().message;
  } else {
    c.ir = std::move(*opt);
  }
  c.front = std::move(r);
  return c;
}

}  // namespace

Compiled compile_text(const std::string& name, const std::string& text) {
  return finish(frontend::compile_source(name, text));
}

Compiled compile_path(const std::string& path, const std::vector<std::string>& lib_paths) {
  frontend::CompileOptions o;
  o.lib_paths = lib_paths;
  return finish(frontend::compile_file(path, o));
}

std::string differences(const ir::CategoryIr& ir, const sim::NativeKernel& k, const std::vector<ir::Value>& inputs,
                        size_t& compared, uint64_t max_iterations) {
  ir::Interpreter interp(ir, ir::InterpOptions{max_iterations});
  std::vector<ir::Value> kept, expected;
  for (const ir::Value& in : inputs) {
    auto r = interp.run(in);
    if (!r) continue;
    kept.push_back(in);
    expected.push_back(std::move(*r));
  }
  compared = kept.size();
  const std::vector<ir::Value> got = k.evaluate(kept);
  for (size_t i = 0; i < kept.size(); ++i)
    if (!(got[i] == expected[i]))
      return "input " + ir::render(kept[i]) + ": the interpreter gives " + ir::render(expected[i]) + ", native " +
             ir::render(got[i]);
  return "";
}

}  // namespace polydat::nativetest
