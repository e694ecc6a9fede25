#include "ir/semantics.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <string>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>

namespace polydat::ir {

namespace {

uint64_t ones(unsigned w) { return truncate_bits(~uint64_t{0}, w); }

Value int_value(const Ty& t, uint64_t pattern) { return Value::integer(t.kind(), pattern); }

Value float_value(const Ty& t, double d) {
  return t.kind() == TyKind::F32 ? Value::f32(static_cast<float>(d)) : Value::f64(d);
}

// RISC-V: x / 0 is all ones, x % 0 is x; signed MIN / -1 is MIN, MIN % -1 is 0.
Value int_divide(OpKind op, const Value& l, const Value& r) {
  const Ty& t = l.ty();
  const unsigned w = t.bits();
  if (r.bits() == 0) return int_value(t, op == OpKind::Div ? ones(w) : l.bits());
  if (!t.is_signed_int()) return int_value(t, op == OpKind::Div ? l.bits() / r.bits() : l.bits() % r.bits());
  const int64_t a = l.as_i64();
  const int64_t b = r.as_i64();
  if (a == std::numeric_limits<int64_t>::min() && b == -1)  // only reachable at 64 bits
    return int_value(t, op == OpKind::Div ? l.bits() : 0);
  // Narrower MIN / -1 gives 2^(w-1), which truncates back to MIN.
  return int_value(t, static_cast<uint64_t>(op == OpKind::Div ? a / b : a % b));
}

uint64_t int_pow(uint64_t base, uint64_t exp) {
  uint64_t acc = 1;
  while (exp) {
    if (exp & 1) acc *= base;
    base *= base;
    exp >>= 1;
  }
  return acc;
}

// Shift and rotate amounts are the right operand's unsigned value, any width.
Value shift_or_rotate(OpKind op, const Value& l, uint64_t amount) {
  const Ty& t = l.ty();
  const unsigned w = t.bits();
  const uint64_t x = l.bits();
  switch (op) {
    case OpKind::Shl: return int_value(t, amount >= w ? 0 : x << amount);
    case OpKind::Shr:
      if (t.is_signed_int()) {
        const int64_t s = l.as_i64();
        return int_value(t, static_cast<uint64_t>(amount >= w ? (s < 0 ? -1 : 0) : s >> amount));
      }
      return int_value(t, amount >= w ? 0 : x >> amount);
    case OpKind::Rotl:
    case OpKind::Rotr: {
      unsigned k = static_cast<unsigned>(amount % w);
      if (op == OpKind::Rotr) k = (w - k) % w;
      return int_value(t, k == 0 ? x : (x << k) | (x >> (w - k)));
    }
    default: return l;
  }
}

Value int_binary(OpKind op, const Value& l, const Value& r) {
  const Ty& t = l.ty();
  const uint64_t a = l.bits(), b = r.bits();
  switch (op) {
    case OpKind::Add: return int_value(t, a + b);
    case OpKind::Sub: return int_value(t, a - b);
    case OpKind::Mul: return int_value(t, a * b);
    case OpKind::Div:
    case OpKind::Mod: return int_divide(op, l, r);
    case OpKind::And: return int_value(t, a & b);
    case OpKind::Or: return int_value(t, a | b);
    case OpKind::Xor: return int_value(t, a ^ b);
    case OpKind::Pow: return int_value(t, int_pow(a, b));
    case OpKind::Shl:
    case OpKind::Shr:
    case OpKind::Rotl:
    case OpKind::Rotr: return shift_or_rotate(op, l, b);
    default: break;
  }
  const bool s = t.is_signed_int();
  const int64_t sa = l.as_i64(), sb = r.as_i64();
  switch (op) {
    case OpKind::Eq: return Value::boolean(a == b);
    case OpKind::Neq: return Value::boolean(a != b);
    case OpKind::Lt: return Value::boolean(s ? sa < sb : a < b);
    case OpKind::Gt: return Value::boolean(s ? sa > sb : a > b);
    case OpKind::Le: return Value::boolean(s ? sa <= sb : a <= b);
    case OpKind::Ge: return Value::boolean(s ? sa >= sb : a >= b);
    default: return l;
  }
}

template <class F>
Value float_binary(OpKind op, const Ty& t, F a, F b) {
  switch (op) {
    case OpKind::Add: return float_value(t, a + b);
    case OpKind::Sub: return float_value(t, a - b);
    case OpKind::Mul: return float_value(t, a * b);
    case OpKind::Div: return float_value(t, a / b);
    case OpKind::Mod: return float_value(t, std::fmod(a, b));
    case OpKind::Pow: return float_value(t, std::pow(a, b));
    case OpKind::Atan2: return float_value(t, std::atan2(a, b));
    case OpKind::Eq: return Value::boolean(a == b);
    case OpKind::Neq: return Value::boolean(!(a == b));
    case OpKind::Lt: return Value::boolean(a < b);
    case OpKind::Gt: return Value::boolean(a > b);
    case OpKind::Le: return Value::boolean(a <= b);
    case OpKind::Ge: return Value::boolean(a >= b);
    default: return float_value(t, a);
  }
}

// Truncate toward zero, saturate to the target's range; NaN is 0.
uint64_t float_to_int(double d, const Ty& to) {
  const unsigned w = to.bits();
  if (std::isnan(d)) return 0;
  const double t = std::trunc(d);
  if (to.is_signed_int()) {
    const double lo = -std::ldexp(1.0, static_cast<int>(w) - 1);  // -2^(w-1), exact
    if (t < lo) return truncate_bits(uint64_t{1} << (w - 1), w);  // MIN
    if (t >= -lo) return ones(w) >> 1;                            // MAX
    return truncate_bits(static_cast<uint64_t>(static_cast<int64_t>(t)), w);
  }
  if (t <= 0) return 0;
  if (t >= std::ldexp(1.0, static_cast<int>(w))) return ones(w);
  return static_cast<uint64_t>(t);
}

}  // namespace

// The C library's functions and the exact roundings, at the float's own type
// (sinf for f32): the LLVM engine calls the same functions.
template <class F>
Value float_unary(OpKind op, const Ty& t, F a) {
  switch (op) {
    case OpKind::Sqrt: return float_value(t, std::sqrt(a));
    case OpKind::Exp: return float_value(t, std::exp(a));
    case OpKind::Ln: return float_value(t, std::log(a));
    case OpKind::Sin: return float_value(t, std::sin(a));
    case OpKind::Cos: return float_value(t, std::cos(a));
    case OpKind::Tan: return float_value(t, std::tan(a));
    case OpKind::Asin: return float_value(t, std::asin(a));
    case OpKind::Acos: return float_value(t, std::acos(a));
    case OpKind::Atan: return float_value(t, std::atan(a));
    case OpKind::Floor: return float_value(t, std::floor(a));
    case OpKind::Ceil: return float_value(t, std::ceil(a));
    case OpKind::Round: return float_value(t, std::round(a));
    case OpKind::Trunc: return float_value(t, std::trunc(a));
    case OpKind::Abs: return float_value(t, std::fabs(a));
    default: return float_value(t, a);
  }
}

static bool is_float_math(OpKind op) { return op >= OpKind::Sqrt && op <= OpKind::Abs && op != OpKind::Atan2; }

Value eval_unary(OpKind op, const Value& x) {
  const Ty& t = x.ty();
  const unsigned w = t.bits();
  if (is_float_math(op)) return t.kind() == TyKind::F32 ? float_unary(op, t, x.as_f32()) : float_unary(op, t, x.as_f64());
  switch (op) {
    case OpKind::Neg:
      if (t.kind() == TyKind::F32) return Value::f32(-x.as_f32());
      if (t.kind() == TyKind::F64) return Value::f64(-x.as_f64());
      return int_value(t, uint64_t{0} - x.bits());
    case OpKind::Not:
      if (t.is_bool()) return Value::boolean(!x.as_bool());
      return int_value(t, ~x.bits());
    case OpKind::Popcount: return int_value(t, static_cast<uint64_t>(std::popcount(x.bits())));
    case OpKind::Clz:
      return int_value(t, x.bits() == 0 ? w : static_cast<uint64_t>(std::countl_zero(x.bits())) - (64 - w));
    case OpKind::Ctz:
      return int_value(t, x.bits() == 0 ? w : static_cast<uint64_t>(std::countr_zero(x.bits())));
    case OpKind::ToStr: return Value::str(render(x));
    case OpKind::Hex: {
      char buf[20];
      auto res = std::to_chars(buf, buf + sizeof buf, x.bits(), 16);
      return Value::str(std::string(buf, res.ptr));
    }
    default: return x;
  }
}

std::string format_radix(uint64_t value, uint64_t radix) {
  const char* prefix = radix == 2 ? "0b" : radix == 8 ? "0o" : radix == 16 ? "0x" : "";
  const int base = radix == 2 || radix == 8 || radix == 16 ? static_cast<int>(radix) : 10;
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, value, base).ptr;
  return prefix + std::string(buf, end);
}

