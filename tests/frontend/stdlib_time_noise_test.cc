// The library modules for nb-rs's datetime, noise and remaining probability
// nodes (nbrs-variates/src/nodes/datetime.rs, noise.rs, probability.rs, and the
// timeseries.gk stdlib module). Each kernel runs on the interpreter and is held
// to nb-rs's own unit-test values where it has them, to instants and noise
// values worked out by hand, and to references written here: the <chrono>
// civil calendar and nb-rs's year-by-year walk for dates, plain float code for
// the noise, libxxhash for the hashes, memcpy for blend's bit patterns.
#include <doctest/doctest.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tests/frontend/stdlib_kernel.h"

using namespace polydat;
using ir::Value;

using stdlibtest::kAllOnes;
using stdlibtest::Kernel;
using stdlibtest::bits_of;
using stdlibtest::f64;
using stdlibtest::ref_hash;
using stdlibtest::u64;

namespace {

double from_bits(uint64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}
bool same_f64(double a, double b) { return bits_of(a) == bits_of(b) || (std::isnan(a) && std::isnan(b)); }

// ---- dates ----

// nb-rs's decompose_epoch_ms: split off ms, s, min, h, then walk whole years
// from 1970 and whole months. The walk is taken 400 years (146097 days, the
// Gregorian cycle) at a time first, which lands on the same year; otherwise
// 2^64 - 1 would take 584 million steps.
std::array<uint64_t, 7> ref_walk(uint64_t ms) {
  auto leap = [](uint64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; };
  const uint64_t milli = ms % 1000, secs = ms / 1000;
  const uint64_t second = secs % 60, minute = secs / 60 % 60, hour = secs / 3600 % 24;
  uint64_t days = secs / 86400;
  uint64_t year = 1970 + days / 146097 * 400;
  days %= 146097;
  while (days >= (leap(year) ? 366u : 365u)) days -= leap(year++) ? 366 : 365;
  const uint64_t lengths[] = {31, leap(year) ? 29u : 28u, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  uint64_t month = 1;
  while (days >= lengths[month - 1]) days -= lengths[month++ - 1];
  return {year, month, days + 1, hour, minute, second, milli};
}

std::string ref_iso(const std::array<uint64_t, 7>& c) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04llu-%02llu-%02lluT%02llu:%02llu:%02llu.%03lluZ", static_cast<unsigned long long>(c[0]),
                static_cast<unsigned long long>(c[1]), static_cast<unsigned long long>(c[2]),
                static_cast<unsigned long long>(c[3]), static_cast<unsigned long long>(c[4]),
                static_cast<unsigned long long>(c[5]), static_cast<unsigned long long>(c[6]));
  return buf;
}

// ---- noise ----

// nb-rs's PermTable: the identity of 0..255, then for i = 255 down to 1,
// s = xxh3(s) from the seed and entries i and s % (i + 1) swap.
std::array<uint8_t, 256> ref_perm(uint64_t seed) {
  std::array<uint8_t, 256> p;
  for (int i = 0; i < 256; ++i) p[i] = static_cast<uint8_t>(i);
  uint64_t s = seed;
  for (int i = 255; i >= 1; --i) {
    s = ref_hash(s);
    std::swap(p[i], p[s % static_cast<uint64_t>(i + 1)]);
  }
  return p;
}

// Rust's `f as i32` (saturating, NaN 0) and i32 arithmetic that wraps.
int32_t as_i32(double d) {
  if (std::isnan(d)) return 0;
  if (d <= -2147483648.0) return INT32_MIN;
  if (d >= 2147483647.0) return INT32_MAX;
  return static_cast<int32_t>(d);
}
int32_t add32(int32_t a, int32_t b) { return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b)); }

