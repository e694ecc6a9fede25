// The iCE40 flow with the real tools: Yosys synth_ice40, nextpnr-ice40,
// icepack. Every script, log and product stays in the output folder.
#pragma once

#include <chrono>
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
  std::optional<bool> use_dsp;  // synth_ice40 -dsp; empty: the device's use_dsp
  // How often `running` (run_ice40's third argument) hears from a tool that is still running.
  std::chrono::milliseconds progress_every{10000};
};

// One line per step as it starts ("yosys synth_ice40 ...", "nextpnr-ice40 ..."),
// and, for `running`, one line per interval while a tool runs.
using Progress = std::function<void(std::string_view)>;

// Runs the three tools. A design that does not fit or misses timing is a
// report with fits/meets_timing false, not an error; an error is a tool that
// is missing, crashed, or wrote nothing usable (the message names its log).
// While Yosys or nextpnr runs, `running` gets a line every
// `request.progress_every`: the tool, the step its log has reached, the time
// so far ("yosys: 20 s, 2.40.1.1. Executing ABC.").
ir::Expected<SynthReport, std::string> run_ice40(const Ice40Request& request, const Progress& progress,
                                                 const Progress& running = {});

// ---- following a tool's log ----

// The step a tool's log has reached, from the lines as they arrive (a chunk
// may end inside a line; the rest comes with the next chunk).
//   yosys:          the last pass header ("2.40. Executing ABC pass (technology mapping using ABC).")
//   nextpnr-ice40:  the last phase ("Info: Routing..") and, after it, its last
//                   indented progress line ("Info:   at iteration #5: temp = ...")
//   anything else:  the last non-empty line
class LogStep {
 public:
  explicit LogStep(std::string tool);
  void feed(std::string_view chunk);
  std::string step() const;  // empty until the log has a step

 private:
  void line(std::string_view l);
  std::string tool_, partial_, phase_, detail_;
};

// Whether a nextpnr error line is a placement or routing failure (the design
// does not fit the part), as against a bad package, PCF or netlist (an error).
bool is_fit_failure(const std::string& error_line);

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
// With `watch`, every `watch->every` while the tool runs, `watch->report`
// gets "TOOL: N s, STEP" with the step read from the log so far (LogStep).
struct ToolWatch {
  std::chrono::milliseconds every{10000};
  Progress report;
};
ir::Expected<int, std::string> run_tool(const std::vector<std::string>& argv, const std::filesystem::path& dir,
                                        const std::filesystem::path& log, uint32_t timeout_s,
                                        const ToolWatch* watch = nullptr);

// The last `n` non-empty lines of a text file, each indented by two spaces
// and ended by '\n' (empty when the file is missing or empty).
std::string last_lines(const std::filesystem::path& file, size_t n);

}  // namespace polydat::fpga
