// The op sequencer (workload/op_sequence.h) against nb-rs's own vectors:
// the tests of nbrs-activity/src/opseq.rs (cited by test name), the LUTs in
// its build_bucket_lut / build_interval_lut comments, stdout_e2e.rs's
// full_pipeline_weighted_ops, and service_model.yaml's 5:3:2:1 mix, whose
// tables below are dealt by hand from the rules in op_sequence.h.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - interval's tie rule reversed (the higher op index first at equal
//     positions): the A:4,B:2, 2:6:9 and ratio-0 interval tables fail;
//   - interval's positions computed as (k * stanza) / ratio, one rounding
//     instead of nb-rs's two: only the 2:6:9 table fails (B before C at 17/3).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "workload/model.h"
#include "workload/op_sequence.h"

using namespace polydat::workload;

namespace {

std::vector<uint32_t> slots(const std::vector<uint64_t>& ratios, Sequencer s) {
  auto seq = OpSequence::build(ratios, s);
  REQUIRE_MESSAGE(seq, (seq ? "" : seq.error().message));
  return seq->slots();
}

// The op letters cycles 0..n-1 run.
std::string run(const OpSequence& seq, uint64_t n) {
  std::string out;
  for (uint64_t c = 0; c < n; ++c) out += static_cast<char>('A' + seq.op_at(c));
  return out;
}

std::string run(const std::vector<uint64_t>& ratios, Sequencer s, uint64_t n) {
  auto seq = OpSequence::build(ratios, s);
  REQUIRE(seq);
  return run(*seq, n);
}

using V = std::vector<uint32_t>;

}  // namespace

TEST_CASE("bucket: nb-rs's opseq.rs vectors") {
  // bucket_uniform
  CHECK(run({1, 1, 1}, Sequencer::Bucket, 6) == "ABCABC");
  // bucket_weighted, with the LUT of build_bucket_lut's comment (A:3, B:2, C:1)
  CHECK(slots({3, 2, 1}, Sequencer::Bucket) == V{0, 1, 2, 0, 1, 0});
  // bucket_interleaves
  CHECK(slots({3, 1}, Sequencer::Bucket) == V{0, 1, 0, 0});
  // stanza_repeats_cleanly
  CHECK(run({2, 1}, Sequencer::Bucket, 6) == "ABAABA");
}

TEST_CASE("bucket is the default sequencer's layout for service_model.yaml: 5:3:2:1, 22 cycles") {
  // Passes: ABCD, ABC, AB, A, A (dealt by hand).
  auto seq = OpSequence::build({5, 3, 2, 1}, Sequencer::Bucket);
  REQUIRE(seq);
  CHECK(seq->stanza_length() == 11);
  CHECK(seq->slots() == V{0, 1, 2, 3, 0, 1, 2, 0, 1, 0, 0});
  // nb-rs's workload_examples.rs service_model_mixed_ops runs it at cycles=22:
  // two stanzas, so 10 read_user, 6 read_product, 4 write_order and 2
  // analytics_query before its `if:`.
  uint64_t count[4] = {};
  for (uint64_t c = 0; c < 22; ++c) ++count[seq->op_at(c)];
  CHECK(count[0] == 10);
  CHECK(count[1] == 6);
  CHECK(count[2] == 4);
  CHECK(count[3] == 2);
}

TEST_CASE("stdout_e2e.rs full_pipeline_weighted_ops: 3:1 over 8 cycles is 6 reads and 2 writes") {
  const std::string s = run({3, 1}, Sequencer::Bucket, 8);
  CHECK(s == "ABAAABAA");
}

TEST_CASE("interval: nb-rs's LUT for A:4,B:2 and its tests") {
  // build_interval_lut's comment: A at 0, 1.5, 3, 4.5; B at 0, 3; ties go to A.
  CHECK(slots({4, 2}, Sequencer::Interval) == V{0, 1, 0, 0, 1, 0});
  // interval_uniform
  CHECK(run({1, 1}, Sequencer::Interval, 4) == "ABAB");
  // interval_distributes_evenly
  CHECK(run({3, 3}, Sequencer::Interval, 6) == "ABABAB");
  // A:3 at 0,2,4; B:2 at 0,3; C at 0.
  CHECK(slots({3, 2, 1}, Sequencer::Interval) == V{0, 1, 2, 0, 1, 0});
}

TEST_CASE("interval: positions are doubles, so an equality on paper can sort by rounding") {
  // 2:6:9, stanza 17. On paper B's third slot (2 * 17/6) and C's fourth (3 *
  // 17/9) are both 17/3, a tie B would win; in doubles 17.0/6 * 2 is
  // 5.666666666666667 and 17.0/9 * 3 is 5.666666666666666, so C comes first
  // (and again at 34/3: 11.333333333333334 for B, 11.333333333333332 for C).
  // A's second slot (8.5) and B's fourth (2.8333333333333335 * 3 rounds to
  // 8.5) do tie, and A, the lower index, goes first.
  CHECK(slots({2, 6, 9}, Sequencer::Interval) == V{0, 1, 2, 2, 1, 2, 2, 1, 2, 0, 1, 2, 2, 1, 2, 1, 2});
}

TEST_CASE("concat: nb-rs's opseq.rs vectors") {
  // concat_sequential
  CHECK(run({3, 2, 1}, Sequencer::Concat, 6) == "AAABBC");
  // concat_wraps
  CHECK(run({2, 1}, Sequencer::Concat, 6) == "AABAAB");
}