struct RefNoise {
  std::array<uint8_t, 256> p;
  explicit RefNoise(uint64_t seed) : p(ref_perm(seed)) {}
  int32_t at(int32_t i) const { return p[static_cast<uint32_t>(i) & 255u]; }
  static double fade(double t) { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
  static double lerp(double t, double a, double b) { return a + t * (b - a); }
  static double grad2(int32_t h, double x, double y) {
    switch (h & 3) {
      case 0: return x + y;
      case 1: return -x + y;
      case 2: return x - y;
      default: return -x - y;
    }
  }
  double perlin1(double x) const {
    const double cell = std::floor(x), t = x - cell;
    const int32_t xi = as_i32(cell);
    const double ga = (at(xi) & 1) == 0 ? t : -t;
    const double gb = (at(add32(xi, 1)) & 1) == 0 ? t - 1.0 : -(t - 1.0);
    return lerp(fade(t), ga, gb);
  }
  double perlin2(double x, double y) const {
    const double cx = std::floor(x), cy = std::floor(y), xf = x - cx, yf = y - cy;
    const int32_t xi = as_i32(cx), yi = as_i32(cy);
    const double u = fade(xf), v = fade(yf);
    const int32_t a = at(xi), b = at(add32(xi, 1));
    const int32_t aa = at(add32(a, yi)), ab = at(add32(add32(a, yi), 1));
    const int32_t ba = at(add32(b, yi)), bb = at(add32(add32(b, yi), 1));
    return lerp(v, lerp(u, grad2(aa, xf, yf), grad2(ba, xf - 1.0, yf)),
                lerp(u, grad2(ab, xf, yf - 1.0), grad2(bb, xf - 1.0, yf - 1.0)));
  }
  double simplex2(double x, double y) const {
    const double F2 = 0.3660254037844386, G2 = 0.21132486540518713;
    const double s = (x + y) * F2;
    const int32_t i = as_i32(std::floor(x + s)), j = as_i32(std::floor(y + s));
    const double t = static_cast<double>(add32(i, j)) * G2;
    const double x0 = x - (static_cast<double>(i) - t), y0 = y - (static_cast<double>(j) - t);
    const int32_t i1 = x0 > y0 ? 1 : 0, j1 = x0 > y0 ? 0 : 1;
    const double x1 = x0 - static_cast<double>(i1) + G2, y1 = y0 - static_cast<double>(j1) + G2;
    const double x2 = x0 - 1.0 + 2.0 * G2, y2 = y0 - 1.0 + 2.0 * G2;
    const int32_t g0 = at(add32(i, at(j)));
    const int32_t g1 = at(add32(add32(i, i1), at(add32(j, j1))));
    const int32_t g2 = at(add32(add32(i, 1), at(add32(j, 1))));
    auto corner = [](double cx, double cy, int32_t g) {
      double r = 0.5 - cx * cx - cy * cy;
      if (!(r > 0.0)) return 0.0;
      r = r * r;
      return r * r * grad2(g, cx, cy);
    };
    return 70.0 * (corner(x0, y0, g0) + corner(x1, y1, g1) + corner(x2, y2, g2));
  }
  double fbm1(uint64_t in, double freq, uint32_t octaves) const {
    const double bx = static_cast<double>(in);
    double total = 0.0, amp = 1.0, amps = 0.0;
    for (uint32_t o = 0; o < octaves; ++o) {
      total += perlin1(bx * freq) * amp;
      amps += amp;
      freq *= 2.0;
      amp *= 0.5;
    }
    return total / amps;
  }
  double fbm2(uint64_t ix, uint64_t iy, double freq, uint32_t octaves) const {
    const double bx = static_cast<double>(ix), by = static_cast<double>(iy);
    double total = 0.0, amp = 1.0, amps = 0.0;
    for (uint32_t o = 0; o < octaves; ++o) {
      total += perlin2(bx * freq, by * freq) * amp;
      amps += amp;
      freq *= 2.0;
      amp *= 0.5;
    }
    return total / amps;
  }
};

// ---- n_of ----

uint64_t ref_hash16(uint64_t lo, uint64_t hi) {
  unsigned char buf[16];
  std::memcpy(buf, &lo, 8);
  std::memcpy(buf + 8, &hi, 8);
  return XXH3_64bits(buf, sizeof buf);
}
uint64_t ref_n_of(uint64_t x, uint64_t n, uint64_t m) {
  const uint64_t window = x / m, place = x % m, mine = ref_hash16(window, place);
  uint64_t rank = 0;
  for (uint64_t i = 0; i < m; ++i) {
    if (i == place) continue;
    const uint64_t other = ref_hash16(window, i);
    if (other < mine || (other == mine && i < place)) ++rank;
  }
  return rank < n ? 1 : 0;
}

}  // namespace

