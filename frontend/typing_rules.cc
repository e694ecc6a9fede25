#include "frontend/typing_rules.h"

namespace polydat::frontend {

using ir::Ty;
using ir::TyKind;

ETy ETy::int_literal(__int128 v) {
  // With no other type in sight: u64, or i64 for a negative literal.
  return ETy{Lit::Int, v < 0 ? Ty::scalar(TyKind::I64) : Ty::u64(), v};
}

ETy ETy::float_literal() { return ETy{Lit::Float, Ty::scalar(TyKind::F64), 0}; }

bool fits(__int128 v, const Ty& t) {
  if (t.is_float()) return true;
  if (t.is_bool()) return v == 0 || v == 1;
  if (!t.is_int()) return false;
  const unsigned w = t.bits();
  if (t.is_signed_int()) {
    const __int128 lo = -(static_cast<__int128>(1) << (w - 1));
    return v >= lo && v < -lo;
  }
  return v >= 0 && v < (static_cast<__int128>(1) << w);
}

std::string int_text(__int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 m = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string s;
  while (m) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return neg ? "-" + s : s;
}

namespace {
Unified ok(Ty t) { return Unified{std::move(t), {}, false}; }
Unified no(std::string why, bool su = false) { return Unified{std::nullopt, std::move(why), su}; }

Ty wider(const Ty& a, const Ty& b) { return a.bits() >= b.bits() ? a : b; }

// Both concrete.
Unified unify_types(const Ty& a, const Ty& b) {
  if (a == b) return ok(a);
  const std::string pair = ir::ty_label(a) + " and " + ir::ty_label(b);
  if (a.is_int() && b.is_int()) {
    if (a.is_signed_int() != b.is_signed_int())
      return no("cannot mix " + pair + ": signed meets unsigned; convert one with `as`", true);
    return ok(wider(a, b));
  }
  if (a.is_float() && b.is_float()) return ok(wider(a, b));
  if (a.is_int() && b.is_float()) return ok(b);
  if (a.is_float() && b.is_int()) return ok(a);
  if (a.is_bool() && b.is_int()) return ok(b);
  if (a.is_int() && b.is_bool()) return ok(a);
  return no("cannot combine " + pair);
}

Unified literal_meets(const ETy& lit, const Ty& t) {
  if (lit.lit == ETy::Lit::Int) {
    if (t.is_bool()) return ok(Ty::u64());  // bool meeting an integer literal: both u64
    if (t.is_str()) return no("cannot combine an integer with str");
    if (!fits(lit.int_value, t))
      return no("the literal " + int_text(lit.int_value) + " does not fit " + ir::ty_label(t));
    return ok(t);
  }
  if (t.is_float()) return ok(t);  // a float literal takes the other float's type
  if (t.is_int()) return ok(lit.ty);  // the integer converts to the literal's f64
  return no("cannot combine a float with " + ir::ty_label(t));
}
}  // namespace

Unified unify(const ETy& a, const ETy& b) {
  if (!a.is_literal() && !b.is_literal()) return unify_types(a.ty, b.ty);
  if (a.is_literal() && !b.is_literal()) return literal_meets(a, b.ty);
  if (!a.is_literal() && b.is_literal()) return literal_meets(b, a.ty);
  if (a.lit == ETy::Lit::Float || b.lit == ETy::Lit::Float) return ok(Ty::scalar(TyKind::F64));
  // Two integer literals: u64 if both fit, else i64 if both fit.
  if (fits(a.int_value, Ty::u64()) && fits(b.int_value, Ty::u64())) return ok(Ty::u64());
  const Ty i64 = Ty::scalar(TyKind::I64);
  if (fits(a.int_value, i64) && fits(b.int_value, i64)) return ok(i64);
  return no("the literals " + int_text(a.int_value) + " and " + int_text(b.int_value) + " share no type");
}

bool lossless(const Ty& from, const Ty& to) {
  if (from == to) return true;
  if (from.is_bool()) return to.is_int();
  if (from.is_int() && to.is_int()) {
    if (from.is_signed_int() == to.is_signed_int()) return to.bits() >= from.bits();
    return from.is_unsigned_int() && to.bits() > from.bits();
  }
  if (from.is_int() && to.is_float()) {
    const unsigned mantissa = to.kind() == TyKind::F32 ? 24 : 53;
    return from.bits() <= mantissa;  // every value is exact
  }
  return from.kind() == TyKind::F32 && to.kind() == TyKind::F64;
}

}  // namespace polydat::frontend
