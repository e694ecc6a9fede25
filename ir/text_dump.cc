#include "ir/text_dump.h"

#include "ir/dump_labels.h"
#include "ir/topo.h"

namespace polydat::ir {

std::string to_text(const CategoryIr& ir, const std::vector<std::string>& file_names, uint32_t home_file) {
  const std::vector<uint32_t> ordinal = dump_detail::object_ordinals(ir);
  auto id = [&](ObjectId o) { return "%" + std::to_string(ordinal.at(o.v)); };
  std::string out;
  for (const FuncDef& fd : ir.funcs()) {
    out += "fn " + fd.name + ": " + ty_label(ir.object(fd.input).ty) + " -> " + ty_label(ir.object(fd.output).ty) +
           (fd.id == ir.entry() ? "  (entry)" : "") + "\n";
    for (ObjectId o : ir.objects_of(fd.id))
      if (ir.object(o).kind == ObjectKind::Constant)
        out += "  " + id(o) + " = " + dump_detail::node_text(ir.object(o)) + "\n";
    for (MorphismId m : topo_order(ir, fd.id)) {
      const Morphism& mm = ir.morphism(m);
      std::string line = "  " + id(mm.target) + " <- " + dump_detail::edge_text(ir, mm) + " " + id(mm.source);
      line.resize(std::max<size_t>(line.size(), 36), ' ');
      out += line + "  ; " + dump_detail::node_text(ir.object(mm.target));
      if (mm.loc.line) {
        const bool foreign = mm.loc.file != home_file && mm.loc.file < file_names.size();
        out += "  @" + (foreign ? file_names[mm.loc.file] + ":" : "") + std::to_string(mm.loc.line) + ":" +
               std::to_string(mm.loc.col);
      }
      out += "\n";
    }
    out += "\n";
  }
  for (size_t r = 0; r < ir.roms().size(); ++r) {
    const RomTable& t = ir.roms()[r];
    out += "rom #" + std::to_string(r) + ": " + ty_label(t.element) + " x " + std::to_string(t.entries.size()) + " =";
    for (const Value& v : t.entries) out += " " + render(v);
    out += "\n";
  }
  return out;
}

}  // namespace polydat::ir
