#include "ir/library_fn.h"

#include <vector>

namespace polydat::ir {

std::span<const LibraryFn> library_fns() {
  static const std::vector<LibraryFn> all = [] {
    std::vector<LibraryFn> v;
    for (const LibraryFn& f : text_library_fns()) v.push_back(f);
    for (const LibraryFn& f : partition_library_fns()) v.push_back(f);
    return v;
  }();
  return all;
}

std::optional<uint32_t> find_library_fn(std::string_view name) {
  const auto fns = library_fns();
  for (uint32_t i = 0; i < fns.size(); ++i)
    if (fns[i].name == name) return i;
  return std::nullopt;
}

Ty library_ty(LibTy t) {
  switch (t) {
    case LibTy::U64: return Ty::u64();
    case LibTy::F64: return Ty::scalar(TyKind::F64);
    case LibTy::Bool: return Ty::scalar(TyKind::Bool);
    case LibTy::Str: case LibTy::Any: return Ty::str();
  }
  return Ty::str();
}

bool library_admits(LibTy want, const Ty& t) {
  return want == LibTy::Any ? t.is_scalar() || t.is_str() : t == library_ty(want);
}

std::vector<Ty> library_args(const Ty& source) {
  if (source.kind() == TyKind::Tuple) {
    std::vector<Ty> args;
    for (size_t i = 0; i < source.arity(); ++i) args.push_back(source.component(i));
    return args;
  }
  return {source};
}

std::optional<Ty> library_result(uint32_t fn, const Ty& source) {
  const auto fns = library_fns();
  if (fn >= fns.size()) return std::nullopt;
  const LibraryFn& f = fns[fn];
  const std::vector<Ty> args = library_args(source);
  const size_t fixed = f.variadic ? f.params.size() - 1 : f.params.size();
  if (args.size() < fixed || (!f.variadic && args.size() > fixed)) return std::nullopt;
  if (args.size() == 1 && source.kind() == TyKind::Tuple) return std::nullopt;  // one argument comes bare
  for (size_t i = 0; i < args.size(); ++i)
    if (!library_admits(f.params[std::min(i, f.params.size() - 1)], args[i])) return std::nullopt;
  return library_ty(f.result);
}

Value eval_library(uint32_t fn, const Value& arg) {
  const LibraryFn& f = library_fns()[fn];
  if (arg.ty().kind() == TyKind::Tuple) return f.eval(arg.elems());
  return f.eval(std::span<const Value>(&arg, 1));
}

}  // namespace polydat::ir

