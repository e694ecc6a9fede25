// Bit counts become trees the scheduler can spread over steps. Popcount:
// groups of four bits counted by one LUT per count bit (a Rom), then a
// balanced tree of narrow additions (3 to 7 bits), lone bits riding on the
// adders' carry ins. Clz and Ctz: per group of four bits a LUT level gives
// "any bit set" and the group's count, and each level of a binary tree
// combines two neighbours with one mux (the count of the half scanned first,
// or the half's width plus the other's) and one OR; no adders. See
// docs/hls-shifts.md.
#pragma once

#include <cstdint>
#include <functional>

#include "hls/dfg.h"
#include "hls/dfg_builder.h"
#include "hls/shift_lower_pass.h"

namespace polydat::hls {

// f of `index`'s bits at `width` bits, one LUT level: a Rom over the index
// bits that are not known constants (at most 12 of them; 4 make one LUT4 per
// result bit); result bits that are constant, or copy or invert one index
// bit, are wiring or an inverter.
ValueId lut_function(DfgBuilder& b, ValueId index, unsigned width, const std::function<uint64_t(uint64_t)>& f);

// popcount(x), clz(x), ctz(x) at `width` bits (the counts at x's width).
ValueId lower_popcount(DfgBuilder& b, ValueId x, unsigned width);
ValueId lower_zero_count(DfgBuilder& b, Op op, ValueId x, unsigned width);

// Every live Popcount, Clz and Ctz worth lowering (lowering_pays), lowered.
Dfg count_lower_pass(const Dfg& g, const LowerOptions& options = {});

}  // namespace polydat::hls
