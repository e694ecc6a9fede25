#include "sim/llvm/emit_obj.h"

#include <fstream>

#include "sim/llvm/c_header.h"
#include "sim/llvm/codegen.h"

namespace polydat::sim {

namespace {
// Whether the kernel calls the string helpers: it builds strings or outputs any.
bool uses_runtime(const ir::CategoryIr& ir, ir::FuncId f, const RecordLayout& outputs) {
  for (const RecordField& o : outputs.fields)
    if (o.kind == ir::TyKind::Str) return true;
  for (const ir::Morphism& m : ir.morphisms()) {
    if (ir.owner(m.target) != f) continue;
    const ir::OpKind k = m.op.kind;
    if (k == ir::OpKind::ToStr || k == ir::OpKind::Concat || k == ir::OpKind::FormatDec || k == ir::OpKind::Hex ||
        k == ir::OpKind::FormatRadix || k == ir::OpKind::FormatFixed || k == ir::OpKind::LibFn)
      return true;
  }
  return false;
}
}  // namespace

ir::Expected<EmittedObject, std::string> emit_object(const ir::CategoryIr& ir, ir::FuncId f,
                                                     const std::filesystem::path& dir, const std::string& kernel) {
  CInterface c;
  c.kernel = kernel;
  c.prefix = c_identifier(kernel);
  c.inputs = record_layout(ir.object(ir.func(f).input).ty);
  c.outputs = record_layout(ir.object(ir.func(f).output).ty);
  c.uses_runtime = uses_runtime(ir, f, c.outputs);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return "cannot create " + dir.string() + ": " + ec.message();
  EmittedObject e{dir / (c.prefix + ".o"), dir / (c.prefix + ".h"), c.prefix, c.uses_runtime};
  if (auto r = write_object(ir, f, c.prefix, e.object); !r) return r.error();
  std::ofstream(e.header) << c_header(c);
  if (!std::filesystem::exists(e.header)) return "cannot write " + e.header.string();
  return e;
}

}  // namespace polydat::sim
