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

// Two encodings of one protocol. Text (the Icarus testbench, which reads with
// $fscanf): the lines below. Words (the C++ testbenches, Verilator's and
// SystemC's): the same content as little-endian 64-bit words, so the harness
// spends no time formatting or parsing numbers.
enum class Protocol { Text, Words };

// Text: "N INPUTS CONFIGS", the config values, then one line of input values per evaluation.
// Words: N, INPUTS, CONFIGS, the config values, then the input values row by row.
void write_batch(const std::filesystem::path& file, const hls::Design& d, const Batch& batch,
                 Protocol protocol = Protocol::Text);

// The result records in words: a tag word, then its payload.
//   PostReset  in_ready, out_valid, one word per output
//   Accepted   the cycle
//   Result     the cycle, one word per output
//   Hang       the cycle (the testbench gave up)
//   End        the cycles simulated
//   Checked    results compared, mismatches, the first mismatch's index (or -1)   (SystemC)
//   RefError   a byte count, then the bytes of a message, zero-padded to words  (SystemC)
enum class ResultTag : uint64_t { PostReset = 1, Accepted, Result, Hang, End, Checked, RefError };
// A tag as a C++ literal, for the generated testbenches.
inline std::string tag_literal(ResultTag t) { return std::to_string(static_cast<uint64_t>(t)) + "ull"; }

// Reads "POSTRESET ..." (into post_reset), "A cycle", "R cycle values...", "HANG cycle"
// (an error) and "END cycles"; any other tag goes to `other`, which reads its
// line and may return an error.
// (For words, `other` gets the tag's name, "CHECKED" or "REFERROR", and its payload as text.)
using OtherTag = std::function<std::string(const std::string& tag, std::istream& in)>;
ir::Expected<EngineRun, std::string> read_results(std::istream& in, const hls::Design& d, const Batch& batch,
                                                  uint64_t max_idle, std::string& post_reset,
                                                  const OtherTag& other = {});

// Runs a testbench program (no shell) with its output to work/run.log, then
// reads its result file as read_results does, with the run's wall time. A
// non-zero exit is an error naming `what`, with the result's first line and the log. With `progress`
// (words only), the result file's growth is read as results done while the program runs.
ir::Expected<EngineRun, std::string> run_testbench(const std::vector<std::string>& argv, const std::filesystem::path& work,
                                                   const std::filesystem::path& result, const std::string& what,
                                                   const hls::Design& d, const Batch& batch, uint64_t max_idle,
                                                   std::string& post_reset, const OtherTag& other = {},
                                                   Protocol protocol = Protocol::Text, const ProgressHook& progress = {});

// The words of a result file as the text protocol's lines (what read_results reads).
std::string result_words_as_text(const std::string& bytes, size_t outputs);

}  // namespace polydat::sim
