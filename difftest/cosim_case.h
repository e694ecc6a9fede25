// `polydat cosim`'s verdict as a report case (difftest/report.h): one kernel on one simulator.
#pragma once

#include <string>
#include <vector>

#include "difftest/report.h"
#include "sim/cosim.h"

namespace polydat::difftest {

struct CosimVerdict {
  sim::CosimReport compared;  // values, handshakes and (under free flow) cycles against the oracle
  std::string reset_problem;  // empty: reset left the design as it must
  std::string reference_problem;  // empty: no SystemC reference model, or it agreed
};

// Passed, or a failure naming the first problem: the first mismatch with its
// inputs, expected and actual values, then the rest; `replay` reproduces it.
Case cosim_case(const std::string& kernel, const std::string& engine, const CosimVerdict& v,
                std::vector<std::string> replay);

// An error case: the co-simulation could not run (`type`: frontend, hardware, oracle, engine-failure).
Case cosim_error(const std::string& kernel, const std::string& engine, const std::string& type, const std::string& text,
                 std::vector<std::string> replay);

}  // namespace polydat::difftest
