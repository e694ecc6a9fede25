// One progress line for every command that can run past a second (eval, run,
// cosim, synth, difftest, fuzz): "WHAT: DONE of TOTAL UNIT (P%), RATE/s, T left",
// on stderr, only on a terminal, never with --quiet, redrawn in place and
// cleared at the end so that stderr is left as it was.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace polydat::cli {

// Whether a command shows progress: not --quiet, and stderr is a terminal.
bool progress_wanted(bool quiet);

// 1234567 as "1,234,567": a count read at a glance.
std::string grouped(uint64_t n);

// The line's text (no carriage return): total 0 means not known yet; `extra` follows after "; ".
std::string progress_text(const std::string& what, uint64_t done, uint64_t total, const std::string& unit,
                          double elapsed_s, const std::string& extra = "");

class ProgressLine {
 public:
  ProgressLine(std::string what, std::string unit, bool shown);
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { clear(); }

  // From any thread; drawn once a second has passed, then at most twice a second.
  void update(uint64_t done, uint64_t total, const std::string& extra = "");
  // A line with no count (a tool that reports no total): "WHAT: TEXT".
  void note(const std::string& text);
  // Takes the line off the terminal (before the command prints its result).
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  std::string what_, unit_;
  bool shown_;
  Clock::time_point start_, last_;
  bool drawn_ = false;
  bool started_ = false;  // start_ is set at the first report
  void draw(const std::string& line);  // under mutex_, rate-limited
  std::mutex mutex_;
};

}  // namespace polydat::cli
