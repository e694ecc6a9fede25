// `make bench`, streaming: `polydat eval` run as a process on a large range,
// to /dev/null and to a file, on one thread and on all cores: lines and MB per
// second, and the process's peak memory.
#pragma once

namespace polydat::bench {

void bench_streaming();
// `polydat run` on a workload of short lines: lines per second and peak memory.
void bench_workload_run();

}  // namespace polydat::bench
