// The subcommands of `polydat`. Each returns the process exit code, one table for all (docs/guide.md "Exit codes").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/file_kind.h"

namespace polydat::workload {
struct RunOptions;
struct Workload;
}

namespace polydat::cli {

inline constexpr int kOk = 0;
inline constexpr int kUserError = 1;    // the work failed: a wrong kernel or value, a mismatch, a tool's error
inline constexpr int kUsageError = 2;   // the command line is wrong: a flag, a value, a missing or unknown name
inline constexpr int kDoesNotFit = 3;   // the design does not fit the part or misses its clock (synth)

struct CheckArgs {
  std::vector<std::string> files;
  std::vector<std::string> lib_paths;
};
int check_command(const CheckArgs& args);

struct FunctionsArgs {
  std::string format = "text";  // text | json
  std::string example;          // a function's name: print a kernel that calls it
  std::string name;             // only this function's entry ("": the whole library)
};
int functions_command(const FunctionsArgs& args);

struct BoardsArgs {
  std::string format = "text";  // text | json
  std::string name;             // only this board (a bundled name or a .yaml path; "": every bundled board)
};
int boards_command(const BoardsArgs& args);

struct EvalArgs {
  std::string file;
  std::string cycles = "10";          // N, or A..B (half-open)
  std::vector<std::string> sets;      // NAME=VALUE
  std::string format = "table";       // table | csv | tsv | json | jsonl | bin
  std::string engine = "llvm";        // llvm (the default: native code) | interp (the oracle)
  std::vector<std::string> outputs;  // only these outputs (their cone of the graph); empty: the kernel's own
  std::vector<std::string> lib_paths;
  unsigned threads = 0;               // 0: the machine's cores
  std::string shard;                  // K/N: the K-th of N slices of the rows ("": all)
  std::string output;                 // a file ("" or "-": stdout)
  bool quiet = false;                 // no progress line
};
int eval_command(const EvalArgs& args);

struct RunArgs {
  std::string file;                      // the workload (.yaml)
  std::vector<std::string> assignments;  // scenario=NAME, NAME=VALUE
  std::vector<std::string> sets;         // --set NAME=VALUE: the same as an assignment, after them
  std::string engine = "llvm";           // llvm (the default: native code) | interp (the oracle)
  std::string format = "stmt";           // one of nb-rs's stdout formats (workload/render.h)
  bool format_given = false;             // --format was on the command line
  std::string output;                    // a file ("" or "-": stdout)
  std::vector<std::string> lib_paths;
  bool explain = false;                  // print the scope tree instead of running
  bool quiet = false;                    // no progress line, no warnings
};
int run_command(const RunArgs& args);

struct IrArgs {
  std::string file;
  std::string format = "text";  // text | mermaid | dot
  bool no_opt = false;
  std::string output;  // a file ("" or "-": stdout)
  std::vector<std::string> lib_paths;
};
int ir_command(const IrArgs& args);

struct HlsArgs {
  std::string file;
  std::string target = "ice40";
  std::optional<double> clock_ns;
  std::optional<uint32_t> max_mul;
  std::optional<uint32_t> ii;
  std::optional<uint32_t> dsp;       // at most N DSP blocks (0: LUTs only); default: the device's count
  bool strict = false;               // a predicted timing miss is an error, not a warning
  std::string format = "text";  // text | json (svg: the schedule picture)
  std::string output;           // hls: write to this file ("" or "-": stdout)
  std::vector<std::string> lib_paths;
  bool partition = false;       // a workload: phase runs hardware cannot take stay on the host
};
int hls_command(const HlsArgs& args);
int emit_sv_command(const HlsArgs& args, const std::string& out_dir);

struct BenchArgs {
  std::string file;
  std::string cycles = "100000";      // N, or A..B (half-open), for the first input
  std::vector<std::string> sets;      // NAME=VALUE
  std::vector<std::string> outputs;  // only these outputs (their cone of the graph); empty: the kernel's own
  std::vector<std::string> lib_paths;
};
int bench_command(const BenchArgs& args);

struct EmitObjArgs {
  std::string file;
  std::string out_dir;
  std::vector<std::string> lib_paths;
};
int emit_obj_command(const EmitObjArgs& args);

struct CosimArgs {
  HlsArgs hls;                       // the kernel and how it is synthesized
  std::string sim = "verilator";
  std::string cycles = "10000";      // N, or A..B (half-open), for the first input
  std::vector<std::string> sets;     // NAME=VALUE
  double stall = 0;                  // probability that in_valid and out_ready are each low
  uint64_t seed = 1;
  std::string trace;                 // a waveform: FILE.vcd or FILE.fst
  std::string board;                 // simulate the board top of this board instead
  std::optional<double> freq_mhz;    // with --board: run the board top at this clock, through the PLL
  bool cycles_given = false;         // --cycles was on the command line (--board defaults to 1000)
  bool quiet = false;                // no progress line
  std::string junit, json;           // reports for CI (difftest/report.h); empty: none
};
int cosim_command(const CosimArgs& args);

// A workload (.yaml) in hardware: emit-sv writes its scope modules and top;
// cosim simulates the top and checks its decoded lines against `polydat run` (is_workload_file: cli/file_kind.h).
// nb-rs's NAME=VALUE parameters (workload/run_params.h) of a command on workload `w` into `o`;
// false after printing what is wrong. Notes go to stderr.
bool workload_assignments(const std::vector<std::string>& assignments, const workload::Workload& w,
                          workload::RunOptions& o, bool prints_lines);
int workload_emit_sv_command(const HlsArgs& args, const std::vector<std::string>& assignments, const std::string& out_dir);
int workload_cosim_command(const CosimArgs& args, const std::vector<std::string>& assignments);
struct SynthArgs;
int workload_synth_command(const SynthArgs& args, const std::vector<std::string>& assignments);
int board_cosim_command(const CosimArgs& args);

struct SynthArgs {
  HlsArgs hls;                       // the kernel and how it is synthesized (the clock follows --freq)
  std::string board;                 // a bundled board's name, or a board file (.yaml)
  std::string device;                // without a board: up5k | hx8k | lp8k | hx1k
  std::string package;               // with --device: the package (default: the device's)
  std::optional<double> freq_mhz;    // the clock asked of nextpnr (--board: through the PLL; default the oscillator's)
  std::string out_dir;               // default: KERNEL-BOARD or KERNEL-DEVICE
  std::vector<std::string> sets;     // NAME=VALUE for the board top's externs and held inputs
  std::string estimate;              // ecp5 | xilinx: resources through Yosys only, no place and route
  bool close_timing = false;         // re-schedule with a tighter clock while Fmax misses
  uint32_t place_seed = 1;           // nextpnr's placement seed
  std::optional<double> progress_s;  // a progress line every N seconds, terminal or not (default: the one line, on a terminal)
  bool quiet = false;                // no progress on stderr
  uint32_t tool_timeout_s = 3600;    // a tool running longer is killed (an error)
};
int synth_command(const SynthArgs& args);

struct FlashArgs {
  std::string board;  // "": the board DIR's report.json names
  std::string dir;  // what `polydat synth --board` wrote
};
int flash_command(const FlashArgs& args);

struct DifftestArgs {
  std::string file;
  std::vector<std::string> engines;  // default: every engine
  size_t inputs = 200;
  uint64_t seed = 1;
  double stall = 0.25;
  std::vector<std::string> lib_paths;
  std::string junit, json;           // reports for CI (difftest/report.h); empty: none
  bool quiet = false;  // no progress line
};
int difftest_command(const DifftestArgs& args);

struct FuzzArgs {
  std::vector<std::string> engines;
  uint64_t count = 100;
  uint64_t seed = 1;
  size_t inputs = 64;
  double stall = 0.25;
  std::string out_dir = "fuzz-findings";
  bool print = false;  // print the kernels the campaign would run, and stop
  std::string junit, json;  // reports for CI (difftest/report.h); empty: none
  bool quiet = false;  // no progress line
};
int fuzz_command(const FuzzArgs& args);

}  // namespace polydat::cli