TEST_CASE("stdlib time/noise: epoch_scale, epoch_offset, monotonic_ts and jittered_ts") {
  Kernel k(
      "input x: u64\n"
      "s := epoch_scale(x, 1000)\no := epoch_offset(x, 1000000)\nsd := epoch_scale(x)\nod := epoch_offset(x)\n"
      "m := monotonic_ts(input: x, base_epoch: 1710000000000, interval_ms: 1000)\n"
      "j := jittered_ts(input: x, base_epoch: 1710000000000, interval_ms: 1000, jitter_ms: 200)\n");
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, uint64_t{5}, uint64_t{500}, uint64_t{1} << 40, uint64_t{1} << 63, kAllOnes - 1,
                     kAllOnes}) {
    const auto o = k.run({u64(x)});
    INFO("x = " << x);
    CHECK(o[0].as_u64() == x * 1000);  // wrapping, as nb-rs's wrapping_mul
    CHECK(o[1].as_u64() == x + 1000000);
    CHECK(o[2].as_u64() == x);  // nb-rs's defaults: factor 1, base 0
    CHECK(o[3].as_u64() == x);
    CHECK(o[4].as_u64() == 1710000000000 + x * 1000);
    CHECK(o[5].as_u64() == 1710000000000 + x * 1000 + ref_hash(x) % 200);
  }
  // nb-rs's vectors (nodes/datetime.rs: epoch_scale_seconds, epoch_offset_basic;
  // docs/nb-rs-functions.md §12 for its DSL tests).
  CHECK(k.run({u64(5)})[0].as_u64() == 5000);
  CHECK(k.run({u64(0)})[0].as_u64() == 0);
  CHECK(k.run({u64(500)})[1].as_u64() == 1000500);
  Kernel big("input x: u64\no := epoch_offset(x, 1000000000000)\n");
  CHECK(big.run({u64(0)})[0].as_u64() == 1000000000000);
  CHECK(big.run({u64(5)})[0].as_u64() == 1000000000005);
  // timeseries.gk's own example: reading 0 and 1 are 1710000000000 and 1710000001000.
  CHECK(k.run({u64(0)})[4].as_u64() == 1710000000000);
  CHECK(k.run({u64(1)})[4].as_u64() == 1710000001000);
  // jitter = xxh3(x) % 200: 97, 78, 147, 189 for x = 0..3.
  const uint64_t jittered[] = {1710000000097, 1710000001078, 1710000002147, 1710000003189};
  for (uint64_t x = 0; x < 4; ++x) CHECK(k.run({u64(x)})[5].as_u64() == jittered[x]);
}

TEST_CASE("stdlib time/noise: date_components and to_timestamp, nb-rs's vectors and instants worked by hand") {
  Kernel k("input x: u64\n(y, mo, d, h, mi, s, ms) := date_components(x)\nt := to_timestamp(x)\n");
  struct Instant {
    uint64_t ms;
    std::array<uint64_t, 7> parts;
    const char* text;
  };
  const Instant cases[] = {
      // nb-rs's vectors (nodes/datetime.rs: to_timestamp_epoch_zero, to_timestamp_known_date,
      // date_components_epoch_zero, date_components_known).
      {0, {1970, 1, 1, 0, 0, 0, 0}, "1970-01-01T00:00:00.000Z"},
      {1704067200000, {2024, 1, 1, 0, 0, 0, 0}, "2024-01-01T00:00:00.000Z"},
      {19797ull * 86400000 + 14 * 3600000 + 30 * 60000 + 45 * 1000 + 123, {2024, 3, 15, 14, 30, 45, 123},
       "2024-03-15T14:30:45.123Z"},
      // By hand: 1970..1999 are 30 years with 7 leap days, 10957 days; January and
      // February 1..28 add 59, so day 11016 is 2000-02-29 (2000 is divisible by 400).
      {11016ull * 86400000, {2000, 2, 29, 0, 0, 0, 0}, "2000-02-29T00:00:00.000Z"},
      {11016ull * 86400000 - 1, {2000, 2, 28, 23, 59, 59, 999}, "2000-02-28T23:59:59.999Z"},
      {11017ull * 86400000, {2000, 3, 1, 0, 0, 0, 0}, "2000-03-01T00:00:00.000Z"},
      // 10^12 ms = 11574 days + 6400 s: 2001 is day 11323, 251 days on is September 9th.
      {1000000000000, {2001, 9, 9, 1, 46, 40, 0}, "2001-09-09T01:46:40.000Z"},
      // 1970..2099 are 130 years with 32 leap days (1972..2096): 47482 days; 2100 is
      // not a leap year (divisible by 100, not by 400), so day 47482 + 59 is March 1st.
      {47541ull * 86400000, {2100, 3, 1, 0, 0, 0, 0}, "2100-03-01T00:00:00.000Z"},
      {47541ull * 86400000 - 1, {2100, 2, 28, 23, 59, 59, 999}, "2100-02-28T23:59:59.999Z"},
      // The last day of 1970 and the first of 1971.
      {364ull * 86400000 + 86399999, {1970, 12, 31, 23, 59, 59, 999}, "1970-12-31T23:59:59.999Z"},
      {365ull * 86400000, {1971, 1, 1, 0, 0, 0, 0}, "1971-01-01T00:00:00.000Z"},
  };
  for (const auto& c : cases) {
    const auto o = k.run({u64(c.ms)});
    INFO("ms = " << c.ms);
    for (size_t i = 0; i < 7; ++i) CHECK(o[i].as_u64() == c.parts[i]);
    CHECK(o[7].as_str() == c.text);
    CHECK(ref_walk(c.ms) == c.parts);
  }
  // The year is padded to 4 digits and never cut: the largest u64 is in year 584556019.
  const auto top = k.run({u64(kAllOnes)});
  CHECK(top[7].as_str() == "584556019-04-03T14:25:51.615Z");
  CHECK(ref_iso(ref_walk(kAllOnes)) == "584556019-04-03T14:25:51.615Z");
  // nb-rs's DSL test (docs/nb-rs-functions.md §12): epoch_offset(c, 1704067200000) into date_components.
  Kernel dsl("input cycle: u64\n(y, mo, d, h, mi, s, ms) := date_components(epoch_offset(cycle, 1704067200000))\n");
  const auto o = dsl.run({u64(0)});
  const uint64_t want[] = {2024, 1, 1, 0, 0, 0, 0};
  for (size_t i = 0; i < 7; ++i) CHECK(o[i].as_u64() == want[i]);
}

