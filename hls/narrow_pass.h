// Bit-width narrowing: every live operation computed at the narrowest width
// that keeps every bit some consumer reads, given what is known of its bits
// (hls/bit_facts.h). Known bits become constants, unread high bits are not
// computed, operands known to be zero above some bit are cut there, and the
// loop state registers hold only the bits that are read and not known. Ports
// keep their widths; every output keeps its value bit for bit.
#pragma once

#include "hls/bit_facts.h"
#include "hls/dfg.h"

namespace polydat::hls {

struct NarrowOptions {
  // Tests: every bit that no consumer demands is inverted wherever it is
  // read, so a consumer reading more than it demanded changes an output.
  bool invert_undemanded = false;
  // Tests: faults planted in the analysis.
  BitFactsHooks hooks;
};

Dfg narrow_pass(const Dfg& g);
Dfg narrow_pass(const Dfg& g, const NarrowOptions& options);

}  // namespace polydat::hls
