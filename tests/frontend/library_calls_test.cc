// Kernels calling the table-sampled distributions and the library operations:
// the compiled kernel against the C++ reference it must equal bit for bit,
// and the diagnostics for constants that are not constant or not valid.
#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "frontend/distributions.h"
#include "ir/text_codecs.h"
#include "tests/frontend/stdlib_kernel.h"

namespace polydat::stdlibtest {
namespace {

std::string diagnostics_of(const std::string& text) {
  return frontend::compile_source("k.gk", text).render_diagnostics();
}

// Quantiles at and beyond the ends, NaN, entry boundaries and random points.
std::vector<double> quantiles() {
  std::vector<double> u{0.0, -0.0, 1.0, -0.5, 1.5, 0.0005, 0.001, 0.5, 0.999, 0.9999999, std::nan("")};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) u.push_back(static_cast<double>(rng() >> 11) / 9007199254740992.0);
  return u;
}

void check_distribution(const std::string& call, std::string_view name, std::vector<double> constants) {
  CAPTURE(call);
  Kernel k("input u: f64\nv := " + call + "\n");
  std::string why;
  const auto table = frontend::build_distribution_table(name, constants, &why);
  REQUIRE_MESSAGE(table, why);
  for (double u : quantiles()) {
    CAPTURE(u);
    const double want = frontend::sample_table(*table, u);
    const double got = k.run({f64(u)}).at(0).as_f64();
    if (std::isnan(want)) CHECK(std::isnan(got));
    else CHECK(std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want));
  }
}

}  // namespace

TEST_CASE("library calls: a distribution samples its table exactly as the reference sample") {
  check_distribution("dist_normal(u, 72.0, 5.0)", "dist_normal", {72.0, 5.0});
  check_distribution("icd_normal(u)", "icd_normal", {0.0, 1.0});  // nb-rs's defaults
  check_distribution("lut_sample(u)", "lut_sample", {0.0, 1.0});
  check_distribution("dist_exponential(u, rate: 2)", "dist_exponential", {2.0});  // an integer widens
  check_distribution("dist_uniform(u, 10.0, 20.0)", "dist_uniform", {10.0, 20.0});
  check_distribution("dist_pareto(u, 1.0, 3.0)", "dist_pareto", {1.0, 3.0});
  check_distribution("dist_zipf(u, 100, 1.0)", "dist_zipf", {100.0, 1.0});
  check_distribution("dist_empirical(u, \"9.0, 1.0;5.0 3.0 7.0\")", "dist_empirical", {9.0, 1.0, 5.0, 3.0, 7.0});
}

TEST_CASE("library calls: nb-rs's sampling modules hash, sample the table, then clamp and round") {
  Kernel k("input a: u64\nh := hash(a)\nn := normal_sample(a, 72.0, 5.0)\n"
           "l := gaussian_latency(a, mean: 5.0, stddev: 1.2)\nb := bounded_normal_int(a, 35.0, 12.0, 18.0, 90.0)\n"
           "z := zipf_sample(a, 100, 1.0)\n");
  std::string why;
  const auto normal = frontend::build_distribution_table("icd_normal", std::vector<double>{72.0, 5.0}, &why);
  const auto latency = frontend::build_distribution_table("icd_normal", std::vector<double>{5.0, 1.2}, &why);
  const auto ages = frontend::build_distribution_table("icd_normal", std::vector<double>{35.0, 12.0}, &why);
  const auto zipf = frontend::build_distribution_table("dist_zipf", std::vector<double>{100.0, 1.0}, &why);
  REQUIRE((normal && latency && ages && zipf));
  for (uint64_t a = 0; a < 3000; ++a) {
    const auto out = k.run({u64(a)});
    const double q = static_cast<double>(out.at(0).as_u64()) / 18446744073709551615.0;  // nb-rs's unit_interval
    CHECK(out.at(1).as_f64() == frontend::sample_table(*normal, q));
    CHECK(out.at(2).as_f64() == std::clamp(frontend::sample_table(*latency, q), 0.1, 999999.0));
    CHECK(out.at(3).as_u64() == static_cast<uint64_t>(std::round(std::clamp(frontend::sample_table(*ages, q), 18.0, 90.0))));
    CHECK(out.at(4).as_u64() == static_cast<uint64_t>(std::round(frontend::sample_table(*zipf, q))));
  }
  CHECK(diagnostics_of("input (a: u64, m: f64)\nv := normal_sample(a, m, 1.0)\n").find("[not-constant]") != std::string::npos);
  CHECK(diagnostics_of("input a: u64\nv := exponential_sample(a)\n").find("needs an argument for 'rate' [missing-argument]") !=
        std::string::npos);
}

