// Shared by the RTL suites: the kernels (tests/corpus/ and tests/rtl/kernels/),
// the HLS flow as `polydat hls` runs it, the external tools, and a small XML
// reader for the schedule pictures.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hls/design.h"
#include "rtl/emit_sv.h"

namespace polydat::rtltest {

namespace fs = std::filesystem;

struct Kernel {
  std::string key;   // "corpus/NAME" or "rtl/NAME"
  std::string name;  // the file's stem
  fs::path path;
  std::vector<std::string> lib_paths;  // -L folders (corpus: from the `lib DIR` words of line 1)
};

// Every kernel: tests/corpus/*.gk, then tests/rtl/kernels/*.gk, each sorted by name.
std::vector<Kernel> all_kernels();
std::optional<Kernel> find_kernel(const std::string& key);
const fs::path& rtl_dir();  // tests/rtl

// A kernel's signature as the frontend sees it (the interface the module must have).
struct SignaturePort {
  std::string name;
  unsigned bits = 0;
  bool is_extern = false;
};

// The flow of `polydat hls` through flow/: compile_file, optimise, schedule
// with the kernel's externs as config fields, emit.
struct Flow {
  bool compiled = false;              // the frontend and the optimiser succeeded
  std::string diagnostics;            // when not
  std::optional<hls::Design> design;  // when synthesis accepted it
  std::optional<rtl::Module> module;  // its one emission
  hls::HlsError refusal;              // when it did not
  std::vector<SignaturePort> params, outputs;
};
Flow run_flow(const Kernel& k, const hls::HlsOptions& options = {});

// An external tool found on PATH ("" when absent).
std::string find_on_path(const std::string& program);

struct ToolRun {
  int status = -1;
  std::string output;  // stdout and stderr together
};
// verilator --lint-only -Wall FILE
ToolRun verilator_lint(const fs::path& sv);
// yosys -q -p "read_verilog -sv FILE; hierarchy -check -top TOP; proc; check -assert"
ToolRun yosys_check(const fs::path& sv, const std::string& top);
// yosys -q -p "read_verilog -sv FILE; synth -top TOP"
ToolRun yosys_synth(const fs::path& sv, const std::string& top, int timeout_seconds);
// Yosys's `proc` on the module, exiting non-zero when it leaves a memory cell
// (a case statement proc_rom turned into a ROM).
ToolRun yosys_assert_no_memory(const fs::path& sv, const std::string& top);
// The lines of a tool's output that mention an error or a warning (any case).
std::vector<std::string> complaints(const std::string& output);

// ---- a small XML reader (enough for the SVG pictures) ----

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attrs;
  int parent = -1;   // index in the list, -1 for the root
  std::string text;  // the character data directly inside (entities decoded)
};

// Parses a whole document: an optional XML declaration and comments, one root
// element, balanced tags, quoted attributes without duplicates, only the five
// predefined entities and character references. Elements in document order.
std::optional<std::vector<XmlElement>> parse_xml(const std::string& doc, std::string& why);

}  // namespace polydat::rtltest
