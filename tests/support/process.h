// Test support: running a program and reading what it wrote, temporary folders, lines.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace polydat::testing {

struct ProcessResult {
  int status = -1;  // the exit status, or 128 + the signal that ended it
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `program` with `argv` (argv[0] included) in folder `cwd`, capturing
// stdout and stderr apart; killed after `timeout`.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& argv,
                          const std::filesystem::path& cwd,
                          std::chrono::seconds timeout = std::chrono::seconds(120));

// A fresh folder under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "polydat-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes a file (creating its folders) below the folder.
  void write(const std::string& relative, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

std::string read_file(const std::filesystem::path& p);
// Lines without their '\n'; a last line without one still counts.
std::vector<std::string> split_lines(const std::string& text);
// Each line indented by two spaces and ended with '\n': a list inside a failure message.
std::string indented(const std::vector<std::string>& lines);

}  // namespace polydat::testing
