#include "hls/scheduling.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace polydat::hls {

namespace {
constexpr double kEps = 1e-9;

std::string op_text(uint32_t i) { return "operation " + std::to_string(i); }

// Successor lists from predecessor lists.
std::vector<std::vector<uint32_t>> successors(const SchedulingProblem& p) {
  std::vector<std::vector<uint32_t>> succ(p.ops.size());
  for (uint32_t i = 0; i < p.ops.size(); ++i)
    for (uint32_t q : p.ops[i].preds) succ[q].push_back(i);
  return succ;
}

// The first step an operation may read predecessor q's result in, and the time there.
std::pair<uint32_t, double> ready(const SchedulingProblem& p, const Schedule& s, uint32_t q) {
  if (p.ops[q].cycles > 0) return {s.step[q] + p.ops[q].cycles, 0.0};
  return {s.step[q], s.finish(p, q) + p.ops[q].out_ns};
}

// The earliest (step, start) an operation can take given where its inputs are:
// chained after the inputs of their last step if it still fits the period;
// an operation longer than the period never chains (it starts a step).
std::pair<uint32_t, double> earliest(const SchedulingProblem& p, const Schedule& s, uint32_t i) {
  if (p.ops[i].preds.empty()) return {0, 0.0};
  uint32_t step = 0;
  for (uint32_t q : p.ops[i].preds) step = std::max(step, ready(p, s, q).first);
  const double start = start_in_step(p, s, i, step);
  const double delay = p.ops[i].delay_ns;
  if (delay > p.period_ns + kEps || start + delay > p.period_ns + kEps) return {step + 1, 0.0};
  return {step, start};
}

}  // namespace

double start_in_step(const SchedulingProblem& p, const Schedule& s, uint32_t i, uint32_t step, bool* chained) {
  double start = 0;
  bool after = false;
  for (uint32_t q : p.ops[i].preds) {
    const auto [at, t] = ready(p, s, q);
    if (at == step && p.ops[q].cycles == 0) {
      start = std::max(start, p.ops[i].merges ? s.finish(p, q) : t);
      after = true;
    }
  }
  if (after && !p.ops[i].merges) start += p.ops[i].chain_ns;
  if (chained) *chained = after;
  return start;
}

namespace {

// Steps in which operation i holds its resource.
uint32_t held_steps(const SchedOp& o) { return std::max<uint32_t>(1, o.cycles); }
}  // namespace

std::vector<std::string> SchedulingProblem::check() const {
  std::vector<std::string> problems;
  if (!(period_ns > 0) || !std::isfinite(period_ns)) problems.push_back("the clock period must be positive");
  for (uint32_t i = 0; i < ops.size(); ++i) {
    const SchedOp& o = ops[i];
    if (!(o.delay_ns >= 0) || !std::isfinite(o.delay_ns)) problems.push_back(op_text(i) + " has a negative or unknown delay");
    if (!(o.chain_ns >= 0) || !std::isfinite(o.chain_ns) || !(o.out_ns >= 0) || !std::isfinite(o.out_ns))
      problems.push_back(op_text(i) + " has a negative or unknown chaining delay");
    for (uint32_t q : o.preds)
      if (q >= i) problems.push_back(op_text(i) + " reads " + op_text(q) + ", which does not come before it");
    for (const BitRead& r : o.reads) {
      const bool pred = std::find(o.preds.begin(), o.preds.end(), r.source) != o.preds.end();
      if (r.source >= ops.size() + fixed_sources || (r.source < ops.size() && !pred))
        problems.push_back(op_text(i) + " reads bits of source " + std::to_string(r.source) + ", which is neither a predecessor nor a fixed source");
    }
    if (o.resource < -1 || o.resource >= static_cast<int>(limits.size()))
      problems.push_back(op_text(i) + " uses an unknown resource " + std::to_string(o.resource));
  }
  for (const BitRead& r : final_reads)
    if (r.source >= ops.size() + fixed_sources) problems.push_back("the last step reads an unknown source " + std::to_string(r.source));
  if (ii == 0) problems.push_back("the initiation interval must be at least 1");
  // Modulo, a resource serves ii x limit operation steps per input at most: more can never be scheduled.
  std::vector<uint64_t> demand(limits.size(), 0);
  for (const SchedOp& o : ops)
    if (o.resource >= 0 && static_cast<size_t>(o.resource) < limits.size()) demand[static_cast<size_t>(o.resource)] += held_steps(o);
  for (size_t r = 0; r < limits.size() && ii > 1; ++r)
    if (demand[r] > uint64_t{ii} * limits[r])
      problems.push_back("resource " + std::to_string(r) + " is needed for " + std::to_string(demand[r]) +
                         " operation steps, more than its " + std::to_string(limits[r]) + " units give in " +
                         std::to_string(ii) + " slots");
  for (size_t r = 0; r < limits.size(); ++r)
    if (limits[r] == 0) problems.push_back("resource " + std::to_string(r) + " has a limit of 0");
  return problems;
}

