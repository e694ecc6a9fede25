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

namespace {
constexpr std::pair<std::string_view, Combine> kCombines[] = {
    {"last", Combine::Last}, {"sum", Combine::Sum}, {"min", Combine::Min}, {"max", Combine::Max}, {"count", Combine::Count},
};
}  // namespace

std::string_view combine_name(Combine c) {
  for (const auto& [n, k] : kCombines)
    if (k == c) return n;
  return "last";
}

std::optional<Combine> combine_from_name(std::string_view name) {
  for (const auto& [n, k] : kCombines)
    if (n == name) return k;
  return std::nullopt;
}

std::vector<std::string> combine_names() {
  std::vector<std::string> out;
  for (const auto& [n, k] : kCombines) out.emplace_back(n);
  return out;
}

}  // namespace polydat::frontend