TEST_CASE("stdlib time/noise: date_components against <chrono> and nb-rs's calendar walk") {
  Kernel k("input x: u64\n(y, mo, d, h, mi, s, ms) := date_components(x)\nt := to_timestamp(x)\n");
  auto check = [&](uint64_t ms) {
    const auto o = k.run({u64(ms)});
    const auto want = ref_walk(ms);
    INFO("ms = " << ms);
    for (size_t i = 0; i < 7; ++i) REQUIRE(o[i].as_u64() == want[i]);
    REQUIRE(o[7].as_str() == ref_iso(want));
    if (want[0] <= 32767) {  // std::chrono::year's range
      using namespace std::chrono;
      const year_month_day ymd{sys_days{days{static_cast<days::rep>(ms / 86400000)}}};
      REQUIRE(static_cast<int>(ymd.year()) == static_cast<int>(want[0]));
      REQUIRE(static_cast<unsigned>(ymd.month()) == want[1]);
      REQUIRE(static_cast<unsigned>(ymd.day()) == want[2]);
      const milliseconds tod{static_cast<milliseconds::rep>(ms % 86400000)};
      const hh_mm_ss<milliseconds> clock{tod};
      REQUIRE(static_cast<uint64_t>(clock.hours().count()) == want[3]);
      REQUIRE(static_cast<uint64_t>(clock.minutes().count()) == want[4]);
      REQUIRE(static_cast<uint64_t>(clock.seconds().count()) == want[5]);
      REQUIRE(static_cast<uint64_t>(clock.subseconds().count()) == want[6]);
    }
  };
  // Every day from 1970 into 2134, alternately at its last millisecond and at a time spread over the day.
  for (uint64_t day = 0; day < 60000; ++day) check(day * 86400000 + (day % 2 == 0 ? 86399999 : day * 7919 % 86400000));
  // The turns of the centuries and of the 400-year cycle, around their leap days.
  for (uint64_t y : {1999, 2000, 2099, 2100, 2399, 2400, 9999, 10000}) {
    using namespace std::chrono;
    for (unsigned m : {2u, 3u}) {
      const auto first = sys_days{year{static_cast<int>(y)} / month{m} / day{1}}.time_since_epoch().count();
      const uint64_t ms = static_cast<uint64_t>(first) * 86400000;
      check(ms);
      check(ms - 1);
    }
  }
  // Random instants of every magnitude up to the top of u64.
  std::mt19937_64 rng(61);
  for (int i = 0; i < 3000; ++i) {
    const uint64_t r = rng();
    check(i % 3 == 0 ? r % 253402300800000 : i % 3 == 1 ? r >> (rng() % 64) : r);
  }
}

