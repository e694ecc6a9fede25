// Shared by the pass suites: DFGs from GK text and random DFGs, input samples
// with the edge values that break arithmetic, and the checks every pass test
// makes: the result keeps the graph's rules and computes the same outputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hls/dfg.h"
#include "hls/dfg_builder.h"

namespace polydat::hls::testing {

// A DFG from GK text through compile, ir::optimize and build_dfg (REQUIREs success).
Dfg dfg_from(const std::string& text);

// One evaluation's input and config values, in port order.
struct Sample {
  std::vector<uint64_t> inputs, configs;
};

// Values of a w-bit port worth trying: 0, 1, 2, all ones, the sign bit and
// its neighbours, powers of two and their neighbours, and `random` random
// ones (deterministic in `seed`).
std::vector<uint64_t> edge_values(unsigned w, size_t random, uint64_t seed);

// Samples for g: every combination of ports when they have 16 bits or fewer
// in all (exhaustive), otherwise each port's edge values against random
// values of the others, plus `random` all-random samples.
std::vector<Sample> samples_for(const Dfg& g, size_t random, uint64_t seed);

// What differs between two graphs' outputs over the samples (empty when
// nothing does); at most `limit` lines. A loop that runs past its limit in
// both counts as agreeing.
std::vector<std::string> output_differences(const Dfg& before, const Dfg& after, const std::vector<Sample>& samples,
                                            size_t limit = 5);

// check_dfg() and output_differences() together, for a pass's result.
std::vector<std::string> pass_problems(const Dfg& before, const Dfg& after, size_t random = 200, uint64_t seed = 1);

// A random loop-free DFG: `inputs` ports of random widths, about `ops`
// operations of every kind at widths from 1 to 64 (constants at values that
// matter: 0, 1, all ones, powers of two, small odd divisors), outputs resized
// to port widths. Deterministic in the seed.
struct RandomDfgOptions {
  size_t inputs = 2;
  size_t ops = 24;
  size_t outputs = 3;
  bool divisions = true;      // Div and Mod (by constants and by variables)
  bool multiplications = true;
};
Dfg random_dfg(uint64_t seed, const RandomDfgOptions& options = {});

// Operations of kind `op` among g's live nodes.
size_t count_live(const Dfg& g, Op op);

// The port a w-bit value travels in: 8, 16, 32 or 64 bits.
unsigned port_bits(unsigned w);
// The GK type of a port of w bits: bool at 1, u8/u16/u32, else u64.
ir::Ty port_type(unsigned w);
// A new input port of `bits` bits (a port width) on g, built through b; its value.
ValueId add_input(Dfg& g, DfgBuilder& b, const std::string& name, unsigned bits);
// The most logic operations on a path to an output (wiring is free): LUT levels.
unsigned logic_depth(const Dfg& g);

}  // namespace polydat::hls::testing
