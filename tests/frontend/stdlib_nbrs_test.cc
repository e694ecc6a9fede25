// The library functions that carry nb-rs's names (LANGUAGE.md: a function
// with an nb-rs name gives nb-rs's result for nb-rs's argument order). Each
// is compiled from a small kernel, run on the interpreter and checked against
// a reference written here in C++ (xxHash for hash, unsigned __int128 for
// overflow), and against nb-rs's own unit-test values where it has them
// (nbrs-variates/src/nodes/*.rs, quoted in docs/nb-rs-functions.md).
#include <doctest/doctest.h>
#include <xxhash.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "frontend/compile.h"
#include "frontend/weights.h"
#include "tests/frontend/stdlib_kernel.h"

using namespace polydat;
using ir::TyKind;
using ir::Value;

using stdlibtest::kAllOnes;
using stdlibtest::Kernel;
using stdlibtest::bits_of;
using stdlibtest::f64;
using stdlibtest::ref_hash;
using stdlibtest::u64;

namespace {


// 0, 1, small counts, every power of two and its neighbours, the top, and random values.
std::vector<uint64_t> samples(size_t random_count, uint64_t seed) {
  std::vector<uint64_t> out{0, 1, 2, 3, 7, 10, 100, 1000, kAllOnes, kAllOnes - 1};
  for (unsigned k = 1; k < 64; ++k) {
    const uint64_t p = uint64_t{1} << k;
    out.insert(out.end(), {p - 1, p, p + 1});
  }
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < random_count; ++i) out.push_back(i % 3 == 0 ? rng() % 1000 : i % 3 == 1 ? rng() >> (rng() % 64) : rng());
  return out;
}

}  // namespace

TEST_CASE("nb-rs arithmetic: ceil_to_multiple, multiples_at_least, set_or_get, checked_*") {
  Kernel k(
      "input (a: u64, b: u64)\n"
      "c := ceil_to_multiple(a, b)\nm := multiples_at_least(a, b)\ns := set_or_get(a, b)\n"
      "ca := checked_add(a, b)\ncs := checked_sub(a, b)\ncm := checked_mul(a, b)\n");
  const std::vector<uint64_t> xs = samples(120, 1);
  for (uint64_t a : xs)
    for (uint64_t b : xs) {
      const auto out = k.run({u64(a), u64(b)});
      const unsigned __int128 up = b == 0 ? a : (static_cast<unsigned __int128>(a) + b - 1) / b * b;
      const uint64_t want_ceil = b == 0 ? a : up > kAllOnes ? kAllOnes : static_cast<uint64_t>(up);
      const uint64_t want_count = b == 0 ? 0 : a / b + (a % b != 0);
      const unsigned __int128 sum = static_cast<unsigned __int128>(a) + b, prod = static_cast<unsigned __int128>(a) * b;
      INFO("a = " << a << ", b = " << b);
      REQUIRE(out[0].as_u64() == want_ceil);
      REQUIRE(out[1].as_u64() == want_count);
      REQUIRE(out[2].as_u64() == (a != 0 ? a : b));
      REQUIRE(out[3].as_u64() == (sum > kAllOnes ? 0 : static_cast<uint64_t>(sum)));
      REQUIRE(out[4].as_u64() == (b > a ? 0 : a - b));
      REQUIRE(out[5].as_u64() == (prod > kAllOnes ? 0 : static_cast<uint64_t>(prod)));
    }
  // nb-rs's vectors (nodes/arithmetic.rs, nodes/bitwise.rs).
  auto at = [&](uint64_t a, uint64_t b, size_t i) { return k.run({u64(a), u64(b)})[i].as_u64(); };
  CHECK(at(800, 100, 0) == 800);
  CHECK(at(801, 100, 0) == 900);
  CHECK(at(0, 100, 0) == 0);
  CHECK(at(50, 100, 0) == 100);
  CHECK(at(42, 0, 0) == 42);
  CHECK(at(801, 100, 1) == 9);
  CHECK(at(42, 0, 1) == 0);
  CHECK(at(0, 99, 2) == 99);
  CHECK(at(kAllOnes, 99, 2) == kAllOnes);
  CHECK(at(100, 42, 3) == 142);
  CHECK(at(kAllOnes, 1, 3) == 0);
  CHECK(at(42, 10, 4) == 32);
  CHECK(at(0, 1, 4) == 0);
  CHECK(at(7, 6, 5) == 42);
  CHECK(at(kAllOnes, 2, 5) == 0);
  // checked_mul at the edge its overflow test singles out: leading zeros summing to 63.
  CHECK(at(uint64_t{1} << 32, (uint64_t{1} << 31) + 1, 5) == (uint64_t{1} << 63) + (uint64_t{1} << 32));
  CHECK(at(uint64_t{3} << 31, uint64_t{3} << 31, 5) == 0);
}

