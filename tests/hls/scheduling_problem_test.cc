// The scheduling problem by hand: check() refuses malformed problems,
// verify() refuses each kind of bad schedule and accepts good ones, and
// ASAP, ALAP and the list schedule on small problems whose answers are worked
// out on paper (each expected value is derived in the comment beside it).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "hls/scheduling.h"

using namespace polydat::hls;

namespace {

SchedOp op(double delay, std::vector<uint32_t> preds = {}, int resource = -1) {
  SchedOp o;
  o.delay_ns = delay;
  o.preds = std::move(preds);
  o.resource = resource;
  return o;
}

SchedulingProblem problem(std::vector<SchedOp> ops, double period, std::vector<uint32_t> limits = {}) {
  SchedulingProblem p;
  p.ops = std::move(ops);
  p.period_ns = period;
  p.limits = std::move(limits);
  return p;
}

Schedule schedule(std::vector<uint32_t> step, std::vector<double> start, uint32_t length) {
  Schedule s;
  s.step = std::move(step);
  s.start_ns = std::move(start);
  s.length = length;
  return s;
}

// Whether one of the problems contains `what`; prints them all when none does.
bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const std::string& p : problems)
    if (p.find(what) != std::string::npos) return true;
  std::string all;
  for (const std::string& p : problems) all += "  " + p + "\n";
  MESSAGE("no problem mentions '" << what << "'; the problems are:\n" << all);
  return false;
}

// A chain of five 5 ns operations under a 12 ns period.
SchedulingProblem chain5() {
  return problem({op(5), op(5, {0}), op(5, {1}), op(5, {2}), op(5, {3})}, 12);
}

// a(5) -> b(5), a -> c(3), (b, c) -> d(4), period 12; b and c may share resource 0.
SchedulingProblem diamond(std::vector<uint32_t> limits = {}) {
  const int r = limits.empty() ? -1 : 0;
  return problem({op(5), op(5, {0}, r), op(3, {0}, r), op(4, {1, 2})}, 12, std::move(limits));
}

}  // namespace

