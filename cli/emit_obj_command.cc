// polydat emit-obj: the kernel as an object file and a C header.
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/flow.h"
#include "ir/library_fn.h"
#include "sim/llvm/emit_obj.h"

namespace polydat::cli {

int emit_obj_command(const EmitObjArgs& args) {
  frontend::CompileResult r;
  if (!compile_kernel(args.file, args.lib_paths, r)) return kUserError;
  auto optimized_kernel = optimized(r);
  if (!optimized_kernel) return kUserError;
  const ir::CategoryIr* opt = &optimized_kernel->ir;
  auto e = sim::emit_object(*opt, opt->entry(), args.out_dir, r.kernel().name);
  if (!e) {
    fmt::print(stderr, "error: {}\n", e.error());
    return kUserError;
  }
  fmt::print("{}\n{}\n", e->object.string(), e->header.string());
  if (e->uses_runtime)
    fmt::print(stderr, "note: the kernel builds strings: link libpolydat_rt.a, the C++ library and {}\n", ir::kLibraryLinkFlags);
  return kOk;
}

}  // namespace polydat::cli
