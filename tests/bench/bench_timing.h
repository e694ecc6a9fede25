// Timing for the native backend's figures: best-of-N wall times, batch sizes
// fitted to a time budget, and how busy the machine was.
#pragma once

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>

namespace polydat::bench {

using BenchClock = std::chrono::steady_clock;

inline double seconds_between(BenchClock::time_point t0, BenchClock::time_point t1) {
  return std::chrono::duration<double>(t1 - t0).count();
}

// The wall time of one call of `work`.
template <class Work>
double time_once(Work&& work) {
  const auto t0 = BenchClock::now();
  work();
  return seconds_between(t0, BenchClock::now());
}

// The best wall time of `repeats` calls of `work`: the run least disturbed by the rest of the machine.
template <class Work>
double best_of(int repeats, Work&& work) {
  double best = time_once(work);
  for (int i = 1; i < repeats; ++i) best = std::min(best, time_once(work));
  return best;
}

// How many evaluations make one `run_n(n)` last about `target` seconds: a whole
// number of `granule`s (a looping kernel's trip counts repeat with that period,
// so every count sees them alike), at least one, at most `cap`. n grows
// sixteenfold until a run is long enough to extrapolate from; the estimate is
// run once more and corrected (a first large run pays for memory it touches first).
template <class RunN>
uint64_t count_for(double target, uint64_t cap, uint64_t granule, RunN&& run_n) {
  granule = std::clamp<uint64_t>(granule, 1, cap);
  const auto scaled = [&](uint64_t n, double t) {
    const uint64_t want = std::min<uint64_t>(cap, static_cast<uint64_t>(target / std::max(t, 1e-9) * n));
    return std::max(granule, want - want % granule);
  };
  for (uint64_t n = granule;; n = std::min(cap, n * 16)) {
    const double t = time_once([&] { run_n(n); });
    if (n >= cap && t < target) return n;
    if (t >= target / 16) {
      const uint64_t estimate = scaled(n, t);
      return scaled(estimate, time_once([&] { run_n(estimate); }));
    }
  }
}

// Other work on the machine slows short runs most: say how busy it was.
inline void print_load_average() {
  if (double load[1]; getloadavg(load, 1) == 1) fmt::print("(load average {:.2f} at the end)\n", load[0]);
}

}  // namespace polydat::bench
