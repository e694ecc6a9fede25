// Random, well-typed GK kernels as source text, for the differential tests of
// the native backend against the interpreter. Deterministic in the seed.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "ir/ty.h"

namespace polydat::difftest {

// The scalar types the generator draws from, and coverage checks against.
inline constexpr ir::TyKind kInts[] = {ir::TyKind::U8, ir::TyKind::U16, ir::TyKind::U32, ir::TyKind::U64,
                                       ir::TyKind::I8, ir::TyKind::I16, ir::TyKind::I32, ir::TyKind::I64};
inline constexpr ir::TyKind kUnsigned[] = {ir::TyKind::U8, ir::TyKind::U16, ir::TyKind::U32, ir::TyKind::U64};
inline constexpr ir::TyKind kScalars[] = {ir::TyKind::Bool, ir::TyKind::U8,  ir::TyKind::U16, ir::TyKind::U32,
                                          ir::TyKind::U64,  ir::TyKind::I8,  ir::TyKind::I16, ir::TyKind::I32,
                                          ir::TyKind::I64,  ir::TyKind::F32, ir::TyKind::F64};

// A kernel's text and the shapes the generator put into it that the
// optimised IR no longer shows (a literal shift amount past the width, a
// guard that fails at once, a loop in another loop's initial state, ...).
struct GeneratedKernel {
  std::string text;
  std::set<std::string> features;
};

// Every loop is bounded by a counter guard (`c < (b & 15)`, 7 when nested,
// 3 deeper), so an evaluation takes at most a few hundred iterations.
// `hardware`: only what the hardware flow takes (integers and bool, at most one
// loop, not nested), so the RTL engines see the kernel too.
GeneratedKernel generate_kernel(uint64_t seed, bool hardware = false);

}  // namespace polydat::difftest
