// The language's typing rules: literal promotion, widening, the
// signed/unsigned error, and which conversions are lossless.
#pragma once

#include <optional>
#include <string>

#include "ir/ty.h"

namespace polydat::frontend {

// The type of an expression before it meets a context: a concrete type, or
// an integer or float literal that will take the type of what it meets.
struct ETy {
  enum class Lit : uint8_t { None, Int, Float };
  Lit lit = Lit::None;
  ir::Ty ty;              // concrete type; for a literal, its default (u64 / i64 / f64)
  __int128 int_value = 0;  // Lit::Int

  static ETy of(ir::Ty t) { return ETy{Lit::None, std::move(t), 0}; }
  static ETy int_literal(__int128 v);
  static ETy float_literal();
  bool is_literal() const { return lit != Lit::None; }
};

// Whether an integer value fits a scalar type (bool: 0 or 1; floats: always).
bool fits(__int128 v, const ir::Ty& t);
std::string int_text(__int128 v);

// The common type of two operands of a binary operator (not << >> **),
// or an error message.
struct Unified {
  std::optional<ir::Ty> ty;
  std::string error;
  bool signed_unsigned = false;  // the error is the signed/unsigned mix
};
Unified unify(const ETy& a, const ETy& b);

// Whether a value of type `from` may silently become `to` where a type is
// declared (annotation, argument, loop variable): widening within a
// signedness, unsigned to a wider signed type, bool to an integer, an integer
// to a float that holds it exactly, f32 to f64.
bool lossless(const ir::Ty& from, const ir::Ty& to);

}  // namespace polydat::frontend