TEST_SUITE("scheduling problem") {

TEST_CASE("check accepts well-formed problems, including the empty one") {
  CHECK(problem({}, 1).check().empty());
  CHECK(chain5().check().empty());
  CHECK(diamond({1}).check().empty());
  // Zero delays, an operation longer than the period, a repeated operand (x * x).
  CHECK(problem({op(0), op(30, {0, 0}), op(0, {1})}, 10).check().empty());
}

TEST_CASE("check refuses a predecessor that does not come first") {
  const auto forward = problem({op(1, {1}), op(1)}, 10).check();
  CHECK(mentions(forward, "operation 0 reads operation 1"));
  const auto self = problem({op(1), op(1, {1})}, 10).check();
  CHECK(mentions(self, "operation 1 reads operation 1"));
  const auto far = problem({op(1, {7})}, 10).check();  // not an operation at all
  CHECK_FALSE(far.empty());
}

TEST_CASE("check refuses a negative, NaN or infinite delay") {
  CHECK(mentions(problem({op(-0.5)}, 10).check(), "operation 0 has a negative or unknown delay"));
  CHECK(mentions(problem({op(1), op(std::nan(""), {0})}, 10).check(), "operation 1 has a negative or unknown delay"));
  CHECK_FALSE(problem({op(std::numeric_limits<double>::infinity())}, 10).check().empty());
}

TEST_CASE("check refuses an unknown resource and a zero limit") {
  CHECK(mentions(problem({op(1, {}, 0)}, 10).check(), "unknown resource 0"));  // no limits at all
  CHECK(mentions(problem({op(1, {}, 2)}, 10, {1, 1}).check(), "unknown resource 2"));
  CHECK(mentions(problem({op(1, {}, 0)}, 10, {0}).check(), "resource 0 has a limit of 0"));
  CHECK(mentions(problem({}, 10, {3, 0}).check(), "resource 1 has a limit of 0"));
}

// -1 is documented as "unlimited"; any other negative index is no resource of
// the problem, yet check() accepts it and every algorithm treats it as unlimited.
TEST_CASE("check refuses a negative resource other than -1") {
  CHECK_FALSE(problem({op(1, {}, -2)}, 10, {1}).check().empty());
}

TEST_CASE("check refuses a non-positive or non-finite period") {
  for (double period : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    CAPTURE(period);
    CHECK(mentions(problem({op(1)}, period).check(), "the clock period must be positive"));
  }
}

TEST_CASE("verify accepts good schedules") {
  // The chain packed two to a step: [0,5] [5,10] | [0,5] [5,10] | [0,5].
  const SchedulingProblem c = chain5();
  CHECK(verify(c, schedule({0, 0, 1, 1, 2}, {0, 5, 0, 5, 0}, 3)).empty());
  // One per step is also valid, and so is an idle step (length larger than needed).
  CHECK(verify(c, schedule({0, 1, 2, 3, 4}, {0, 0, 0, 0, 0}, 6)).empty());
  // A start later than needed within the period is fine.
  CHECK(verify(c, schedule({0, 0, 1, 1, 2}, {0, 6, 1, 7, 7}, 3)).empty());
  // The empty problem.
  CHECK(verify(problem({}, 5), schedule({}, {}, 0)).empty());
  // A long operation alone at the start of its step; operations beside it (not chained) are fine.
  const SchedulingProblem longp = problem({op(5), op(20, {0}), op(5, {1}), op(3)}, 12);
  CHECK(verify(longp, schedule({0, 1, 2, 1}, {0, 0, 0, 0}, 3)).empty());
}

TEST_CASE("verify refuses a schedule that does not cover every operation") {
  CHECK_FALSE(verify(chain5(), schedule({0, 0, 1}, {0, 5, 0}, 2)).empty());
  CHECK_FALSE(verify(chain5(), schedule({0, 0, 1, 1, 2}, {0, 5}, 3)).empty());
}

TEST_CASE("verify refuses a dependence violated across steps") {
  // Operation 2 in step 0, its input 1 in step 1.
  const auto p = verify(chain5(), schedule({0, 1, 0, 2, 2}, {0, 0, 0, 0, 5}, 3));
  CHECK(mentions(p, "operation 2 runs before its input operation 1"));
}

TEST_CASE("verify refuses a chained start before the predecessor finishes") {
  const auto p = verify(chain5(), schedule({0, 0, 1, 1, 2}, {0, 4, 0, 5, 0}, 3));
  CHECK(mentions(p, "operation 1 starts before its chained input operation 0 finishes"));
}

TEST_CASE("verify refuses a chain past the period") {
  // Three 5 ns operations in one 12 ns step: the third ends at 15.
  const auto p = verify(chain5(), schedule({0, 0, 0, 1, 1}, {0, 5, 10, 0, 5}, 2));
  CHECK(mentions(p, "operation 2 ends after the clock period"));
  // A short operation that starts late also ends late.
  const auto q = verify(problem({op(5)}, 12), schedule({0}, {8}, 1));
  CHECK(mentions(q, "operation 0 ends after the clock period"));
}

TEST_CASE("verify refuses a resource limit exceeded") {
  // b and c both in step 0 with a limit of 1.
  const auto p = verify(diamond({1}), schedule({0, 0, 0, 1}, {0, 5, 5, 0}, 2));
  CHECK(mentions(p, "step 0 uses resource 0 more than 1 times"));
  // Without the limit the same schedule is fine.
  CHECK(verify(diamond(), schedule({0, 0, 0, 1}, {0, 5, 5, 0}, 2)).empty());
}

TEST_CASE("verify refuses a step past the length") {
  const auto p = verify(chain5(), schedule({0, 0, 1, 1, 2}, {0, 5, 0, 5, 0}, 2));
  CHECK(mentions(p, "operation 4 is scheduled past the schedule's length"));
}

TEST_CASE("verify refuses a negative start") {
  CHECK(mentions(verify(problem({op(1)}, 12), schedule({0}, {-1}, 1)), "operation 0 starts before its step"));
}

TEST_CASE("verify refuses an over-long operation that is not alone at the start of its step") {
  // 20 ns under a 12 ns period.
  SUBCASE("chained after a 5 ns operation") {
    const auto p = verify(problem({op(5), op(20, {0})}, 12), schedule({0, 0}, {0, 5}, 1));
    CHECK(mentions(p, "operation 1 ends after the clock period"));
  }
  SUBCASE("chained after a zero-delay operation, at time 0") {
    const auto p = verify(problem({op(0), op(20, {0})}, 12), schedule({0, 0}, {0, 0}, 1));
    CHECK(mentions(p, "operation 1 ends after the clock period"));
  }
  SUBCASE("not at the start of its step") {
    const auto p = verify(problem({op(20)}, 12), schedule({0}, {1}, 1));
    CHECK(mentions(p, "operation 0 ends after the clock period"));
  }
  SUBCASE("something chained after it") {
    const auto p = verify(problem({op(20), op(0, {0})}, 12), schedule({0, 0}, {0, 20}, 1));
    CHECK(mentions(p, "operation 1 ends after the clock period"));
  }
  SUBCASE("alone, it is accepted") {
    CHECK(verify(problem({op(20), op(0, {0})}, 12), schedule({0, 1}, {0, 0}, 2)).empty());
  }
}

TEST_CASE("a chain of 5 ns operations under a 12 ns period") {
  const SchedulingProblem p = chain5();
  // Two fit a step (0..5, 5..10); a third would end at 15 > 12.
  const Schedule a = asap(p);
  CHECK(a.step == std::vector<uint32_t>{0, 0, 1, 1, 2});
  CHECK(a.start_ns == std::vector<double>{0, 5, 0, 5, 0});
  CHECK(a.length == 3);
  CHECK(verify(p, a).empty());
  // ALAP packs from the end: 4 and 3 share the last step, 2 and 1 the middle, 0 the first.
  CHECK(alap_steps(p, 3) == std::vector<uint32_t>{0, 1, 1, 2, 2});
  // Two more steps shift everything by two.
  CHECK(alap_steps(p, 5) == std::vector<uint32_t>{2, 3, 3, 4, 4});
  // Asked for fewer steps than possible, ALAP uses the minimum.
  CHECK(alap_steps(p, 1) == std::vector<uint32_t>{0, 1, 1, 2, 2});
  // No limits: the list schedule is ASAP.
  const Schedule l = list_schedule(p);
  CHECK(l.step == a.step);
  CHECK(l.start_ns == a.start_ns);
  CHECK(l.length == 3);
}

TEST_CASE("exactly the period fits, a hair more does not") {
  // 4 + 4 + 4 = 12 under 12: one step.
  const SchedulingProblem p = problem({op(4), op(4, {0}), op(4, {1})}, 12);
  CHECK(asap(p).length == 1);
  // 4 + 4 + 4.5 = 12.5: the third starts a new step.
  const SchedulingProblem q = problem({op(4), op(4, {0}), op(4.5, {1})}, 12);
  CHECK(asap(q).step == std::vector<uint32_t>{0, 0, 1});
}

TEST_CASE("a diamond") {
  const SchedulingProblem p = diamond();
  // a [0,5]; b [5,10]; c [5,8]; d would start at max(10, 8) = 10 and end at 14 > 12: step 1 [0,4].
  const Schedule a = asap(p);
  CHECK(a.step == std::vector<uint32_t>{0, 0, 0, 1});
  CHECK(a.start_ns == std::vector<double>{0, 5, 5, 0});
  CHECK(a.length == 2);
  // Backwards: d [0,4], b [4,9], c [4,7], a would end at 14: a step earlier. So b and c
  // may run in step 1 chained before d, and a alone in step 0.
  CHECK(alap_steps(p, 2) == std::vector<uint32_t>{0, 1, 1, 1});
  const Schedule l = list_schedule(p);
  CHECK(l.step == a.step);
  CHECK(l.start_ns == a.start_ns);
}

TEST_CASE("a diamond whose middle operations share a resource with a limit of 1") {
  const SchedulingProblem p = diamond({1});
  // Step 0: a [0,5], then b (the lower index at equal ALAP priority) [5,10]; c
  // finds the resource taken. Step 1: c at 0 (its input is in an earlier step)
  // [0,3], d chained after it [3,7] (b is in an earlier step).
  const Schedule l = list_schedule(p);
  CHECK(l.step == std::vector<uint32_t>{0, 0, 1, 1});
  CHECK(l.start_ns == std::vector<double>{0, 5, 0, 3});
  CHECK(l.length == 2);
  CHECK(verify(p, l).empty());
  // ASAP ignores the limit, so its schedule breaks it.
  CHECK(mentions(verify(p, asap(p)), "uses resource 0 more than 1 times"));
}

TEST_CASE("an operation longer than the period is alone in its step, with negative slack") {
  // a(5) -> L(20) -> b(5) under 12 ns: L cannot chain after a (it would start at 5),
  // so it starts step 1 and ends at 20; b cannot chain after it: step 2.
  const SchedulingProblem p = problem({op(5), op(20, {0}), op(5, {1}), op(3)}, 12);
  const Schedule a = asap(p);
  CHECK(a.step == std::vector<uint32_t>{0, 1, 2, 0});
  CHECK(a.start_ns == std::vector<double>{0, 0, 0, 0});
  CHECK(a.length == 3);
  CHECK(a.finish(p, 1) == 20);
  CHECK(p.period_ns - a.finish(p, 1) < 0);  // negative slack
  CHECK(verify(p, a).empty());
  // The independent 3 ns operation may go anywhere: its ALAP is the last step.
  CHECK(alap_steps(p, 3) == std::vector<uint32_t>{0, 1, 2, 2});
  const Schedule l = list_schedule(p);
  CHECK(l.step == a.step);
  CHECK(verify(p, l).empty());
  // A long operation with no inputs starts step 0 at 0; two of them share the step.
  const SchedulingProblem two = problem({op(20), op(20)}, 12);
  CHECK(asap(two).step == std::vector<uint32_t>{0, 0});
  CHECK(verify(two, asap(two)).empty());
}

TEST_CASE("zero-delay wiring chains freely") {
  // a(5) -> w(0) -> w(0) -> b(7): 5 + 0 + 0 + 7 = 12, one step, the wires at 5.
  const SchedulingProblem p = problem({op(5), op(0, {0}), op(0, {1}), op(7, {2})}, 12);
  const Schedule a = asap(p);
  CHECK(a.step == std::vector<uint32_t>{0, 0, 0, 0});
  CHECK(a.start_ns == std::vector<double>{0, 5, 5, 5});
  CHECK(a.length == 1);
  CHECK(verify(p, a).empty());
  CHECK(alap_steps(p, 1) == std::vector<uint32_t>{0, 0, 0, 0});
  // A wire after an operation that ends exactly at the period still fits.
  const SchedulingProblem q = problem({op(12), op(0, {0}), op(0, {1})}, 12);
  CHECK(asap(q).step == std::vector<uint32_t>{0, 0, 0});
  CHECK(asap(q).start_ns == std::vector<double>{0, 12, 12});
  CHECK(verify(q, asap(q)).empty());
  // A wire after an operation longer than the period goes to the next step.
  const SchedulingProblem r = problem({op(20), op(0, {0})}, 12);
  CHECK(asap(r).step == std::vector<uint32_t>{0, 1});
  CHECK(verify(r, asap(r)).empty());
}

TEST_CASE("a limit of 1 on a resource forces operations into separate steps") {
  // Three independent 3 ns operations on resource 0.
  const SchedulingProblem one = problem({op(3, {}, 0), op(3, {}, 0), op(3, {}, 0)}, 12, {1});
  const Schedule l1 = list_schedule(one);
  CHECK(l1.step == std::vector<uint32_t>{0, 1, 2});
  CHECK(l1.length == 3);
  CHECK(verify(one, l1).empty());
  // ASAP puts all three in step 0, which the limit refuses.
  CHECK(asap(one).length == 1);
  CHECK_FALSE(verify(one, asap(one)).empty());
  // A limit of 2: two steps, by index at equal priority.
  const SchedulingProblem two = problem({op(3, {}, 0), op(3, {}, 0), op(3, {}, 0)}, 12, {2});
  CHECK(list_schedule(two).step == std::vector<uint32_t>{0, 0, 1});
  // An unlimited operation beside them is not held back.
  const SchedulingProblem mixed = problem({op(3, {}, 0), op(3, {}, 0), op(3)}, 12, {1});
  CHECK(list_schedule(mixed).step == std::vector<uint32_t>{0, 1, 0});
}

TEST_CASE("the list schedule puts the least mobile operation first") {
  // r0: x(3) and y(3) share a resource with limit 1; y heads a chain y -> z(10) -> u(10)
  // needing two more steps, x has nothing after it. ASAP length 3 (y; z; u).
  // ALAP: y 0, z 1, u 2, x 2. So y takes step 0 and x waits (step 1).
  const SchedulingProblem p = problem({op(3, {}, 0), op(3, {}, 0), op(10, {1}), op(10, {2})}, 12, {1});
  CHECK(alap_steps(p, 3) == std::vector<uint32_t>{2, 0, 1, 2});
  const Schedule l = list_schedule(p);
  CHECK(l.step == std::vector<uint32_t>{1, 0, 1, 2});
  CHECK(l.length == 3);
  CHECK(verify(p, l).empty());
}

TEST_CASE("a multi-cycle operation: its result from step + cycles on, its resource held meanwhile") {
  // a(5) -> D (4 cycles, 0 ns) -> b(5); c(3) reads a only. D samples a at the end of
  // step 0 (chained, starting at 5), b reads D in step 0 + 4 = 4 at 0 ns; c chains after a.
  SchedOp d = op(0, {0});
  d.cycles = 4;
  const SchedulingProblem p = problem({op(5), d, op(5, {1}), op(3, {0})}, 12);
  const Schedule a = asap(p);
  CHECK(a.step == std::vector<uint32_t>{0, 0, 4, 0});
  CHECK(a.start_ns == std::vector<double>{0, 5, 0, 5});
  CHECK(a.length == 5);
  CHECK(verify(p, a).empty());
  CHECK(verify(p, list_schedule(p)).empty());
  CHECK(list_schedule(p).length == 5);
  // Read a step early: refused.
  Schedule early = a;
  early.step[2] = 3;
  CHECK(mentions(verify(p, early), "before its result is ready"));
  // Still running after the last step: refused.
  SchedulingProblem alone = problem({d}, 12);
  alone.ops[0].preds.clear();
  Schedule cut = schedule({0}, {0}, 2);
  CHECK(mentions(verify(alone, cut), "still running"));
  // Two of them on one unit (limit 1): the second starts when the first has let go.
  SchedOp u = op(0, {}, 0);
  u.cycles = 3;
  const SchedulingProblem shared = problem({u, u}, 12, {1});
  const Schedule l = list_schedule(shared);
  CHECK(l.step == std::vector<uint32_t>{0, 3});
  CHECK(l.length == 6);
  CHECK(verify(shared, l).empty());
  CHECK(mentions(verify(shared, schedule({0, 2}, {0, 0}, 5)), "more than 1 times"));
}

}  // TEST_SUITE

