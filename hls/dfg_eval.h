// The DFG's reference semantics: what every node computes from its operands'
// bits. The builder folds constants with it; the pass tests hold every
// rewrite to it (eval(pass(g)) == eval(g)) and it to the IR interpreter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hls/dfg.h"

namespace polydat::hls {

inline uint64_t width_mask(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

// The value of operation node `n` given its operands' values (each within its width).
uint64_t eval_node(const Node& n, const std::vector<uint64_t>& operands, const std::vector<unsigned>& operand_widths);

// Every node's value for one evaluation: inputs and configs in port order. A
// loop runs until its guard fails or `max_iterations` back edges were taken
// (nullopt then). The values are those of the last pass through the graph
// (for a loop: the exit state's).
std::optional<std::vector<uint64_t>> eval_values(const Dfg& g, const std::vector<uint64_t>& inputs,
                                                 const std::vector<uint64_t>& configs,
                                                 uint64_t max_iterations = 1000000, uint64_t* iterations = nullptr);

// The outputs for one evaluation, in port order.
std::optional<std::vector<uint64_t>> eval_outputs(const Dfg& g, const std::vector<uint64_t>& inputs,
                                                  const std::vector<uint64_t>& configs,
                                                  uint64_t max_iterations = 1000000);

}  // namespace polydat::hls
