#include "workload/cells.h"

#include <cmath>

namespace polydat::workload {

using ir::TyKind;

namespace {
bool is_int(const ir::Ty& t) { return t.is_int(); }
bool is_float(const ir::Ty& t) { return t.kind() == TyKind::F32 || t.kind() == TyKind::F64; }
// Every value of `from` is a value of `to` (integers by range, into floats by mantissa width).
bool widens(const ir::Ty& from, const ir::Ty& to) {
  if (is_int(from) && is_int(to)) {
    if (from.is_signed_int() == to.is_signed_int()) return from.bits() <= to.bits();
    return !from.is_signed_int() && from.bits() < to.bits();  // u32 -> i64
  }
  if (is_int(from) && is_float(to)) return from.bits() < (to.kind() == TyKind::F64 ? 53u : 24u);
  return from.kind() == TyKind::F32 && to.kind() == TyKind::F64;
}
}  // namespace

bool writable_into(const ir::Ty& written, const ir::Ty& cell) {
  if (written == cell) return true;
  if (written.kind() == TyKind::Bool) return is_int(cell);
  if (cell.kind() == TyKind::Bool) return is_int(written);
  return widens(written, cell);
}

ir::Expected<ir::Value, std::string> value_for_cell(const ir::Value& w, const ir::Ty& cell) {
  const ir::Ty& t = w.ty();
  if (t == cell) return w;
  if (t.kind() == TyKind::Bool && is_int(cell)) return ir::Value::integer(cell.kind(), w.as_bool() ? 1 : 0);
  if (cell.kind() == TyKind::Bool && is_int(t)) {
    if (w.bits() > 1) return std::string("a bool cell takes 0 or 1, not " + ir::render(w));
    return ir::Value::boolean(w.bits() == 1);
  }
  if (!widens(t, cell))
    return std::string("a " + ir::ty_label(t) + " value cannot be stored in a " + ir::ty_label(cell) +
                       " cell without loss");
  if (is_int(cell)) return ir::Value::integer(cell.kind(), static_cast<uint64_t>(t.is_signed_int() ? w.as_i64() : w.as_u64()));
  const double d = is_float(t) ? (t.kind() == TyKind::F64 ? w.as_f64() : w.as_f32())
                   : t.is_signed_int() ? static_cast<double>(w.as_i64())
                                       : static_cast<double>(w.as_u64());
  return cell.kind() == TyKind::F64 ? ir::Value::f64(d) : ir::Value::f32(static_cast<float>(d));
}

bool combine_allows(frontend::Combine c, const ir::Ty& cell) {
  switch (c) {
    case frontend::Combine::Last: return true;
    case frontend::Combine::Sum: return is_int(cell) || is_float(cell);
    case frontend::Combine::Min:
    case frontend::Combine::Max: return is_int(cell) || is_float(cell) || cell.kind() == TyKind::Str;
    case frontend::Combine::Count: return is_int(cell);
  }
  return false;
}

namespace {
// -1, 0, 1 as a < b, a == b, a > b (NaN compares as neither smaller nor larger).
int compare(const ir::Value& a, const ir::Value& b) {
  const ir::Ty& t = a.ty();
  if (t.kind() == TyKind::Str) return a.as_str() < b.as_str() ? -1 : a.as_str() > b.as_str() ? 1 : 0;
  if (is_float(t)) {
    const double x = t.kind() == TyKind::F64 ? a.as_f64() : a.as_f32();
    const double y = t.kind() == TyKind::F64 ? b.as_f64() : b.as_f32();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (t.is_signed_int()) return a.as_i64() < b.as_i64() ? -1 : a.as_i64() > b.as_i64() ? 1 : 0;
  return a.as_u64() < b.as_u64() ? -1 : a.as_u64() > b.as_u64() ? 1 : 0;
}
}  // namespace

ir::Value combine(frontend::Combine c, const ir::Value& cell, const ir::Value& w) {
  const ir::Ty& t = cell.ty();
  switch (c) {
    case frontend::Combine::Last: return w;
    case frontend::Combine::Sum:
      if (t.kind() == TyKind::F64) return ir::Value::f64(cell.as_f64() + w.as_f64());
      if (t.kind() == TyKind::F32) return ir::Value::f32(cell.as_f32() + w.as_f32());
      return ir::Value::integer(t.kind(), cell.bits() + w.bits());  // wraps at the type's width
    case frontend::Combine::Min: return compare(w, cell) < 0 ? w : cell;
    case frontend::Combine::Max: return compare(w, cell) > 0 ? w : cell;
    case frontend::Combine::Count: return ir::Value::integer(t.kind(), cell.bits() + 1);
  }
  return w;
}

}  // namespace polydat::workload
