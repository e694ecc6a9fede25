#include <fmt/core.h>

#include "cli/commands.h"
#include "frontend/compile.h"
#include "ir/dot.h"
#include "ir/mermaid.h"
#include "ir/pass_pipeline.h"
#include "ir/text_dump.h"

namespace polydat::cli {

int ir_command(const IrArgs& args) {
  frontend::CompileOptions options;
  options.lib_paths = args.lib_paths;
  const frontend::CompileResult r = frontend::compile_file(args.file, options);
  fmt::print(stderr, "{}", r.render_diagnostics());
  if (!r.ok()) return kUserError;
  std::optional<ir::CategoryIr> optimized;
  if (!args.no_opt) {
    auto o = ir::optimize(*r.ir);
    if (!o) {  // the passes refused their own output: a compiler bug, said plainly
      fmt::print(stderr, "error: internal: the optimiser failed ({}: {})\n", ir::error_kind_name(o.error().kind),
                 o.error().message);
      return kUserError;
    }
    optimized = std::move(*o);
  }
  const ir::CategoryIr& g = optimized ? *optimized : *r.ir;
  if (args.format == "mermaid") fmt::print("{}", ir::to_mermaid(g));
  else if (args.format == "dot") fmt::print("{}", ir::to_dot(g));
  else fmt::print("{}", ir::to_text(g));
  return kOk;
}

}  // namespace polydat::cli
