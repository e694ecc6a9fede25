// The adapter catalog: which IR type converts to which host-facing type, how
// faithfully, and the conversion of one value through it.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "frontend/embed.h"
#include "ir/semantics.h"

namespace polydat::embed {

using ir::TyKind;
using ir::Value;

namespace {
// The host-facing target kinds: the matrix's columns.
constexpr std::array<TyKind, 12> kTargets = {TyKind::Bool, TyKind::U8,  TyKind::U16, TyKind::U32,
                                             TyKind::U64,  TyKind::I8,  TyKind::I16, TyKind::I32,
                                             TyKind::I64,  TyKind::F32, TyKind::F64, TyKind::Str};

struct CatalogRow {
  TyKind from;
  const char* cells;  // one per target: '=' identity, 'L' lossless, 'y' lossy, '.' no adapter
};

// THE CATALOG. Lossless: widening within a signedness, unsigned -> a wider
// signed type, integers -> a float whose mantissa holds them (24 bits for f32,
// 53 for f64), bool -> any number, f32 -> f64, anything -> str (rendered).
// Lossy: narrowing, signed -> unsigned, unsigned -> signed of the same or a
// smaller width, wide integers -> floats, floats -> integers, f64 -> f32,
// anything numeric -> bool. str converts to nothing but itself.
constexpr CatalogRow kCatalog[] = {
    //                 to: b 8 16 32 64 | i8 16 32 64 | f32 f64 | str
    {TyKind::Bool,   "=LLLLLLLLLLL"},
    {TyKind::U8,     "y=LLLyLLLLLL"},
    {TyKind::U16,    "yy=LLyyLLLLL"},
    {TyKind::U32,    "yyy=LyyyLyLL"},
    {TyKind::U64,    "yyyy=yyyyyyL"},
    {TyKind::I8,     "yyyyy=LLLLLL"},
    {TyKind::I16,    "yyyyyy=LLLLL"},
    {TyKind::I32,    "yyyyyyy=LyLL"},
    {TyKind::I64,    "yyyyyyyy=yyL"},
    {TyKind::F32,    "yyyyyyyyy=LL"},
    {TyKind::F64,    "yyyyyyyyyy=L"},
    {TyKind::Str,    "...........="},
    {TyKind::Tuple,  "...........L"},
    {TyKind::Struct, "...........L"},
};

std::vector<Adapter> build_catalog() {
  std::vector<Adapter> out;
  for (const CatalogRow& row : kCatalog)
    for (size_t c = 0; c < kTargets.size(); ++c) {
      const char cell = row.cells[c];
      if (cell == '.') continue;
      out.push_back(Adapter{row.from, kTargets[c], cell == 'y' ? Fidelity::Lossy : Fidelity::Lossless});
    }
  return out;
}
}  // namespace

std::span<const Adapter> adapter_catalog() {
  static const std::vector<Adapter> catalog = build_catalog();
  return catalog;
}

std::optional<Fidelity> find_adapter(const ir::Ty& from, const ir::Ty& to) {
  for (const Adapter& a : adapter_catalog())
    if (a.from == from.kind() && a.to == to.kind()) return a.fidelity;
  return std::nullopt;
}

bool is_lossless_adapter(const ir::Ty& from, const ir::Ty& to) {
  auto f = find_adapter(from, to);
  return f && *f == Fidelity::Lossless;
}

namespace {
// Whether the integer value v is a value of integer type `to` (no wrapping).
bool int_fits(const Value& v, const ir::Ty& to) {
  const unsigned w = to.bits();
  if (v.ty().is_signed_int()) {
    const int64_t s = v.as_i64();
    if (to.is_unsigned_int()) return s >= 0 && (w >= 64 || static_cast<uint64_t>(s) < (uint64_t{1} << w));
    if (w >= 64) return true;
    const int64_t half = int64_t{1} << (w - 1);
    return s >= -half && s < half;
  }
  const uint64_t u = v.as_u64();
  if (to.is_unsigned_int()) return w >= 64 || u < (uint64_t{1} << w);
  return u < (uint64_t{1} << (w - 1));
}

// Whether the float value v, truncated toward zero, is a value of integer type `to`.
bool float_fits_int(const Value& v, const ir::Ty& to) {
  const double d = v.ty().kind() == TyKind::F32 ? static_cast<double>(v.as_f32()) : v.as_f64();
  if (std::isnan(d)) return false;
  const double t = std::trunc(d);
  const int w = static_cast<int>(to.bits());
  if (to.is_unsigned_int()) return t >= 0.0 && t < std::ldexp(1.0, w);
  return t >= -std::ldexp(1.0, w - 1) && t < std::ldexp(1.0, w - 1);
}
}  // namespace

Result<Value> adapt_value(const Value& v, const ir::Ty& to, AdaptMode mode, std::string_view source,
                          std::string_view accessor) {
  if (v.ty().is_unit()) return EmbeddingError::none_propagated(std::string(source), std::string(accessor));
  const ir::Ty& from = v.ty();
  if (from == to) return v;  // any type, a partition's struct too, arrives as it is
  const auto fidelity = find_adapter(from, to);
  if (!fidelity)
    return EmbeddingError::type_mismatch(std::string(source), from, to,
                                         "no adapter converts " + ir::ty_label(from) + " to " + ir::ty_label(to));
  if (mode == AdaptMode::LosslessOnly && *fidelity == Fidelity::Lossy) {
    // The catalog judges the pair of types, not the value: a comparison's u64 1 or 0 is refused as a bool too.
    const std::string hint = from.is_int() && to.is_bool() ? " (a comparison is the u64 1 or 0; `(...) as bool` makes it a bool)" : "";
    return EmbeddingError::type_mismatch(std::string(source), from, to,
                                         "the adapter from " + ir::ty_label(from) + " to " + ir::ty_label(to) +
                                             " is lossy; " + std::string(accessor) + " accepts lossless adapters only" + hint);
  }
  if (to.is_str()) return Value::str(ir::render(v));
  auto misfit = [&] {
    return EmbeddingError::type_mismatch(std::string(source), from, to,
                                         ir::render(v) + " does not fit in " + ir::ty_label(to));
  };
  if (from.is_int() && to.is_int() && !int_fits(v, to)) return misfit();
  if (from.is_float() && to.is_int() && !float_fits_int(v, to)) return misfit();
  Value out = ir::eval_cast(v, to);
  if (from.kind() == TyKind::F64 && to.kind() == TyKind::F32 && std::isfinite(v.as_f64()) && !std::isfinite(out.as_f32()))
    return misfit();
  return out;
}

}  // namespace polydat::embed