std::vector<std::string> verify(const SchedulingProblem& p, const Schedule& s) {
  std::vector<std::string> problems;
  const size_t n = p.ops.size();
  if (s.step.size() != n || s.start_ns.size() != n) return {"the schedule does not cover every operation"};
  std::vector<std::vector<uint32_t>> use(p.limits.size());
  for (uint32_t i = 0; i < n; ++i) {
    const SchedOp& o = p.ops[i];
    if (s.step[i] >= s.length) problems.push_back(op_text(i) + " is scheduled past the schedule's length");
    if (s.start_ns[i] < -kEps) problems.push_back(op_text(i) + " starts before its step");
    bool chained = false;
    for (uint32_t q : o.preds) {
      if (p.ops[q].cycles > 0) {
        if (s.step[i] < s.step[q] + p.ops[q].cycles)
          problems.push_back(op_text(i) + " reads the multi-cycle " + op_text(q) + " before its result is ready");
        continue;
      }
      if (s.step[q] > s.step[i]) problems.push_back(op_text(i) + " runs before its input " + op_text(q));
      if (s.step[q] == s.step[i]) {
        chained = true;
        if (s.start_ns[i] + kEps < s.finish(p, q) + (o.merges ? 0.0 : p.ops[q].out_ns + o.chain_ns))
          problems.push_back(op_text(i) + " starts before its chained input " + op_text(q) + " finishes");
      }
    }
    const bool within = s.finish(p, i) <= p.period_ns + kEps;
    const bool alone_long = o.delay_ns > p.period_ns && s.start_ns[i] <= kEps && !chained;
    if (!within && !alone_long) problems.push_back(op_text(i) + " ends after the clock period");
    if (o.resource >= 0 && static_cast<size_t>(o.resource) < use.size()) {
      auto& u = use[static_cast<size_t>(o.resource)];
      for (uint32_t k = s.step[i]; k < s.step[i] + held_steps(o); ++k) {
        const uint32_t slot = p.ii > 1 ? k % p.ii : k;  // II 1: every step its own
        if (u.size() <= slot) u.resize(slot + 1, 0);
        if (++u[slot] > p.limits[static_cast<size_t>(o.resource)])
          problems.push_back((p.ii > 1 ? "slot " + std::to_string(slot) + " (step " + std::to_string(k) + ")"
                                       : "step " + std::to_string(k)) +
                             " uses resource " + std::to_string(o.resource) + " more than " +
                             std::to_string(p.limits[static_cast<size_t>(o.resource)]) + " times");
      }
    }
    if (o.cycles > 0 && s.step[i] + o.cycles > s.length)
      problems.push_back(op_text(i) + " is still running after the schedule's last step");
  }
  return problems;
}

