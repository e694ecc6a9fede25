// The C++ testbench a kernel's Verilator model is built with: it drives the
// valid/ready handshakes (with seeded random stalls), records when each input
// is accepted and each result taken, and writes what it saw to a file.
#pragma once

#include <string>
#include <vector>

#include "hls/design.h"

namespace polydat::sim {

// A generated testbench in two parts, so that one program can hold several:
// `includes` at file scope, `body` in a namespace of its own, where it
// defines `int run_testbench(int argc, char** argv)`.
struct TestbenchSource {
  std::string includes, body;
};

// A testbench of the design for its Verilated class `model_class`.
TestbenchSource testbench_source(const hls::Design& d, const std::string& model_class);

// Testbenches as code: their includes, then each body in the namespace
// polydat_tb_NAME. Several units may hold the members of one program.
struct NamedTestbench {
  std::string name;
  TestbenchSource source;
};
std::string testbench_units(const std::vector<NamedTestbench>& members);

// The program's entry point `entry` (main, or sc_main for SystemC): it runs
// the member its first argument names (the rest of the line is the member's),
// or, not `by_name`, the only member directly. Needs only the members' names.
std::string testbench_entry(const std::vector<NamedTestbench>& members, const std::string& entry, bool by_name);

// The standalone testbench program for a design whose module is `module_name`.
//   usage: sim DATA OUT SEED STALL MAX_IDLE [TRACE]
// (TRACE is written when the model is built with --trace-fst or --trace.)
// DATA and OUT are in the words of testbench_io.h's protocol: the batch in;
// out, the outputs right after reset, each input accepted and result taken
// with its cycle, then the end (or the cycle the design was found hanging).
std::string testbench_cpp(const hls::Design& d, const std::string& module_name);

}  // namespace polydat::sim
