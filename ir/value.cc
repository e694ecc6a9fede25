#include "ir/value.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <utility>

namespace polydat::ir {

Value Value::boolean(bool b) {
  Value v;
  v.ty_ = Ty::boolean();
  v.bits_ = b ? 1 : 0;
  return v;
}

Value Value::integer(TyKind k, uint64_t pattern) {
  Value v;
  v.ty_ = Ty::scalar(k);
  v.bits_ = truncate_bits(pattern, v.ty_.bits());
  return v;
}

Value Value::f32(float f) {
  Value v;
  v.ty_ = Ty::scalar(TyKind::F32);
  v.bits_ = std::bit_cast<uint32_t>(f);
  return v;
}

Value Value::f64(double d) {
  Value v;
  v.ty_ = Ty::scalar(TyKind::F64);
  v.bits_ = std::bit_cast<uint64_t>(d);
  return v;
}

Value Value::str(std::string s) {
  Value v;
  v.ty_ = Ty::str();
  v.str_ = std::move(s);
  return v;
}

Value Value::tuple(std::vector<Value> elems) {
  std::vector<Ty> tys;
  tys.reserve(elems.size());
  for (const Value& e : elems) tys.push_back(e.ty());
  Value v;
  v.ty_ = Ty::tuple(std::move(tys));
  v.elems_ = std::move(elems);
  return v;
}

Value Value::structure(const Ty& ty, std::vector<Value> fields) {
  Value v;
  v.ty_ = ty;
  v.elems_ = std::move(fields);
  return v;
}

Value Value::zero(const Ty& ty) {
  Value v;
  v.ty_ = ty;
  if (ty.is_product()) {
    v.elems_.reserve(ty.arity());
    for (size_t i = 0; i < ty.arity(); ++i) v.elems_.push_back(zero(ty.component(i)));
  }
  return v;
}

int64_t Value::as_i64() const {
  const unsigned w = ty_.bits();
  if (!ty_.is_signed_int() || w >= 64) return static_cast<int64_t>(bits_);
  const uint64_t sign = uint64_t{1} << (w - 1);
  return static_cast<int64_t>((bits_ ^ sign) - sign);
}

float Value::as_f32() const { return std::bit_cast<float>(static_cast<uint32_t>(bits_)); }
double Value::as_f64() const { return std::bit_cast<double>(bits_); }

namespace {
bool is_nan(const Value& v) {
  if (v.ty().kind() == TyKind::F32) return std::isnan(v.as_f32());
  if (v.ty().kind() == TyKind::F64) return std::isnan(v.as_f64());
  return false;
}

bool equal(const Value& a, const Value& b, int depth) {
  if (depth > kMaxTyDepth + 1) return false;  // deeper than any IR type
  if (!(a.ty() == b.ty())) return false;
  if (is_nan(a) && is_nan(b)) return true;
  if (a.bits() != b.bits() || a.as_str() != b.as_str() || a.elems().size() != b.elems().size())
    return false;
  for (size_t i = 0; i < a.elems().size(); ++i)
    if (!equal(a.elems()[i], b.elems()[i], depth + 1)) return false;
  return true;
}

template <class F>
std::string float_text(F f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

void render_into(std::string& out, const Value& v, int depth) {
  if (depth > kMaxTyDepth + 1) {
    out += "...";
    return;
  }
  const Ty& t = v.ty();
  switch (t.kind()) {
    case TyKind::Unit: out += "()"; return;
    case TyKind::Bool: out += v.as_bool() ? "true" : "false"; return;
    case TyKind::F32: out += float_text(v.as_f32()); return;
    case TyKind::F64: out += float_text(v.as_f64()); return;
    case TyKind::Str: out += v.as_str(); return;
    case TyKind::Tuple:
      out += '(';
      for (size_t i = 0; i < v.elems().size(); ++i) {
        if (i) out += ", ";
        render_into(out, v.elems()[i], depth + 1);
      }
      out += ')';
      return;
    case TyKind::Struct:
      out += '{';
      for (size_t i = 0; i < v.elems().size(); ++i) {
        if (i) out += ", ";
        out += t.field_name(i);
        out += ": ";
        render_into(out, v.elems()[i], depth + 1);
      }
      out += '}';
      return;
    default:
      out += t.is_signed_int() ? std::to_string(v.as_i64()) : std::to_string(v.as_u64());
      return;
  }
}
}  // namespace

bool operator==(const Value& a, const Value& b) { return equal(a, b, 0); }

std::string render(const Value& v) {
  std::string out;
  render_into(out, v, 0);
  return out;
}

std::string render_float(double d) { return float_text(d); }
std::string render_float(float f) { return float_text(f); }

}  // namespace polydat::ir
