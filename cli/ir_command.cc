#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/flow.h"
#include "cli/ordered_run.h"
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
  std::optional<OutputFile> out = OutputFile::open(args.output);
  if (!out) return kUserError;
  std::vector<std::string> files;  // the text names a location in an inlined module by its file
  for (uint32_t i = 0; i < r.program->sources.size(); ++i) files.push_back(r.program->sources.file(i).path);
  const std::string text = args.format == "mermaid" ? ir::to_mermaid(g)
                           : args.format == "dot"   ? ir::to_dot(g)
                                                    : ir::to_text(g, files, r.kernel().file);
  return out->write(text) || out->closed() ? kOk : kUserError;
}

}  // namespace polydat::cli
