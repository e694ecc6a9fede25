#include "sim/llvm/record_layout.h"

#include <cstring>

namespace polydat::sim {

namespace {

size_t leaf_size(ir::TyKind k) {
  if (k == ir::TyKind::Str) return sizeof(StrView);
  return k == ir::TyKind::Bool ? 1 : ir::Ty::scalar(k).bits() / 8;
}

// Leaves with their names, depth first (a type nests at most kMaxTyDepth deep).
void collect(const ir::Ty& ty, const std::string& name, std::vector<std::pair<std::string, ir::Ty>>& out) {
  if (!ty.is_product()) {
    if (!ty.is_unit()) out.emplace_back(name, ty);
    return;
  }
  for (size_t i = 0; i < ty.arity(); ++i) {
    const std::string part = ty.kind() == ir::TyKind::Struct ? ty.field_name(i) : std::to_string(i);
    collect(ty.component(i), name.empty() ? part : name + "_" + part, out);
  }
}

// Scalar leaves of a value in the order of leaf_types().
void flatten(const ir::Value& v, std::vector<const ir::Value*>& out) {
  if (!v.ty().is_product()) {
    if (!v.ty().is_unit()) out.push_back(&v);
    return;
  }
  for (const ir::Value& e : v.elems()) flatten(e, out);
}

ir::Value rebuild(const ir::Ty& ty, const std::vector<ir::Value>& leaves, size_t& next) {
  if (!ty.is_product()) return ty.is_unit() ? ir::Value() : leaves[next++];
  std::vector<ir::Value> elems;
  for (size_t i = 0; i < ty.arity(); ++i) elems.push_back(rebuild(ty.component(i), leaves, next));
  return ty.kind() == ir::TyKind::Struct ? ir::Value::structure(ty, std::move(elems)) : ir::Value::tuple(std::move(elems));
}

}  // namespace

std::vector<ir::Ty> leaf_types(const ir::Ty& ty) {
  std::vector<std::pair<std::string, ir::Ty>> named;
  collect(ty, "", named);
  std::vector<ir::Ty> out;
  for (auto& [n, t] : named) out.push_back(t);
  return out;
}

RecordLayout record_layout(const ir::Ty& ty, const std::string& name) {
  std::vector<std::pair<std::string, ir::Ty>> named;
  collect(ty, ty.is_product() ? "" : name, named);
  RecordLayout l;
  for (auto& [n, t] : named) {
    RecordField f{n, t.kind(), 0, leaf_size(t.kind())};
    const size_t align = t.is_str() ? alignof(StrView) : f.size;
    l.size = (l.size + align - 1) / align * align;
    f.offset = l.size;
    l.size += f.size;
    l.align = std::max(l.align, align);
    l.fields.push_back(std::move(f));
  }
  l.size = (l.size + l.align - 1) / l.align * l.align;
  return l;
}

void store_record(const RecordLayout& layout, const ir::Value& v, void* rec) {
  std::vector<const ir::Value*> leaves;
  flatten(v, leaves);
  auto* base = static_cast<unsigned char*>(rec);
  for (size_t i = 0; i < layout.fields.size(); ++i) {
    const RecordField& f = layout.fields[i];
    if (f.kind == ir::TyKind::Str) {
      const StrView s{leaves[i]->as_str().data(), leaves[i]->as_str().size()};
      std::memcpy(base + f.offset, &s, sizeof s);
    } else {
      const uint64_t bits = leaves[i]->bits();  // little-endian: the low bytes are the value
      std::memcpy(base + f.offset, &bits, f.size);
    }
  }
}

ir::Value load_record(const RecordLayout& layout, const ir::Ty& ty, const void* rec) {
  const auto* base = static_cast<const unsigned char*>(rec);
  std::vector<ir::Value> leaves;
  for (const RecordField& f : layout.fields) {
    if (f.kind == ir::TyKind::Str) {
      StrView s;
      std::memcpy(&s, base + f.offset, sizeof s);
      leaves.push_back(ir::Value::str(std::string(s.ptr, s.len)));
      continue;
    }
    uint64_t bits = 0;
    std::memcpy(&bits, base + f.offset, f.size);
    leaves.push_back(f.kind == ir::TyKind::Bool ? ir::Value::boolean(bits != 0) : ir::Value::integer(f.kind, bits));
  }
  size_t next = 0;
  return rebuild(ty, leaves, next);
}

}  // namespace polydat::sim
