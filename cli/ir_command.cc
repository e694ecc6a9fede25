#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/flow.h"
#include "ir/dot.h"
#include "ir/mermaid.h"
#include "ir/text_dump.h"

namespace polydat::cli {

int ir_command(const IrArgs& args) {
  frontend::CompileResult r;
  if (!compile_kernel(args.file, args.lib_paths, r)) return kUserError;
  std::optional<flow::Optimized> opt;
  if (!args.no_opt && !(opt = optimized(r))) return kUserError;
  const ir::CategoryIr& g = opt ? opt->ir : *r.ir;
  if (args.format == "mermaid") fmt::print("{}", ir::to_mermaid(g));
  else if (args.format == "dot") fmt::print("{}", ir::to_dot(g));
  else fmt::print("{}", ir::to_text(g));
  return kOk;
}

}  // namespace polydat::cli