TEST_CASE("single_op_any_strategy: one op runs every cycle") {
  for (Sequencer s : {Sequencer::Bucket, Sequencer::Interval, Sequencer::Concat}) {
    auto seq = OpSequence::build({1}, s);
    REQUIRE(seq);
    CHECK(seq->op_at(0) == 0);
    CHECK(seq->op_at(999) == 0);
  }
}

TEST_CASE("a ratio of 0: the op never runs, in every layout") {
  CHECK(slots({2, 0, 1}, Sequencer::Bucket) == V{0, 2, 0});
  CHECK(slots({2, 0, 1}, Sequencer::Interval) == V{0, 2, 0});  // A at 0, 1.5; C at 0
  CHECK(slots({2, 0, 1}, Sequencer::Concat) == V{0, 0, 2});
}

TEST_CASE("refused: no ops, an empty stanza, a stanza too large") {
  auto none = OpSequence::build({}, Sequencer::Bucket);
  REQUIRE_FALSE(none);
  CHECK(none.error().kind == "no-ops");
  for (Sequencer s : {Sequencer::Bucket, Sequencer::Interval, Sequencer::Concat}) {
    auto zero = OpSequence::build({0, 0}, s);
    REQUIRE_FALSE(zero);
    CHECK(zero.error().kind == "empty-stanza");
  }
  auto big = OpSequence::build({kMaxStanza - 1, 1, 1}, Sequencer::Bucket);
  REQUIRE_FALSE(big);
  CHECK(big.error().kind == "stanza-too-large");
  CHECK(big.error().op == 2);
  // Ratios that would wrap a u64 are caught before they add up.
  auto wrap = OpSequence::build({~uint64_t{0}, 2}, Sequencer::Concat);
  REQUIRE_FALSE(wrap);
  CHECK(wrap.error().op == 0);
  CHECK(OpSequence::build({kMaxStanza}, Sequencer::Interval));
}

TEST_CASE("sequencer_type_parse: bucket, interval, concat in any case; anything else refused") {
  CHECK(*parse_sequencer("bucket") == Sequencer::Bucket);
  CHECK(*parse_sequencer("INTERVAL") == Sequencer::Interval);
  CHECK(*parse_sequencer("Concat") == Sequencer::Concat);
  auto bogus = parse_sequencer("bogus");
  REQUIRE_FALSE(bogus);
  CHECK(bogus.error().find("bucket (the default), interval or concat") != std::string::npos);
  for (Sequencer s : {Sequencer::Bucket, Sequencer::Interval, Sequencer::Concat})
    CHECK(*parse_sequencer(sequencer_name(s)) == s);
}

namespace {
// Fields as the loader makes them, from a params block.
std::vector<std::pair<std::string, Field>> params_of(const std::string& yaml) {
  auto w = parse_workload_text(yaml, "r.yaml");
  REQUIRE_MESSAGE(w, (w ? "" : w.error().rendered));
  return w->params;
}
}  // namespace

TEST_CASE("a ratio is a plain whole number; nb-rs's silent ratio-1 readings are refused") {
  const auto p = params_of(
      "params:\n"
      "  five: 5\n"
      "  zero: 0\n"
      "  quoted: \"3\"\n"
      "  half: 2.5\n"
      "  negative: -1\n"
      "  octal: 010\n"
      "  words: three\n"
      "  huge: 99999999999999999999999\n"
      "  over: 1048577\n"
      "  max: 1048576\n"
      "  block: |\n"
      "    4\n"
      "ops:\n"
      "  o: x\n");
  auto ratio = [&](const std::string& name) {
    for (const auto& [n, f] : p)
      if (n == name) return parse_ratio(f);
    FAIL("no param " << name);
    return parse_ratio(Field{});
  };
  CHECK(*ratio("five") == 5);
  CHECK(*ratio("zero") == 0);
  CHECK(*ratio("max") == kMaxStanza);
  for (const char* bad : {"quoted", "half", "negative", "octal", "words", "huge", "over", "block"}) {
    CAPTURE(bad);
    auto r = ratio(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().at.line > 0);
  }
  // At the value: line 5 `  half: 2.5`, the 2 in column 9.
  CHECK(ratio("half").error().at.line == 5);
  CHECK(ratio("half").error().at.col == 9);
  CHECK(ratio("quoted").error().message.find("quoted") != std::string::npos);
}

TEST_CASE("from_ops_extracts_ratios: the first ratio given wins, 1 when none is") {
  // nb-rs's from_ops_extracts_ratios: params ratio 5 and a default op make a stanza of 6.
  Field five;
  five.text = "5";
  Field two;
  two.text = "2";
  auto first = op_ratio({nullptr, &five, &two});
  REQUIRE(first);
  CHECK(*first == 5);
  auto none = op_ratio({nullptr, nullptr});
  REQUIRE(none);
  CHECK(*none == 1);
  auto seq = OpSequence::build({*first, *none}, Sequencer::Bucket);
  REQUIRE(seq);
  CHECK(seq->stanza_length() == 6);
  Field bad;
  bad.text = "x";
  CHECK_FALSE(op_ratio({&bad, &five}));  // a bad first ratio is an error, not skipped
}