TEST_CASE("nb-rs u64_* and f64 comparisons: wrapping ops, 0 for a zero divisor, shifts by b % 64, 0/1 results") {
  Kernel k(
      "input (a: u64, b: u64)\n"
      "add := u64_add(a, b)\nsub := u64_sub(a, b)\nmul := u64_mul(a, b)\ndv := u64_div(a, b)\nmd := u64_mod(a, b)\n"
      "an := u64_and(a, b)\nor := u64_or(a, b)\nxr := u64_xor(a, b)\nshl := u64_shl(a, b)\nshr := u64_shr(a, b)\n"
      "nt := u64_not(a)\neq := u64_eq(a, b)\nne := u64_ne(a, b)\nlt := u64_lt(a, b)\ngt := u64_gt(a, b)\n"
      "le := u64_le(a, b)\nge := u64_ge(a, b)\nsel := select(a, b, 7)\nsu := select_u64(b, a, 9)\n");
  const std::vector<uint64_t> xs = samples(60, 2);
  for (uint64_t a : xs)
    for (uint64_t b : xs) {
      const auto o = k.run({u64(a), u64(b)});
      INFO("a = " << a << ", b = " << b);
      const uint64_t want[] = {a + b, a - b, a * b, b == 0 ? 0 : a / b, b == 0 ? 0 : a % b, a & b, a | b, a ^ b,
                               a << (b & 63), a >> (b & 63), ~a, a == b, a != b, a < b, a > b, a <= b, a >= b,
                               a != 0 ? b : 7, b != 0 ? a : 9};
      for (size_t i = 0; i < std::size(want); ++i) REQUIRE(o[i].as_u64() == want[i]);
    }
  auto at = [&](uint64_t a, uint64_t b, size_t i) { return k.run({u64(a), u64(b)})[i].as_u64(); };
  CHECK(at(1, 64, 8) == 1);  // nb-rs: u64_shl(1, 64) = 1 (Rust's wrapping_shl)
  CHECK(at(0xFF, 4, 9) == 0x0F);
  CHECK(at(42, 0, 3) == 0);
  CHECK(at(42, 0, 4) == 0);
  CHECK(at(999, 10, 17) == 10);

  Kernel f(
      "input (a: f64, b: f64)\n"
      "eq := f64_eq(a, b)\nne := f64_ne(a, b)\nlt := f64_lt(a, b)\ngt := f64_gt(a, b)\nle := f64_le(a, b)\n"
      "ge := f64_ge(a, b)\nsf := select_f64(f64_lt(a, b), a, b)\n");
  const double ds[] = {0.0, -0.0, 0.1, 0.2, -1.5, 1e300, -INFINITY, INFINITY, NAN};
  for (double a : ds)
    for (double b : ds) {
      const auto o = f.run({f64(a), f64(b)});
      const uint64_t want[] = {a == b, a != b, a < b, a > b, a <= b, a >= b};
      for (size_t i = 0; i < std::size(want); ++i) REQUIRE(o[i].as_u64() == want[i]);
      REQUIRE(bits_of(o[6].as_f64()) == bits_of(a < b ? a : b));
    }
  Kernel s("input c: u64\nv := select_str(c, \"yes\", \"no\")\n");
  CHECK(s.run({u64(1)})[0].as_str() == "yes");
  CHECK(s.run({u64(0)})[0].as_str() == "no");
}

TEST_CASE("nb-rs hashing modules: hash_range_offset, hashed_id, fair_coin, euler_circuit, hex_id, padded_id") {
  Kernel k(
      "input x: u64\n"
      "ro := hash_range_offset(x, 10000, 10000)\nhi := hashed_id(x, 97)\nfc := fair_coin(x)\n"
      "ec := euler_circuit(x, 1000, 42, 3)\nhx := hex_id(x, 4096)\npd := padded_id(x, 1000, 6)\n");
  for (uint64_t x : samples(2000, 3)) {
    const auto o = k.run({u64(x)});
    const uint64_t h = ref_hash(x);
    uint64_t morton = 0;  // interleave(x, 42)
    for (unsigned i = 0; i < 32; ++i) morton |= ((x >> i) & 1) << (2 * i) | ((uint64_t{42} >> i) & 1) << (2 * i + 1);
    char hex[24], pad[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(h % 4096));
    std::snprintf(pad, sizeof pad, "%06llu", static_cast<unsigned long long>(h % 1000));
    REQUIRE(o[0].as_u64() == h % 10000 + 10000);
    REQUIRE(o[1].as_u64() == h % 97);
    REQUIRE(o[2].as_u64() == (h & 1));
    REQUIRE(o[3].as_u64() == ref_hash(morton) % 1000);
    REQUIRE(o[4].as_str() == hex);
    REQUIRE(o[5].as_str() == pad);
  }
  // docs/nb-rs-functions.md §19: hash_range_offset(x, 10000, 10000) for 0, 1, 2; fair_coin(0..15).
  CHECK(k.run({u64(0)})[0].as_u64() == 17897);
  CHECK(k.run({u64(1)})[0].as_u64() == 10078);
  CHECK(k.run({u64(2)})[0].as_u64() == 14547);
  const int coins[] = {1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1};
  for (uint64_t x = 0; x < 16; ++x) CHECK(k.run({u64(x)})[2].as_u64() == static_cast<uint64_t>(coins[x]));
}