std::string format_fixed(double value, uint64_t precision) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  // glibc's printf rounds the exact value to nearest, ties to even, as Rust's formatter does.
  const int p = static_cast<int>(std::min(precision, kMaxFormatWidth));
  const int n = std::snprintf(nullptr, 0, "%.*f", p, value);
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), "%.*f", p, value);
  out.pop_back();
  return out;
}

Value eval_binary(OpKind op, const Value& l, const Value& r) {
  const Ty& t = l.ty();
  if (op == OpKind::Concat) return Value::str(l.as_str() + r.as_str());
  if (op == OpKind::FormatRadix) return Value::str(format_radix(l.as_u64(), r.as_u64()));
  if (op == OpKind::FormatFixed)
    return Value::str(format_fixed(t.kind() == TyKind::F32 ? static_cast<double>(l.as_f32()) : l.as_f64(), r.as_u64()));
  if (op == OpKind::FormatDec) {  // zero-padded to at least the width, never truncated
    std::string digits = std::to_string(l.as_u64());
    const uint64_t width = std::min(r.as_u64(), kMaxFormatWidth);
    if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
    return Value::str(std::move(digits));
  }
  if (t.kind() == TyKind::F32) return float_binary(op, t, l.as_f32(), r.as_f32());
  if (t.kind() == TyKind::F64) return float_binary(op, t, l.as_f64(), r.as_f64());
  if (t.is_bool()) {  // logical And/Or/Xor and Eq/Neq on 0/1
    const bool a = l.as_bool(), b = r.as_bool();
    switch (op) {
      case OpKind::And: return Value::boolean(a && b);
      case OpKind::Or: return Value::boolean(a || b);
      case OpKind::Xor: return Value::boolean(a != b);
      case OpKind::Eq: return Value::boolean(a == b);
      case OpKind::Neq: return Value::boolean(a != b);
      default: return l;
    }
  }
  return int_binary(op, l, r);
}