// ---- modulo problems: a new input every ii steps (hand-worked) ----

TEST_CASE("modulo: check refuses an II of 0 and more work on a resource than its units give in ii slots") {
  SchedulingProblem p = problem({op(1, {}, 0), op(1, {}, 0), op(1, {}, 0)}, 10, {1});
  p.ii = 0;
  CHECK_FALSE(p.check().empty());
  p.ii = 2;  // three uses of one unit, two slots: never schedulable
  REQUIRE(p.check().size() == 1);
  CHECK(p.check()[0].find("more than its 1 units give in 2 slots") != std::string::npos);
  p.ii = 3;
  CHECK(p.check().empty());
}

TEST_CASE("modulo: verify counts a resource per slot, step mod ii") {
  // Two independent uses of one unit, II 2: steps 0 and 2 are both slot 0.
  SchedulingProblem p = problem({op(1, {}, 0), op(1, {}, 0)}, 10, {1});
  p.ii = 2;
  const auto clash = verify(p, schedule({0, 2}, {0, 0}, 3));
  REQUIRE(clash.size() == 1);
  CHECK(clash[0].find("slot 0 (step 2)") != std::string::npos);
  CHECK(verify(p, schedule({0, 1}, {0, 0}, 2)).empty());
  CHECK(verify(p, schedule({0, 3}, {0, 0}, 4)).empty());
  p.ii = 1;  // at II 1 steps 0 and 2 are different steps
  CHECK(verify(p, schedule({0, 2}, {0, 0}, 3)).empty());
}

TEST_CASE("modulo: the list schedule puts a chain's uses of one unit in different slots") {
  // 0 -> 1 -> 2 -> 3, each 6 ns under a 10 ns period (one a step); 0 and 2 use the single unit.
  // At II 2 step 2 is slot 0 again, taken by 0, so 2 waits for step 3 (slot 1); 3 follows in step 4.
  SchedulingProblem p = problem({op(6, {}, 0), op(6, {0}), op(6, {1}, 0), op(6, {2})}, 10, {1});
  p.ii = 2;
  REQUIRE(p.check().empty());
  const Schedule s = list_schedule(p);
  CHECK(verify(p, s).empty());
  CHECK(s.step == std::vector<uint32_t>{0, 1, 3, 4});
  CHECK(s.length == 5);
  p.ii = 3;  // steps 0 and 2 are different slots: no wait
  CHECK(list_schedule(p).step == std::vector<uint32_t>{0, 1, 2, 3});
}