TEST_CASE("stdlib time/noise: the noise permutation is nb-rs's Fisher-Yates shuffle") {
  std::string words;
  for (int i = 0; i < 32; ++i) words += (i ? ", j" : "j") + std::to_string(i);
  Kernel k("input k: u64\nextern seed: u64 = 0\n(" + words + ") := noise_swaps(seed)\n(a, b, c, d) := noise_perm4(k, k + 1, k + 2, k + 3, " +
           words + ")\n");
  for (uint64_t seed : {uint64_t{0}, uint64_t{42}, uint64_t{12345}, kAllOnes}) {
    const auto p = ref_perm(seed);
    std::set<uint64_t> seen;
    for (uint64_t key = 0; key < 256; ++key) {
      const auto o = k.run({u64(key), u64(seed)});
      INFO("seed = " << seed << ", k = " << key);
      for (uint64_t i = 0; i < 4; ++i) REQUIRE(o[i].as_u64() == static_cast<uint64_t>(p[(key + i) & 255]));
      seen.insert(o[0].as_u64());
    }
    CHECK(seen.size() == 256);
  }
  // Indices are taken mod 256, as nb-rs's perm.hash(i) = perm[i & 255].
  const auto p42 = ref_perm(42);
  CHECK(k.run({u64(256 + 7), u64(42)})[0].as_u64() == static_cast<uint64_t>(p42[7]));
  CHECK(k.run({u64(kAllOnes), u64(42)})[0].as_u64() == static_cast<uint64_t>(p42[255]));
  // docs/nb-rs-functions.md §19, checked against ref_perm: seed 42 begins 223 154 93 133 136 83 78 232.
  const uint64_t first[] = {223, 154, 93, 133, 136, 83, 78, 232};
  for (uint64_t i = 0; i < 8; i += 4) {
    const auto o = k.run({u64(i), u64(42)});
    for (uint64_t j = 0; j < 4; ++j) CHECK(o[j].as_u64() == first[i + j]);
  }
}

TEST_CASE("stdlib time/noise: perlin, simplex and fractal noise bit for bit against a float reference") {
  Kernel k(
      "input (x: u64, y: u64)\nextern seed: u64 = 0\nextern freq: f64 = 0.01\nextern oct: u64 = 4\n"
      "p1 := perlin_1d(x, seed, freq)\np2 := perlin_2d(x, y, seed, freq)\ns2 := simplex_2d(x, y, seed, freq)\n"
      "f1 := fractal_noise_1d(x, seed, freq, oct)\nf2 := fractal_noise_2d(x, y, seed, freq, oct)\n");
  // Frequencies small and large, negative (negative cells, masked to 8 bits) and huge
  // (floor beyond i32, which Rust's `as i32` saturates); octaves 0 gives NaN; the
  // octave count is nb-rs's u32, so 2^32 + 2 means 2.
  const struct {
    uint64_t seed;
    double freq;
    uint64_t octaves;
  } configs[] = {{42, 0.01, 4}, {0, 0.005, 3}, {99, 1.0, 1}, {7, 0.37, 5}, {12345, 1e-7, 2},
                 {8, -0.37, (uint64_t{1} << 32) + 2}, {9, -1e12, 2}, {5, 1e-12, 0}};
  std::mt19937_64 rng(71);
  for (const auto& c : configs) {
    const RefNoise ref(c.seed);
    for (int i = 0; i < 30; ++i) {
      const uint64_t x = i < 10 ? static_cast<uint64_t>(i) : i % 2 == 0 ? rng() >> (rng() % 64) : rng();
      const uint64_t y = i < 10 ? static_cast<uint64_t>(3 * i + 7) : rng() >> (rng() % 64);
      const auto o = k.run({u64(x), u64(y), u64(c.seed), f64(c.freq), u64(c.octaves)});
      const double fx = static_cast<double>(x) * c.freq, fy = static_cast<double>(y) * c.freq;
      const auto oct = static_cast<uint32_t>(c.octaves);
      const double want[] = {ref.perlin1(fx), ref.perlin2(fx, fy), ref.simplex2(fx, fy), ref.fbm1(x, c.freq, oct),
                             ref.fbm2(x, y, c.freq, oct)};
      INFO("seed = " << c.seed << ", freq = " << c.freq << ", x = " << x << ", y = " << y);
      for (size_t j = 0; j < 5; ++j) {
        CAPTURE(j);
        REQUIRE(same_f64(o[j].as_f64(), want[j]));
      }
    }
  }
}

