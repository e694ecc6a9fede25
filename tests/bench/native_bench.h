// `make bench`, the native backend (LLVM 15 through ORC LLJIT, O2): against the
// interpreter on every corpus kernel, then against hand-written C++.
#pragma once

namespace polydat::bench {

void bench_native_backend();

}  // namespace polydat::bench
