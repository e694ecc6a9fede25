// `make bench`, nb-rs's perf kernels (tests/bench/nbrs): ns per evaluation on
// the LLVM engine, all outputs and one pulled, beside nb-rs's published P3
// (Cranelift JIT) figures and the machine's multiply-throughput limit.
#pragma once

namespace polydat::bench {

void bench_nbrs_kernels();

}  // namespace polydat::bench
