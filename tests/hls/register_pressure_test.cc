// Register-aware refinement of pipeline schedules: hand-worked problems whose
// register bits are counted on paper in the comments, and random problems on
// which every refined schedule still verifies, keeps its length and never
// carries more bits than the list schedule it started from.
#include <doctest/doctest.h>
#include <rapidcheck.h>

#include <string>
#include <vector>

#include "hls/register_pressure.h"
#include "hls/scheduling.h"

using namespace polydat::hls;

namespace {

SchedOp op(double delay, std::vector<uint32_t> preds, uint64_t bits = 0xFF) {
  SchedOp o;
  o.delay_ns = delay;
  o.preds = preds;
  for (uint32_t q : preds) o.reads.push_back(BitRead{q, bits});
  return o;
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

// Period 10 ns, every value 8 bits. 0 (6 ns) -> 1 (6) -> 2 (6) -> 4 (last_delay),
// 3 (1 ns) reads 0, and 4 reads 2, 3 and 0; the output reads 4. ASAP: steps
// 0, 1, 2, 0 (3 chains after 0: 6 + 1 <= 10), 3, and carries 0 to step 3 (24
// bits), 1 and 2 one step each (8 + 8), 3 from step 0 to 3 (24), 4 to the end
// (8): 72 bits.
SchedulingProblem early_inversion(double last_delay) {
  SchedulingProblem p;
  p.period_ns = 10;
  p.ops = {op(6, {}), op(6, {0}), op(6, {1}), op(1, {0}), op(last_delay, {2, 3, 0})};
  p.final_reads = {BitRead{4, 0xFF}};
  return p;
}

}  // namespace

TEST_SUITE("register pressure") {

TEST_CASE("an operation read three steps later moves to its reader's step") {
  const SchedulingProblem p = early_inversion(6);
  REQUIRE(p.check().empty());
  const Schedule before = list_schedule(p);
  CHECK(before.step == std::vector<uint32_t>{0, 1, 2, 0, 3});
  CHECK(register_bits(p, before) == 72);
  // 3 chained before 4 in step 3 (1 + 6 <= 10): its 24 carried bits go, 0 is carried anyway.
  const Schedule after = reduce_registers(p, before);
  CHECK(verify(p, after).empty());
  CHECK(after.length == before.length);
  CHECK(after.step == std::vector<uint32_t>{0, 1, 2, 3, 3});
  CHECK(after.start_ns[4] == doctest::Approx(1.0));
  CHECK(register_bits(p, after) == 48);
}

TEST_CASE("the clock limits the move: the operation stops a step before its reader") {
  // 4 takes 9.5 ns: 3 cannot chain before it, so 3 ends step 2 and is carried one step (8 bits).
  const SchedulingProblem p = early_inversion(9.5);
  const Schedule after = reduce_registers(p, list_schedule(p));
  CHECK(verify(p, after).empty());
  CHECK(after.step[3] == 2);
  CHECK(register_bits(p, after) == 56);
}

TEST_CASE("a narrowing operation moves up to its input's step") {
  // 0 (2 ns, 8 bits) is read only by 1 (2 ns), which keeps one bit of it and
  // is read at the end; 2 (9 ns) delays the end to step 1. ASAP puts 1 in
  // step 0; ALAP-like moves must not pull it later, where 8 bits would be carried.
  SchedulingProblem p;
  p.period_ns = 10;
  p.ops = {op(2, {}), op(2, {0}), op(9, {0})};
  p.ops[2].preds = {1};
  p.ops[2].reads = {BitRead{1, 0x1}};
  p.final_reads = {BitRead{2, 0xFF}};
  const Schedule before = list_schedule(p);
  REQUIRE(before.step == std::vector<uint32_t>{0, 0, 1});
  const Schedule after = reduce_registers(p, before);
  CHECK(after.step == before.step);
  CHECK(register_bits(p, after) == 1 + 8);  // 1's bit into step 1, 2's result to the end
}

TEST_CASE("inputs are fixed sources: reading them later carries them") {
  // Input 2 (a fixed source, 64 bits) is read by 0 (9.5 ns) and by 1 (1 ns),
  // which also reads a bit of 0 and so cannot chain after it (9.5 + 1 > 10).
  SchedulingProblem p;
  p.period_ns = 10;
  p.fixed_sources = 1;
  p.ops = {op(9.5, {}), op(1, {})};
  p.ops[0].reads = {BitRead{2, ~uint64_t{0}}};
  p.ops[1].reads = {BitRead{2, ~uint64_t{0}}};
  p.ops[1].preds = {0};
  p.ops[1].reads.push_back(BitRead{0, 0x1});
  p.final_reads = {BitRead{1, 0x1}};
  REQUIRE(p.check().empty());
  const Schedule s = reduce_registers(p, list_schedule(p));
  // 1 in step 1: the input carried into it (64), 0's bit (1), 1's bit to the end (1).
  CHECK(s.step == std::vector<uint32_t>{0, 1});
  CHECK(register_bits(p, s) == 66);
}

TEST_CASE("problems without bit reads are left as they are; a limited operation keeps its step") {
  SchedulingProblem p = early_inversion(6);
  const Schedule before = list_schedule(p);
  for (SchedOp& o : p.ops) o.reads.clear();
  p.final_reads.clear();
  CHECK(reduce_registers(p, before).step == before.step);
  SchedulingProblem limited = early_inversion(6);
  limited.limits = {4};
  limited.ops[3].resource = 0;  // the operation that moves above: it must keep its slot
  CHECK(reduce_registers(limited, before).step == before.step);
  SchedulingProblem fsm = early_inversion(6);
  fsm.ops[1].cycles = 2;  // a multi-cycle operation: an FSM's problem
  CHECK(reduce_registers(fsm, asap(fsm)).step == asap(fsm).step);
}

TEST_CASE("modulo: a register holds a value for ii steps, so a bit read d steps later costs ceil(d / ii)") {
  // early_inversion's list schedule at II 2: 0 carried to step 3 is ceil(3/2) = 2 registers (16
  // bits), 1 and 2 one each (8 + 8), 3 from step 0 to 3 two (16), 4 to the end one (8): 56 bits.
  SchedulingProblem p = early_inversion(6);
  p.ii = 2;
  const Schedule before = list_schedule(p);
  REQUIRE(before.step == std::vector<uint32_t>{0, 1, 2, 0, 3});
  CHECK(register_bits(p, before) == 56);
  // Moving 3 to step 3 saves its 16 bits, 0 is carried anyway: 40.
  const Schedule after = reduce_registers(p, before);
  CHECK(verify(p, after).empty());
  CHECK(after.step == std::vector<uint32_t>{0, 1, 2, 3, 3});
  CHECK(register_bits(p, after) == 40);
}

TEST_CASE("check() refuses bit reads of a source the operation does not depend on") {
  SchedulingProblem p = early_inversion(6);
  p.ops[1].reads.push_back(BitRead{3, 1});  // 3 is not a predecessor of 1
  CHECK(!p.check().empty());
  p = early_inversion(6);
  p.final_reads.push_back(BitRead{9, 1});  // no such source
  CHECK(!p.check().empty());
}

TEST_CASE("random pipelines: the refined schedule verifies, keeps its length and carries no more bits") {
  CHECK(rc::check("reduce_registers on random problems", [] {
    SchedulingProblem p;
    p.period_ns = 0.25 * *rc::gen::inRange(8, 61);
    p.fixed_sources = static_cast<uint32_t>(*rc::gen::inRange(0, 3));
    const int n = *rc::gen::inRange(1, 41);
    const auto mask = [] { return *rc::gen::inRange<uint64_t>(1, 256) << *rc::gen::inRange(0, 56); };
    for (int i = 0; i < n; ++i) {
      SchedOp o;
      o.delay_ns = 0.25 * *rc::gen::inRange(0, static_cast<int>(p.period_ns * 4) + 1);
      const int preds = i == 0 ? 0 : *rc::gen::inRange(0, std::min(i, 3) + 1);
      for (int k = 0; k < preds; ++k) {
        const uint32_t q = static_cast<uint32_t>(*rc::gen::inRange(0, i));
        o.preds.push_back(q);
        o.reads.push_back(BitRead{q, mask()});
      }
      if (p.fixed_sources && *rc::gen::arbitrary<bool>())
        o.reads.push_back(BitRead{static_cast<uint32_t>(n + *rc::gen::inRange(0, static_cast<int>(p.fixed_sources))), mask()});
      p.ops.push_back(std::move(o));
    }
    p.final_reads.push_back(BitRead{static_cast<uint32_t>(n - 1), mask()});
    RC_PRE(p.check().empty());
    const Schedule before = list_schedule(p);
    RC_PRE(verify(p, before).empty());
    const Schedule after = reduce_registers(p, before);
    if (auto v = verify(p, after); !v.empty()) RC_FAIL("the refined schedule does not verify:\n" + lines(v));
    RC_ASSERT(after.length == before.length);
    RC_ASSERT(register_bits(p, after) <= register_bits(p, before));
  }));
}

}  // TEST_SUITE