Value eval_cast(const Value& x, const Ty& to) {
  const Ty& from = x.ty();
  if (to.is_bool()) {
    if (from.kind() == TyKind::F32) return Value::boolean(x.as_f32() != 0.0f);
    if (from.kind() == TyKind::F64) return Value::boolean(x.as_f64() != 0.0);
    return Value::boolean(x.bits() != 0);
  }
  if (to.is_int()) {
    if (from.kind() == TyKind::F32) return int_value(to, float_to_int(x.as_f32(), to));
    if (from.kind() == TyKind::F64) return int_value(to, float_to_int(x.as_f64(), to));
    // Integers and bool: sign-extend from a signed source, then truncate.
    return int_value(to, from.is_signed_int() ? static_cast<uint64_t>(x.as_i64()) : x.bits());
  }
  // To a float: one rounding, straight to the target width.
  const bool to32 = to.kind() == TyKind::F32;
  if (from.kind() == TyKind::F32) return to32 ? x : Value::f64(static_cast<double>(x.as_f32()));
  if (from.kind() == TyKind::F64) return to32 ? Value::f32(static_cast<float>(x.as_f64())) : x;
  if (from.is_signed_int())
    return to32 ? Value::f32(static_cast<float>(x.as_i64())) : Value::f64(static_cast<double>(x.as_i64()));
  return to32 ? Value::f32(static_cast<float>(x.bits())) : Value::f64(static_cast<double>(x.bits()));
}

}  // namespace polydat::ir
