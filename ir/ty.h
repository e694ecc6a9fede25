// The IR's type universe: scalars, str, unit, tuples and named structs.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace polydat::ir {

enum class TyKind : uint8_t {
  Unit, Bool, U8, U16, U32, U64, I8, I16, I32, I64, F32, F64, Str, Tuple, Struct,
};

// Types nest at most this deep (tuples of tuples...); deeper ones are refused on intake.
inline constexpr int kMaxTyDepth = 64;

// An immutable type value with structural equality. Composite payloads are
// shared, so copying a Ty is cheap.
class Ty {
 public:
  Ty() = default;  // unit
  static Ty scalar(TyKind k);  // any kind but Tuple/Struct
  static Ty unit() { return Ty(); }
  static Ty boolean() { return scalar(TyKind::Bool); }
  static Ty u64() { return scalar(TyKind::U64); }
  static Ty str() { return scalar(TyKind::Str); }
  // Tuples and structs are built as given; arity and depth rules are checked
  // by the builder and validator (see ty_problem()), not here.
  static Ty tuple(std::vector<Ty> elems);
  static Ty structure(std::string name, std::vector<std::pair<std::string, Ty>> fields);

  TyKind kind() const { return kind_; }
  bool is_unit() const { return kind_ == TyKind::Unit; }
  bool is_bool() const { return kind_ == TyKind::Bool; }
  bool is_int() const;
  bool is_signed_int() const;
  bool is_unsigned_int() const;
  bool is_float() const { return kind_ == TyKind::F32 || kind_ == TyKind::F64; }
  bool is_numeric() const { return is_int() || is_float(); }
  bool is_scalar() const { return is_bool() || is_numeric(); }  // has a bit width
  bool is_str() const { return kind_ == TyKind::Str; }
  bool is_product() const { return kind_ == TyKind::Tuple || kind_ == TyKind::Struct; }

  // Bit width of a scalar (bool is 1); 0 for everything else.
  unsigned bits() const;
  // Components of a tuple or struct (empty otherwise).
  size_t arity() const;
  const Ty& component(size_t i) const;
  // Struct name and field names (empty for other kinds).
  const std::string& struct_name() const;
  const std::string& field_name(size_t i) const;
  // Nesting depth: scalars 1, a tuple of scalars 2, ... (computed at construction).
  int depth() const;

  friend bool operator==(const Ty& a, const Ty& b);

 private:
  struct Composite;
  TyKind kind_ = TyKind::Unit;
  std::shared_ptr<const Composite> comp_;
};

// The type's text as dumps and diagnostics show it: u64, (u64, bool), Point, str, ().
std::string ty_label(const Ty& t);
const char* scalar_name(TyKind k);

// Why `t` is not an IR type (tuple arity < 2, struct without fields, too deep,
// unit inside a product), or empty when it is one. Iterative.
std::string ty_problem(const Ty& t);

// The same signedness, another width; used by casts and the typing rules.
Ty int_ty(bool is_signed, unsigned bits);

}  // namespace polydat::ir