TEST_CASE("stdlib time/noise: nb-rs's noise tests (bounded, smooth, seeded) and values worked by hand") {
  // nb-rs's tests (nodes/noise.rs): perlin_1d(42, 0.01) in [-1, 1] over 0..999 and
  // smooth (fewer than 5 steps above 0.5 over 101..199); fractal_noise_1d(42, 0.01, 4)
  // in [-1.5, 1.5] over 0..499 with at least 0.8 times the single octave's total variation.
  Kernel one("input x: u64\np := perlin_1d(x, 42, 0.01)\nf := fractal_noise_1d(x, 42, 0.01, 4)\n");
  Kernel p1("input x: u64\np := perlin_1d(x, 42, 0.01)\n");
  double prev = 0, jumps = 0, single = 0, layered = 0, prev_f = 0;
  for (uint64_t i = 0; i < 1000; ++i) {
    if (i < 500) {
      const auto o = one.run({u64(i)});
      const double v = o[0].as_f64(), f = o[1].as_f64();
      REQUIRE(v >= -1.0);
      REQUIRE(v <= 1.0);
      REQUIRE(f >= -1.5);
      REQUIRE(f <= 1.5);
      if (i > 0) {
        single += std::fabs(v - prev);
        layered += std::fabs(f - prev_f);
      }
      if (i > 100 && i < 200 && std::fabs(v - prev) > 0.5) ++jumps;
      prev = v;
      prev_f = f;
    } else {
      const double v = p1.run({u64(i)})[0].as_f64();
      REQUIRE(v >= -1.0);
      REQUIRE(v <= 1.0);
    }
  }
  CHECK(jumps < 5);
  CHECK(layered > single * 0.8);
  // Deterministic, and seeds 1 and 2 (frequency 0.1) differ by more than 0.01 somewhere in 0..99.
  Kernel seeds("input x: u64\na := perlin_1d(x, 1, 0.1)\nb := perlin_1d(x, 2, 0.1)\nc := perlin_1d(x, 42, 0.1)\n");
  CHECK(bits_of(seeds.run({u64(123)})[2].as_f64()) == bits_of(seeds.run({u64(123)})[2].as_f64()));
  bool differ = false;
  for (uint64_t i = 0; i < 100 && !differ; ++i) {
    const auto o = seeds.run({u64(i)});
    differ = std::fabs(o[0].as_f64() - o[1].as_f64()) > 0.01;
  }
  CHECK(differ);
  // perlin_2d and simplex_2d (42, 0.01) in [-1.5, 1.5] on nb-rs's 50 x 50 grid (its even
  // points here, to keep the interpreter's time down); fractal_noise_2d(42, 0.01, 3) on
  // the even points of its 30 x 30 grid.
  Kernel two("input (x: u64, y: u64)\np := perlin_2d(x, y, 42, 0.01)\ns := simplex_2d(x, y, 42, 0.01)\n");
  Kernel fbm2("input (x: u64, y: u64)\nf := fractal_noise_2d(x, y, 42, 0.01, 3)\n");
  // nb-rs's perlin_2d_smooth: along y = 100, x = 101..149, fewer than 5 steps above 0.5.
  double before = two.run({u64(100), u64(100)})[0].as_f64(), steps = 0;
  for (uint64_t x = 101; x < 150; ++x) {
    const double v = two.run({u64(x), u64(100)})[0].as_f64();
    if (std::fabs(v - before) > 0.5) ++steps;
    before = v;
  }
  CHECK(steps < 5);
  for (uint64_t x = 0; x < 50; x += 2)
    for (uint64_t y = 0; y < 50; y += 2) {
      const auto o = two.run({u64(x), u64(y)});
      for (size_t i = 0; i < 2; ++i) {
        REQUIRE(o[i].as_f64() >= -1.5);
        REQUIRE(o[i].as_f64() <= 1.5);
      }
      if (x < 30 && y < 30) {
        const double f = fbm2.run({u64(x), u64(y)})[0].as_f64();
        REQUIRE(f >= -1.5);
        REQUIRE(f <= 1.5);
      }
    }
  // By hand, from seed 42's entries 223 154 93 133 136 (above): at a cell's middle
  // (t = 0.5) the fade is 0.5 and the noise is the mean of the two gradients,
  // t = 0.5 for an even entry and -0.5 for an odd one at the left corner, t - 1 = -0.5
  // or 0.5 at the right. Cells 0..3: odd/even -0.5, even/odd 0.5, odd/odd 0, odd/even -0.5.
  Kernel half("input x: u64\np := perlin_1d(x, 42, 0.5)\n");
  const double middles[] = {-0.5, 0.5, 0.0, -0.5};
  for (uint64_t cell = 0; cell < 4; ++cell) CHECK(half.run({u64(2 * cell + 1)})[0].as_f64() == middles[cell]);
  // On the lattice every offset is 0, so perlin and simplex noise are 0 there (simplex:
  // at the origin only the first corner is within reach, with a zero offset).
  Kernel lattice("input (x: u64, y: u64)\np := perlin_1d(x, 7, 1.0)\nq := perlin_2d(x, y, 7, 1.0)\ns := simplex_2d(x, y, 7, 1.0)\n");
  for (uint64_t x = 0; x < 5; ++x) {
    const auto o = lattice.run({u64(x), u64(x * 3)});
    CHECK(o[0].as_f64() == 0.0);
    CHECK(o[1].as_f64() == 0.0);
  }
  CHECK(lattice.run({u64(0), u64(0)})[2].as_f64() == 0.0);
  // One octave is the plain noise; no octave is 0 / 0.
  Kernel octaves("input x: u64\na := fractal_noise_1d(x, 3, 0.3, 1)\nb := perlin_1d(x, 3, 0.3)\nc := fractal_noise_1d(x, 3, 0.3, 0)\n");
  for (uint64_t x = 1; x < 20; ++x) {
    const auto o = octaves.run({u64(x)});
    CHECK(o[0].as_f64() == o[1].as_f64());
    CHECK(std::isnan(o[2].as_f64()));
  }
}

