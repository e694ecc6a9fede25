// `make bench`, the native backend against hand-written C++ of the same
// kernels (hand_kernels.h), over the same records.
#pragma once

namespace polydat::bench {

void bench_native_vs_hand();

}  // namespace polydat::bench