TEST_CASE("nb-rs float modules: lerp, scale_range, hash_interval, unfair_coin, chance, f64_to_u64") {
  Kernel k(
      "input (x: u64, t: f64)\n"
      "l := lerp(t, 10.0, 20.0)\nld := lerp(t)\nsr := scale_range(x, -10.0, 10.0)\nhi := hash_interval(x, 0.0, 360.0)\n"
      "uc := unfair_coin(x, 0.2)\nch := chance(x, 0.5)\ntu := f64_to_u64(t)\n");
  std::mt19937_64 rng(4);
  const double ts[] = {0.0, 1.0, 0.5, -0.25, 3.7, 1e19, 2e19, -5.0, NAN, INFINITY};
  for (uint64_t x : samples(500, 5)) {
    const double t = ts[rng() % std::size(ts)];
    const auto o = k.run({u64(x), f64(t)});
    const double unit = static_cast<double>(ref_hash(x)) / 18446744073709551616.0;
    const double tr = std::trunc(t);
    const uint64_t sat = std::isnan(t) || tr <= 0 ? 0 : tr >= 18446744073709551616.0 ? kAllOnes : static_cast<uint64_t>(tr);
    INFO("x = " << x << ", t = " << t);
    REQUIRE(bits_of(o[0].as_f64()) == bits_of(10.0 + t * (20.0 - 10.0)));
    REQUIRE(bits_of(o[1].as_f64()) == bits_of(0.0 + t * (1.0 - 0.0)));
    REQUIRE(bits_of(o[2].as_f64()) == bits_of(-10.0 + static_cast<double>(x) / 18446744073709551616.0 * 20.0));
    REQUIRE(bits_of(o[3].as_f64()) == bits_of(0.0 + unit * 360.0));
    REQUIRE(o[4].as_u64() == (unit < 0.2 ? 1u : 0u));
    REQUIRE(o[5].as_u64() == (unit < 0.5 ? bits_of(1.0) : 0u));
    REQUIRE(o[6].as_u64() == sat);
  }
  // docs/nb-rs-functions.md §19: hash_interval(0, 0, 360) and unfair_coin(0..15, 0.2).
  CHECK(bits_of(k.run({u64(0), f64(0)})[3].as_f64()) == 0x40718854a9794d6dull);
  const int coins[] = {0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0};
  for (uint64_t x = 0; x < 16; ++x) CHECK(k.run({u64(x), f64(0)})[4].as_u64() == static_cast<uint64_t>(coins[x]));
  // nb-rs: f64_to_u64(3.7) = 3; lerp(0.5) over [0, 100] is 50.
  CHECK(k.run({u64(0), f64(3.7)})[6].as_u64() == 3);
  Kernel l("input t: f64\nv := lerp(t, 0.0, 100.0)\n");
  CHECK(l.run({f64(0.5)})[0].as_f64() == 50.0);
}

namespace {
// nb-rs's Shuffle: a Galois LFSR (right shift, feedback when the low bit was
// set) stepped from input % size + 1 until it is at most size. The feedback
// polynomial is the caller's, from nb-rs's bank-0 table.
uint64_t ref_shuffle(uint64_t x, uint64_t min, uint64_t size, uint64_t feedback) {
  uint64_t r = x % size + 1;
  do r = (r >> 1) ^ ((r & 1) != 0 ? feedback : 0);
  while (r > size);
  return r - 1 + min;
}
}  // namespace

TEST_CASE("nb-rs shuffle: an LFSR bijection of [min, min + size), and its positional quirk") {
  Kernel k("input x: u64\nextern min: u64 = 0\nextern size: u64 = 1024\nv := shuffle(x, min, size)\n");
  // Sizes and their register widths' bank-0 feedback (nb-rs's metashift_banks.inc).
  const struct {
    uint64_t size, feedback;
  } cases[] = {{1, 0x9}, {15, 0x9}, {16, 0x12}, {31, 0x12}, {50, 0x21}, {100, 0x41}, {255, 0x8E}, {256, 0x108}, {1000, 0x204}, {1024, 0x402}};
  for (const auto& c : cases)
    for (uint64_t min : {uint64_t{0}, uint64_t{100}}) {
      std::set<uint64_t> seen;
      for (uint64_t x = 0; x < c.size; ++x) {
        const uint64_t v = k.run({u64(x), u64(min), u64(c.size)})[0].as_u64();
        REQUIRE(v == ref_shuffle(x, min, c.size, c.feedback));
        seen.insert(v);
      }
      CHECK(seen.size() == c.size);
      CHECK(*seen.begin() == min);
      CHECK(*seen.rbegin() == min + c.size - 1);
    }
  // docs/nb-rs-functions.md §19 (an independent reimplementation of nb-rs's Shuffle).
  const uint64_t s100[] = {64, 0, 63, 1, 66, 2, 65, 3, 68, 4};
  const uint64_t s1000[] = {515, 0, 516, 1, 517, 2, 518, 3, 511, 4};
  for (uint64_t x = 0; x < 10; ++x) {
    CHECK(k.run({u64(x), u64(0), u64(100)})[0].as_u64() == s100[x]);
    CHECK(k.run({u64(x), u64(0), u64(1000)})[0].as_u64() == s1000[x]);
  }
  // One constant is min (nb-rs binds constants by position): shuffle(x, 1000) is min 1000, size 1024.
  Kernel q("input x: u64\nv := shuffle(x, 1000)\nw := shuffled_id(x, 1000)\n");
  const uint64_t quirk[] = {1512, 1000, 2021, 1001, 2023};
  for (uint64_t x = 0; x < 5; ++x) {
    const auto o = q.run({u64(x)});
    CHECK(o[0].as_u64() == quirk[x]);
    CHECK(o[1].as_u64() == quirk[x]);
  }
}

