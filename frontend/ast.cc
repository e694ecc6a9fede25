#include "frontend/ast.h"

namespace polydat::frontend {

std::optional<ir::Ty> scalar_type(std::string_view name) {
  using ir::TyKind;
  static const std::pair<std::string_view, TyKind> kNames[] = {
      {"bool", TyKind::Bool}, {"u8", TyKind::U8},   {"u16", TyKind::U16}, {"u32", TyKind::U32},
      {"u64", TyKind::U64},   {"i8", TyKind::I8},   {"i16", TyKind::I16}, {"i32", TyKind::I32},
      {"i64", TyKind::I64},   {"f32", TyKind::F32}, {"f64", TyKind::F64}, {"str", TyKind::Str},
  };
  for (const auto& [n, k] : kNames)
    if (n == name) return ir::Ty::scalar(k);
  return std::nullopt;
}

}  // namespace polydat::frontend
