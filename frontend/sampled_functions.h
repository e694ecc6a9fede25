// nb-rs's stdlib sampling modules (distributions.gk, latency.gk, modeling.gk)
// whose distribution constants are the module's own parameters: here they are
// built-ins, so the constants at each call build that call's table. Each is
// icd(unit_interval(hash(input)), table constants), then an optional finish.
#pragma once

#include <span>
#include <string_view>

#include "frontend/distributions.h"

namespace polydat::frontend {

enum class SampleFinish {
  None,        // the sample itself (f64)
  Latency,     // clamp_f64(sample, 0.1, 999999.0): a latency in milliseconds
  Round,       // round_to_u64(sample)
  ClampRound,  // round_to_u64(clamp_f64(sample, min, max)), min and max the last two parameters
  // modeling.gk: unfair_coin(input, slow_pct) picks the slow latency (hash(hash(input))'s
  // quantile on the second table) or the fast one (hash(input)'s on the first).
  Bimodal,       // tables: normal(fast_ms, fast_std), normal(slow_ms, slow_std)
  ServiceModel,  // tables: normal(fast_ms, 0.5), normal(slow_ms, 5.0); also is_error, the same
                 // path's unfair_coin(hash(input) or hash(hash(input)), error_pct)
};

struct SampledFunction {
  std::string_view name;
  std::string_view distribution;  // the table it samples (a distributions.h name)
  std::span<const DistributionParam> params;  // after the u64 input, all constants
  size_t table_params;  // the first this many of params build the table
  SampleFinish finish;
  std::string_view help;
};

std::span<const SampledFunction> sampled_functions();
const SampledFunction* find_sampled_function(std::string_view name);

// The modules a sampled function's lowering calls.
inline constexpr std::string_view kSampledFunctionUses[] = {"hash", "unit_interval", "clamp_f64", "round_to_u64",
                                                            "unfair_coin"};

}  // namespace polydat::frontend