TEST_CASE("library calls: bimodal_latency and service_model equal nb-rs's modeling.gk bodies and a C++ reference") {
  // nb-rs's module bodies with the constants written in (select on f64 as if).
  Kernel k("input x: u64\nb := bimodal_latency(x, 5.0, 1.0, 50.0, 10.0, 0.2)\n"
           "(m, e) := service_model(x, 2.0, 40.0, 0.3, 0.1)\n"
           "is_slow := unfair_coin(x, 0.2)\n"
           "fast := clamp_f64(icd_normal(unit_interval(hash(x)), 5.0, 1.0), 0.1, 999999.0)\n"
           "slow := clamp_f64(icd_normal(unit_interval(hash(hash(x))), 50.0, 10.0), 0.1, 999999.0)\n"
           "body_b := if(is_slow != 0, slow, fast)\n"
           "s2 := unfair_coin(x, 0.3)\n"
           "f2 := clamp_f64(icd_normal(unit_interval(hash(x)), 2.0, 0.5), 0.1, 999999.0)\n"
           "w2 := clamp_f64(icd_normal(unit_interval(hash(hash(x))), 40.0, 5.0), 0.1, 999999.0)\n"
           "body_m := if(s2 != 0, w2, f2)\n"
           "body_e := if(s2 != 0, unfair_coin(hash(hash(x)), 0.1), unfair_coin(hash(x), 0.1))\n");
  std::string why;
  const auto fast = frontend::build_distribution_table("icd_normal", std::vector<double>{5.0, 1.0}, &why);
  const auto slow = frontend::build_distribution_table("icd_normal", std::vector<double>{50.0, 10.0}, &why);
  REQUIRE((fast && slow));
  auto coin = [](uint64_t h, double p) { return static_cast<double>(h) / 18446744073709551616.0 < p; };
  auto q = [](uint64_t h) { return static_cast<double>(h) / 18446744073709551615.0; };
  size_t slow_count = 0;
  for (uint64_t x = 0; x < 3000; ++x) {
    CAPTURE(x);
    const auto out = k.run({u64(x)});  // the unused bindings: b, m, e, body_b, body_m, body_e
    CHECK(bits_of(out.at(0).as_f64()) == bits_of(out.at(3).as_f64()));
    CHECK(bits_of(out.at(1).as_f64()) == bits_of(out.at(4).as_f64()));
    CHECK(out.at(2) == out.at(5));
    const uint64_t h1 = ref_hash(x), h2 = ref_hash(h1);
    const bool is_slow = coin(h1, 0.2);
    slow_count += is_slow;
    const double want = is_slow ? std::clamp(frontend::sample_table(*slow, q(h2)), 0.1, 999999.0)
                                : std::clamp(frontend::sample_table(*fast, q(h1)), 0.1, 999999.0);
    CHECK(bits_of(out.at(0).as_f64()) == bits_of(want));
  }
  CHECK(slow_count > 450);  // about a fifth of 3000
  CHECK(slow_count < 750);
  CHECK(diagnostics_of("input (a: u64, p: f64)\nv := bimodal_latency(a, 5.0, 1.0, 50.0, 10.0, p)\n").find("[not-constant]") !=
        std::string::npos);
}

