#include "ir/ty.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace polydat::ir {

struct Ty::Composite {
  std::vector<Ty> elems;
  std::vector<std::string> field_names;  // structs only
  std::string name;                      // structs only
  int depth = 1;
};

Ty Ty::scalar(TyKind k) {
  assert(k != TyKind::Tuple && k != TyKind::Struct);
  Ty t;
  t.kind_ = k;
  return t;
}

namespace {
int depth_of(const std::vector<Ty>& elems) {
  int d = 0;
  for (const Ty& e : elems) d = std::max(d, e.depth());
  return d + 1;
}
}  // namespace

Ty Ty::tuple(std::vector<Ty> elems) {
  auto c = std::make_shared<Composite>();
  c->depth = depth_of(elems);
  c->elems = std::move(elems);
  Ty t;
  t.kind_ = TyKind::Tuple;
  t.comp_ = std::move(c);
  return t;
}

Ty Ty::structure(std::string name, std::vector<std::pair<std::string, Ty>> fields) {
  auto c = std::make_shared<Composite>();
  c->name = std::move(name);
  for (auto& [n, ty] : fields) {
    c->field_names.push_back(std::move(n));
    c->elems.push_back(std::move(ty));
  }
  c->depth = depth_of(c->elems);
  Ty t;
  t.kind_ = TyKind::Struct;
  t.comp_ = std::move(c);
  return t;
}

bool Ty::is_int() const {
  switch (kind_) {
    case TyKind::U8: case TyKind::U16: case TyKind::U32: case TyKind::U64:
    case TyKind::I8: case TyKind::I16: case TyKind::I32: case TyKind::I64:
      return true;
    default:
      return false;
  }
}

bool Ty::is_signed_int() const {
  return kind_ == TyKind::I8 || kind_ == TyKind::I16 || kind_ == TyKind::I32 || kind_ == TyKind::I64;
}

bool Ty::is_unsigned_int() const { return is_int() && !is_signed_int(); }

unsigned Ty::bits() const {
  switch (kind_) {
    case TyKind::Bool: return 1;
    case TyKind::U8: case TyKind::I8: return 8;
    case TyKind::U16: case TyKind::I16: return 16;
    case TyKind::U32: case TyKind::I32: case TyKind::F32: return 32;
    case TyKind::U64: case TyKind::I64: case TyKind::F64: return 64;
    default: return 0;
  }
}

size_t Ty::arity() const { return comp_ ? comp_->elems.size() : 0; }

const Ty& Ty::component(size_t i) const { return comp_->elems.at(i); }

const std::string& Ty::struct_name() const {
  static const std::string empty;
  return kind_ == TyKind::Struct ? comp_->name : empty;
}

const std::string& Ty::field_name(size_t i) const {
  static const std::string empty;
  return kind_ == TyKind::Struct ? comp_->field_names.at(i) : empty;
}

int Ty::depth() const { return comp_ ? comp_->depth : 1; }

// Iterative: types built outside the builder may be arbitrarily deep.
bool operator==(const Ty& a, const Ty& b) {
  std::vector<std::pair<const Ty*, const Ty*>> work{{&a, &b}};
  while (!work.empty()) {
    auto [x, y] = work.back();
    work.pop_back();
    if (x->kind_ != y->kind_) return false;
    if (x->comp_ == y->comp_) continue;  // same payload (or both scalar)
    const auto& cx = *x->comp_;
    const auto& cy = *y->comp_;
    if (cx.name != cy.name || cx.field_names != cy.field_names || cx.elems.size() != cy.elems.size())
      return false;
    for (size_t i = 0; i < cx.elems.size(); ++i) work.emplace_back(&cx.elems[i], &cy.elems[i]);
  }
  return true;
}

const char* scalar_name(TyKind k) {
  switch (k) {
    case TyKind::Unit: return "()";
    case TyKind::Bool: return "bool";
    case TyKind::U8: return "u8";
    case TyKind::U16: return "u16";
    case TyKind::U32: return "u32";
    case TyKind::U64: return "u64";
    case TyKind::I8: return "i8";
    case TyKind::I16: return "i16";
    case TyKind::I32: return "i32";
    case TyKind::I64: return "i64";
    case TyKind::F32: return "f32";
    case TyKind::F64: return "f64";
    case TyKind::Str: return "str";
    case TyKind::Tuple: return "tuple";
    case TyKind::Struct: return "struct";
  }
  return "?";
}

// Structs print by name (their fields are in the declaration); tuples in full.
// Iterative with an explicit stack of (type, next component) frames.
std::string ty_label(const Ty& t) {
  std::string out;
  std::vector<std::pair<const Ty*, size_t>> stack{{&t, 0}};
  while (!stack.empty()) {
    auto& [ty, next] = stack.back();
    if (ty->kind() != TyKind::Tuple) {
      out += ty->kind() == TyKind::Struct ? ty->struct_name() : scalar_name(ty->kind());
      stack.pop_back();
      continue;
    }
    if (next == ty->arity()) {
      out += ')';
      stack.pop_back();
      continue;
    }
    out += next == 0 ? "(" : ", ";
    const Ty* child = &ty->component(next++);
    stack.emplace_back(child, 0);
  }
  return out;
}

std::string ty_problem(const Ty& t) {
  if (t.depth() > kMaxTyDepth) return "type nests deeper than " + std::to_string(kMaxTyDepth);
  std::vector<const Ty*> work{&t};
  while (!work.empty()) {
    const Ty* x = work.back();
    work.pop_back();
    if (x->kind() == TyKind::Tuple && x->arity() < 2) return "a tuple needs at least two components";
    if (x->kind() == TyKind::Struct && x->arity() < 1) return "a struct needs at least one field";
    for (size_t i = 0; i < x->arity(); ++i) {
      if (x->component(i).is_unit()) return "() cannot be a component of a product";
      work.push_back(&x->component(i));
    }
  }
  return {};
}

Ty int_ty(bool is_signed, unsigned bits) {
  switch (bits) {
    case 8: return Ty::scalar(is_signed ? TyKind::I8 : TyKind::U8);
    case 16: return Ty::scalar(is_signed ? TyKind::I16 : TyKind::U16);
    case 32: return Ty::scalar(is_signed ? TyKind::I32 : TyKind::U32);
    default: return Ty::scalar(is_signed ? TyKind::I64 : TyKind::U64);
  }
}

}  // namespace polydat::ir
