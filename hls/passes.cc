#include "hls/passes.h"

#include "hls/adder_split_pass.h"
#include "hls/count_lower_pass.h"
#include "hls/design.h"
#include "hls/dfg_rewrite.h"
#include "hls/div_var_pass.h"
#include "hls/divmod_const_pass.h"
#include "hls/mul_const_pass.h"
#include "hls/mul_iterative_pass.h"
#include "hls/mul_var_pass.h"
#include "hls/narrow_pass.h"
#include "hls/shift_lower_pass.h"
#include "hls/xor_network_pass.h"

namespace polydat::hls {

PassOptions pass_options(const HlsOptions& options, DesignKind kind, double clock_ns) {
  PassOptions p;
  p.target = options.target;
  p.kind = kind;
  p.clock_ns = clock_ns;
  const uint32_t device = options.capacity ? options.capacity->dsps : (options.target == Target::Ice40 ? 8 : 0);
  p.dsp_limit = options.dsp_limit.value_or(device);
  return p;
}

Dfg optimize_dfg(const Dfg& g, const PassOptions& options) {
  Dfg d = divmod_const_pass(cleanup(g));
  d = narrow_pass(d);  // before lowering: multipliers and adders are built at the widths values need
  XorNetworkOptions xor_options;
  xor_options.target = options.target;
  d = xor_network_pass(d, xor_options);
  const LowerOptions lower{options.target, options.clock_ns};
  d = shift_lower_pass(d, lower);  // after narrowing: amount bits known constant cost no level
  d = count_lower_pass(d, lower);
  d = div_var_pass(d, div_var_options(options.kind));
  const CarryCuts cuts = carry_cuts(options.target, options.clock_ns);
  if (options.iterative_mul) d = mul_iterative_pass(d);
  d = mul_var_pass(d, MulVarOptions{options.kind, options.dsp_limit, cuts, options.ii});  // products of two variables: DSP blocks and rows
  d = mul_const_pass(d, cuts);
  d = narrow_pass(d);  // the adder trees' partial sums
  d = adder_split_pass(d, cuts);
  return cleanup(d);
}

}  // namespace polydat::hls
