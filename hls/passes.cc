#include "hls/passes.h"

#include "hls/design.h"
#include "hls/dfg_rewrite.h"
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
  XorNetworkOptions xor_options;
  xor_options.target = options.target;
  return xor_network_pass(cleanup(g), xor_options);
}

}  // namespace polydat::hls
