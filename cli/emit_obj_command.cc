// polydat emit-obj: the kernel as an object file and a C header.
#include <fmt/core.h>

#include "cli/commands.h"
#include "frontend/compile.h"
#include "ir/pass_pipeline.h"
#include "sim/llvm/emit_obj.h"

namespace polydat::cli {

int emit_obj_command(const EmitObjArgs& args) {
  frontend::CompileOptions copts;
  copts.lib_paths = args.lib_paths;
  const frontend::CompileResult r = frontend::compile_file(args.file, copts);
  fmt::print(stderr, "{}", r.render_diagnostics());
  if (!r.ok()) return kUserError;
  auto opt = ir::optimize(*r.ir);
  if (!opt) {
    fmt::print(stderr, "error: internal: the optimiser failed ({})\n", opt.error().message);
    return kUserError;
  }
  auto e = sim::emit_object(*opt, opt->entry(), args.out_dir, r.kernel().name);
  if (!e) {
    fmt::print(stderr, "error: {}\n", e.error());
    return kUserError;
  }
  fmt::print("{}\n{}\n", e->object.string(), e->header.string());
  if (e->uses_runtime) fmt::print(stderr, "note: the kernel builds strings: link libpolydat_rt.a and the C++ library\n");
  return kOk;
}

}  // namespace polydat::cli
