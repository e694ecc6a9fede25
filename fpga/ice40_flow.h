// The iCE40 flow with the real tools: Yosys synth_ice40, nextpnr-ice40,
// icepack. Every script, log and product stays in the output folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fpga/device.h"
#include "fpga/report.h"
#include "ir/expected.h"

namespace polydat::fpga {

struct Ice40Request {
  std::string top;            // the top module
  std::string sv;             // every module, one SystemVerilog text (written to DIR/TOP.sv)
  const Device* device = nullptr;
  std::string package;        // empty: the device's default
  double freq_mhz = 12;       // the clock nextpnr is asked for
  std::string pcf;            // empty: nextpnr chooses the pins
  std::filesystem::path dir;  // created when missing
  uint32_t seed = 1;
  uint32_t timeout_s = 3600;  // per tool; a tool still running then is killed (an error)
};

// One line per step as it starts ("yosys synth_ice40 ...", "nextpnr-ice40 ...").
using Progress = std::function<void(std::string_view)>;

// Runs the three tools. A design that does not fit or misses timing is a
// report with fits/meets_timing false, not an error; an error is a tool that
// is missing, crashed, or wrote nothing usable (the message names its log).
ir::Expected<SynthReport, std::string> run_ice40(const Ice40Request& request, const Progress& progress);

// ---- shared with estimate(): running one tool ----

// The executable `tool` names on $PATH (a name with a '/' is taken as a
// path); empty when there is none.
std::filesystem::path find_on_path(std::string_view tool);

// Runs argv[0] (looked up on $PATH) with `argv` in folder `dir`, stdin from
// /dev/null, stdout and stderr into `log`, in its own process group (killed
// with its children after `timeout_s` seconds, and when the calling thread
// dies: a Ctrl-C does not leave it running). The exit status, or an error
// when the tool is not on $PATH, cannot start, dies of a signal or times out
// (the message names the log and quotes its last lines).
ir::Expected<int, std::string> run_tool(const std::vector<std::string>& argv, const std::filesystem::path& dir,
                                        const std::filesystem::path& log, uint32_t timeout_s);

// The last `n` non-empty lines of a text file, each indented by two spaces
// and ended by '\n' (empty when the file is missing or empty).
std::string last_lines(const std::filesystem::path& file, size_t n);

}  // namespace polydat::fpga
