// `make bench`, co-simulation throughput: the harness `polydat cosim` runs
// against the bare Verilated model of the same design, in the same run.
#pragma once

namespace polydat::bench {

void bench_cosim_throughput();

}  // namespace polydat::bench
