#include "tests/llvm/generated_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <iterator>

#include "tests/llvm/native_support.h"

namespace polydat::nativetest {

namespace {

ir::Value random_field(const ir::Ty& ty, std::mt19937_64& rng) {
  static const double kEdges[] = {std::nan(""), -std::nan(""), HUGE_VAL, -HUGE_VAL, 0x1p63, -0x1p63, 0x1p64,
                                  0x1p63 - 1024, 0x1p64 - 2048, 0x1p31, -0x1p31 - 1, 0x1p31 - 0.5, 0x1p32, 255.5,
                                  256.0, -128.5, -129.0, -0.5, 65535.9, 65536.0, 32767.5, -32768.9, 5e-324,
                                  1.7976931348623157e308, 0x1p24 + 1};
  if (!ty.is_float() || rng() % 4 != 0) return random_scalar(ty, rng);
  const double d = kEdges[rng() % std::size(kEdges)];
  if (ty.kind() == ir::TyKind::F64) return ir::Value::f64(d);
  const bool too_big = std::isfinite(d) && std::fabs(d) > 3.4028234663852886e38;  // a float cast would be UB
  return ir::Value::f32(too_big ? std::copysign(HUGE_VALF, static_cast<float>(d)) : static_cast<float>(d));
}

}  // namespace

ir::Ty input_type(const ir::CategoryIr& ir) { return ir.object(ir.func(ir.entry()).input).ty; }

std::vector<ir::Value> random_inputs(const ir::Ty& in_ty, size_t n, std::mt19937_64& rng) {
  std::vector<ir::Value> out;
  for (size_t i = 0; i < n; ++i) {
    std::vector<ir::Value> fields;
    for (size_t f = 0; f < in_ty.arity(); ++f) fields.push_back(random_field(in_ty.component(f), rng));
    out.push_back(ir::Value::structure(in_ty, std::move(fields)));
  }
  return out;
}

std::string compare_text(const std::string& text, size_t n, uint64_t seed) {
  const Compiled c = compile_text("kernel.gk", text);
  if (!c.ir) return "the frontend refuses it: " + c.diagnostics;
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
  if (!k) return "the native backend refuses it: " + k.error();
  std::mt19937_64 rng(seed);
  size_t compared = 0;
  std::string diff = differences(*c.ir, **k, random_inputs(input_type(*c.ir), n, rng), compared, kIterationLimit);
  if (diff.empty() && compared != n) diff = "the interpreter refused " + std::to_string(n - compared) + " inputs";
  return diff;
}

std::string run_in_child(const std::function<bool()>& body) {
  const pid_t child = fork();
  if (child < 0) return "fork failed";
  if (child == 0) {
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE}) std::signal(sig, SIG_DFL);  // die, do not report
    _exit(body() ? 0 : 1);
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return "waitpid failed";
  if (WIFSIGNALED(status)) return "the child died of signal " + std::to_string(WTERMSIG(status));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "the child failed";
}

}  // namespace polydat::nativetest
