#include "tests/corpus/references.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstdio>
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

uint64_t ref_pcg(uint64_t position, uint64_t seed, uint64_t stream) {
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

uint64_t ref_pcg_stepped(uint64_t position, uint64_t seed, uint64_t stream) {
  uint64_t s = seed;
  for (uint64_t i = 0; i < position; ++i) s = s * kPcgMult + (2 * stream + 1);
  return pcg_output(s);
}

// LANGUAGE.md's cycle_walk: a six-round balanced Feistel network on the even
// bit count that holds range - 1, keys from pcg, walked until below range.
uint64_t ref_cycle_walk(uint64_t position, uint64_t range, uint64_t seed, uint64_t stream) {
  if (range <= 1) return 0;
  unsigned bits = static_cast<unsigned>(std::bit_width(range - 1));
  bits = bits % 2 == 1 ? bits + 1 : std::max(bits, 2u);
  const unsigned half = bits / 2;
  const uint64_t mask = (uint64_t{1} << half) - 1;
  uint64_t keys[6];
  for (uint64_t i = 0; i < 6; ++i) keys[i] = ref_pcg(1000000000 + i, seed, stream);
  auto round = [](uint64_t h, uint64_t k) {
    uint64_t x = h * 0x9E3779B97F4A7C15ull + k;
    x = ((x >> 32) ^ x) * 0xD6E8FEB86659FD93ull;
    return (x >> 32) ^ x;
  };
  uint64_t v = position % range;
  do {
    uint64_t left = (v >> half) & mask, right = v & mask;
    for (uint64_t k : keys) {
      const uint64_t next = left ^ (round(right, k) & mask);
      left = right;
      right = next;
    }
    v = (left << half) | right;
  } while (v >= range);
  return v;
}

uint64_t ref_permute(uint64_t position, uint64_t range, uint64_t seed) { return ref_cycle_walk(position, range, seed, 0); }

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
       {{"cycle", "p", "ps", "pn", "pbig", "pmax", "pst"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c), u64(ref_pcg(c, 0, 0)), u64(ref_pcg(c, 42, 7)), u64(ref_pcg(c, 99, 1)),
                                    u64(ref_pcg(c * 1000003 + 0x123456789ull, 3, 0)),
                                    u64(ref_pcg(~uint64_t{0} - c, 0xDEADBEEF, 5)), u64(ref_pcg(c, 42, c % 3))};
        }}},
      {"stdlib_permute",
       {{"cycle", "p10", "p1000", "p1", "p64", "cw", "cw2", "cw_big"},
        [](uint64_t c) {
          return std::vector<Value>{u64(c),
                                    u64(ref_permute(c, 10, 7)),
                                    u64(ref_permute(c, 1000, 3)),
                                    u64(ref_permute(c, 1, 5)),
                                    u64(ref_permute(c, 64, 0)),
                                    u64(ref_cycle_walk(c, 100, 42, 0)),
                                    u64(ref_cycle_walk(c * 7919, 2, 5, 9)),
                                    u64(ref_cycle_walk(c * 0x9E3779B97F4A7C15ull, 1000000007, 0xDEADBEEF, 3))};
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
                                    u64(ref_pcg(c, 0, 2))};
        }}},
      {"stdlib_nbrs_int",
       {{"cycle", "ceil10", "count7", "fallback", "add_edge", "sub_floor", "mul_edge", "shl", "shr", "div7", "lt", "picked",
         "hid", "offset", "coin", "circuit"},
        [](uint64_t c) {
          const uint64_t v = c * 37, w = c * 5, mul = c << 59;
          const unsigned __int128 prod = static_cast<unsigned __int128>(mul) * 3;
          uint64_t morton = 0;  // interleave(c, 42)
          for (unsigned i = 0; i < 32; ++i) morton |= ((c >> i) & 1) << (2 * i) | ((uint64_t{42} >> i) & 1) << (2 * i + 1);
          return std::vector<Value>{u64(c),
                                    u64((v + 9) / 10 * 10),
                                    u64((w + 6) / 7),
                                    u64(c % 3 != 0 ? c % 3 : 99),
                                    u64(c > 15 ? 0 : 0xFFFFFFFFFFFFFFF0ull + c),
                                    u64(c > 20 ? 0 : 20 - c),
                                    u64(prod >> 64 != 0 ? 0 : static_cast<uint64_t>(prod)),
                                    u64(uint64_t{1} << ((c * 9) % 64)),
                                    u64(0xFEDCBA9876543210ull >> ((c * 5) % 64)),
                                    u64(c * 1000 / 7),
                                    u64(c < 20 ? 1 : 0),
                                    u64(c % 2 == 1 ? c : 1000 + c),
                                    u64(ref_hash(c) % 97),
                                    u64(ref_hash(c) % 10000 + 10000),
                                    u64(ref_hash(c) & 1),
                                    u64(ref_hash(morton) % 1000)};
        }}},
      {"stdlib_nbrs_float",
       {{"cycle", "scaled", "angle", "rare", "bits", "whole", "smaller", "word", "hx", "padded"},
        [](uint64_t c) {
          const double t = static_cast<double>(c) / 8.0, l = 10.0 + t * (20.0 - 10.0);
          const double unit = static_cast<double>(ref_hash(c)) / 18446744073709551616.0;
          char hx[24], padded[24];
          std::snprintf(hx, sizeof hx, "0x%llx", static_cast<unsigned long long>(ref_hash(c) % 4096));
          std::snprintf(padded, sizeof padded, "%06llu", static_cast<unsigned long long>(ref_hash(c) % 1000));
          return std::vector<Value>{u64(c),
                                    Value::f64(0.0 + unit * 100.0),
                                    Value::f64(0.0 + unit * 360.0),
                                    u64(unit < 0.2 ? 1 : 0),
                                    u64(unit < 0.5 ? 4607182418800017408ull : 0),
                                    u64(static_cast<uint64_t>(l)),
                                    Value::f64(t < 1.5 ? t : 1.5),
                                    Value::str((ref_hash(c) & 1) != 0 ? "heads" : "tails"),
                                    Value::str(hx),
                                    Value::str(padded)};
        }}},
      // shuffle(x, 0, 100): a 7-bit Galois LFSR with nb-rs's bank-0 feedback 0x41.
      {"stdlib_shuffle",
       {{"cycle", "s"},
        [](uint64_t c) {
          uint64_t r = c % 100 + 1;
          do r = (r >> 1) ^ ((r & 1) != 0 ? 0x41 : 0);
          while (r > 100);
          return std::vector<Value>{u64(c), u64(r - 1)};
        }}},
      // 40 links of hash and mod by the primes below 1000, largest first; four tables.
      {"shape_perf",
       {{"cycle", "label", "t0_out", "t1_out", "t2_out", "t3_out"},
        [](uint64_t c) {
          std::vector<uint64_t> primes;
          for (uint64_t k = 999; primes.size() < 40; --k) {
            bool prime = true;
            for (uint64_t d = 2; d * d <= k; ++d) prime = prime && k % d != 0;
            if (prime) primes.push_back(k);
          }
          uint64_t v = c;
          for (uint64_t p : primes) v = ref_hash(v) % p;
          std::vector<Value> row{u64(c), Value::str("chain-" + std::to_string(ref_hash(v) % 1000))};
          const uint64_t ids[] = {1000000, 100000, 10000, 997}, keys[] = {50, 7, 3, 200};
          for (uint64_t t = 0; t < 4; ++t) {
            const uint64_t id = ref_hash(c + t) % ids[t];
            row.push_back(u64(ref_hash(ref_hash(id) % keys[t]) ^ id));
          }
          return row;
        }}},
      {"stdlib_math",
       {{"cycle", "s", "inv", "growth", "p", "r", "narrow", "whole", "q", "bucket", "wave", "safe"},
        [](uint64_t c) {
          const double x = static_cast<double>(c) / 7.0 - 3.0;
          const double xc = x + 3.0 < 0.0 ? 0.0 : std::min(x + 3.0, 10.0 - 2.220446049250313e-16);
          const double whole = std::round(x * 10.0);
          return std::vector<Value>{
              u64(c),
              Value::f64(std::sin(x) + std::cos(x) * std::tan(x / 4.0)),
              Value::f64(std::atan2(x, 1.5) + std::asin(x / 9.0) + std::acos(x / 9.0) + std::atan(x)),
              Value::f64(std::exp(x) + std::log(static_cast<double>(c + 1)) + std::sqrt(static_cast<double>(c))),
              Value::f64(std::pow(x, 3.0) + std::pow(2.5, x)),
              Value::f64(std::round(x * 2.0) + std::floor(x) * 10.0 + std::ceil(x) * 100.0 + std::trunc(x) * 1000.0 +
                         std::fabs(x)),
              Value::f32(std::sin(static_cast<float>(c) / 3.0f)),
              u64(whole <= 0.0 ? 0 : static_cast<uint64_t>(whole)),
              Value::f64(std::round(x / 0.25) * 0.25),
              u64(std::min<uint64_t>(static_cast<uint64_t>(xc / 10.0 * 4.0), 3)),
              Value::f64(std::sin(static_cast<double>(c % 12) / 12.0 * 6.283185307179586)),
              Value::f64((x != 0.0 ? 1.0 / x : 0.0) + std::fmod(x, 2.0))};
        }}},
      // The alias tables by hand: weights 0.5, 0.3, 0.2 scale to 1.5, 0.9, 0.6,
      // so slots 1 and 2 keep with bias 0.9 and 0.6 and fall back to slot 0;
      // weights 0.25, 0.75 scale to 0.5, 1.5: slot 0 keeps with bias 0.5, else slot 1.
      {"stdlib_tables",
       {{"cycle", "digit", "wrapped", "single", "spread", "chosen", "picked"},
        [](uint64_t c) {
          auto alias = [](uint64_t x, const std::vector<double>& bias, const std::vector<uint64_t>& fallback) {
            const uint64_t slot = x % bias.size();
            return static_cast<double>(x >> 32) / 4294967295.0 < bias[slot] ? slot : fallback[slot];
          };
          const uint64_t digits[] = {3, 1, 4, 1, 5, 9, 2, 6}, tens[] = {10, 20, 30};
          const uint64_t spread[] = {c, c * 3, c + 100};
          const uint64_t pick = alias((c << 27) | c, {0.5, 1.0}, {1, 1});
          return std::vector<Value>{u64(c),
                                    u64(digits[c % 8]),
                                    u64(tens[(c % 7) % 3]),
                                    u64(42),
                                    u64(spread[c % 3]),
                                    u64(tens[alias(ref_hash(c), {1.0, 0.9, 0.6}, {0, 0, 0})]),
                                    u64(pick + 1)};
        }}},
      {"stdlib_pick",
       {{"cycle", "chosen", "first", "limit"},
        [](uint64_t c) {
          const uint64_t k = c % 5;
          const uint64_t chosen = k == 1 ? 100 : k == 2 ? c * 3 : c ^ 7;  // k == 0: no selector, the last value
          return std::vector<Value>{u64(c), u64(chosen), u64(c < 20 ? c : 9), u64(c + 17)};
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