TEST_CASE("nb-rs pcg and cycle_walk: values cross-checked against nb-rs's Rust code") {
  // docs/nb-rs-functions.md §19: computed by compiling nb-rs's pcg.rs with rustc.
  Kernel k("input p: u64\na := pcg(p, 42)\nb := pcg(p, 99, 7)\nc := pcg(p, 12345)\n"
           "w1 := cycle_walk(p, 1000)\nw2 := cycle_walk(p, 50, 42)\nw3 := cycle_walk(p, 64, 123, 7)\n"
           "w4 := cycle_walk(p, 200, 42, 3)\n");
  const uint64_t pcg42[] = {7101797662165212071ull, 5728613405259621552ull, 2432439715092174786ull, 6606006103298648486ull};
  const uint64_t pcg99_7[] = {11136241645509951516ull, 1105930925606842648ull, 875068348510487179ull, 17633201122483578972ull};
  const uint64_t pcg12345[] = {17650027671492790999ull, 9355549898216440064ull, 14772360139290720560ull, 10089536991515392285ull};
  for (uint64_t p = 0; p < 4; ++p) {
    const auto o = k.run({u64(p)});
    CHECK(o[0].as_u64() == pcg42[p]);
    CHECK(o[1].as_u64() == pcg99_7[p]);
    CHECK(o[2].as_u64() == pcg12345[p]);
  }
  CHECK(k.run({u64(100)})[0].as_u64() == 6015307052866491532ull);
  const uint64_t w1[] = {519, 5, 449, 400, 599, 53, 26, 864, 740, 318};
  const uint64_t w2[] = {9, 7, 37, 24, 4, 41, 10, 29, 34, 38};
  const uint64_t w3[] = {6, 16, 21, 63, 39, 38, 30, 58, 36, 4};
  const uint64_t w4[] = {43, 144, 109, 48, 45, 158, 55, 147, 94, 16};
  for (uint64_t p = 0; p < 10; ++p) {
    const auto o = k.run({u64(p)});
    CHECK(o[3].as_u64() == w1[p]);
    CHECK(o[4].as_u64() == w2[p]);
    CHECK(o[5].as_u64() == w3[p]);
    CHECK(o[6].as_u64() == w4[p]);
  }
  Kernel s("input (p: u64, st: u64)\nv := pcg_stream(p, st, 42)\n");
  CHECK(s.run({u64(10), u64(10)})[0].as_u64() == 17785773135722157401ull);
}

