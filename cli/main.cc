// The `polydat` command.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/core.h>

#include "cli/example_kernel.h"
#include "ir/interp.h"

namespace {
int run_example(uint64_t count, uint64_t modulus) {
  using namespace polydat;
  const ir::CategoryIr kernel = cli::build_example_kernel(modulus);
  ir::Interpreter interp(kernel);
  const ir::Ty in = kernel.object(kernel.func(kernel.entry()).input).ty;
  fmt::print("kernel: id := mod(hash(cycle), {})  (interpreter)\n", modulus);
  for (uint64_t c = 0; c < count; ++c) {
    auto r = interp.run(ir::Value::structure(in, {ir::Value::integer(ir::TyKind::U64, c)}));
    if (!r) {
      fmt::print(stderr, "error: {}\n", r.error().message);
      return 1;
    }
    fmt::print("cycle {:>3}  {}\n", c, ir::render(*r));
  }
  return 0;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"polydat: synthesis flow and simulator for Polydat generator kernels"};
  app.require_subcommand(1);
  uint64_t count = 10, modulus = 1000;
  CLI::App* example = app.add_subcommand("example", "evaluate the bundled example kernel on the interpreter");
  example->add_option("-n,--cycles", count, "how many cycles to evaluate")->capture_default_str();
  example->add_option("--modulus", modulus, "the modulus of the example kernel")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (example->parsed()) return run_example(count, modulus);
  return 0;
}