Schedule asap(const SchedulingProblem& p) {
  Schedule s;
  s.step.assign(p.ops.size(), 0);
  s.start_ns.assign(p.ops.size(), 0);
  for (uint32_t i = 0; i < p.ops.size(); ++i) {
    std::tie(s.step[i], s.start_ns[i]) = earliest(p, s, i);
    s.length = std::max(s.length, s.step[i] + held_steps(p.ops[i]));
  }
  return s;
}

std::vector<uint32_t> alap_steps(const SchedulingProblem& p, uint32_t length) {
  // ASAP on the reversed graph, then mirrored.
  SchedulingProblem rev;
  rev.period_ns = p.period_ns;
  const uint32_t n = static_cast<uint32_t>(p.ops.size());
  rev.ops.resize(n);
  const auto succ = successors(p);
  for (uint32_t i = 0; i < n; ++i) {
    rev.ops[n - 1 - i].delay_ns = p.ops[i].delay_ns;
    rev.ops[n - 1 - i].chain_ns = p.ops[i].out_ns;
    rev.ops[n - 1 - i].out_ns = p.ops[i].chain_ns;
    for (uint32_t q : succ[i]) rev.ops[n - 1 - i].preds.push_back(n - 1 - q);
  }
  const Schedule r = asap(rev);
  const uint32_t len = std::max(length, r.length);
  std::vector<uint32_t> alap(n);
  for (uint32_t i = 0; i < n; ++i) alap[i] = len - 1 - r.step[n - 1 - i];
  return alap;
}

Schedule list_schedule(const SchedulingProblem& p) {
  const uint32_t n = static_cast<uint32_t>(p.ops.size());
  Schedule s;
  s.step.assign(n, 0);
  s.start_ns.assign(n, 0);
  if (n == 0) return s;
  const std::vector<uint32_t> priority = alap_steps(p, asap(p).length);
  const auto succ = successors(p);
  std::vector<uint32_t> waiting(n);
  for (uint32_t i = 0; i < n; ++i) waiting[i] = static_cast<uint32_t>(p.ops[i].preds.size());
  std::set<std::pair<uint32_t, uint32_t>> ready;  // (ALAP step, index): least mobility first
  for (uint32_t i = 0; i < n; ++i)
    if (waiting[i] == 0) ready.emplace(priority[i], i);
  uint32_t done = 0;
  std::vector<std::vector<uint32_t>> used(p.limits.size());  // per resource, per slot (step mod ii)
  auto slot = [&](uint32_t k) { return p.ii > 1 ? k % p.ii : k; };  // II 1: every step its own
  auto in_use = [&](size_t r, uint32_t k) { return slot(k) < used[r].size() ? used[r][slot(k)] : 0u; };
  for (uint32_t step = 0; done < n; ++step) {
    // Passes until nothing more fits this step (scheduling one may let a successor chain in).
    for (bool progress = true; progress;) {
      progress = false;
      for (auto it = ready.begin(); it != ready.end();) {
        const uint32_t i = it->second;
        auto [min_step, start] = earliest(p, s, i);
        const int r = p.ops[i].resource;
        bool room = true;
        for (uint32_t k = step; r >= 0 && k < step + held_steps(p.ops[i]); ++k)
          room = room && in_use(static_cast<size_t>(r), k) < p.limits[static_cast<size_t>(r)];
        if (min_step > step || !room) {
          ++it;
          continue;
        }
        s.step[i] = step;
        s.start_ns[i] = min_step == step ? start : 0;  // chained after inputs of this step, else at its start
        if (r >= 0)
          for (uint32_t k = step; k < step + held_steps(p.ops[i]); ++k) {
            auto& u = used[static_cast<size_t>(r)];
            if (u.size() <= slot(k)) u.resize(slot(k) + 1, 0);
            ++u[slot(k)];
          }
        s.length = std::max(s.length, step + held_steps(p.ops[i]));
        ++done;
        it = ready.erase(it);
        for (uint32_t q : succ[i])
          if (--waiting[q] == 0) ready.emplace(priority[q], q);
        progress = true;
      }
    }
    s.length = std::max(s.length, step + 1);
  }
  return s;
}

}  // namespace polydat::hls
