#include "ir/dot.h"

#include "ir/dump_labels.h"

#include <vector>

namespace polydat::ir {

namespace {
// A DOT string: `"` and `\` escaped (a bare `\` would start \n, \l or \N).
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

void append_function(std::string& out, const CategoryIr& ir, const FuncDef& fd,
                     const std::vector<uint32_t>& ordinal) {
  out += "  subgraph cluster_f" + std::to_string(fd.id.v) + " {\n";
  out += "    label=" + quoted("fn " + fd.name) + ";\n";
  for (ObjectId o : ir.objects_of(fd.id))
    out += "    " + dump_detail::node_id(ir, ordinal, o) + " [label=" + quoted(dump_detail::node_text(ir.object(o))) +
           "];\n";
  for (MorphismId mid : fd.morphisms) {
    const Morphism& m = ir.morphism(mid);
    // Only DOT dashes back edges; the Mermaid dump keeps one arrow style.
    const char* style = m.op.kind == OpKind::LoopBack ? ", style=dashed" : "";
    out += "    " + dump_detail::node_id(ir, ordinal, m.source) + " -> " + dump_detail::node_id(ir, ordinal, m.target) +
           " [label=" + quoted(dump_detail::edge_text(ir, m)) + style + "];\n";
  }
  out += "  }\n";
}
}  // namespace

std::string to_dot(const CategoryIr& ir) {
  const std::vector<uint32_t> ordinal = dump_detail::object_ordinals(ir);
  // Top to bottom: a kernel's chains are long and narrow, so a page scrolls down them, not across.
  std::string out = "digraph polydat {\n  rankdir=TB;\n";
  for (const FuncDef& fd : ir.funcs()) append_function(out, ir, fd, ordinal);
  out += "}\n";
  return out;
}

}  // namespace polydat::ir
