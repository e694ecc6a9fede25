#include "ir/graph.h"

namespace polydat::ir {

std::string_view kind_name(ObjectKind k) {
  switch (k) {
    case ObjectKind::Parameter: return "Parameter";
    case ObjectKind::Temporary: return "Temporary";
    case ObjectKind::Constant: return "Constant";
    case ObjectKind::Return: return "Return";
    case ObjectKind::LoopMerge: return "LoopMerge";
  }
  return "?";
}

std::optional<FuncId> CategoryIr::find_func(std::string_view name) const {
  for (const FuncDef& f : funcs_)
    if (f.name == name) return f.id;
  return std::nullopt;
}


}  // namespace polydat::ir