TEST_CASE("stdlib time/noise: n_of picks exactly n of every m by XXH3 of (window, place)") {
  Kernel k("input x: u64\nextern n: u64 = 1\nextern m: u64 = 2\nc := n_of(x, n, m)\nd := n_of(x)\n");
  const std::pair<uint64_t, uint64_t> shapes[] = {{3, 10}, {1, 2}, {0, 5}, {5, 5}, {2, 7}, {17, 100}, {1, 1}};
  for (const auto& shape : shapes) {
    const uint64_t n = shape.first, m = shape.second;
    for (uint64_t window : {uint64_t{0}, uint64_t{1}, uint64_t{9}, uint64_t{123456789}}) {
      uint64_t count = 0;
      for (uint64_t place = 0; place < m; ++place) {
        const uint64_t x = window * m + place;
        const auto o = k.run({u64(x), u64(n), u64(m)});
        INFO("n = " << n << ", m = " << m << ", x = " << x);
        REQUIRE(o[0].as_u64() == ref_n_of(x, n, m));
        REQUIRE(o[1].as_u64() == ref_n_of(x, 1, 2));  // nb-rs's defaults n = 1, m = 2
        count += o[0].as_u64();
      }
      CHECK(count == n);  // nb-rs: exactly n per window
    }
  }
  std::mt19937_64 rng(81);
  for (int i = 0; i < 300; ++i) {
    const uint64_t x = rng() >> (rng() % 64);
    REQUIRE(k.run({u64(x), u64(3), u64(10)})[0].as_u64() == ref_n_of(x, 3, 10));
  }
  // nb-rs's tests (nodes/probability.rs): n_of(3, 10) gives exactly 3 in each of windows
  // 0..9, n_of(5, 5) always 1, n_of(0, 5) always 0, n_of(1, 10) picks more than one place
  // over 20 windows. Windows 0..9 and the places it picks in window 0: 1, 2, 6.
  std::set<uint64_t> places;
  for (uint64_t window = 0; window < 20; ++window) {
    uint64_t three = 0;
    for (uint64_t place = 0; place < 10; ++place) {
      const uint64_t x = window * 10 + place;
      three += k.run({u64(x), u64(3), u64(10)})[0].as_u64();
      if (k.run({u64(x), u64(1), u64(10)})[0].as_u64() == 1) places.insert(place);
    }
    CHECK(three == 3);
  }
  CHECK(places.size() > 1);
  for (uint64_t x = 0; x < 20; ++x) {
    CHECK(k.run({u64(x), u64(5), u64(5)})[0].as_u64() == 1);
    CHECK(k.run({u64(x), u64(0), u64(5)})[0].as_u64() == 0);
  }
  const uint64_t window0[] = {0, 1, 1, 0, 0, 0, 1, 0, 0, 0};
  for (uint64_t x = 0; x < 10; ++x) CHECK(k.run({u64(x), u64(3), u64(10)})[0].as_u64() == window0[x]);
}