TEST_CASE("nb-rs math: the C library's functions at f64, exact roundings, and the conversions built on them") {
  Kernel k(
      "input (x: f64, y: f64)\n"
      "sq := sqrt(x)\nex := exp(x)\nlnx := ln(x)\nsn := sin(x)\ncs := cos(x)\ntn := tan(x)\nasn := asin(x)\n"
      "ac := acos(x)\nat := atan(x)\nat2 := atan2(y, x)\npw := pow(x, y)\nab := abs_f64(x)\nfl := floor(x)\n"
      "ce := ceil(x)\nrd := round(x)\ntr := trunc(x)\n"
      "fa := f64_add(x, y)\nfs := f64_sub(x, y)\nfm := f64_mul(x, y)\nfd := f64_div(x, y)\nfmod := f64_mod(x, y)\n"
      "r64 := round_to_u64(x)\nf64u := floor_to_u64(x)\nc64 := ceil_to_u64(x)\nq := quantize(x, 0.25)\n"
      "cl := clamp_f64(x, -1.0, 2.5)\n");
  std::vector<double> xs{0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.7, 3.2, 1e-300, 1e300, -1e300, 4503599627370497.0,
                         0.49999999999999994, 1.0, -1.0, 10.0, INFINITY, -INFINITY, NAN};
  std::mt19937_64 rng(9);
  for (int i = 0; i < 300; ++i) xs.push_back(std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 80) - 100));
  for (int i = 0; i < 300; ++i) xs.push_back(static_cast<double>(static_cast<int64_t>(rng() % 2000) - 1000) / 7.0);
  auto sat = [](double d) -> uint64_t {
    if (std::isnan(d) || d <= 0) return 0;
    return d >= 18446744073709551616.0 ? kAllOnes : static_cast<uint64_t>(d);
  };
  for (double x : xs) {
    const double y = xs[rng() % xs.size()];
    const auto o = k.run({f64(x), f64(y)});
    INFO("x = " << x << ", y = " << y);
    const double want[] = {std::sqrt(x), std::exp(x), std::log(x), std::sin(x), std::cos(x), std::tan(x), std::asin(x),
                           std::acos(x), std::atan(x), std::atan2(y, x), std::pow(x, y), std::fabs(x), std::floor(x),
                           std::ceil(x), std::round(x), std::trunc(x), x + y, x - y, x * y, y != 0.0 ? x / y : 0.0,
                           y != 0.0 ? std::fmod(x, y) : 0.0};
    for (size_t i = 0; i < std::size(want); ++i) {
      CAPTURE(i);
      const double got = o[i].as_f64();
      REQUIRE((bits_of(got) == bits_of(want[i]) || (std::isnan(got) && std::isnan(want[i]))));
    }
    REQUIRE(o[21].as_u64() == sat(std::round(x)));
    REQUIRE(o[22].as_u64() == sat(std::floor(x)));
    REQUIRE(o[23].as_u64() == sat(std::ceil(x)));
    const double q = std::round(x / 0.25) * 0.25;
    REQUIRE((bits_of(o[24].as_f64()) == bits_of(q) || std::isnan(q)));
    const double c = x < -1.0 ? -1.0 : x > 2.5 ? 2.5 : x;
    REQUIRE((bits_of(o[25].as_f64()) == bits_of(c) || std::isnan(x)));
  }
  auto at = [&](double x, double y, size_t i) { return k.run({f64(x), f64(y)})[i]; };
  // nb-rs's vectors (nodes/convert.rs, nodes/lerp.rs, nodes/math.rs).
  CHECK(at(3.7, 0, 21).as_u64() == 4);
  CHECK(at(3.2, 0, 21).as_u64() == 3);
  CHECK(at(3.9, 0, 22).as_u64() == 3);
  CHECK(at(3.1, 0, 23).as_u64() == 4);
  CHECK(at(1.3, 0, 24).as_f64() == 1.25);
  CHECK(at(10, 0, 19).as_f64() == 0.0);
  CHECK(at(-10, 2, 19).as_f64() == -5.0);
  CHECK(at(-7, 3, 20).as_f64() == -1.0);
  CHECK(at(9, 0.5, 10).as_f64() == 3.0);
  CHECK(at(2, 3, 10).as_f64() == 8.0);
  CHECK(at(0, 0, 3).as_f64() == 0.0);
  Kernel qz("input x: f64\nq := quantize(x, 10.0)\n");
  CHECK(qz.run({f64(13)})[0].as_f64() == 10.0);
  CHECK(qz.run({f64(17)})[0].as_f64() == 20.0);
  CHECK(qz.run({f64(15)})[0].as_f64() == 20.0);
  CHECK(qz.run({f64(-15)})[0].as_f64() == -20.0);
  Kernel d("input x: f64\nb := discretize(x, 100, 10)\n");
  const std::pair<double, uint64_t> buckets[] = {{0, 0}, {55, 5}, {99, 9}, {-5, 0}, {200, 9}, {99.99999999999999, 9}};
  for (auto [x, b] : buckets) CHECK(d.run({f64(x)})[0].as_u64() == b);
  // Integers convert to f64, as nb-rs's adapters do; f32 stays f32.
  Kernel conv("input (n: u64, s: f32)\na := sqrt(n)\nb := sqrt(s)\n");
  const auto o = conv.run({u64(16), Value::f32(2.0f)});
  CHECK(o[0].as_f64() == 4.0);
  CHECK(o[1].ty().kind() == TyKind::F32);
  CHECK(o[1].as_f32() == std::sqrt(2.0f));
}

TEST_CASE("nb-rs waves: sine_wave, cosine_wave, sine_unit, sawtooth") {
  Kernel k("input x: u64\ns := sine_wave(x, 1000)\nc := cosine_wave(x, 360)\nu := sine_unit(x, 1000)\nw := sawtooth(x, 1000)\n");
  for (uint64_t x : samples(300, 11)) {
    const auto o = k.run({u64(x)});
    const double ts = static_cast<double>(x % 1000) / 1000.0 * 6.283185307179586;
    const double tc = static_cast<double>(x % 360) / 360.0 * 6.283185307179586;
    REQUIRE(bits_of(o[0].as_f64()) == bits_of(std::sin(ts)));
    REQUIRE(bits_of(o[1].as_f64()) == bits_of(std::cos(tc)));
    REQUIRE(bits_of(o[2].as_f64()) == bits_of(0.5 + std::sin(ts) * (1.0 - 0.5)));
    // nb-rs's sawtooth is scale_range(x % period, 0.0, 1.0): a fraction of 2^64, not of the period.
    REQUIRE(bits_of(o[3].as_f64()) == bits_of(0.0 + static_cast<double>(x % 1000) / 18446744073709551616.0 * 1.0));
  }
}

