// The HLS pass pipeline: the DFG as built from the IR, rewritten into what
// the target builds well (see docs/hls.md, "Passes"). Every pass returns a new
// graph that computes the same outputs bit for bit (tests/hls/*_pass_test.cc
// hold each to eval_outputs on generated and corner inputs).
#pragma once

#include <optional>

#include "hls/dfg.h"
#include "hls/op_library.h"

namespace polydat::hls {

struct HlsOptions;

struct PassOptions {
  Target target = Target::Ice40;
  DesignKind kind = DesignKind::Pipeline;
  double clock_ns = kIce40ClockNs;
  uint32_t dsp_limit = 0;  // DSP blocks the design may use
  bool iterative_mul = false;  // wide multiplications as iterative units (the design that fits when II 1 does not)
  uint32_t ii = 1;             // a pipeline's initiation interval: each DSP block serves ii products
};

PassOptions pass_options(const HlsOptions& options, DesignKind kind, double clock_ns);

Dfg optimize_dfg(const Dfg& g, const PassOptions& options);

}  // namespace polydat::hls
