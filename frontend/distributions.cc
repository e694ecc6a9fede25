#include "frontend/distributions.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

namespace polydat::frontend {

namespace {

using Kind = DistributionParamKind;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = std::numbers::pi;  // Rust's std::f64::consts::PI, the same double
// Tables nb-rs sizes by a parameter (zipf's n, binomial's trials) stop here,
// so a kernel build cannot ask for gigabytes.
constexpr double kMaxSupport = 1 << 24;

// Rust's f64::clamp: NaN passes through, and -0.0 is not below 0.0.
double rust_clamp(double x, double lo, double hi) {
  if (x < lo) x = lo;
  if (x > hi) x = hi;
  return x;
}

// Rust's `f64 as usize`: truncation that saturates, NaN giving 0.
std::size_t saturating_index(double x) {
  if (!(x > 0.0)) return 0;
  if (x >= 18446744073709551616.0) return std::numeric_limits<std::size_t>::max();
  return static_cast<std::size_t>(x);
}

// Rust's slice::binary_search_by as of Rust 1.82 (nb-rs needs 1.88 or later):
// among equal entries it finds the last, and a miss gives the insertion index.
struct SearchResult {
  bool found;
  std::size_t index;
};
SearchResult rust_binary_search(const std::vector<double>& sorted, double key) {
  std::size_t size = sorted.size();
  if (size == 0) return {false, 0};
  std::size_t base = 0;
  while (size > 1) {
    const std::size_t half = size / 2;
    const std::size_t mid = base + half;
    if (!(sorted[mid] > key)) base = mid;
    size -= half;
  }
  if (sorted[base] == key) return {true, base};
  return {false, base + (sorted[base] < key ? 1 : 0)};
}

std::nullopt_t refuse(std::string& why, std::string reason) {
  why = std::move(reason);
  return std::nullopt;
}

// --- the tables (sampling/icd.rs), each f(p) written as nb-rs writes it ---

std::vector<double> raw_table(const std::function<double(double)>& f, std::size_t resolution) {
  std::vector<double> table;
  table.reserve(resolution + 1);
  for (std::size_t i = 0; i <= resolution; ++i)
    table.push_back(f(static_cast<double>(i) / static_cast<double>(resolution)));
  return table;
}

// Only p = 0 and p = 1 may be infinite by design; anything inside means the
// constants overflow a double, and nb-rs would flatten part of the table.
std::optional<std::vector<double>> finish(std::vector<double> table, std::string& why) {
  for (std::size_t i = 1; i + 1 < table.size(); ++i)
    if (!std::isfinite(table[i]))
      return refuse(why, "the constants overflow a double inside the table (nb-rs would flatten it)");
  sanitize_table(table);
  return table;
}

std::optional<std::vector<double>> tabulated(const std::function<double(double)>& f, std::string& why) {
  return finish(raw_table(f, kDistributionResolution), why);
}

bool positive(double v, std::string_view name, std::string& why) {
  if (v > 0.0) return true;
  refuse(why, std::string(name) + " must be above 0");
  return false;
}

std::optional<std::vector<double>> normal_table(std::span<const double> a, std::string& why) {
  const double mean = a[0], stddev = a[1];
  if (!positive(stddev, "stddev", why)) return std::nullopt;
  return tabulated([=](double p) { return mean + stddev * probit(p); }, why);
}

std::optional<std::vector<double>> lognormal_table(std::span<const double> a, std::string& why) {
  const double mean = a[0], stddev = a[1];
  if (!positive(stddev, "stddev", why)) return std::nullopt;
  return tabulated([=](double p) { return std::exp(mean + stddev * probit(p)); }, why);
}

std::optional<std::vector<double>> exponential_table(std::span<const double> a, std::string& why) {
  const double rate = a[0];
  if (!positive(rate, "rate", why)) return std::nullopt;
  return tabulated([=](double p) { return -std::log(1.0 - p) / rate; }, why);
}

std::optional<std::vector<double>> uniform_table(std::span<const double> a, std::string& why) {
  const double min = a[0], max = a[1];
  if (!std::isfinite(max - min)) return refuse(why, "max - min overflows a double");
  return tabulated([=](double p) { return min + p * (max - min); }, why);
}

std::optional<std::vector<double>> pareto_table(std::span<const double> a, std::string& why) {
  const double scale = a[0], shape = a[1];
  if (!positive(scale, "scale", why) || !positive(shape, "shape", why)) return std::nullopt;
  return tabulated([=](double p) { return scale / std::pow(1.0 - p, 1.0 / shape); }, why);
}

std::optional<std::vector<double>> weibull_table(std::span<const double> a, std::string& why) {
  const double shape = a[0], scale = a[1];
  if (!positive(shape, "shape", why) || !positive(scale, "scale", why)) return std::nullopt;
  return tabulated([=](double p) { return scale * std::pow(-std::log(1.0 - p), 1.0 / shape); }, why);
}

std::optional<std::vector<double>> cauchy_table(std::span<const double> a, std::string& why) {
  const double location = a[0], scale = a[1];
  if (!positive(scale, "scale", why)) return std::nullopt;
  return tabulated([=](double p) { return location + scale * std::tan(kPi * (p - 0.5)); }, why);
}

std::optional<std::vector<double>> laplace_table(std::span<const double> a, std::string& why) {
  const double location = a[0], scale = a[1];
  if (!positive(scale, "scale", why)) return std::nullopt;
  return tabulated(
      [=](double p) {
        if (p <= 0.5) return location + scale * std::log(2.0 * p);
        return location - scale * std::log(2.0 * (1.0 - p));
      },
      why);
}

std::optional<std::vector<double>> beta_table(std::span<const double> a, std::string& why) {
  const double alpha = a[0], beta = a[1];
  if (!positive(alpha, "alpha", why) || !positive(beta, "beta", why)) return std::nullopt;
  bool endless = false;
  auto table = raw_table(
      [&](double p) {
        const auto x = inv_regularized_beta(p, alpha, beta);
        endless = endless || !x;
        return x.value_or(0.0);
      },
      kDistributionResolution);
  if (endless) return refuse(why, "nb-rs's incomplete beta recurses without end for these constants");
  return finish(std::move(table), why);
}

std::optional<std::vector<double>> gamma_table(std::span<const double> a, std::string& why) {
  const double shape = a[0], scale = a[1];
  if (!positive(shape, "shape", why) || !positive(scale, "scale", why)) return std::nullopt;
  return tabulated([=](double p) { return scale * inv_regularized_gamma_p(p, shape); }, why);
}

// --- discrete tables: a CDF searched for each p, the outcome as an f64 ---

// nb-rs's zipf: an exact hit on the CDF gives its index (so p = 0 gives 0),
// a miss its insertion index held to [1, n].
std::optional<std::vector<double>> zipf_table(std::span<const double> a, std::string& why) {
  const double n = a[0], exponent = a[1];
  if (n < 1) return refuse(why, "n must be at least 1 (nb-rs builds an all-zero table)");
  if (n > kMaxSupport) return refuse(why, "n is too large to tabulate at build time");
  const auto count = static_cast<std::uint64_t>(n);
  double harmonic = 0.0;
  for (std::uint64_t k = 1; k <= count; ++k) harmonic += 1.0 / std::pow(static_cast<double>(k), exponent);
  std::vector<double> cdf{0.0};
  double cumulative = 0.0;
  for (std::uint64_t k = 1; k <= count; ++k) {
    cumulative += (1.0 / std::pow(static_cast<double>(k), exponent)) / harmonic;
    cdf.push_back(cumulative);
  }
  if (std::any_of(cdf.begin(), cdf.end(), [](double c) { return std::isnan(c); }))
    return refuse(why, "the exponent makes the CDF NaN (nb-rs panics)");
  return tabulated(
      [&](double p) {
        const auto hit = rust_binary_search(cdf, rust_clamp(p, 0.0, 1.0));
        if (hit.found) return static_cast<double>(hit.index);
        return std::fmin(std::fmax(static_cast<double>(hit.index), 1.0), n);
      },
      why);
}

// Poisson and binomial: the search index less one, never below 0.
std::function<double(double)> cdf_lookup(std::vector<double> cdf) {
  return [cdf = std::move(cdf)](double p) {
    const auto hit = rust_binary_search(cdf, rust_clamp(p, 0.0, 1.0));
    return static_cast<double>(hit.index == 0 ? 0 : hit.index - 1);
  };
}

std::optional<std::vector<double>> poisson_table(std::span<const double> a, std::string& why) {
  const double lambda = a[0];
  if (!positive(lambda, "lambda", why)) return std::nullopt;
  double pmf = std::exp(-lambda);
  if (!std::isnormal(pmf)) return refuse(why, "lambda is too large: P(0) underflows and the CDF is garbage");
  const auto upper = static_cast<std::size_t>(std::ceil(lambda + 6.0 * std::sqrt(lambda) + 10.0));
  std::vector<double> cdf{0.0};
  double cumulative = 0.0;
  for (std::size_t k = 0; k <= upper; ++k) {
    cumulative += pmf;
    cdf.push_back(std::fmin(cumulative, 1.0));
    pmf *= lambda / static_cast<double>(k + 1);
  }
  return tabulated(cdf_lookup(std::move(cdf)), why);
}

std::optional<std::vector<double>> binomial_table(std::span<const double> a, std::string& why) {
  const double trials = a[0], prob = a[1];
  if (trials > kMaxSupport) return refuse(why, "trials is too large to tabulate at build time");
  if (!(prob > 0.0 && prob < 1.0))
    return refuse(why, "p must be inside (0, 1) (nb-rs's table is wrong at 0 and 1)");
  const auto n = static_cast<std::size_t>(trials);
  double pmf = powi(1.0 - prob, static_cast<int>(n));
  if (!std::isnormal(pmf)) return refuse(why, "trials is too large: P(0) underflows and the CDF is garbage");
  std::vector<double> cdf{0.0};
  double cumulative = 0.0;
  for (std::size_t k = 0; k <= n; ++k) {
    cumulative += pmf;
    cdf.push_back(std::fmin(cumulative, 1.0));
    if (k < n) pmf *= prob / (1.0 - prob) * static_cast<double>(n - k) / static_cast<double>(k + 1);
  }
  return tabulated(cdf_lookup(std::move(cdf)), why);
}

std::optional<std::vector<double>> geometric_table(std::span<const double> a, std::string& why) {
  const double prob = a[0];
  if (!(prob > 0.0 && prob <= 1.0)) return refuse(why, "p must be in (0, 1]");
  const double ln_q = std::log(1.0 - prob);
  if (ln_q == 0.0) return refuse(why, "p is so small that 1 - p rounds to 1 (nb-rs builds all ones)");
  return tabulated(
      [=](double p) {
        if (p <= 0.0) return 1.0;
        if (p >= 1.0) return kInf;
        return std::fmax(std::ceil(std::log(1.0 - p) / ln_q), 1.0);
      },
      why);
}

// The GK form (lut.rs's EmpiricalSample): the sorted points are the table.
std::optional<std::vector<double>> empirical_table(std::span<const double> a, std::string& why) {
  if (a.size() < 2) return refuse(why, "dist_empirical needs at least 2 data points");
  if (std::any_of(a.begin(), a.end(), [](double v) { return std::isnan(v); }))
    return refuse(why, "a NaN data point has no place in nb-rs's sort");
  std::vector<double> table(a.begin(), a.end());
  std::stable_sort(table.begin(), table.end());  // Rust's sort_by is stable: -0.0 and 0.0 keep their order
  sanitize_table(table);
  return table;
}

// --- the catalog ---

constexpr DistributionParam kNormalGk[] = {{"mean", Kind::F64, 0.0, {}}, {"stddev", Kind::F64, 1.0, {}}};
constexpr DistributionParam kRateGk[] = {{"rate", Kind::F64, 1.0, {}}};
constexpr DistributionParam kUniformGk[] = {{"min", Kind::F64, 0.0, {}}, {"max", Kind::F64, 1.0, {}}};
constexpr DistributionParam kParetoGk[] = {{"scale", Kind::F64, 1.0, {}}, {"shape", Kind::F64, 1.0, {}}};
constexpr DistributionParam kZipfGk[] = {{"n", Kind::U64, 100.0, {}}, {"exponent", Kind::F64, 1.0, {}}};
constexpr DistributionParam kEmpiricalGk[] = {{"data", Kind::Str, std::nullopt, "0.0 1.0"}};
constexpr DistributionParam kHistributionGk[] = {{"spec", Kind::Str, std::nullopt, "1"}};
constexpr DistributionParam kMeanStddev[] = {{"mean", Kind::F64, {}, {}}, {"stddev", Kind::F64, {}, {}}};
constexpr DistributionParam kShapeScale[] = {{"shape", Kind::F64, {}, {}}, {"scale", Kind::F64, {}, {}}};
constexpr DistributionParam kLocationScale[] = {{"location", Kind::F64, {}, {}}, {"scale", Kind::F64, {}, {}}};
constexpr DistributionParam kAlphaBeta[] = {{"alpha", Kind::F64, {}, {}}, {"beta", Kind::F64, {}, {}}};
constexpr DistributionParam kLambda[] = {{"lambda", Kind::F64, {}, {}}};
constexpr DistributionParam kTrialsP[] = {{"trials", Kind::U64, {}, {}}, {"p", Kind::F64, {}, {}}};
constexpr DistributionParam kP[] = {{"p", Kind::F64, {}, {}}};

const DistributionInfo kCatalog[] = {
    {"dist_normal", true, "normal", "f64", "f64", kNormalGk, "normal(mean, stddev) by its inverse CDF"},
    {"icd_normal", true, "normal", "f64", "f64", kNormalGk, "the same as dist_normal"},
    {"lut_sample", true, "normal", "f64", "f64", kNormalGk,
     "nb-rs builds the normal table here too: lut_sample(u) is a standard normal sample"},
    {"dist_exponential", true, "exponential", "f64", "f64", kRateGk, "exponential(rate), mean 1 / rate"},
    {"icd_exponential", true, "exponential", "f64", "f64", kRateGk, "the same as dist_exponential"},
    {"dist_uniform", true, "uniform", "f64", "f64", kUniformGk, "uniform on [min, max]"},
    {"dist_pareto", true, "pareto", "f64", "f64", kParetoGk, "Pareto(scale, shape), at least scale"},
    {"dist_zipf", true, "zipf", "f64", "f64", kZipfGk, "Zipf rank in [1, n] as an f64 (0 at u = 0)"},
    {"dist_empirical", true, "empirical", "f64", "f64", kEmpiricalGk,
     "the sorted data points are the table; samples interpolate them"},
    {"histribution", true, "alias", "u64", "u64", kHistributionGk,
     "a weighted label from an alias table over the spec (not a LUT)"},
    {"dist_lognormal", false, "lognormal", "f64", "f64", kMeanStddev, "exp of normal(mean, stddev)"},
    {"dist_weibull", false, "weibull", "f64", "f64", kShapeScale, "Weibull(shape, scale)"},
    {"dist_cauchy", false, "cauchy", "f64", "f64", kLocationScale, "Cauchy(location, scale), ends finite"},
    {"dist_laplace", false, "laplace", "f64", "f64", kLocationScale, "Laplace(location, scale)"},
    {"dist_beta", false, "beta", "f64", "f64", kAlphaBeta, "Beta(alpha, beta) by bisection"},
    {"dist_gamma", false, "gamma", "f64", "f64", kShapeScale, "Gamma(shape, scale) by bisection"},
    {"dist_poisson", false, "poisson", "f64", "f64", kLambda, "Poisson(lambda) count as an f64"},
    {"dist_binomial", false, "binomial", "f64", "f64", kTrialsP, "Binomial(trials, p) count as an f64"},
    {"dist_geometric", false, "geometric", "f64", "f64", kP, "Geometric(p) trials to first success, as an f64"},
};

using Builder = std::optional<std::vector<double>> (*)(std::span<const double>, std::string&);
struct TableBuilder {
  std::string_view table;
  Builder build;
};
constexpr TableBuilder kBuilders[] = {
    {"normal", normal_table},     {"lognormal", lognormal_table}, {"exponential", exponential_table},
    {"uniform", uniform_table},   {"pareto", pareto_table},       {"weibull", weibull_table},
    {"cauchy", cauchy_table},     {"laplace", laplace_table},     {"beta", beta_table},
    {"gamma", gamma_table},       {"zipf", zipf_table},           {"poisson", poisson_table},
    {"binomial", binomial_table}, {"geometric", geometric_table},
};

// The constants with defaults filled in, each checked against its kind.
std::optional<std::vector<double>> resolve_args(const DistributionInfo& info, std::span<const double> args,
                                                std::string& why) {
  if (args.size() > info.params.size())
    return refuse(why, std::string(info.name) + " takes at most " + std::to_string(info.params.size()) + " constants");
  std::vector<double> values(args.begin(), args.end());
  for (std::size_t i = args.size(); i < info.params.size(); ++i) {
    if (!info.params[i].default_value)
      return refuse(why, std::string(info.name) + " needs " + std::string(info.params[i].name));
    values.push_back(*info.params[i].default_value);
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto& param = info.params[i];
    if (!std::isfinite(values[i])) return refuse(why, std::string(param.name) + " must be finite");
    if (param.kind == Kind::U64 && (values[i] < 0 || values[i] != std::floor(values[i])))
      return refuse(why, std::string(param.name) + " must be a whole number, 0 or more");
  }
  return values;
}

}  // namespace

// --- public helpers ---

double powi(double x, int n) {
  const bool reciprocal = n < 0;
  unsigned int bits = n < 0 ? 0u - static_cast<unsigned int>(n) : static_cast<unsigned int>(n);
  double result = 1.0;
  while (true) {
    if (bits & 1u) result *= x;
    bits >>= 1;
    if (bits == 0) break;
    x *= x;
  }
  return reciprocal ? 1.0 / result : result;
}

double probit(double p) {
  if (p <= 0.0) return -kInf;
  if (p >= 1.0) return kInf;
  const double t = p < 0.5 ? std::sqrt(-2.0 * std::log(p)) : std::sqrt(-2.0 * std::log(1.0 - p));
  const double c0 = 2.515517, c1 = 0.802853, c2 = 0.010328;
  const double d1 = 1.432788, d2 = 0.189269, d3 = 0.001308;
  const double r = t - (c0 + c1 * t + c2 * t * t) / (1.0 + d1 * t + d2 * t * t + d3 * t * t * t);
  return p < 0.5 ? -r : r;
}

double ln_gamma(double x) {
  static constexpr std::array<double, 9> c = {
      0.9999999999998099,   676.5203681218851,     -1259.1392167224028,
      771.3234287776531,    -176.6150291621406,    12.507343278686905,
      -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
  };
  if (x < 0.5) return std::log(kPi / std::sin(kPi * x)) - ln_gamma(1.0 - x);
  x -= 1.0;
  double sum = c[0];
  for (std::size_t i = 1; i < c.size(); ++i) sum += c[i] / (x + static_cast<double>(i - 1) + 1.0);
  const double t = x + 7.0 + 0.5;
  return 0.5 * std::log(2.0 * kPi) + (std::log(t) * (x + 0.5)) - t + std::log(sum);
}

namespace {
double beta_series(double x, double a, double b) {
  const double ln_prefix = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * std::log(x) + b * std::log(1.0 - x);
  const double prefix = std::exp(ln_prefix);
  double sum = 0.0;
  double term = 1.0;
  for (int n = 0; n < 300; ++n) {
    sum += term;
    term *= x * (a + b + n) / (a + 1.0 + n);
    if (std::fabs(term) < 1e-15 * std::fabs(sum)) break;
  }
  return rust_clamp(prefix * sum / a, 0.0, 1.0);
}

// After one flip the arguments alternate between two points, so a third
// flip means nb-rs's recursion never ends.
std::optional<double> beta_at(double x, double a, double b, int flips) {
  if (x <= 0.0) return 0.0;
  if (x >= 1.0) return 1.0;
  if (x > (a + 1.0) / (a + b + 2.0)) {
    if (flips == 2) return std::nullopt;
    const auto mirrored = beta_at(1.0 - x, b, a, flips + 1);
    if (!mirrored) return std::nullopt;
    return 1.0 - *mirrored;
  }
  return beta_series(x, a, b);
}
}  // namespace

std::optional<double> regularized_beta(double x, double a, double b) { return beta_at(x, a, b, 0); }

std::optional<double> inv_regularized_beta(double p, double a, double b) {
  if (p <= 0.0) return 0.0;
  if (p >= 1.0) return 1.0;
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2.0;
    const auto at_mid = regularized_beta(mid, a, b);
    if (!at_mid) return std::nullopt;
    if (*at_mid < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2.0;
}

double regularized_gamma_p(double a, double x) {
  if (x <= 0.0) return 0.0;
  if (x > a + 50.0) return 1.0;  // nb-rs's cut-off for the far tail
  double sum = 1.0 / a;
  double term = 1.0 / a;
  for (int n = 1; n < 300; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) < 1e-14 * std::fabs(sum)) break;
  }
  return std::exp(a * std::log(x) - x - ln_gamma(a)) * sum;
}