TEST_CASE("nb-rs weighted choices: the alias table, its integer coin, and the choices it gives") {
  // nb-rs's AliasTableU64 for weights 0.5, 0.3, 0.2 (worked through by hand:
  // scaled 1.5, 0.9, 0.6; slot 1 takes its alias from slot 0, then slot 2 too).
  const frontend::AliasTable t = frontend::alias_table({0.5, 0.3, 0.2});
  CHECK(t.bias == std::vector<double>{1.0, 0.8999999999999999, 0.6000000000000001});
  CHECK(t.alias == std::vector<uint32_t>{0, 0, 0});
  // The coin's threshold: the least h with h / (2^32 - 1) >= bias.
  for (double bias : {0.0, 1e-12, 0.25, 0.5, 0.6000000000000001, 0.8999999999999999, 1.0, 1.5}) {
    const uint64_t h = frontend::coin_threshold(bias);
    if (h > 0) CHECK(static_cast<double>(h - 1) / 4294967295.0 < bias);
    if (h < (uint64_t{1} << 32)) CHECK(static_cast<double>(h) / 4294967295.0 >= bias);
  }
  Kernel k(
      "input x: u64\n"
      "a := weighted_u64(x, \"10:0.5;20:0.3;30:0.2\")\n"
      "s := weighted_strings(x, \" a:0.5 , b:0.25;;c:0.25 \")\n"
      "p := weighted_pick(x, 0.5, 10, 0.3, 20, 0.2, 30)\n"
      "one := weighted_u64(x, \"7:1\")\n");
  // Against nb-rs's sampling with the float coin: slot x % n, kept when (x >> 32) / (2^32 - 1) < bias.
  // Weights 0.5, 0.25, 0.25 by hand: scaled 1.5, 0.75, 0.75; slots 1 and 2 keep with
  // bias 0.75 and take slot 0 otherwise (slot 0 drops to 1.25, then 1.0).
  const frontend::AliasTable abc{{1.0, 0.75, 0.75}, {0, 0, 0}};
  CHECK(frontend::alias_table({0.5, 0.25, 0.25}).bias == abc.bias);
  CHECK(frontend::alias_table({0.5, 0.25, 0.25}).alias == abc.alias);
  const uint64_t vals[] = {10, 20, 30};
  const char* names[] = {"a", "b", "c"};
  size_t counts[3] = {0, 0, 0};
  for (uint64_t x : samples(30000, 21)) {
    const auto o = k.run({u64(x)});
    const double frac = static_cast<double>(x >> 32) / 4294967295.0;
    const size_t slot = x % 3;
    const size_t want = frac < t.bias[slot] ? slot : t.alias[slot];
    const size_t want_s = frac < abc.bias[slot] ? slot : abc.alias[slot];
    REQUIRE(o[0].as_u64() == vals[want]);
    REQUIRE(o[1].as_str() == names[want_s]);
    REQUIRE(o[2].as_u64() == vals[want]);
    REQUIRE(o[3].as_u64() == 7);
  }
  // Over uniform inputs the shares follow the weights.
  std::mt19937_64 rng(22);
  for (int i = 0; i < 30000; ++i) {
    const uint64_t v = k.run({u64(rng())})[0].as_u64();
    ++counts[v == 10 ? 0 : v == 20 ? 1 : 2];
  }
  const double total = static_cast<double>(counts[0] + counts[1] + counts[2]);
  CHECK(counts[0] / total == doctest::Approx(0.5).epsilon(0.05));
  CHECK(counts[2] / total == doctest::Approx(0.2).epsilon(0.1));
  // docs/nb-rs-functions.md §19: weighted_u64(hash(i), "10:0.5;20:0.3;30:0.2") and of the raw i, i = 0..9.
  Kernel h("input i: u64\na := weighted_u64(hash(i), \"10:0.5;20:0.3;30:0.2\")\nr := weighted_u64(i, \"10:0.5;20:0.3;30:0.2\")\n"
           "s := weighted_strings(hash(i), \"a:0.5;b:0.5\")\n");
  const uint64_t hashed[] = {10, 30, 20, 20, 10, 30, 10, 30, 10, 10};
  const uint64_t raw[] = {10, 20, 30, 10, 20, 30, 10, 20, 30, 10};
  const char* ab = "babbaabbab";
  for (uint64_t i = 0; i < 10; ++i) {
    const auto o = h.run({u64(i)});
    CHECK(o[0].as_u64() == hashed[i]);
    CHECK(o[1].as_u64() == raw[i]);
    CHECK(o[2].as_str() == std::string(1, ab[i]));
  }
}

