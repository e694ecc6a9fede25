// The file protocol every generated testbench speaks (the Verilator one and
// the SystemC one): the batch it reads, the lines it writes back.
#pragma once

#include <filesystem>
#include <functional>
#include <istream>
#include <string>

#include "hls/design.h"
#include "ir/expected.h"
#include "sim/engine.h"

namespace polydat::sim {

// "N INPUTS CONFIGS", the config values, then one line of input values per evaluation.
void write_batch(const std::filesystem::path& file, const hls::Design& d, const Batch& batch);

// Reads "POSTRESET ..." (into post_reset), "A cycle", "R cycle values...", "HANG cycle"
// (an error) and "END cycles"; any other tag goes to `other`, which reads its
// line and may return an error.
using OtherTag = std::function<std::string(const std::string& tag, std::istream& in)>;
ir::Expected<EngineRun, std::string> read_results(std::istream& in, const hls::Design& d, const Batch& batch,
                                                  uint64_t max_idle, std::string& post_reset,
                                                  const OtherTag& other = {});

// Runs a testbench's command line in `work` (its output to work/run.log), then
// reads its result file as read_results does, with the run's wall time. A
// non-zero exit is an error naming `what`, with the result's first line and the log.
ir::Expected<EngineRun, std::string> run_testbench(const std::string& command, const std::filesystem::path& work,
                                                   const std::filesystem::path& result, const std::string& what,
                                                   const hls::Design& d, const Batch& batch, uint64_t max_idle,
                                                   std::string& post_reset, const OtherTag& other = {});

}  // namespace polydat::sim