double inv_regularized_gamma_p(double p, double a) {
  if (p <= 0.0) return 0.0;
  if (p >= 1.0) return kInf;
  double hi = std::fmax(a, 1.0);
  while (regularized_gamma_p(a, hi) < p) hi *= 2.0;
  double lo = 0.0;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2.0;
    if (regularized_gamma_p(a, mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2.0;
}

void sanitize_table(std::span<double> table) {
  bool seen_finite = false;
  double last = 0.0;
  for (double& v : table) {
    if (std::isfinite(v)) {
      last = v;
      seen_finite = true;
    } else if (seen_finite) {
      v = last;
    }
  }
  last = 0.0;  // leading entries take the first finite one; none at all gives zeros
  for (auto it = table.rbegin(); it != table.rend(); ++it) {
    if (std::isfinite(*it)) last = *it;
    else *it = last;
  }
}

std::vector<double> tabulate(const std::function<double(double)>& f, std::size_t resolution) {
  auto table = raw_table(f, resolution);
  sanitize_table(table);
  return table;
}

double sample_table(std::span<const double> table, double u) {
  if (table.size() < 2) return table.empty() ? std::nan("") : table[0];  // nb-rs never builds these
  const double pos = rust_clamp(u, 0.0, 1.0) * static_cast<double>(table.size() - 1);
  const std::size_t i = std::min(saturating_index(pos), table.size() - 2);
  const double frac = pos - static_cast<double>(i);
  return table[i] * (1.0 - frac) + table[i + 1] * frac;
}

std::span<const DistributionInfo> distribution_catalog() { return kCatalog; }

const DistributionInfo* find_distribution(std::string_view name) {
  for (const auto& info : kCatalog)
    if (info.name == name) return &info;
  return nullptr;
}

std::optional<std::vector<double>> build_distribution_table(std::string_view name, std::span<const double> args,
                                                            std::string* why_not) {
  std::string why;
  const auto result = [&]() -> std::optional<std::vector<double>> {
    const DistributionInfo* info = find_distribution(name);
    if (!info) return refuse(why, "no distribution named " + std::string(name));
    if (info->table == "alias")
      return refuse(why, "histribution samples an alias table (weights.h), not a LUT");
    if (info->table == "empirical") return empirical_table(args, why);
    const auto values = resolve_args(*info, args, why);
    if (!values) return std::nullopt;
    for (const auto& builder : kBuilders)
      if (builder.table == info->table) return builder.build(*values, why);
    return refuse(why, "no builder for table " + std::string(info->table));
  }();
  if (!result && why_not) *why_not = why;
  return result;
}

}  // namespace polydat::frontend
