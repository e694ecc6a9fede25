// The label texts both dumps (Mermaid, DOT) show, before each format's own
// escaping: one definition, so the two never disagree on a label.
#pragma once

#include <string>
#include <vector>

#include "ir/graph.h"

namespace polydat::ir::dump_detail {

// Each object's position among its function's objects, in insertion order.
std::vector<uint32_t> object_ordinals(const CategoryIr& ir);
// f{function}o{ordinal}: per-dump ordinals, never raw ids.
std::string node_id(const CategoryIr& ir, const std::vector<uint32_t>& ordinal, ObjectId o);
// `name: ty`, `value: ty` for constants, the bare type otherwise; merges prefixed "⟲ ".
std::string node_text(const Object& o);
// "Pair s/a", "Proj i", "Call f", "Cast ty", "LoopBack ↩", or the operation's name.
std::string edge_text(const CategoryIr& ir, const Morphism& m);

}  // namespace polydat::ir::dump_detail
