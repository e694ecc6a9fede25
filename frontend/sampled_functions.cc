#include "frontend/sampled_functions.h"

namespace polydat::frontend {

namespace {
using K = DistributionParamKind;
constexpr DistributionParam kNormal[] = {{"mean", K::F64, std::nullopt, {}}, {"stddev", K::F64, std::nullopt, {}}};
constexpr DistributionParam kServiceNormal[] = {{"mean_ms", K::F64, std::nullopt, {}},
                                                {"stddev_ms", K::F64, std::nullopt, {}}};
constexpr DistributionParam kRate[] = {{"rate", K::F64, std::nullopt, {}}};
constexpr DistributionParam kZipf[] = {{"n", K::U64, std::nullopt, {}}, {"exponent", K::F64, std::nullopt, {}}};
constexpr DistributionParam kBoundedNormal[] = {{"mean", K::F64, std::nullopt, {}},
                                                {"stddev", K::F64, std::nullopt, {}},
                                                {"min", K::F64, std::nullopt, {}},
                                                {"max", K::F64, std::nullopt, {}}};

constexpr DistributionParam kBimodal[] = {{"fast_ms", K::F64, std::nullopt, {}}, {"fast_std", K::F64, std::nullopt, {}},
                                          {"slow_ms", K::F64, std::nullopt, {}}, {"slow_std", K::F64, std::nullopt, {}},
                                          {"slow_pct", K::F64, std::nullopt, {}}};
constexpr DistributionParam kServiceModel[] = {{"fast_ms", K::F64, std::nullopt, {}}, {"slow_ms", K::F64, std::nullopt, {}},
                                               {"slow_pct", K::F64, std::nullopt, {}},
                                               {"error_pct", K::F64, std::nullopt, {}}};

const SampledFunction kSampled[] = {
    {"normal_sample", "icd_normal", kNormal, 2, SampleFinish::None,
     "a normal sample of hash(input): icd_normal(unit_interval(hash(input)), mean, stddev)"},
    {"exponential_sample", "icd_exponential", kRate, 1, SampleFinish::None,
     "an exponential sample of hash(input): icd_exponential(unit_interval(hash(input)), rate)"},
    {"zipf_sample", "dist_zipf", kZipf, 2, SampleFinish::Round,
     "a Zipf rank in [1, n] for hash(input), rounded (nb-rs's module names an icd_zipf it lacks)"},
    {"bounded_normal_int", "icd_normal", kBoundedNormal, 2, SampleFinish::ClampRound,
     "a normal sample of hash(input) clamped to [min, max] and rounded to a u64"},
    {"gaussian_latency", "icd_normal", kNormal, 2, SampleFinish::Latency,
     "a normal latency in ms for hash(input), clamped to [0.1, 999999]"},
    {"service_latency", "icd_normal", kServiceNormal, 2, SampleFinish::Latency,
     "a service's normal latency in ms for hash(input), clamped to [0.1, 999999]"},
    {"exponential_latency", "icd_exponential", kRate, 1, SampleFinish::Latency,
     "an exponential latency in ms for hash(input), clamped to [0.1, 999999]"},
    {"bimodal_latency", "icd_normal", kBimodal, 4, SampleFinish::Bimodal,
     "a fast or (with probability slow_pct) slow normal latency in ms, each clamped to [0.1, 999999]"},
    {"service_model", "icd_normal", kServiceModel, 2, SampleFinish::ServiceModel,
     "(latency_ms, is_error): bimodal_latency with spreads 0.5 and 5.0, and a per-path error coin of error_pct"},
};
}  // namespace

std::span<const SampledFunction> sampled_functions() { return kSampled; }

const SampledFunction* find_sampled_function(std::string_view name) {
  for (const SampledFunction& f : kSampled)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace polydat::frontend
