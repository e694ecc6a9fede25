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

// Edges first: zero, one, all ones, the sign boundary; then anything.
uint64_t draw_bits(unsigned w, std::mt19937_64& rng) {
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  switch (rng() % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return mask;
    case 3: return (uint64_t{1} << (w - 1)) & mask;
    case 4: return ((uint64_t{1} << (w - 1)) - 1) & mask;
    case 5: return rng() % 64;
    default: return rng() & mask;
  }
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

ir::Value random_scalar(const ir::Ty& ty, std::mt19937_64& rng) {
  if (ty.is_bool()) return ir::Value::boolean(rng() & 1);
  if (ty.kind() == ir::TyKind::F64) {
    static const double special[] = {0.0, -0.0, 1.0, -1.5, 1e300, -1e-300, 0.1, 4294967296.5};
    if (rng() % 3 == 0) return ir::Value::f64(special[rng() % 8]);
    return ir::Value::integer(ir::TyKind::F64, rng());  // any bit pattern: NaNs and infinities too
  }
  if (ty.kind() == ir::TyKind::F32) {
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.5f, 3e38f, 1e-40f, 0.1f, 16777217.0f};
    if (rng() % 3 == 0) return ir::Value::f32(special[rng() % 8]);
    return ir::Value::integer(ir::TyKind::F32, rng());
  }
  if (ty.is_str()) return ir::Value::str(std::string(rng() % 5, static_cast<char>('a' + rng() % 26)));
  return ir::Value::integer(ty.kind(), draw_bits(ty.bits(), rng));
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