TEST_CASE("stdlib time/noise: blend mixes f64 bit patterns carried in u64") {
  Kernel k("input (a: u64, b: u64)\nextern mix: f64 = 0.5\nv := blend(a, b, mix)\nd := blend(a, b)\n");
  const uint64_t specials[] = {0, 0x8000000000000000, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
                               0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 0x7FF0000000000001,
                               0xFFF4000000000000, 0x3FF0000000000000, 0xBFF0000000000000, 10, 20, 0x4024000000000000};
  std::vector<std::pair<uint64_t, uint64_t>> pairs;
  for (uint64_t a : specials)
    for (uint64_t b : specials) pairs.emplace_back(a, b);
  std::mt19937_64 rng(91);
  for (int i = 0; i < 400; ++i) pairs.emplace_back(i % 2 ? rng() : rng() >> 12, i % 3 ? rng() & 0xBFFFFFFFFFFFFFFF : rng());
  for (double mix : {0.5, 0.0, 1.0, 0.25, 0.3, 1e-300, -0.5, 2.0}) {
    for (const auto& pair : pairs) {
      const uint64_t a = pair.first, b = pair.second;
      const auto o = k.run({u64(a), u64(b), f64(mix)});
      // nb-rs: f64::from_bits(a) * (1.0 - mix) + f64::from_bits(b) * mix, then to_bits.
      const double left = from_bits(a) * (1.0 - mix), right = from_bits(b) * mix, r = left + right;
      INFO("a = " << a << ", b = " << b << ", mix = " << mix);
      if (!std::isnan(r)) {
        REQUIRE(o[0].as_u64() == bits_of(r));
      } else {
        // x86's rule: the first NaN operand of the sum; a NaN input comes through
        // quieted, a NaN made by inf * 0 is 0xFFF8000000000000.
        auto nan_of = [](uint64_t in) { return std::isnan(from_bits(in)) ? in | 0x0008000000000000 : 0xFFF8000000000000; };
        const uint64_t want = std::isnan(left) ? nan_of(a) : std::isnan(right) ? nan_of(b) : 0xFFF8000000000000;
        REQUIRE(o[0].as_u64() == want);
      }
      if (mix == 0.5) REQUIRE(o[1].as_u64() == o[0].as_u64());  // nb-rs's default mix
    }
  }
  // Every binade's edges, each sign, through both conversions: blend(a, 0, 0.0) is a
  // itself (NaNs quieted).
  for (uint64_t e = 0; e < 2048; ++e)
    for (uint64_t top : {uint64_t{0}, uint64_t{1} << 63})
      for (uint64_t f : {uint64_t{0}, uint64_t{1}, uint64_t{0x7FFFFFFFFFFFF}, uint64_t{0xFFFFFFFFFFFFF}}) {
        const uint64_t a = top | e << 52 | f;
        const uint64_t want = std::isnan(from_bits(a)) ? a | 0x0008000000000000 : a == (uint64_t{1} << 63) ? 0 : a;
        REQUIRE(k.run({u64(a), u64(0), f64(0.0)})[0].as_u64() == want);
      }
  // nb-rs's vectors (nodes/probability.rs): mix 0, 1, 0.5 of 10.0 and 20.0, and 0.25 of 0.0 and 100.0.
  auto at = [&](double a, double b, double mix) { return from_bits(k.run({u64(bits_of(a)), u64(bits_of(b)), f64(mix)})[0].as_u64()); };
  CHECK(at(10.0, 20.0, 0.0) == 10.0);
  CHECK(at(10.0, 20.0, 1.0) == 20.0);
  CHECK(at(10.0, 20.0, 0.5) == 15.0);
  CHECK(at(0.0, 100.0, 0.25) == 25.0);
  // Integers are read as bit patterns, subnormals here: blend(10, 20, 0.5) is 15
  // (examples/workloads/stdlib_coverage.yaml); nb-rs's DSL test blend(cycle, cycle + 1000, 0.0)
  // gives cycle back and mix 1.0 gives cycle + 1000 (docs/nb-rs-functions.md §8).
  Kernel dsl("input cycle: u64\nh := blend(10, 20, 0.5)\nz := blend(cycle, cycle + 1000, 0.0)\no := blend(cycle, cycle + 1000, 1.0)\n");
  for (uint64_t c : {uint64_t{0}, uint64_t{1}, uint64_t{5}, uint64_t{1} << 52, uint64_t{0x4024000000000000}}) {
    const auto o = dsl.run({u64(c)});
    CHECK(o[0].as_u64() == 15);
    CHECK(o[1].as_u64() == c);
    CHECK(o[2].as_u64() == c + 1000);
  }
}