TEST_CASE("library calls: histribution's labels and its alias table, worked by hand") {
  // "100 1 1": bare weights, labels 0 1 2. Scaled 300/102, 3/102, 3/102: slots 1
  // and 2 keep their label when (x >> 32) / (2^32 - 1) < 3/102, else alias 0.
  Kernel bare("input x: u64\nv := histribution(x, \"100 1 1\")\n");
  const uint64_t top = uint64_t{1} << 63;  // 2^63 % 3 == 2
  const std::pair<uint64_t, uint64_t> bare_cases[] = {{0, 0}, {1, 1}, {2, 2}, {top, 0}, {top + 2, 0}, {top + 1, 0}};
  for (const auto& [x, label] : bare_cases) CHECK(bare.run({u64(x)}).at(0).as_u64() == label);
  // Labelled, a zero weight: its slot always takes the alias.
  Kernel labelled("input x: u64\nv := histribution(x, \"7:0 9:1\")\n");
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, kAllOnes}) CHECK(labelled.run({u64(x)}).at(0).as_u64() == 9);
  // nb-rs's histribution_samples_valid_labels (histribution.rs): hashed inputs give only the spec's labels.
  Kernel spec("input x: u64\nv := histribution(hash(x), \"234:50 33:25 17:13 3:12\")\n");
  for (uint64_t x = 0; x < 1000; ++x) {
    const uint64_t v = spec.run({u64(x)}).at(0).as_u64();
    CHECK((v == 234 || v == 33 || v == 17 || v == 3));
  }
  // Empty pieces count as positions: ",5" labels its one weight 1.
  Kernel gap("input x: u64\nv := histribution(x, \",5\")\n");
  CHECK(gap.run({u64(12345)}).at(0).as_u64() == 1);
  CHECK(diagnostics_of("input x: u64\nv := histribution(x, \"1:2 3\")\n").find("labelled") != std::string::npos);
  CHECK(diagnostics_of("input x: u64\nv := histribution(x, \"0 0\")\n").find("all 0") != std::string::npos);
}

TEST_CASE("library calls: hand-worked samples of the uniform table") {
  // dist_uniform(10, 20)'s entry i is 10 + 10 * i / 1000: u = 0.25 lands on entry 250.
  Kernel k("input u: f64\nv := dist_uniform(u, 10.0, 20.0)\n");
  CHECK(k.run({f64(0.25)}).at(0).as_f64() == 12.5);
  CHECK(k.run({f64(0.0)}).at(0).as_f64() == 10.0);
  CHECK(k.run({f64(1.0)}).at(0).as_f64() == 20.0);
  CHECK(k.run({f64(7.0)}).at(0).as_f64() == 20.0);  // clamped
}

TEST_CASE("library calls: a distribution's constants must be constants, and valid") {
  CHECK(diagnostics_of("input (u: f64, m: f64)\nv := dist_normal(u, m, 1.0)\n").find("[not-constant]") != std::string::npos);
  const std::string bad = diagnostics_of("input u: f64\nv := dist_normal(u, 0.0, -1.0)\n");
  CHECK(bad.find("k.gk:2:6") != std::string::npos);
  CHECK(bad.find("stddev") != std::string::npos);
  CHECK(diagnostics_of("input u: f64\nv := dist_empirical(u, \"1 x\")\n").find("numbers separated") != std::string::npos);
  // A named constant folds: the kernel compiles.
  CHECK(diagnostics_of("input u: f64\nsd := 2.0 * 2.0\nv := dist_normal(u, 0.0, sd)\n").empty());
}

TEST_CASE("library calls: printf's {} and {:spec} are placeholders, not interpolations") {
  Kernel k("input (a: u64, b: f64)\nv := printf(\"a={} b={:.2}!\", a, b)\n");
  CHECK(k.run({u64(42), f64(3.14159)}).at(0).as_str() == "a=42 b=3.14!");
  Kernel both("input a: u64\nv := \"{a}:{}\"\n");  // interpolation and a literal {} in one string
  CHECK(both.run({u64(7)}).at(0).as_str() == "7:{}");
}

TEST_CASE("library calls: text operations in a kernel equal the codec functions") {
  Kernel k("input a: u64\nh := sha256(u64_to_bytes(a))\nb := to_base64(u64_to_bytes(a))\nu := hashed_uuid(a)\n");
  for (uint64_t a : {uint64_t{0}, uint64_t{1}, kAllOnes}) {
    const auto out = k.run({u64(a)});
    const std::string bytes = ir::u64_le_bytes(a);
    CHECK(out.at(0).as_str() == ir::hex_encode(ir::sha256_digest(bytes)));
    CHECK(out.at(1).as_str() == ir::base64_encode(bytes));
    CHECK(out.at(2).as_str() == ir::hashed_uuid(a));
  }
  // nb-rs's stdlib.rs value for sha256 of u64 0's bytes.
  CHECK(k.run({u64(0)}).at(0).as_str().starts_with("af5570f5"));
}

}  // namespace polydat::stdlibtest
