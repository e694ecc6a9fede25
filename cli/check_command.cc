#include <fmt/core.h>

#include "cli/commands.h"
#include "frontend/compile.h"

namespace polydat::cli {

int check_command(const CheckArgs& args) {
  frontend::CompileOptions options;
  options.lib_paths = args.lib_paths;
  int status = kOk;
  for (const std::string& file : args.files) {
    // A file of the other kind was refused by main() before any was read (exit 2).
    const frontend::CompileResult r = frontend::compile_file(file, options);
    fmt::print(stderr, "{}", r.render_diagnostics());
    if (!r.ok()) {
      status = kUserError;
      continue;
    }
    const frontend::Unit& k = r.kernel();
    std::string ins, outs;
    for (const frontend::Port& p : k.params)
      ins += (ins.empty() ? "" : ", ") + std::string(p.is_extern ? "extern " : "") + p.name + ": " + ir::ty_label(p.ty);
    for (const frontend::Port& p : k.outputs) outs += (outs.empty() ? "" : ", ") + p.name + ": " + ir::ty_label(p.ty);
    fmt::print("{}: ok ({}) -> ({})\n", file, ins, outs);
  }
  return status;
}

}  // namespace polydat::cli
