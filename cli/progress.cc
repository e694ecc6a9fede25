#include "cli/progress.h"

#include <fmt/core.h>
#include <unistd.h>

#include <cmath>

namespace polydat::cli {

bool progress_wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

std::string grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {
std::string rate_text(double per_s) {
  if (per_s >= 1e6) return fmt::format("{:.1f} M/s", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.1f} K/s", per_s / 1e3);
  return fmt::format("{:.0f}/s", per_s);
}

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.0f} s", std::ceil(s));
  if (s < 3600) return fmt::format("{:.0f} min {:.0f} s", std::floor(s / 60), std::fmod(std::ceil(s), 60));
  return fmt::format("{:.0f} h {:.0f} min", std::floor(s / 3600), std::fmod(std::floor(s / 60), 60));
}
}  // namespace

std::string progress_text(const std::string& what, uint64_t done, uint64_t total, const std::string& unit,
                          double elapsed_s, const std::string& extra) {
  std::string line = what + ": " + grouped(done);
  if (total > 0) line += " of " + grouped(total);
  line += " " + unit;
  if (total > 0) line += fmt::format(" ({:.0f}%)", 100.0 * static_cast<double>(done) / static_cast<double>(total));
  const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
  line += ", " + rate_text(rate);
  if (total > 0 && rate > 0 && done <= total) line += ", " + duration_text(static_cast<double>(total - done) / rate) + " left";
  if (!extra.empty()) line += "; " + extra;
  return line;
}

ProgressLine::ProgressLine(std::string what, std::string unit, bool shown)
    : what_(std::move(what)), unit_(std::move(unit)), shown_(shown), start_(Clock::now()), last_(start_) {}

void ProgressLine::update(uint64_t done, uint64_t total, const std::string& extra) {
  if (!shown_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!started_) start_ = last_ = Clock::now(), started_ = true;  // the rate counts from the first report, not the build
  draw(progress_text(what_, done, total, unit_, std::chrono::duration<double>(Clock::now() - start_).count(), extra));
}

void ProgressLine::note(const std::string& text) {
  if (!shown_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!started_) start_ = last_ = Clock::now(), started_ = true;
  draw(what_ + ": " + text);
}

void ProgressLine::draw(const std::string& line) {
  const auto now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || (drawn_ && now - last_ < std::chrono::milliseconds(500))) return;
  last_ = now;
  fmt::print(stderr, "\r\033[K{}", line);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressLine::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!drawn_) return;
  fmt::print(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace polydat::cli
