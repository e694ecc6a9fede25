// Reference computations for the corpus kernels whose expected output is not
// a hand-derived table: written directly in C++ from LANGUAGE.md's
// definitions (xxHash's XXH3_64bits for `hash`), never by calling the
// compiler or the interpreter.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/value.h"

namespace polydat::corpus {

struct Reference {
  // The CSV header `polydat eval --format csv` prints: the iterated input, then the outputs.
  std::vector<std::string> header;
  // Every field of one row for one cycle, the iterated input first (as eval prints it).
  std::function<std::vector<ir::Value>(uint64_t cycle)> row;
};

// Kernel name (file name without .gk) -> its reference. The kernel's cycle
// range and --set values are those of its `// corpus:` line; a reference
// assumes them (a reference with --set values states them in a comment).
const std::map<std::string, Reference>& references();

// The library definitions, exposed so their self-tests can check them.
uint64_t ref_hash(uint64_t x);
uint64_t ref_splitmix64(uint64_t x);
// nb-rs's argument order: pcg(position, seed, stream).
uint64_t ref_pcg(uint64_t position, uint64_t seed, uint64_t stream);          // jump-ahead
uint64_t ref_pcg_stepped(uint64_t position, uint64_t seed, uint64_t stream);  // one step at a time
uint64_t ref_cycle_walk(uint64_t position, uint64_t range, uint64_t seed, uint64_t stream);
uint64_t ref_permute(uint64_t position, uint64_t range, uint64_t seed);  // cycle_walk with stream 0
double ref_unit_interval(uint64_t x);

}  // namespace polydat::corpus
