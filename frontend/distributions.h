// nb-rs's distribution sampling, computed when a kernel is built: each
// distribution is an inverse-CDF table of 1001 doubles (nb-rs's LutF64 at
// resolution 1000, non-finite entries replaced), and a sample interpolates it.
// Every entry is bit-identical to nb-rs's: the same algorithms, constants and
// operation order, glibc's libm, no contraction into fused multiply-add.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace polydat::frontend {

// nb-rs builds every GK distribution table at this resolution; a
// `resolution:` argument is parsed but never read.
inline constexpr std::size_t kDistributionResolution = 1000;

enum class DistributionParamKind { F64, U64, Str };

struct DistributionParam {
  std::string_view name;
  DistributionParamKind kind;
  // nb-rs's factory default when the constant is left out; none for builders
  // that GK cannot call.
  std::optional<double> default_value;
  std::string_view default_text;  // a Str constant's default
};

struct DistributionInfo {
  std::string_view name;
  // Whether a GK kernel can call it by this name (nb-rs's dsl/factory.rs);
  // the rest exist only as Rust builders in sampling/icd.rs.
  bool gk_callable;
  // The table it samples: "normal", "zipf", ... (lut_sample and icd_normal
  // are the normal table under other names).
  std::string_view table;
  // The wire input: an f64 quantile in [0, 1] for a table, a u64 hash for
  // histribution's alias table.
  std::string_view input_type;
  std::string_view result_type;
  // The init-time constants after the wire input, in order.
  std::span<const DistributionParam> params;
  std::string_view help;
};

// Every nb-rs distribution builder, GK-callable or not.
std::span<const DistributionInfo> distribution_catalog();
const DistributionInfo* find_distribution(std::string_view name);

// The table `name` samples, with `args` its constants in order (integers
// exactly; left-out trailing ones take nb-rs's defaults). nullopt, with a
// one-line reason in `why_not`, for an unknown name, histribution (an alias
// table: see weights.h), a wrong count, or constants where nb-rs would panic
// or build a meaningless table. dist_empirical's args are its data points.
std::optional<std::vector<double>> build_distribution_table(std::string_view name, std::span<const double> args,
                                                            std::string* why_not);

// nb-rs's per-evaluation sample (LutF64::sample): u clamped to [0, 1] (NaN
// kept), pos = u * (len - 1), i = min(trunc(pos), len - 2) with NaN
// truncating to 0, frac = pos - i, then t[i] * (1 - frac) + t[i + 1] * frac.
double sample_table(std::span<const double> table, double u);

// nb-rs's LutF64::from_fn: f at i / resolution for i = 0..resolution, then
// sanitize_table.
std::vector<double> tabulate(const std::function<double(double)>& f, std::size_t resolution);

// A non-finite entry takes the last finite entry before it, or failing that
// the first finite one after it; a table with no finite entry becomes zeros.
void sanitize_table(std::span<double> table);

// nb-rs's numerical helpers (sampling/icd.rs), operation for operation.
// The standard normal quantile by Abramowitz & Stegun 26.2.23 (error < 4.5e-4).
double probit(double p);
// ln Gamma(x) by Lanczos (g = 7, nine coefficients), reflected below 0.5.
double ln_gamma(double x);
// I_x(a, b) by its power series, flipped to 1 - I_{1-x}(b, a) past the mean;
// nullopt where that flip would repeat without end (nb-rs overflows its stack).
std::optional<double> regularized_beta(double x, double a, double b);
// The x with I_x(a, b) = p, by 100 bisections of [0, 1].
std::optional<double> inv_regularized_beta(double p, double a, double b);
// P(a, x) by its power series; 1 past x = a + 50.
double regularized_gamma_p(double a, double x);
// The x with P(a, x) = p: doubling from max(a, 1) to a bracket, then 100 bisections.
double inv_regularized_gamma_p(double p, double a);
// x^n by repeated squaring, as Rust's powi (compiler-builtins' __powidf2).
double powi(double x, int n);

}  // namespace polydat::frontend
