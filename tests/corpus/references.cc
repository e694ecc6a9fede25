#include "tests/corpus/references.h"

#include <xxhash.h>

#include <bit>
#include <cmath>

namespace polydat::corpus {

using ir::TyKind;
using ir::Value;

namespace {
Value u64(uint64_t v) { return Value::integer(TyKind::U64, v); }

// The PCG LCG: multiplier 6364136223846793005, increment 2 * stream + 1.
constexpr uint64_t kPcgMult = 6364136223846793005ull;

// PCG-RXS-M-XS 64/64 output of a state.
uint64_t pcg_output(uint64_t s) {
  const uint64_t w = ((s >> ((s >> 59) + 5)) ^ s) * 12605985483714917081ull;
  return (w >> 43) ^ w;
}
}  // namespace

uint64_t ref_hash(uint64_t x) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(x >> (8 * i));  // little-endian
  return XXH3_64bits(bytes, sizeof bytes);
}

uint64_t ref_splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t ref_pcg(uint64_t position, uint64_t stream, uint64_t seed) {
  // Jump ahead by `position` steps: compose the affine map s -> a*s + c with
  // itself by squaring (the O(log n) LCG advance).
  uint64_t acc_mult = 1, acc_plus = 0;
  uint64_t cur_mult = kPcgMult, cur_plus = 2 * stream + 1;
  for (uint64_t delta = position; delta > 0; delta >>= 1) {
    if (delta & 1) {
      acc_mult *= cur_mult;
      acc_plus = acc_plus * cur_mult + cur_plus;
    }
    cur_plus = (cur_mult + 1) * cur_plus;
    cur_mult *= cur_mult;
  }
  return pcg_output(acc_mult * seed + acc_plus);
}

uint64_t ref_pcg_stepped(uint64_t position, uint64_t stream, uint64_t seed) {
  uint64_t s = seed;
  for (uint64_t i = 0; i < position; ++i) s = s * kPcgMult + (2 * stream + 1);
  return pcg_output(s);
}

uint64_t ref_permute(uint64_t position, uint64_t range, uint64_t seed) {
  if (range == 0) return 0;
  unsigned w = static_cast<unsigned>(std::bit_width(range - 1));
  if (w < 2) w = 2;
  const uint64_t m = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  auto f = [&](uint64_t v) {
    const uint64_t g = (v * 0x9E3779B97F4A7C15ull + (2 * seed + 1)) & m;
    return g ^ (g >> (w / 2));
  };
  uint64_t v = f(position % range);
  while (v >= range) v = f(v);
  return v;
}

double ref_unit_interval(uint64_t x) { return static_cast<double>(x) / 18446744073709551615.0; }

const std::map<std::string, Reference>& references() {
  static const std::map<std::string, Reference> table = {
      {"stdlib_hash",
       {{"cycle", "h", "hr", "hh", "hr_big"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c), u64(ref_hash(c)), u64(ref_hash(c) % 1000), u64(ref_hash(ref_hash(c))),
                                    u64(ref_hash(c * 0x9E3779B97F4A7C15ull) % 0xFFFFFFFFull)};
        }}},
      {"stdlib_splitmix64",
       {{"cycle", "sm", "sm_hi", "sm2"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c), u64(ref_splitmix64(c)), u64(ref_splitmix64(~uint64_t{0} - c)),
                                    u64(ref_splitmix64(ref_splitmix64(c)))};
        }}},
      {"stdlib_pcg",
       {{"cycle", "p", "ps", "pn", "pbig", "pmax"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c), u64(ref_pcg(c, 0, 0)), u64(ref_pcg(c, 7, 42)), u64(ref_pcg(c, 1, 99)),
                                    u64(ref_pcg(c * 1000003 + 0x123456789ull, 3, 0)),
                                    u64(ref_pcg(~uint64_t{0} - c, 5, 0xDEADBEEF))};
        }}},
      {"stdlib_permute",
       {{"cycle", "p10", "p1000", "p1", "p0", "p64"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c), u64(ref_permute(c, 10, 7)), u64(ref_permute(c, 1000, 3)),
                                    u64(ref_permute(c, 1, 5)), u64(ref_permute(c, 0, 1)), u64(ref_permute(c, 64, 0))};
        }}},
      {"stdlib_unit_interval",
       {{"cycle", "u", "raw", "pct"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c), Value::f64(ref_unit_interval(ref_hash(c))), Value::f64(ref_unit_interval(c)),
                                    Value::f64(ref_unit_interval(ref_hash(c + 1000)) * 100.0)};
        }}},
      {"example_ids",
       {{"cycle", "id", "bucket", "label"},
        [](uint64_t c) {
          const uint64_t id = ref_hash(c) % 1000;
          return std::vector<Value>{u64(c), u64(id), u64(id / 100), Value::str("user-" + std::to_string(id))};
        }}},
      {"hash_chain",
       {{"cycle", "chained", "folded"},
        [](uint64_t c) {
          uint64_t h = c;
          for (uint64_t i = 0; i < c % 5; ++i) h = ref_hash(h);
          uint64_t acc = 0;
          for (uint64_t i = 0; i < 4; ++i) acc ^= std::rotl(ref_hash(c + i), static_cast<int>((i * 16) % 64));
          return std::vector<Value>{u64(c), u64(h), u64(acc)};
        }}},
      {"stdlib_named",
       {{"cycle", "h8", "hr_named", "il_named", "pm_named", "ui_named", "sm_u16", "pcg_named"},
        [](uint64_t c) {
          // interleave(1, c): bit 0 from a = 1, bit 2i+1 from bit i of c (c < 2^32 here).
          uint64_t il = 1;
          for (int i = 0; i < 32; ++i) il |= ((c >> i) & 1) << (2 * i + 1);
          return std::vector<Value>{u64(c),
                                    u64(ref_hash(c & 0xFF)),
                                    u64(ref_hash(c) % 10),
                                    u64(il),
                                    u64(ref_permute(c, 5, 2)),
                                    Value::f64(ref_unit_interval(c & 0xFFFFFFFF)),
                                    u64(ref_splitmix64(c & 0xFFFF)),
                                    u64(ref_pcg(c, 2, 0))};
        }}},
      // lfsr.gk runs with `set seed=0xACE1`.
      {"lfsr",
       {{"cycle", "state"},
        [](uint64_t c) {
          uint64_t s = 0xACE1;
          for (uint64_t i = 0; i < c; ++i) s = (s >> 1) ^ ((s & 1) * 0xB400);
          return std::vector<Value>{u64(c), u64(s)};
        }}},
  };
  return table;
}

}  // namespace polydat::corpus
