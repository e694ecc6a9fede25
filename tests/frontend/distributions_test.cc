// nb-rs's distribution tables (nbrs-variates/src/sampling/icd.rs, lut.rs),
// built when a kernel is compiled. Checked against nb-rs's own unit tests,
// vectors recorded from nb-rs in docs/nb-rs-functions.md §11, closed forms,
// python's statistics.NormalDist and mpmath (50 digits), and whole-table
// digests of a Rust program that re-runs icd.rs's formulas (rustc 1.95, the
// constants passed at run time as GK passes them).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/distributions.h"

using namespace polydat::frontend;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

uint64_t bits_of(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

std::vector<double> table(std::string_view name, std::vector<double> args) {
  std::string why;
  auto t = build_distribution_table(name, args, &why);
  INFO(name << ": " << why);
  REQUIRE(t.has_value());
  return *t;
}

std::string refusal(std::string_view name, std::vector<double> args) {
  INFO(name << " with " << args.size() << " constants, first " << (args.empty() ? 0.0 : args[0]));
  std::string why;
  const auto t = build_distribution_table(name, args, &why);
  CHECK_FALSE(t.has_value());
  CHECK_FALSE(why.empty());
  return why;
}

// FNV-1a over each entry's little-endian bytes: one number per table.
uint64_t digest(const std::vector<double>& t) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (double v : t) {
    const uint64_t b = bits_of(v);
    for (int i = 0; i < 8; ++i) {
      h ^= (b >> (8 * i)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
  return h;
}

}  // namespace

TEST_CASE("distributions: the catalog holds nb-rs's GK names with their constants and defaults") {
  for (std::string_view name : {"dist_normal", "icd_normal", "lut_sample", "dist_exponential", "icd_exponential",
                                "dist_uniform", "dist_pareto", "dist_zipf", "dist_empirical", "histribution"}) {
    const DistributionInfo* info = find_distribution(name);
    INFO(name);
    REQUIRE(info);
    CHECK(info->gk_callable);
  }
  for (std::string_view name : {"dist_lognormal", "dist_weibull", "dist_cauchy", "dist_laplace", "dist_beta",
                                "dist_gamma", "dist_poisson", "dist_binomial", "dist_geometric"}) {
    const DistributionInfo* info = find_distribution(name);
    INFO(name);
    REQUIRE(info);
    CHECK_FALSE(info->gk_callable);
    for (const auto& p : info->params) CHECK_FALSE(p.default_value.has_value());
  }
  CHECK(find_distribution("icd_zipf") == nullptr);  // stdlib's zipf_sample calls it; nb-rs never registered it
  CHECK(distribution_catalog().size() == 19);

  const auto* zipf = find_distribution("dist_zipf");
  REQUIRE(zipf->params.size() == 2);
  CHECK(zipf->params[0].name == "n");
  CHECK(zipf->params[0].kind == DistributionParamKind::U64);
  CHECK(*zipf->params[0].default_value == 100.0);
  CHECK(zipf->params[1].name == "exponent");
  CHECK(*zipf->params[1].default_value == 1.0);
  const auto* lut = find_distribution("lut_sample");
  CHECK(lut->table == "normal");  // factory.rs builds IcdSample::normal for lut_sample
  CHECK(*lut->params[1].default_value == 1.0);
  CHECK(find_distribution("dist_pareto")->params[1].default_value == 1.0);
  CHECK(find_distribution("histribution")->input_type == "u64");
  CHECK(find_distribution("histribution")->params[0].default_text == "1");
  CHECK(find_distribution("dist_empirical")->params[0].default_text == "0.0 1.0");
}

TEST_CASE("distributions: left-out constants take nb-rs's factory defaults") {
  CHECK(table("dist_normal", {}) == table("dist_normal", {0.0, 1.0}));
  CHECK(table("dist_normal", {5.0}) == table("dist_normal", {5.0, 1.0}));
  CHECK(table("lut_sample", {}) == table("icd_normal", {0.0, 1.0}));
  CHECK(table("icd_exponential", {}) == table("dist_exponential", {1.0}));
  CHECK(table("dist_uniform", {}) == table("dist_uniform", {0.0, 1.0}));
  CHECK(table("dist_pareto", {}) == table("dist_pareto", {1.0, 1.0}));
  CHECK(table("dist_zipf", {}) == table("dist_zipf", {100, 1.0}));
  CHECK(table("dist_normal", {}).size() == kDistributionResolution + 1);
}

TEST_CASE("distributions: sanitize replaces non-finite entries as LutF64 does") {
  std::vector<double> inner{1.0, kNaN, kInf, 4.0};
  sanitize_table(inner);
  CHECK(inner == std::vector<double>{1.0, 1.0, 1.0, 4.0});  // the last finite before

  std::vector<double> ends{-kInf, kNaN, 2.0, 3.0, kInf};
  sanitize_table(ends);
  CHECK(ends == std::vector<double>{2.0, 2.0, 2.0, 3.0, 3.0});  // leading take the first finite

  std::vector<double> none{kInf, kNaN, -kInf};
  sanitize_table(none);
  CHECK(none == std::vector<double>{0.0, 0.0, 0.0});

  // The table ends: probit(0) = -inf takes entry 1, exponential's +inf at p = 1 takes entry 999.
  const auto normal = table("dist_normal", {0.0, 1.0});
  CHECK(normal[0] == normal[1]);
  CHECK(normal[1000] == normal[999]);
  const auto exponential = table("dist_exponential", {1.0});
  CHECK(exponential[1000] == exponential[999]);
  CHECK(bits_of(exponential[0]) == bits_of(-0.0));  // -ln(1) / rate is -0.0, finite, kept
  const auto lognormal = table("dist_lognormal", {0.0, 1.0});
  CHECK(lognormal[0] == 0.0);  // exp(-inf) is finite: no replacement
  const auto cauchy = table("dist_cauchy", {0.0, 1.0});
  CHECK(cauchy[0] == -1.633123935319537e+16);  // tan of the double nearest -pi/2 is finite
  CHECK(cauchy[1000] == 1.633123935319537e+16);
}

TEST_CASE("distributions: tabulate and sample_table pass lut.rs's unit tests") {
  const auto identity = tabulate([](double p) { return p; }, 100);
  CHECK(std::fabs(sample_table(identity, 0.0)) < 1e-10);
  CHECK(std::fabs(sample_table(identity, 0.5) - 0.5) < 0.01);
  CHECK(std::fabs(sample_table(identity, 1.0) - 1.0) < 1e-10);
  const auto square = tabulate([](double p) { return p * p; }, 1000);
  CHECK(std::fabs(sample_table(square, 0.5) - 0.25) < 0.001);
  const auto tenfold = tabulate([](double p) { return p * 10.0; }, 100);
  CHECK(std::fabs(sample_table(tenfold, -0.5)) < 1e-10);
  CHECK(std::fabs(sample_table(tenfold, 1.5) - 10.0) < 1e-10);
  const auto edged = tabulate([](double p) { return p < 0.01 || p > 0.99 ? kInf : p; }, 100);
  CHECK(std::isfinite(sample_table(edged, 0.0)));
  CHECK(std::isfinite(sample_table(edged, 1.0)));
  const std::vector<double> three{0.0, 5.0, 10.0};
  CHECK(sample_table(three, 0.0) == 0.0);
  CHECK(sample_table(three, 0.5) == 5.0);
  CHECK(sample_table(three, 1.0) == 10.0);
  CHECK(sample_table(three, 0.25) == 2.5);
}

TEST_CASE("distributions: sample_table clamps, interpolates in nb-rs's operand order, and passes NaN") {
  const std::vector<double> t{1.0, 3.0, 7.0};
  CHECK(sample_table(t, 0.0) == 1.0);
  CHECK(sample_table(t, 1.0) == 7.0);  // i held at len - 2, frac = 1
  CHECK(sample_table(t, -3.0) == 1.0);
  CHECK(sample_table(t, 2.0) == 7.0);
  CHECK(sample_table(t, -kInf) == 1.0);
  CHECK(sample_table(t, kInf) == 7.0);
  CHECK(sample_table(t, 0.75) == 5.0);  // pos 1.5: 3 * 0.5 + 7 * 0.5
  // pos 0.6: 1 * 0.4 + 3 * 0.6 in doubles (python): 2.1999999999999997, not 2.2
  CHECK(sample_table(t, 0.3) == 2.1999999999999997);
  // a * (1 - f) + b * f, never a + f * (b - a): python gives 0.27999999999999997 and 0.28 for the two
  CHECK(sample_table(std::vector<double>{0.1, 0.7}, 0.3) == 0.27999999999999997);
  CHECK(std::isnan(sample_table(t, kNaN)));  // clamp keeps NaN, the index truncates to 0, frac is NaN

  // nb-rs's sampled normal (docs/nb-rs-functions.md §11: icd_normal(u, 0, 1)).
  const auto normal = table("icd_normal", {0.0, 1.0});
  CHECK(sample_table(normal, 0.0) == -3.090522225780171);
  CHECK(sample_table(normal, 0.25) == -0.6741891400433162);
  CHECK(sample_table(normal, 0.5) == -1.0100667546808495e-07);
  CHECK(sample_table(normal, 0.975) == 1.9603949169253396);
  CHECK(sample_table(normal, 1.0) == 3.090522225780171);
  const auto exponential = table("icd_exponential", {1.0});
  CHECK(sample_table(exponential, 0.5) == 0.6931471805599453);
  CHECK(sample_table(exponential, 1.0) == 6.907755278982136);
}

TEST_CASE("distributions: the numerical helpers") {
  // probit against python's NormalDist().inv_cdf, within A&S 26.2.23's 4.5e-4
  const std::pair<double, double> quantiles[] = {
      {0.001, -3.090232306167813}, {0.025, -1.9599639845400538}, {0.1, -1.2815515655446008},
      {0.25, -0.6744897501960817}, {0.5, 0.0},                    {0.75, 0.6744897501960817},
      {0.9, 1.2815515655446008},   {0.975, 1.9599639845400536},   {0.999, 3.090232306167813}};
  for (auto [p, z] : quantiles) CHECK(std::fabs(probit(p) - z) < 4.5e-4);
  CHECK(probit(0.0) == -kInf);
  CHECK(probit(1.0) == kInf);
  CHECK(probit(-1.0) == -kInf);

  CHECK(std::fabs(ln_gamma(5.0) - std::log(24.0)) < 1e-13);
  CHECK(std::fabs(ln_gamma(1.0)) < 1e-14);
  CHECK(std::fabs(ln_gamma(0.5) - 0.5 * std::log(std::numbers::pi)) < 1e-13);  // Gamma(1/2) = sqrt(pi)
  CHECK(std::fabs(ln_gamma(0.25) - std::lgamma(0.25)) < 1e-13);    // the reflected branch
  CHECK(std::fabs(ln_gamma(100.5) - std::lgamma(100.5)) < 1e-11);

  CHECK(std::fabs(*regularized_beta(0.3, 1.0, 1.0) - 0.3) < 1e-14);        // I_x(1,1) = x
  CHECK(std::fabs(*regularized_beta(0.3, 2.0, 1.0) - 0.09) < 1e-14);       // x^2
  CHECK(std::fabs(*regularized_beta(0.8, 1.0, 2.0) - 0.96) < 1e-14);       // 1 - (1-x)^2, the flipped branch
  CHECK(*regularized_beta(0.0, 2.0, 3.0) == 0.0);
  CHECK(*regularized_beta(1.0, 2.0, 3.0) == 1.0);
  CHECK(std::fabs(*inv_regularized_beta(0.25, 2.0, 1.0) - 0.5) < 1e-15);  // sqrt(p)
  CHECK(std::fabs(regularized_gamma_p(1.0, 2.0) - (1.0 - std::exp(-2.0))) < 1e-14);
  CHECK(regularized_gamma_p(1.0, 51.5) == 1.0);  // past a + 50
  CHECK(std::fabs(inv_regularized_gamma_p(0.5, 1.0) - std::log(2.0)) < 1e-13);
  CHECK(inv_regularized_gamma_p(1.0, 2.0) == kInf);

  // powi multiplies by repeated squaring, as Rust's powi: x^5 = x * (x^2)^2
  const double x = 0.9;
  CHECK(powi(x, 5) == x * ((x * x) * (x * x)));
  CHECK(powi(x, 0) == 1.0);
  CHECK(powi(2.0, -3) == 0.125);
  // Rust's 0.99.powi(10) is 0x3fecf0b2ad680bbe; pow (and python's 0.99 ** 10) round to ...bbf
  CHECK(bits_of(powi(0.99, 10)) == 0x3fecf0b2ad680bbeULL);
}

TEST_CASE("distributions: a beta flip that nb-rs repeats without end is refused") {
  // x > (a+1)/(a+b+2) and 1 - x > (b+1)/(a+b+2) in doubles: nb-rs's regularized_beta
  // flips back and forth until its stack overflows (a Rust run of icd.rs's code aborts).
  CHECK_FALSE(regularized_beta(0.8566833250921378, 16.0, 1.8439720980580765).has_value());
  CHECK(*regularized_beta(0.5, 16.0, 1.8439720980580765) == 0.00010286085403950168);  // Rust run
  // Here x < 0.5 flips twice and the third point, 1 - (1 - x), does not: a
  // value, 0.7466045893818344 in the Rust run.
  CHECK(*regularized_beta(0.14836324437610277, 2.0353206796036454, 16.423389915246034) == 0.7466045893818344);
}

TEST_CASE("distributions: icd.rs's unit tests") {
  const auto n01 = table("dist_normal", {0.0, 1.0});
  CHECK(std::fabs(sample_table(n01, 0.5)) < 0.01);
  CHECK(std::fabs(sample_table(n01, 0.25) + sample_table(n01, 0.75)) < 0.01);
  CHECK(std::fabs(sample_table(table("dist_normal", {100.0, 10.0}), 0.5) - 100.0) < 0.5);
  const auto e1 = table("dist_exponential", {1.0});
  CHECK(std::fabs(sample_table(e1, 0.5) - 0.693) < 0.01);
  for (int i = 1; i < 1000; ++i) CHECK(sample_table(e1, i / 1000.0) >= 0.0);
  const auto u = table("dist_uniform", {10.0, 20.0});
  CHECK(std::fabs(sample_table(u, 0.0) - 10.0) < 0.1);
  CHECK(std::fabs(sample_table(u, 0.5) - 15.0) < 0.1);
  CHECK(std::fabs(sample_table(u, 0.999) - 20.0) < 0.1);
  const auto pareto = table("dist_pareto", {1.0, 1.0});
  CHECK(std::fabs(sample_table(pareto, 0.5) - 2.0) < 0.1);
  CHECK(sample_table(pareto, 0.99) > 50.0);
  const auto cauchy = table("dist_cauchy", {0.0, 1.0});
  CHECK(std::fabs(sample_table(cauchy, 0.5)) < 0.1);
  CHECK(std::fabs(sample_table(cauchy, 0.25) + sample_table(cauchy, 0.75)) < 0.1);
  CHECK(std::fabs(sample_table(table("dist_laplace", {5.0, 2.0}), 0.5) - 5.0) < 0.1);
  const auto beta25 = table("dist_beta", {2.0, 5.0});
  for (int i = 0; i <= 1000; ++i) {
    const double v = sample_table(beta25, i / 1000.0);
    CHECK((v >= 0.0 && v <= 1.0));
  }
  CHECK(std::fabs(sample_table(table("dist_beta", {2.0, 2.0}), 0.5) - 0.5) < 0.1);
  const auto g21 = table("dist_gamma", {2.0, 1.0});
  for (int i = 1; i < 1000; ++i) CHECK(sample_table(g21, i / 1000.0) > 0.0);
  CHECK(std::fabs(sample_table(table("dist_gamma", {3.0, 2.0}), 0.5) - 5.0) < 1.5);
  const auto w = table("dist_weibull", {2.0, 1.0});
  for (int i = 1; i < 1000; ++i) CHECK(sample_table(w, i / 1000.0) >= 0.0);
  const auto zipf = table("dist_zipf", {100, 1.0});
  for (int i = 1; i < 1000; ++i) {
    const double v = sample_table(zipf, i / 1000.0);
    CHECK((v >= 1.0 && v <= 100.0));
  }
  CHECK(sample_table(zipf, 0.5) < 20.0);
  CHECK(std::fabs(sample_table(table("dist_poisson", {5.0}), 0.5) - 5.0) < 1.0);
  const auto p3 = table("dist_poisson", {3.0});
  for (int i = 0; i <= 1000; ++i) CHECK(sample_table(p3, i / 1000.0) >= 0.0);
  const auto b = table("dist_binomial", {20, 0.5});
  for (int i = 0; i <= 1000; ++i) {
    const double v = sample_table(b, i / 1000.0);
    CHECK((v >= 0.0 && v <= 20.0));
  }
  CHECK(std::fabs(sample_table(b, 0.5) - 10.0) < 1.5);
  const auto g = table("dist_geometric", {0.5});
  CHECK(sample_table(g, 0.001) >= 1.0);
  CHECK(std::fabs(sample_table(g, 0.5) - 1.0) < 1.0);
}

TEST_CASE("distributions: the normal table against NormalDist, and nb-rs's recorded entries") {
  const auto t = table("dist_normal", {100.0, 15.0});
  // python: 100 + 15 * NormalDist().inv_cdf(i / 1000), within 15 * 4.5e-4
  const std::pair<int, double> reference[] = {{25, 100 + 15 * -1.9599639845400538},
                                              {100, 100 + 15 * -1.2815515655446008},
                                              {250, 100 + 15 * -0.6744897501960817},
                                              {500, 100.0},
                                              {900, 100 + 15 * 1.2815515655446008},
                                              {999, 100 + 15 * 3.090232306167813}};
  for (auto [i, v] : reference) CHECK(std::fabs(t[i] - v) < 15 * 4.5e-4);
  // docs/nb-rs-functions.md §11, normal LUT(100, 15)
  CHECK(t[0] == 53.642166613297434);
  CHECK(t[1] == 53.642166613297434);
  CHECK(t[500] == 99.99999848489986);
  CHECK(t[1000] == 146.35783338670257);
}

TEST_CASE("distributions: closed-form tables entry by entry") {
  // Uniform and exponential: nb-rs's expression is the closed form, so every
  // entry has exactly the bits of that expression at p = i / 1000.
  const auto u = table("dist_uniform", {10.0, 20.0});
  const auto e = table("dist_exponential", {0.5});
  for (int i = 0; i <= 1000; ++i) {
    const double p = i / 1000.0;
    CHECK(bits_of(u[i]) == bits_of(10.0 + p * (20.0 - 10.0)));
    if (i < 1000) CHECK(bits_of(e[i]) == bits_of(-std::log(1.0 - p) / 0.5));
  }
  CHECK(u[500] == 15.0);
  CHECK(u[999] == 19.990000000000002);  // 0.999 is not exact: 10 + 0.999 * 10 rounds up
  CHECK(e[500] == 2 * std::numbers::ln2);
  CHECK(e[1000] == e[999]);

  // The others against long-double closed forms, relative 1e-12 (the A&S probit aside).
  const auto rel = [](double got, long double want) {
    return std::fabs(static_cast<long double>(got) - want) <= 1e-12L * std::fabs(want);
  };
  const auto pareto = table("dist_pareto", {3.0, 1.5});
  const auto weibull = table("dist_weibull", {0.7, 3.0});
  const auto cauchy = table("dist_cauchy", {5.0, 2.0});
  const auto laplace = table("dist_laplace", {5.0, 2.0});
  const auto gamma1 = table("dist_gamma", {1.0, 1.0});  // shape 1 is exponential(1)
  const auto beta11 = table("dist_beta", {1.0, 1.0});   // Beta(1, 1) is uniform
  const auto lognormal = table("dist_lognormal", {2.0, 0.5});
  for (int i = 1; i < 1000; ++i) {
    const long double p = i / 1000.0L;
    INFO("i = " << i);
    CHECK(rel(pareto[i], 3.0L / std::pow(1.0L - p, 1.0L / 1.5L)));
    CHECK(rel(weibull[i], 3.0L * std::pow(-std::log(1.0L - p), 1.0L / 0.7L)));
    if (i != 500) CHECK(rel(cauchy[i], 5.0L + 2.0L * std::tan(std::numbers::pi_v<long double> * (p - 0.5L))));
    if (i != 500)
      CHECK(rel(laplace[i], p <= 0.5L ? 5.0L + 2.0L * std::log(2.0L * p) : 5.0L - 2.0L * std::log(2.0L * (1.0L - p))));
    CHECK(std::fabs(gamma1[i] + std::log1p(-static_cast<double>(p))) < 1e-12);
    CHECK(std::fabs(beta11[i] - static_cast<double>(p)) < 1e-15);
    CHECK(std::fabs(std::log(lognormal[i]) - (2.0 + 0.5 * probit(static_cast<double>(p)))) < 1e-13);
  }
  CHECK(cauchy[500] == 5.0);
  CHECK(laplace[500] == 5.0);
  CHECK(pareto[500] == 4.762203155904598);  // Rust re-run of icd.rs; 3 * 2^(2/3) = 4.7622031559045984
}

TEST_CASE("distributions: beta and gamma tables against mpmath") {
  // mpmath at 50 digits: 200 bisections of betainc / gammainc (regularized) = i / 1000
  struct Point {
    int i;
    double want;
  };
  const auto near = [](const std::vector<double>& t, std::initializer_list<Point> points) {
    for (auto [i, want] : points) {
      INFO("i = " << i);
      CHECK(std::fabs(t[i] - want) <= 1e-12 * std::fabs(want));
    }
  };
  near(table("dist_beta", {2.0, 5.0}), {{1, 0.0082554927877466775}, {100, 0.092595258913128749},
                                        {250, 0.16116291679032652}, {500, 0.26444998329565996},
                                        {750, 0.38947948520072443}, {900, 0.51031630655149164},
                                        {999, 0.81861386691913397}});
  near(table("dist_beta", {0.5, 0.5}), {{1, 2.4673990709169441e-6}, {100, 0.024471741852423214},
                                        {250, 0.14644660940672624}, {500, 0.5}, {750, 0.85355339059327376},
                                        {999, 0.99999753260092908}});
  near(table("dist_gamma", {2.0, 1.0}), {{1, 0.045402017769489557}, {100, 0.53181160838961202},
                                         {500, 1.6783469900166607}, {900, 3.8897201698674291},
                                         {999, 9.2334134764515857}});
  near(table("dist_gamma", {0.5, 1.0}), {{1, 7.8539857463124494e-7}, {250, 0.050765522133810773},
                                         {500, 0.22746821155978638}, {999, 5.4137830853313661}});
  near(table("dist_gamma", {3.0, 2.0}), {{1, 2 * 0.19053337756840319}, {500, 2 * 2.6740603137235603},
                                         {999, 2 * 11.228872242412663}});
  const auto beta = table("dist_beta", {2.0, 5.0});
  CHECK(beta[0] == 0.0);
  CHECK(beta[1000] == 1.0);
  const auto gamma = table("dist_gamma", {2.0, 1.0});
  CHECK(gamma[0] == 0.0);
  CHECK(gamma[1000] == gamma[999]);  // +inf at p = 1, replaced
}

TEST_CASE("distributions: discrete tables, worked by hand") {
  // Zipf(100, 1): the least k with H_k / H_100 >= p (exact fractions in python);
  // an exact hit on the CDF's leading 0 gives rank 0 at p = 0.
  const auto zipf = table("dist_zipf", {100, 1.0});
  CHECK(zipf[0] == 0.0);
  CHECK(zipf[1] == 1.0);
  CHECK(zipf[250] == 2.0);
  CHECK(zipf[500] == 8.0);
  CHECK(zipf[999] == 100.0);
  CHECK(zipf[1000] == 100.0);
  CHECK(sample_table(zipf, 0.0005) == 0.5);  // f64 output: between entries it is not a whole rank
  const auto flat = table("dist_zipf", {5, 0.0});  // exponent 0: uniform ranks
  CHECK(flat[200] == 1.0);                          // p = 0.2 hits the CDF: its index
  CHECK(flat[201] == 2.0);
  CHECK(flat[1000] == 5.0);

  // Poisson(5): the least k with CDF(k) >= p (mpmath), less nothing: nb-rs
  // returns the search index minus one over a CDF with a leading 0.
  const auto poisson = table("dist_poisson", {5.0});
  CHECK(poisson[0] == 0.0);
  CHECK(poisson[1] == 0.0);
  CHECK(poisson[250] == 3.0);
  CHECK(poisson[500] == 5.0);
  CHECK(poisson[999] == 13.0);
  // p = 1: the summed CDF stays below 1, so the search runs off the end of its
  // ceil(5 + 6 sqrt 5 + 10) + 2 = 31 entries: 30 (Rust re-run of icd.rs).
  CHECK(poisson[1000] == 30.0);

  const auto binomial = table("dist_binomial", {20, 0.5});  // exact fractions in python
  CHECK(binomial[1] == 3.0);
  CHECK(binomial[250] == 8.0);
  CHECK(binomial[500] == 10.0);
  CHECK(binomial[999] == 17.0);
  CHECK(binomial[1000] == 20.0);  // the CDF reaches 1.0: the last of its equal entries
  CHECK(table("dist_binomial", {7, 0.9})[1000] == 8.0);  // it does not: trials + 1 (Rust re-run)
  // Binomial(30, 0.1)'s summed CDF is 1.0 from k = 21 on: Rust's binary search
  // finds the last of the equal entries (trials), not the first (21).
  CHECK(table("dist_binomial", {30, 0.1})[1000] == 30.0);
  CHECK(table("dist_poisson", {0.2})[1000] == 13.0);  // 1.0 from k = 11 on: ceil(0.2 + 6 sqrt 0.2 + 10)
  CHECK(table("dist_binomial", {0, 0.3}) == std::vector<double>(1001, 0.0));
  // P(0) = 0.6^3 by Rust's powi is 0.6 * 0.6 * 0.6 = 0.216, the double p = 216 / 1000
  // hits it, so the entry is 0; pow's P(0) misses it and gives 1 (Rust re-run: 0).
  CHECK(table("dist_binomial", {3, 0.4})[216] == 0.0);
  CHECK(table("dist_binomial", {3, 0.01})[1000] == 4.0);  // trials + 1 with powi, 3 with pow (Rust: 4)

  // Geometric(p): ceil(ln(1 - u) / ln(1 - p)), at least 1
  const auto geometric = table("dist_geometric", {0.01});
  CHECK(geometric[0] == 1.0);
  CHECK(geometric[250] == 29.0);
  CHECK(geometric[500] == 69.0);
  CHECK(geometric[999] == 688.0);
  CHECK(geometric[1000] == 688.0);  // +inf at p = 1, replaced
  CHECK(table("dist_geometric", {1.0}) == std::vector<double>(1001, 1.0));
  const auto half = table("dist_geometric", {0.5});
  CHECK(half[500] == 1.0);  // ln(0.5) / ln(0.5) = 1 exactly
  CHECK(half[999] == 10.0);
}

TEST_CASE("distributions: dist_empirical's sorted data are its table") {
  CHECK(table("dist_empirical", {9.0, 1.0, 5.0, 3.0, 7.0}) == std::vector<double>{1.0, 3.0, 5.0, 7.0, 9.0});
  CHECK(table("dist_empirical", {kInf, 2.0, -kInf, 4.0}) == std::vector<double>{2.0, 2.0, 4.0, 4.0});
  const auto two = table("dist_empirical", {100.0, 0.0});
  CHECK(sample_table(two, 0.37) == 37.0);
  const auto zeros = table("dist_empirical", {0.0, -0.0, 1.0});
  CHECK(bits_of(zeros[0]) == bits_of(0.0));  // a stable sort keeps 0.0 ahead of the equal -0.0
  CHECK(bits_of(zeros[1]) == bits_of(-0.0));
  refusal("dist_empirical", {1.0});
  refusal("dist_empirical", {1.0, kNaN});
}

TEST_CASE("distributions: every entry matches a Rust re-run of icd.rs") {
  struct Expected {
    std::string_view name;
    std::vector<double> args;
    uint64_t digest;
  };
  // FNV-1a of all 1001 entries as the Rust program printed them.
  const Expected expected[] = {
{"dist_normal", {0, 1}, 0xd8f30f9c3c105db2ULL},
      {"dist_normal", {100, 15}, 0xd4caa541f58163beULL},
      {"dist_normal", {72, 5}, 0x082382c43b167e48ULL},
      {"dist_exponential", {1}, 0xffc7de3b0fc6ddd6ULL},
      {"dist_exponential", {0.5}, 0x2a6d65093a500992ULL},
      {"dist_exponential", {0.02}, 0xdd9e638fdcc471e0ULL},
      {"dist_uniform", {10, 20}, 0xf0c56d36755b0053ULL},
      {"dist_uniform", {-3.5, 1e6}, 0xf38646b55dea93e6ULL},
      {"dist_pareto", {1, 2}, 0x471698ff071abcfdULL},
      {"dist_pareto", {3, 1.5}, 0xed56af2714084485ULL},
      {"dist_lognormal", {0, 1}, 0x02a36f59a4130396ULL},
      {"dist_lognormal", {2, 0.5}, 0xaab92f496952d5b3ULL},
      {"dist_weibull", {2, 1}, 0x28dffe3e9250ab5aULL},
      {"dist_weibull", {0.7, 3}, 0x86ec854efa3b9a6eULL},
      {"dist_cauchy", {0, 1}, 0xb7d1d71c9c533987ULL},
      {"dist_cauchy", {5, 2}, 0xcc3e18943aeebb60ULL},
      {"dist_laplace", {5, 2}, 0xc342e8d051bb67b2ULL},
      {"dist_laplace", {0, 1}, 0x12f7c9409230985cULL},
      {"dist_beta", {2, 5}, 0xc5986eec4d629514ULL},
      {"dist_beta", {2, 2}, 0x32f8e0a53c8c292eULL},
      {"dist_beta", {0.5, 0.5}, 0xc26c5c2d8515ccedULL},
      {"dist_beta", {1, 1}, 0x27739988251560abULL},
      {"dist_gamma", {2, 1}, 0x62016ce2e8dfcae1ULL},
      {"dist_gamma", {3, 2}, 0x62d23b9d973e41c1ULL},
      {"dist_gamma", {0.5, 1}, 0xcaa33ff4cb6e0f71ULL},
      {"dist_gamma", {1, 1}, 0x400ca510fa3fa5bbULL},
      {"dist_zipf", {100, 1}, 0xcb5da4af05e548d9ULL},
      {"dist_zipf", {1000, 1.07}, 0x47c1a259f9c6ca54ULL},
      {"dist_zipf", {5, 0}, 0x7222948f34e25c45ULL},
      {"dist_zipf", {100000, 3}, 0x4e3dd5b9933aeb0cULL},
      {"dist_poisson", {5}, 0xb1f0942a9bc8a5a5ULL},
      {"dist_poisson", {3}, 0xc3609d5d014ca4f4ULL},
      {"dist_poisson", {0.1}, 0xa851d2059d6e91a2ULL},
      {"dist_poisson", {500}, 0x0e8362bb603b5f6bULL},
      {"dist_binomial", {20, 0.5}, 0x6666b41f1ce4b54aULL},
      {"dist_binomial", {0, 0.3}, 0xa56e1ecc3b7e2ac5ULL},
      {"dist_binomial", {1000, 0.01}, 0xcb23d15a70b8279bULL},
      {"dist_binomial", {7, 0.9}, 0x12b07e0d512e3715ULL},
      {"dist_geometric", {0.5}, 0x3db76323f0276184ULL},
      {"dist_geometric", {1}, 0x4d116e8c1064bb38ULL},
      {"dist_geometric", {0.01}, 0x16bf2f96009e2952ULL},
      // drawn at random
      {"dist_normal", {-352.3344703336753, 0.008037019897897135}, 0x43cd9978c7f3522dULL},
      {"dist_lognormal", {0.9056068382391222, 0.014675856592813865}, 0xc1292724d1ddff4aULL},
      {"dist_exponential", {1.9366718251613149}, 0x87abe2a0bc496125ULL},
      {"dist_uniform", {-63431.108308741444, 5799.89247747068}, 0x7679bcc7229d6c2eULL},
      {"dist_pareto", {3.444916232462533, 0.37582989001575096}, 0xdfb226523bade24cULL},
      {"dist_weibull", {1.4140622404065721, 0.02234997892112104}, 0x1252810e5dd90340ULL},
      {"dist_cauchy", {-40.928698665613496, 0.49897266736512524}, 0x60b829bb981fdbf8ULL},
      {"dist_laplace", {32.68521246720381, 0.03127575803848385}, 0x78406813c1c3e5b8ULL},
      {"dist_zipf", {7316, 1.8918777471952113}, 0x995a39e2b965894cULL},
      {"dist_poisson", {4.202290486795676}, 0x274c8928ad133358ULL},
      {"dist_binomial", {253, 0.5769487427202636}, 0x5730f63aba6ad963ULL},
      {"dist_geometric", {0.39674080660331507}, 0x513512248fa25baeULL},
      {"dist_normal", {952.51021118584, 0.0019032510747440806}, 0xef5ad24bdc8f8183ULL},
      {"dist_lognormal", {2.1508107542920776, 0.04635550947136793}, 0x01bf3ffa11c07d06ULL},
      {"dist_exponential", {0.001425741092185682}, 0x3413f5551feccdb0ULL},
      {"dist_uniform", {-88220.77619216316, 30848.182410193436}, 0xcdd2f83f82069ceaULL},
      {"dist_pareto", {120.40147174050463, 0.7268633307402644}, 0xe40a75561bdc4f8aULL},
      {"dist_weibull", {2.3572206961170865, 15.65191009480195}, 0xddd5bb2da9419d14ULL},
      {"dist_cauchy", {-12.760245727426877, 1.5523078826194576}, 0x9cc0c8e9f647ce00ULL},
      {"dist_laplace", {-43.721102502667684, 0.017314289702998118}, 0x1e139cf3ac99e59cULL},
      {"dist_zipf", {6749, 1.4892434853404755}, 0xdec6f1bd7f545ec9ULL},
      {"dist_poisson", {2.470251146944543}, 0x86203cd54c7aaaddULL},
      {"dist_geometric", {0.9234490395004976}, 0x12faccf1a104e9c5ULL},
      {"dist_normal", {-276.8352881108673, 0.030942792796228514}, 0x8b322820aeee0910ULL},
      {"dist_lognormal", {-1.9213995025011408, 0.6217390572743471}, 0x6802bb8c4e5569faULL},
      {"dist_exponential", {0.0004516895949796071}, 0x9aa39171096a0da8ULL},
      {"dist_uniform", {-69975.08814543748, 49511.635955525555}, 0x117d0101acde4b1fULL},
      {"dist_pareto", {0.5216490848180648, 2.498436873474191}, 0x2e3b0a63b3d7d400ULL},
      {"dist_weibull", {2.5908276812722333, 0.02322759993641848}, 0x9cf08c8060d53c0bULL},
      {"dist_cauchy", {1.1932830647549153, 0.04569286761510074}, 0x90766e679ec747e6ULL},
      {"dist_laplace", {-15.794419384014212, 54.08549997160982}, 0x9ef95e1b18148f2fULL},
      {"dist_zipf", {13819, 0.11762177114231298}, 0xdcd6dda779f3c648ULL},
      {"dist_poisson", {10.161816644145032}, 0x6fe747159c3ff9b8ULL},
      {"dist_geometric", {0.8754902640497052}, 0xfcf5819d7e44d545ULL},
      {"dist_normal", {-372.5049743038064, 14.851564224361978}, 0x4e2a689503c1eb54ULL},
      {"dist_lognormal", {0.5662192626301108, 0.21565472095866983}, 0x52ec9d6cd02ed806ULL},
      {"dist_exponential", {0.44631619962861896}, 0xac005367a225be88ULL},
      {"dist_uniform", {-16003.221948745864, 94468.10951079374}, 0x36b7f49fa35c9d5cULL},
      {"dist_pareto", {2.346884340159161, 6.734485325920665}, 0xdad038ff2ef5c3abULL},
      {"dist_weibull", {0.38994570514842025, 32.17067005371438}, 0xfcb0eebf349b54feULL},
  };
  for (const auto& e : expected) {
    INFO(e.name << " " << e.args.size() << " constants, first " << e.args[0]);
    CHECK(digest(table(e.name, e.args)) == e.digest);
  }
}

TEST_CASE("distributions: constants where nb-rs panics or builds garbage are refused") {
  CHECK(refusal("dist_normal", {0.0, 0.0}) == "stddev must be above 0");
  refusal("dist_normal", {0.0, -1.0});
  refusal("icd_normal", {kNaN, 1.0});
  refusal("dist_normal", {kInf, 1.0});
  refusal("dist_normal", {0.0, 1.0, 1000.0});  // nb-rs drops a resolution silently; here it is refused
  refusal("dist_lognormal", {0.0, 0.0});
  refusal("dist_lognormal", {0.0});  // no defaults without a GK builder
  refusal("dist_lognormal", {708.0, 1.0});  // exp overflows inside the table
  refusal("dist_exponential", {0.0});
  refusal("icd_exponential", {-2.0});
  refusal("dist_uniform", {-1e308, 1e308});
  refusal("dist_pareto", {0.0, 1.0});
  refusal("dist_pareto", {1.0, 0.0});
  refusal("dist_pareto", {1.0, 0.001});  // (1 - p)^1000 underflows: scale / 0 inside the table
  refusal("dist_weibull", {0.0, 1.0});
  refusal("dist_weibull", {1.0, -1.0});
  refusal("dist_cauchy", {0.0, 0.0});
  refusal("dist_laplace", {0.0, -1.0});
  refusal("dist_beta", {0.0, 1.0});
  refusal("dist_beta", {1.0, -2.0});
  refusal("dist_gamma", {0.0, 1.0});
  refusal("dist_gamma", {1.0, 0.0});
  refusal("dist_zipf", {0, 1.0});
  refusal("dist_zipf", {2.5, 1.0});
  refusal("dist_zipf", {-3, 1.0});
  refusal("dist_zipf", {1e9, 1.0});
  CHECK(refusal("dist_zipf", {100, -2000.0}) == "the exponent makes the CDF NaN (nb-rs panics)");
  refusal("dist_poisson", {0.0});
  refusal("dist_poisson", {-1.0});
  refusal("dist_poisson", {800.0});  // exp(-800) underflows
  refusal("dist_binomial", {10, 0.0});
  refusal("dist_binomial", {10, 1.0});
  refusal("dist_binomial", {10, 1.5});
  refusal("dist_binomial", {1286, 0.4656706621079946});  // 0.534^1286 underflows
  refusal("dist_binomial", {1.5, 0.5});
  refusal("dist_geometric", {0.0});
  refusal("dist_geometric", {1.5});
  refusal("dist_geometric", {1e-300});  // ln(1 - p) is 0: nb-rs divides by it
  refusal("dist_nope", {});
  refusal("histribution", {});
}
