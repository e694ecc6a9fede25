// Shared by the generated-kernel suites: inputs for a kernel, one kernel
// compared end to end, and a crash kept to one test case.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ir/graph.h"

namespace polydat::nativetest {

// Generated loops are masked to at most 15 rounds (pcg 64): a refusal is a generator bug.
inline constexpr uint64_t kIterationLimit = 1000;

ir::Ty input_type(const ir::CategoryIr& ir);

// Records of the entry's input type. Fields come from random_scalar, but a
// quarter of the floats are NaN, an infinity or an edge of float-to-integer
// saturation (random bit patterns rarely hit them).
std::vector<ir::Value> random_inputs(const ir::Ty& in_ty, size_t n, std::mt19937_64& rng);

// Compiles `text` both ways and compares `n` random inputs: "" when they
// agree, else what went wrong (a refusal, or the first disagreement).
std::string compare_text(const std::string& text, size_t n, uint64_t seed);

// Runs `body` in a child process, so a crash (a signal, an LLVM abort) fails
// the calling test case alone. "" when the child returned true; else why not.
std::string run_in_child(const std::function<bool()>& body);

}  // namespace polydat::nativetest