TEST_CASE("nb-rs one_of and one_of_weighted hash their input and pick evenly or by the weights' CDF") {
  Kernel k("input x: u64\no := one_of(x, \"red\", \"green\", \"blue\")\n"
           "w := one_of_weighted(x, \"200:80,404:10,500:10\")\nsolo := one_of_weighted(x, \"only:1\")\n");
  const char* colors[] = {"red", "green", "blue"};
  // nb-rs's OneOfWeighted with floats: shares accumulated in order, the last forced to 1.0,
  // the first share at least hash / 2^64.
  const double ws[] = {80, 10, 10};
  const double total = 80.0 + 10.0 + 10.0;
  double cum[3], running = 0;
  for (int i = 0; i < 3; ++i) cum[i] = running += ws[i] / total;
  cum[2] = 1.0;
  const char* codes[] = {"200", "404", "500"};
  for (uint64_t x : samples(20000, 31)) {
    const auto o = k.run({u64(x)});
    const uint64_t h = ref_hash(x);
    const double unit = static_cast<double>(h) / 18446744073709551616.0;
    size_t idx = 0;
    while (idx < 2 && cum[idx] < unit) ++idx;
    REQUIRE(o[0].as_str() == colors[h % 3]);
    REQUIRE(o[1].as_str() == codes[idx]);
    REQUIRE(o[2].as_str() == "only");
  }
  // docs/nb-rs-functions.md §19, for the inputs hash(i), i = 0..9.
  const char* want_color[] = {"blue", "blue", "blue", "red", "green", "red", "red", "blue", "blue", "green"};
  const char* want_code[] = {"200", "404", "500", "200", "200", "200", "500", "200", "404", "200"};
  for (uint64_t i = 0; i < 10; ++i) {
    const auto o = k.run({u64(ref_hash(i))});
    CHECK(o[0].as_str() == want_color[i]);
    CHECK(o[1].as_str() == want_code[i]);
  }
  // The thresholds sit exactly where the float comparison flips.
  const auto g = frontend::cdf_thresholds({80, 10, 10});
  CHECK(static_cast<double>(*g[0]) / 18446744073709551616.0 > cum[0]);
  CHECK_FALSE(static_cast<double>(*g[0] - 1) / 18446744073709551616.0 > cum[0]);
  CHECK(static_cast<double>(*g[1]) / 18446744073709551616.0 > cum[1]);
  CHECK_FALSE(static_cast<double>(*g[1] - 1) / 18446744073709551616.0 > cum[1]);
  CHECK(g.size() == 2);
}

TEST_CASE("nb-rs combinations: character sets as digits, first set lowest; literals and nb-rs's quirks") {
  Kernel k("input x: u64\n"
           "a := combinations(x, \"a-c;-;0-1\")\nb := combinations(x, \"x;A-B\")\nd := combinations(x)\n"
           "e := combinations(x, \"a-b;;c-d\")\nr := combinations(x, \"z-a;0-1\")\nt := combinations(x, \"A-Z;A-Z;A-Z\")\n"
           "an := alpha_numeric(x)\n");
  // Worked by hand: x % 6 over the digit sets "abc" (lowest) and "01"; "-" is a set of one.
  const char* a[] = {"a-0", "b-0", "c-0", "a-1", "b-1", "c-1"};
  const char* e[] = {"ac", "bc", "ad", "bd"};
  const std::string alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  for (uint64_t x : samples(3000, 41)) {
    const auto o = k.run({u64(x)});
    INFO("x = " << x);
    REQUIRE(o[0].as_str() == a[x % 6]);
    REQUIRE(o[1].as_str() == std::string("x") + "AB"[x % 2]);
    REQUIRE(o[2].as_str() == std::string(1, static_cast<char>('a' + x % 26)));
    REQUIRE(o[3].as_str() == e[x % 4]);
    REQUIRE(o[4].as_str() == std::string("z-a") + "01"[x % 2]);
    const uint64_t r = x % (26 * 26 * 26);
    REQUIRE(o[5].as_str() == std::string{static_cast<char>('A' + r % 26), static_cast<char>('A' + r / 26 % 26),
                                         static_cast<char>('A' + r / 676)});
    REQUIRE(o[6].as_str() == std::string(1, alnum[ref_hash(x) % 62]));
  }
  // nb-rs's vectors (nodes/string.rs): "A-Z;A-Z;A-Z" gives AAA for 0 and BAA for 1.
  CHECK(k.run({u64(0)})[5].as_str() == "AAA");
  CHECK(k.run({u64(1)})[5].as_str() == "BAA");
  CHECK(k.run({u64(0)})[2].as_str() == k.run({u64(26)})[2].as_str());
  auto bad = frontend::compile_source("c.gk", "input x: u64\np := \"a-z\"\nv := combinations(x, \"{p}\")\n");
  CHECK_FALSE(bad.ok());
}

