// Collapses linear networks over GF(2). A region of Xor, Not, wiring,
// constants, And/Or with a constant mask and XorReduce computes every bit as
// the XOR of a set of "base" bits (bits of values outside the region) and a
// constant. The pass works those sets out (x ^ x cancels in them) and, where
// the cost model says it is cheaper, rebuilds each bit the region's readers
// need as one XOR of base bits. See docs/hls-xor.md.
#pragma once

#include <cstddef>

#include "hls/dfg.h"
#include "hls/op_library.h"

namespace polydat::hls {

struct XorNetworkOptions {
  Target target = Target::Ice40;
  // Build an XOR of more than four bits as a balanced tree of 4-input XORs
  // (sub-trees shared between bits) instead of one n-ary Xor per bit.
  bool balanced_trees = false;
  // LUT levels a rebuilt bit may take beyond the region's own path to it
  // (one: the inverter of a constant 1); XorReduce results are exempt.
  unsigned extra_levels = 1;
  // A value with a bit of more base bits than this is left as it is and
  // bounds the regions around it (memory and time stay linear).
  size_t max_terms = 4096;
};

// What the pass found and decided (for tests and measurements).
struct XorNetworkStats {
  size_t regions = 0;         // regions with logic
  size_t rebuilt = 0;         // of them, rebuilt
  size_t too_deep = 0;        // cheaper, but kept for the level bound
  size_t held = 0;            // cheaper, but kept: an FSM register would hold more bits
  size_t wide_roots = 0;      // roots rebuilt as one wide XOR
  size_t bit_roots = 0;       // roots rebuilt bit by bit
  double area_before = 0;     // LUT4s a mapper needs for the rebuilt regions as they stood (estimated)
  double area_after = 0;      // and for what replaced them
};

Dfg xor_network_pass(const Dfg& g);
Dfg xor_network_pass(const Dfg& g, const XorNetworkOptions& options, XorNetworkStats* stats = nullptr);

// The area the cost model gives g's live logic (iCE40: LUT4s).
double live_logic_area(const Dfg& g, Target target = Target::Ice40);

}  // namespace polydat::hls
