#include "frontend/ast.h"

#include "ir/partition.h"

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
  if (name == "Partition") return ir::partition_ty();  // a cursor's partition (frontend/cursors.h)
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

std::shared_ptr<const std::set<std::string>> no_locals() {
  static const auto none = std::make_shared<const std::set<std::string>>();
  return none;
}

void names_read(const Expr& root, std::shared_ptr<const std::set<std::string>> locals,
                std::vector<std::pair<std::string, Span>>& out) {
  struct Item {
    const Expr* e;
    std::shared_ptr<const std::set<std::string>> locals;
  };
  std::vector<Item> work{{&root, std::move(locals)}};
  while (!work.empty()) {
    Item it = work.back();
    work.pop_back();
    if (it.e == nullptr) continue;
    const Expr& e = *it.e;
    if (e.kind == ExprKind::Name && !it.locals->count(e.name)) out.emplace_back(e.name, e.span);
    for (const ExprPtr& c : e.operands) work.push_back({c.get(), it.locals});
    for (const ExprPtr& c : e.interpolated) work.push_back({c.get(), it.locals});
    for (const Arg& a : e.args) work.push_back({a.value.get(), it.locals});
    if (e.kind != ExprKind::Loop) continue;
    auto inner = std::make_shared<std::set<std::string>>(*it.locals);
    for (const LoopVar& v : e.vars) {
      work.push_back({v.init.get(), it.locals});
      inner->insert(v.name);
    }
    work.push_back({e.guard.get(), inner});
    work.push_back({e.yield.get(), inner});
    // Body statements in order: each local is visible to the ones after it.
    std::shared_ptr<const std::set<std::string>> running = inner;
    for (const StmtPtr& s : e.body) {
      if (s->value) work.push_back({s->value.get(), running});
      auto next = std::make_shared<std::set<std::string>>(*running);
      if (s->kind == StmtKind::Binding) next->insert(s->name);
      for (const auto& [n, sp] : s->names) next->insert(n);
      running = next;
    }
  }
}

}  // namespace polydat::frontend
