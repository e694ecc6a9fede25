// The QoR table behind docs/fpga-qor.md: every hardware-accepted corpus
// kernel on every bundled board inside the board top (the iCEBreaker twice,
// with DSPs and with --dsp 0), and the four anchor kernels inside the
// QoR wrapper beside an expert's hand-made figures. Each row is one
// `polydat synth` run, read back from the report.json (and hls.json) it
// writes; two runs at a time.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace polydat::qor {

struct Job {
  std::string kernel;              // the row's name (file stem)
  std::filesystem::path file;      // the .gk
  std::string board;               // a bundled board, or empty with a device
  std::string device;              // with no board: synth --device
  std::optional<double> freq_mhz;  // --freq
  bool lut_only = false;           // --dsp 0
  std::vector<std::filesystem::path> lib_paths;  // -L folders (a corpus kernel's `lib DIR`)
  std::vector<std::string> sets;   // --set NAME=VALUE (a corpus kernel's `set NAME=VALUE`)
  std::string label() const;       // "icebreaker", "icebreaker, --dsp 0", "up5k"
};

// What a corpus kernel's first line asks for ("// corpus: cycles 0..4 set a=3 lib lib"):
// its -L folders (relative to its own folder) and its --set values.
std::vector<std::filesystem::path> corpus_lib_paths(const std::filesystem::path& kernel);
std::vector<std::string> corpus_sets(const std::filesystem::path& kernel);

// The job for `kernel` (a corpus kernel: its lib and set options) on `board`.
Job corpus_job(const std::filesystem::path& kernel, const std::string& board, bool lut_only);

struct Row {
  Job job;
  std::filesystem::path dir;
  nlohmann::json hls;     // hls.json: design, ii, latency, critical_path_ns, clock_ns (null when HLS refused)
  nlohmann::json report;  // report.json (null when no report)
  int status = -1;        // polydat's exit status
  std::string error;      // stderr's "error:" line when there is no report
  std::string unfinished;  // the tool that ran over the limit ("yosys"), when one did
  double seconds = 0;     // the whole run

  bool finished() const { return unfinished.empty() && !report.is_null(); }
  bool fits() const { return finished() && report.value("fits", false); }
  bool meets() const { return finished() && report.value("meets_timing", false); }
  std::optional<double> fmax() const;
};

struct Settings {
  std::filesystem::path polydat;  // the binary
  std::filesystem::path root;     // where the runs' folders go
  uint32_t tool_timeout_s = 60;
  unsigned jobs = 2;
  bool verbose = true;            // a line per finished row on stderr
};

// The corpus kernels `polydat hls` accepts, sorted by name.
std::vector<std::filesystem::path> accepted_kernels(const Settings& s, const std::filesystem::path& corpus);

// The table's jobs: every kernel on every bundled board, and the iCEBreaker again with --dsp 0.
std::vector<Job> board_jobs(const std::vector<std::filesystem::path>& kernels);
// The same restricted to the iCEBreaker's two rows per kernel.
std::vector<Job> icebreaker_jobs(const std::vector<std::filesystem::path>& kernels);

// The four anchors (tests/qor/kernels) through `synth --device up5k --freq 48 --dsp 0`.
struct Expert {
  std::string name;   // the name: hash, splitmix64, mod(hash(cycle),1000), xorshift
  std::string file;   // tests/qor/kernels/FILE.gk
  uint32_t cells = 0;
  uint32_t stages = 0;
  double mhz = 0;
  double cell_factor = 1.1;  // the bound: polydat's logic cells (kernel and wrapper) at most this times the expert's
  double min_mhz = 48;       // the bound on Fmax
};
const std::vector<Expert>& experts();
std::vector<Job> anchor_jobs(const std::filesystem::path& kernels_dir);

// What keeps an anchor row from its bounds ("too many cells", "too slow", "II is not 1",
// "not finished", ...); empty when it is within them. Cells are the whole
// run's, the wrapper's included, as the expert's are.
std::vector<std::string> anchor_misses(const Expert& e, const Row& r);

// The tool named in an error such as "yosys timed out after 60 s and was killed; ...", else empty.
std::string unfinished_tool(const std::string& error);

std::vector<Row> run(const std::vector<Job>& jobs, const Settings& s);

// Markdown tables.
std::string board_table(const std::vector<Row>& rows, uint32_t tool_timeout_s);
std::string anchor_table(const std::vector<Row>& rows);
// One paragraph of counts: "N runs: N meet the clock, ...".
std::string board_summary(const std::vector<Row>& rows, uint32_t tool_timeout_s);

// Replaces what lies between the lines `<!-- NAME:begin -->` and
// `<!-- NAME:end -->` in `text`; false when the markers are missing.
bool replace_between(std::string& text, const std::string& name, const std::string& with);

}  // namespace polydat::qor
