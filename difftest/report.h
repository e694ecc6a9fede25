// The reports a CI system reads from `polydat difftest`, `fuzz` and `cosim`:
// JUnit XML (one test case per kernel and engine) and a JSON summary of the
// same facts. Both are deterministic except their time fields.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace polydat::difftest {

struct KernelResult;
struct Options;

enum class Outcome { Passed, Failed, Error, Skipped };
const char* outcome_name(Outcome o);  // "passed", "failure", "error", "skipped"

struct Case {
  std::string classname;  // the kernel file, or the generated kernel's name
  std::string name;       // the engine
  Outcome outcome = Outcome::Passed;
  std::string type;       // a failure's or error's kind: "mismatch", "engine-failure", "frontend", ...
  std::string message;    // one line: what went wrong (or why the engine refuses the kernel)
  std::string detail;     // the first mismatch in full (inputs, expected, got), or the error's text
  std::vector<std::string> replay;  // command lines that reproduce it
  size_t evaluations = 0;
  double seconds = 0;
};

struct Report {
  std::string suite;  // "polydat difftest", ...: the <testsuite>'s name
  std::vector<Case> cases;
  double seconds = 0;

  size_t count(Outcome o) const;
};

// Text made safe for XML 1.0: markup escaped, and what XML cannot hold at all
// (control characters, invalid UTF-8, U+FFFE/U+FFFF) written as \xNN.
std::string xml_escape(const std::string& s, bool attribute);

std::string junit_xml(const Report& r);
std::string json_summary(const Report& r);

// Writes the JUnit file and the JSON file (each when its path is not empty);
// the error names the path and the reason.
std::optional<std::string> write_reports(const Report& r, const std::string& junit_path, const std::string& json_path);

// Whether each of `paths` (empty ones skipped) can be written, checked before
// a long run: the error names the path and the reason.
std::optional<std::string> check_writable(const std::vector<std::string>& paths);

// `polydat difftest FILE --engines ENGINES ...` with the inputs, seed, stall and -L folders of `o`.
std::string difftest_command_line(const std::string& file, const std::string& engines, const Options& o);

// One case per engine of a difftest result (a kernel that does not compile is
// one "frontend" error case). `replay(engine)` gives the command line that
// reproduces that engine's verdict.
void add_cases(Report& r, const std::string& classname, const KernelResult& k,
               const std::function<std::vector<std::string>(const std::string& engine)>& replay);

}  // namespace polydat::difftest
