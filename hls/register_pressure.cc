#include "hls/register_pressure.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <vector>

namespace polydat::hls {

namespace {

constexpr double kEps = 1e-9;
constexpr uint32_t kAfterLast = std::numeric_limits<uint32_t>::max();  // a reader after the last step

struct Reader {
  uint32_t op;  // or kAfterLast
  uint64_t bits;
};

class RegisterMoves {
 public:
  RegisterMoves(const SchedulingProblem& p, Schedule s) : p_(p), s_(std::move(s)), n_(static_cast<uint32_t>(p.ops.size())) {
    readers_.resize(n_ + p.fixed_sources);
    succ_.resize(n_);
    members_.resize(s_.length);
    for (uint32_t i = 0; i < n_; ++i) {
      for (const BitRead& r : p.ops[i].reads) readers_[r.source].push_back(Reader{i, r.bits});
      for (uint32_t q : p.ops[i].preds) succ_[q].push_back(i);
      members_[s_.step[i]].push_back(i);
    }
    for (const BitRead& r : p.final_reads) readers_[r.source].push_back(Reader{kAfterLast, r.bits});
  }

  uint64_t total() const {
    uint64_t bits = 0;
    for (uint32_t src = 0; src < readers_.size(); ++src) bits += carried(src);
    return bits;
  }

  // Moves each operation to the step of its range that carries fewest bits,
  // sweeping latest-first then earliest-first until no move gains.
  Schedule run() {
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      bool moved = false;
      for (uint32_t k = 0; k < n_; ++k) moved |= improve(sweep % 2 == 0 ? n_ - 1 - k : k);
      if (!moved) break;
    }
    return std::move(s_);
  }

 private:
  static constexpr int kMaxSweeps = 16;

  uint32_t read_step(const Reader& r) const { return r.op == kAfterLast ? s_.length : s_.step[r.op]; }

  // Register bits carrying source `src` past its step.
  uint64_t carried(uint32_t src) const {
    const uint32_t def = src < n_ ? s_.step[src] : 0;
    std::array<uint32_t, 64> last;
    last.fill(def);
    for (const Reader& r : readers_[src]) {
      const uint32_t at = read_step(r);
      for (uint64_t b = r.bits; b; b &= b - 1) {
        const int bit = std::countr_zero(b);
        last[bit] = std::max(last[bit], at);
      }
    }
    // At an initiation interval ii a register holds its value for ii steps (modulo variable expansion).
    const uint32_t ii = std::max(1u, p_.ii);
    uint64_t bits = 0;
    for (uint32_t at : last) bits += (at - def + ii - 1) / ii;
    return bits;
  }

  // The bits op i's placement decides: its own result's and its sources'.
  uint64_t local_cost(uint32_t i) const {
    uint64_t bits = carried(i);
    for (const BitRead& r : p_.ops[i].reads) bits += carried(r.source);
    return bits;
  }

  // Start times of step k's operations, each as early as its chained inputs
  // allow; false when one overruns the period.
  bool retime(uint32_t k) {
    for (uint32_t i : members_[k]) {
      const SchedOp& o = p_.ops[i];
      bool chained = false;
      const double start = s_.start_ns[i] = start_in_step(p_, s_, i, k, &chained);
      const bool alone_long = o.delay_ns > p_.period_ns && !chained;
      if (start + o.delay_ns > p_.period_ns + kEps && !alone_long) return false;
    }
    return true;
  }

  void place(uint32_t i, uint32_t to) {
    auto& from = members_[s_.step[i]];
    from.erase(std::find(from.begin(), from.end(), i));
    auto& into = members_[to];
    into.insert(std::upper_bound(into.begin(), into.end(), i), i);
    s_.step[i] = to;
  }

  bool improve(uint32_t i) {
    uint32_t lo = 0, hi = s_.length - 1;
    for (uint32_t q : p_.ops[i].preds) lo = std::max(lo, s_.step[q]);
    for (uint32_t c : succ_[i]) hi = std::min(hi, s_.step[c]);
    const uint32_t from = s_.step[i];
    if (lo >= hi || p_.ops[i].resource >= 0) return false;  // a limited operation keeps its slot
    uint64_t best_cost = local_cost(i);
    uint32_t best = from;
    for (uint32_t to = lo; to <= hi; ++to) {
      if (to == from) continue;
      place(i, to);
      const uint64_t cost = local_cost(i);
      const bool better = cost < best_cost && retime(to);
      place(i, from);
      retime(to);
      retime(from);  // a refused candidate left i's start time from the other step
      if (better) {
        best_cost = cost;
        best = to;
      }
    }
    if (best == from) return false;
    place(i, best);
    retime(from);
    retime(best);
    return true;
  }

  const SchedulingProblem& p_;
  Schedule s_;
  uint32_t n_;
  std::vector<std::vector<Reader>> readers_;   // per source: the operations reading it and which bits
  std::vector<std::vector<uint32_t>> succ_;    // per operation: the operations it feeds
  std::vector<std::vector<uint32_t>> members_;  // per step: its operations, in index order
};

bool refinable(const SchedulingProblem& p, const Schedule& s) {
  if (s.length == 0) return false;
  bool reads = !p.final_reads.empty();
  for (const SchedOp& o : p.ops) {
    if (o.cycles > 0) return false;
    reads = reads || !o.reads.empty();
  }
  return reads;
}

}  // namespace

uint64_t register_bits(const SchedulingProblem& p, const Schedule& s) { return RegisterMoves(p, s).total(); }

Schedule reduce_registers(const SchedulingProblem& p, Schedule s) {
  if (!refinable(p, s)) return s;
  return RegisterMoves(p, std::move(s)).run();
}

}  // namespace polydat::hls