TEST_CASE("nb-rs text: format_f64 rounds the exact value half to even; str_concat joins the values' text") {
  Kernel k("input (x: f64, p: u64)\na := format_f64(x, p)\nd := format_f64(x)\n"
           "s := str_concat(\"id=\", p, \" v=\", 3.14)\nnone := str_concat()\n");
  for (double x : {0.0, -0.0, 0.125, 0.375, 2.5, 3.5, -2.5, 3.14159, 1e21, 1e-7, 123456.789}) {
    for (uint64_t p : {uint64_t{0}, uint64_t{1}, uint64_t{2}, uint64_t{7}}) {
      const auto o = k.run({f64(x), u64(p)});
      char want[512];
      std::snprintf(want, sizeof want, "%.*f", static_cast<int>(p), x);
      CHECK(o[0].as_str() == want);
    }
  }
  // nb-rs's vectors (nodes/convert.rs, nodes/format.rs) and Rust's own: ties to even, NaN and inf by name.
  CHECK(k.run({f64(3.14159), u64(2)})[0].as_str() == "3.14");
  CHECK(k.run({f64(3.7), u64(0)})[0].as_str() == "4");
  CHECK(k.run({f64(0.125), u64(2)})[0].as_str() == "0.12");
  CHECK(k.run({f64(0.375), u64(2)})[0].as_str() == "0.38");
  CHECK(k.run({f64(2.5), u64(0)})[0].as_str() == "2");
  CHECK(k.run({f64(0.5), u64(0)})[0].as_str() == "0");
  CHECK(k.run({f64(NAN), u64(2)})[0].as_str() == "NaN");
  CHECK(k.run({f64(-INFINITY), u64(2)})[0].as_str() == "-inf");
  CHECK(k.run({f64(3.14159), u64(5)})[1].as_str() == "3.14");
  const auto o = k.run({f64(0), u64(42)});
  CHECK(o[2].as_str() == "id=42 v=3.14");
  CHECK(o[3].as_str() == "");
}

TEST_CASE("nb-rs source forms: `input:` names a call's first parameter, `#` starts a comment") {
  Kernel k("# nb-rs writes comments with a hash\ninput cycle: u64\n"
           "a := hashed_id(input: cycle, bound: 1000)  # after code too\nb := hash_range(input: cycle, max: 10)\n"
           "c := mod(input: cycle, n: 7)\n");
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, uint64_t{99}}) {
    const auto o = k.run({u64(x)});
    CHECK(o[0].as_u64() == ref_hash(x) % 1000);
    CHECK(o[1].as_u64() == ref_hash(x) % 10);
    CHECK(o[2].as_u64() == x % 7);
  }
}

namespace {
// nb-rs's u64_to_words, from its definition: below 20 one word; otherwise the
// nonzero groups of three digits with their scales, most significant first.
std::string ref_words(uint64_t n) {
  static const char* ones[] = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                               "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                               "nineteen"};
  static const char* tens[] = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};
  static const char* scales[] = {"", " thousand", " million", " billion", " trillion", " quadrillion", " quintillion"};
  if (n < 20) return ones[n];
  std::vector<std::string> groups;
  for (int scale = 0; n > 0; n /= 1000, ++scale) {
    const uint64_t g = n % 1000, h = g / 100, r = g % 100;
    if (g == 0) continue;
    std::string w = h ? std::string(ones[h]) + " hundred" : "";
    const std::string low = r >= 20 ? std::string(tens[r / 10]) + (r % 10 ? std::string("-") + ones[r % 10] : "")
                            : r > 0 ? std::string(ones[r]) : "";
    if (!low.empty()) w += (w.empty() ? "" : " ") + low;
    groups.push_back(w + scales[scale]);
  }
  std::string out;
  for (auto it = groups.rbegin(); it != groups.rend(); ++it) out += (out.empty() ? "" : " ") + *it;
  return out;
}
}  // namespace

TEST_CASE("nb-rs number_to_words: English words, groups of three digits with their scales") {
  Kernel k("input x: u64\nw := number_to_words(x)\n");
  for (uint64_t x : samples(5000, 51)) REQUIRE(k.run({u64(x)})[0].as_str() == ref_words(x));
  for (uint64_t x = 0; x < 2100; ++x) REQUIRE(k.run({u64(x)})[0].as_str() == ref_words(x));
  // nb-rs's vectors (nodes/string.rs).
  const std::pair<uint64_t, const char*> cases[] = {
      {0, "zero"}, {1, "one"}, {11, "eleven"}, {19, "nineteen"}, {20, "twenty"}, {42, "forty-two"},
      {99, "ninety-nine"}, {100, "one hundred"}, {123, "one hundred twenty-three"}, {500, "five hundred"},
      {1000, "one thousand"}, {1001, "one thousand one"}, {12345, "twelve thousand three hundred forty-five"},
      {1000000, "one million"},
      {1234567, "one million two hundred thirty-four thousand five hundred sixty-seven"}};
  for (auto [x, w] : cases) CHECK(k.run({u64(x)})[0].as_str() == w);
  CHECK(k.run({u64(1000000000000)})[0].as_str().rfind("one trillion", 0) == 0);
}
