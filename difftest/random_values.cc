#include "difftest/random_values.h"

namespace polydat::difftest {

namespace {
uint64_t draw_bits(unsigned w, std::mt19937_64& rng) {
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  switch (rng() % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return mask;
    case 3: return (uint64_t{1} << (w - 1)) & mask;
    case 4: return ((uint64_t{1} << (w - 1)) - 1) & mask;
    case 5: return rng() % 64;
    default: return rng() & mask;
  }
}
}  // namespace

ir::Value random_scalar(const ir::Ty& ty, std::mt19937_64& rng) {
  if (ty.is_bool()) return ir::Value::boolean(rng() & 1);
  if (ty.kind() == ir::TyKind::F64) {
    static const double special[] = {0.0, -0.0, 1.0, -1.5, 1e300, -1e-300, 0.1, 4294967296.5};
    if (rng() % 3 == 0) return ir::Value::f64(special[rng() % 8]);
    return ir::Value::integer(ir::TyKind::F64, rng());
  }
  if (ty.kind() == ir::TyKind::F32) {
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.5f, 3e38f, 1e-40f, 0.1f, 16777217.0f};
    if (rng() % 3 == 0) return ir::Value::f32(special[rng() % 8]);
    return ir::Value::integer(ir::TyKind::F32, rng());
  }
  if (ty.is_str()) return ir::Value::str(std::string(rng() % 5, static_cast<char>('a' + rng() % 26)));
  return ir::Value::integer(ty.kind(), draw_bits(ty.bits(), rng));
}

}  // namespace polydat::difftest
