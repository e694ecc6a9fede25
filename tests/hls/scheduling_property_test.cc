// The scheduling algorithms against verify() on random problems: DAGs of up
// to 60 operations with delays that are zero, short, or longer than the
// period, repeated operands, and random resource limits. Delays and periods
// are multiples of 0.25 ns, exact in binary, so no result hinges on rounding.
// And the harness can fail: a schedule corrupted on purpose must be refused.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "hls/scheduling.h"

using namespace polydat::hls;

namespace {

std::string describe(const SchedulingProblem& p) {
  std::ostringstream os;
  os << "period " << p.period_ns << ", ii " << p.ii << ", limits [";
  for (uint32_t l : p.limits) os << " " << l;
  os << " ]\n";
  for (size_t i = 0; i < p.ops.size(); ++i) {
    os << "  " << i << ": " << p.ops[i].delay_ns << " ns, r" << p.ops[i].resource << ", preds";
    for (uint32_t q : p.ops[i].preds) os << " " << q;
    os << "\n";
  }
  return os.str();
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

struct GenOptions {
  bool limits = true;
  // An operation longer than the period reading a zero-delay operation: the
  // shape in which asap() and list_schedule() chain the long operation at 0 ns
  // after the wire, which verify() refuses (see the case below).
  bool long_after_wire = true;
};

// A random well-formed problem, drawn piece by piece so rapidcheck can shrink it.
SchedulingProblem gen_problem(const GenOptions& g) {
  SchedulingProblem p;
  p.period_ns = 0.25 * *rc::gen::inRange(4, 61);  // 1 .. 15 ns
  const int resources = g.limits ? *rc::gen::inRange(0, 4) : 0;
  for (int r = 0; r < resources; ++r) p.limits.push_back(static_cast<uint32_t>(*rc::gen::inRange(1, 4)));
  const int n = *rc::gen::inRange(0, 61);
  // Sometimes a modulo problem: the limits hold per slot (step mod ii).
  if (g.limits && *rc::gen::weightedElement<bool>({{2, false}, {1, true}})) p.ii = static_cast<uint32_t>(*rc::gen::inRange(2, 5));
  const int period_q = static_cast<int>(p.period_ns * 4);
  for (int i = 0; i < n; ++i) {
    SchedOp o;
    // Zero (wiring), within the period, or up to twice the period.
    const int kind = *rc::gen::weightedElement<int>({{2, 0}, {7, 1}, {1, 2}});
    const int q = kind == 0 ? 0 : kind == 1 ? *rc::gen::inRange(1, period_q + 1) : *rc::gen::inRange(period_q + 1, 2 * period_q + 1);
    o.delay_ns = 0.25 * q;
    if (i > 0) {
      const int npreds = *rc::gen::weightedElement<int>({{2, 0}, {4, 1}, {3, 2}, {1, 3}});
      for (int k = 0; k < npreds; ++k) {
        // Mostly recent operations, so chains form; repeats allowed (x * x).
        const int back = *rc::gen::inRange(1, std::min(i, 8) + 1);
        const bool far = *rc::gen::weightedElement<bool>({{4, false}, {1, true}});
        o.preds.push_back(static_cast<uint32_t>(far ? *rc::gen::inRange(0, i) : i - back));
      }
    }
    if (!p.limits.empty() && *rc::gen::weightedElement<bool>({{1, false}, {1, true}}))
      o.resource = *rc::gen::inRange(0, static_cast<int>(p.limits.size()));
    p.ops.push_back(std::move(o));
  }
  if (p.ii > 1) {  // no more uses than the slots hold: check() refuses the rest
    std::vector<uint32_t> uses(p.limits.size(), 0);
    for (SchedOp& o : p.ops)
      if (o.resource >= 0 && ++uses[static_cast<size_t>(o.resource)] > p.ii * p.limits[static_cast<size_t>(o.resource)]) o.resource = -1;
  }
  if (!g.long_after_wire)
    for (SchedOp& o : p.ops)
      if (o.delay_ns > p.period_ns)
        for (uint32_t q : o.preds)
          if (p.ops[q].delay_ns == 0) p.ops[q].delay_ns = 0.25;  // still very short, but not a wire
  return p;
}

// The properties every problem must have; an empty string when they hold.
std::string schedule_properties(const SchedulingProblem& p) {
  std::string why;
  if (auto c = p.check(); !c.empty()) return "check() refuses the generated problem:\n" + lines(c);
  const Schedule a = asap(p);
  const Schedule l = list_schedule(p);
  // ASAP ignores resource limits: it must solve the problem without them.
  SchedulingProblem unlimited = p;
  unlimited.limits.clear();
  for (SchedOp& o : unlimited.ops) o.resource = -1;
  if (auto v = verify(unlimited, a); !v.empty()) why += "ASAP does not verify (limits aside):\n" + lines(v);
  if (auto v = verify(p, l); !v.empty()) why += "the list schedule does not verify:\n" + lines(v);
  if (l.length < a.length) why += "the list schedule is shorter than ASAP\n";
  if (p.ops.empty() && (a.length != 0 || l.length != 0)) why += "an empty problem has steps\n";
  // ALAP within ASAP's length, and within a longer one.
  for (uint32_t extra : {0u, 2u}) {
    const uint32_t len = a.length + extra;
    const std::vector<uint32_t> al = alap_steps(p, len);
    if (al.size() != p.ops.size()) {
      why += "ALAP does not cover every operation\n";
      continue;
    }
    for (uint32_t i = 0; i < p.ops.size(); ++i) {
      if (al[i] < a.step[i])
        why += "operation " + std::to_string(i) + ": ALAP step " + std::to_string(al[i]) + " < ASAP step " +
               std::to_string(a.step[i]) + " (length " + std::to_string(len) + ")\n";
      if (al[i] >= len)
        why += "operation " + std::to_string(i) + ": ALAP step " + std::to_string(al[i]) + " is past the length " +
               std::to_string(len) + "\n";
      for (uint32_t q : p.ops[i].preds)
        if (al[q] > al[i]) why += "ALAP puts operation " + std::to_string(i) + " before its input\n";
    }
  }
  // Without limits the list schedule is ASAP.
  if (p.limits.empty() && (l.length != a.length || l.step != a.step))
    why += "without limits the list schedule differs from ASAP\n";
  return why;
}

}  // namespace

TEST_SUITE("scheduling properties") {

// Fails on any problem in which an operation longer than the period reads a
// zero-delay operation of the same step: asap()/list_schedule() (earliest()
// and fits() in hls/scheduling.cc) start it at 0 ns chained after the wire,
// and verify() refuses that chain ("ends after the clock period"). The ALAP
// properties fail on the same shape (ASAP's length is one step short).
TEST_CASE("random problems: ASAP and list schedules verify, lengths and ALAP agree") {
  CHECK(rc::check("schedules of random problems", [] {
    const SchedulingProblem p = gen_problem(GenOptions{});
    const std::string why = schedule_properties(p);
    if (!why.empty()) RC_FAIL(why + describe(p));
  }));
}

TEST_CASE("random problems without a long operation on a wire: every property holds") {
  CHECK(rc::check("schedules of random problems (no long operation reading a wire)", [] {
    GenOptions g;
    g.long_after_wire = false;
    const SchedulingProblem p = gen_problem(g);
    RC_CLASSIFY(!p.limits.empty(), "limited");
    RC_CLASSIFY(std::any_of(p.ops.begin(), p.ops.end(), [&](const SchedOp& o) { return o.delay_ns > p.period_ns; }),
                "a long operation");
    const std::string why = schedule_properties(p);
    if (!why.empty()) RC_FAIL(why + describe(p));
  }));
}

TEST_CASE("random problems without limits: the list schedule is ASAP") {
  CHECK(rc::check("no limits", [] {
    GenOptions g;
    g.limits = false;
    g.long_after_wire = false;
    const SchedulingProblem p = gen_problem(g);
    const Schedule a = asap(p), l = list_schedule(p);
    RC_ASSERT(l.length == a.length);
    RC_ASSERT(l.step == a.step);
    RC_ASSERT(l.start_ns == a.start_ns);
  }));
}

TEST_CASE("the harness fails: a schedule corrupted so an operation runs before its input is refused") {
  CHECK(rc::check("corrupted schedules are refused", [] {
    GenOptions g;
    g.long_after_wire = false;
    const SchedulingProblem p = gen_problem(g);
    std::vector<uint32_t> readers;
    for (uint32_t i = 0; i < p.ops.size(); ++i)
      if (!p.ops[i].preds.empty()) readers.push_back(i);
    RC_PRE(!readers.empty());
    Schedule s = list_schedule(p);
    RC_PRE(verify(p, s).empty());
    const uint32_t i = *rc::gen::elementOf(readers);
    const uint32_t q = *rc::gen::elementOf(p.ops[i].preds);
    if (s.step[q] > 0) {
      s.step[i] = s.step[q] - 1;  // the reader moves before its input
    } else {
      s.step[q] = s.step[i] + 1;  // the input moves after its reader
      s.length = std::max(s.length, s.step[q] + 1);
    }
    const auto problems = verify(p, s);
    RC_ASSERT(!problems.empty());
    const std::string want = "operation " + std::to_string(i) + " runs before its input operation " + std::to_string(q);
    RC_ASSERT(std::any_of(problems.begin(), problems.end(), [&](const std::string& x) { return x == want; }));
  }));
}

TEST_CASE("the harness fails: a property that does not hold is reported as failing") {
  // Claims verify() accepts any shuffle of a schedule's steps; rapidcheck must find a
  // counterexample (its report is printed below and is expected).
  MESSAGE("a rapidcheck failure report follows; it is expected");
  const bool held = rc::check("verify accepts reversed schedules (false)", [] {
    const SchedulingProblem p = gen_problem(GenOptions{});
    Schedule s = asap(p);
    for (uint32_t& st : s.step) st = s.length - 1 - st;
    RC_ASSERT(verify(p, s).empty());
  });
  CHECK_FALSE(held);
}

}  // TEST_SUITE
