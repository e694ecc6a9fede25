// Cursors in GK text (frontend/cursors.h): what a `cursor` statement binds,
// the partition built-ins on nb-rs's vectors (nbrs-variates/src/nodes/partition.rs,
// `mod tests`, cited by name), `.cursor` and `.ordinal`, and every refusal at
// its line and column. The engines are compared in tests/workload/cursor_test.cc.
#include <string>
#include <vector>

#include "frontend/cursors.h"
#include "ir/partition.h"
#include "tests/frontend/stdlib_kernel.h"

namespace polydat::stdlibtest {
namespace {

ir::Value part(uint64_t idx, uint64_t start, uint64_t end) {
  return ir::partition_value(ir::Partition{idx, start, end, 0.0, 0.0, end});  // nb-rs's test fixture
}

// The diagnostics of `text`: "line:col message [kind]" of the first error, or "" when it compiles.
std::string first_error(const std::string& text) {
  frontend::CompileResult r = frontend::compile_source("k.gk", text);
  for (const frontend::Diagnostic& d : r.diagnostics().list()) {
    if (d.severity != frontend::Severity::Error) continue;
    const auto [line, col] = r.program->sources.file(d.span.file).line_col(d.span.start);
    return std::to_string(line) + ":" + std::to_string(col) + " " + d.message + " [" +
           std::string(frontend::diag_kind_name(d.kind)) + "]";
  }
  return "";
}

std::vector<std::string> output_names(const Kernel& k) {
  std::vector<std::string> out;
  for (const frontend::Port& p : k.unit().outputs) out.push_back(p.name);
  return out;
}

}  // namespace

TEST_CASE("the partition built-ins on nb-rs's fixtures (partition.rs tests)") {
  Kernel k("input (n: u64, p: Partition)\nc := cardinality(p)\ns := start_of(p)\ne := end_of(p)\ni := idx_of(p)\n"
           "m := mod_in(n, p)\nl := clamp_in(n, p)\na := at(p, n)\n");
  auto run = [&](uint64_t n, const ir::Value& p) { return k.run({u64(n), p}); };
  const ir::Value p100_500 = part(2, 100, 500), p100_200 = part(0, 100, 200), empty = part(0, 100, 100);
  CHECK(run(0, p100_500).at(0) == u64(400));  // cardinality_returns_end_minus_start
  CHECK(run(0, p100_500).at(1) == u64(100));  // start_of_returns_start_ord
  CHECK(run(0, p100_500).at(2) == u64(500));  // end_of_returns_end_ord
  CHECK(run(0, part(3, 100, 500)).at(3) == u64(3));  // idx_of_returns_idx
  // mod_in_wraps_inside_partition, mod_in_zero_cardinality_returns_start
  for (auto [n, want] : {std::pair{0, 100}, {50, 150}, {99, 199}, {100, 100}, {250, 150}})
    CHECK(run(static_cast<uint64_t>(n), p100_200).at(4) == u64(static_cast<uint64_t>(want)));
  CHECK(run(42, empty).at(4) == u64(100));
  // clamp_in_saturates_at_bounds, and an empty partition gives its start
  for (auto [n, want] : {std::pair{50, 100}, {100, 100}, {150, 150}, {199, 199}, {200, 199}, {1000, 199}})
    CHECK(run(static_cast<uint64_t>(n), p100_200).at(5) == u64(static_cast<uint64_t>(want)));
  CHECK(run(7, empty).at(5) == u64(100));
  CHECK(run(15, p100_200).at(6) == u64(115));  // at_offset_within_bounds
  // at past the partition at run time is start + i (the refusal is when it is known: below).
  CHECK(run(100, p100_200).at(6) == u64(200));
}

TEST_CASE("a cursor statement: its range, its `over`, .cursor, .ordinal and the bare name") {
  // cursor_partitions.rs form1_percentage_end: 0..53% of range(0, 1000) is [0, 530).
  Kernel k("cursor q = range(0, 1000) over \"0..53%\"\nlo := start_of(q.cursor)\nhi := end_of(q.cursor)\n"
           "t := \"{q.cursor}\"\nn := q\no := q.ordinal\n");
  CHECK(output_names(k) == std::vector<std::string>{"lo", "hi", "t", "n", "o"});
  const std::vector<ir::Value> out = k.run({u64(7)});  // the input is `cycle`, the ordinal
  const auto names = output_names(k);
  auto at = [&](const std::string& n) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return out.at(i);
    FAIL("no output " << n);
    return ir::Value();
  };
  CHECK(at("lo") == u64(0));
  CHECK(at("hi") == u64(530));
  CHECK(at("t") == ir::Value::str("Partition(0/? [0..530) [0.00%..53.00%))"));
  CHECK(at("n") == u64(7));
  CHECK(at("o") == u64(7));
  // The cursor's own bindings are not outputs unless asked for; q__cursor (q.cursor) is one when unread.
  for (const std::string& n : names) CHECK_FALSE(frontend::is_cursor_helper(n));
}

TEST_CASE("`over` a partition: re-resolved against the cursor's extent; a cursor over another's .cursor") {
  Kernel k("input cycle: u64\nextern p: Partition\ncursor a = range(0, 1000) over p\ncursor b = range(0, 1000) over a.cursor\n"
           "cursor c = range(0, 10) over partitions(\"linear:4\", 100)\n"
           "out := \"{start_of(a.cursor)} {end_of(a.cursor)} {idx_of(b.cursor)} {start_of(b.cursor)} {end_of(b.cursor)} "
           "{c.cursor}\"\n");
  // linear:3 of 100: [33..66) is 33%..66%, so 330..660 of 1000; of 1000 itself it stays as it is.
  auto third = ir::partitions_of("linear:3", 100);
  REQUIRE(third);
  CHECK(k.first({u64(0), ir::partition_value((*third)[1])}) == ir::Value::str("330 660 1 330 660 Partition(0/? [0..3) [0.00%..25.00%))"));
  auto own = ir::partitions_of("linear:3", 1000);
  REQUIRE(own);
  CHECK(k.first({u64(0), ir::partition_value((*own)[2])}).as_str().substr(0, 15) == "666 999 2 666 9");
}

TEST_CASE("a spec known only when the kernel runs: an empty partition and the reason, for the runner") {
  Kernel k("extern spec: str = \"0..50%\"\ncursor q = range(0, 1000) over spec\nhi := end_of(q.cursor)\n"
           "output __cursor_q_problem\n");
  CHECK(k.run({ir::Value::str("0..50%")}) == std::vector<ir::Value>{ir::Value::str(""), u64(500)});
  const std::vector<ir::Value> bad = k.run({ir::Value::str("0..150%")});
  CHECK(bad.at(0).as_str().find("outside 0%..100%") != std::string::npos);
  CHECK(bad.at(1) == u64(0));
}

TEST_CASE("refusals, each at its place") {
  CHECK(first_error("cursor q = range(0, 1000) over \"0..150%\"\nx := start_of(q.cursor)\n") ==
        "1:32 the partition spec \"0..150%\" does not resolve against 1000 ordinals: the percentage `150%` is "
        "outside 0%..100% [bad-partition-spec]");
  CHECK(first_error("cursor q = range(0, 10) over partitions(\"linear:20\", 10)\nx := q\n")
            .starts_with("1:41 the partition spec \"linear:20\" does not resolve"));
  CHECK(first_error("cursor q = range(0, 1000) over 5\nx := start_of(q.cursor)\n").starts_with("1:32 a cursor's `over` takes"));
  CHECK(first_error("cursor q = until_elapsed(10, 5)\nx := q\n").starts_with("1:12 `until_elapsed` is one of nb-rs's extending"));
  CHECK(first_error("cursor q = vectordata_base(\"a\")\nx := q\n").starts_with("1:12 a cursor is declared"));
  CHECK(first_error("cursor q = range(0)\nx := q\n").starts_with("1:12 range takes two arguments"));
  CHECK(first_error("cursor q = range(0, cycle)\nx := 1\n").starts_with("1:21 cursor 'q': its range and its `over` are fixed"));
  CHECK(first_error("cursor q = range(0, 10)\nx := q.cursor\n") ==
        "2:6 unknown name 'q.cursor': only a cursor declared with `over` has `.cursor` [unknown-name]");
  CHECK(first_error("cursor q = range(0, 10)\nx := q.first\n").starts_with("2:8 `q.first`: a cursor has"));
  CHECK(first_error("x := partitions(\"linear:3\")\n").starts_with("1:6 partitions(...) is a list of partitions"));
  CHECK(first_error("cursor q = range(0, 10) over \"linear:2\"\nx := at(q.cursor, 5)\n") ==
        "2:19 at(partition, 5): the partition holds 5 ordinals, numbered from 0 [literal-out-of-range]");
  CHECK(first_error("x := start_of(3)\n").starts_with("1:15 start_of takes a partition"));
  CHECK(first_error("input n: u64\nx := mod_in(n, n)\n").starts_with("2:16 mod_in takes a partition"));
  CHECK(first_error("extern s: str = \"x\"\ncursor q = range(0, 10) over partitions(s)\ny := 1\n")
            .starts_with("2:30 the spec and the extent of `over partitions(...)` must be constants"));
  CHECK(first_error("cursor cycle = range(0, 10)\n").starts_with("1:8 a cursor cannot be named `cycle`"));
  CHECK(first_error("cursor a__b = range(0, 10)\n").starts_with("1:8 a cursor's name cannot hold `__`"));
  CHECK(first_error("f(x: u64) -> (y: u64) := {\n  cursor q = range(0, 10)\n  y := x\n}\nz := f(1)\n")
            .starts_with("2:3 a cursor is declared at a kernel's top level"));
  CHECK(first_error("input x: u64\ncursor q = range(0, 10)\ny := q + x\n")
            .starts_with("3:6 'q' reads cursor q's ordinal, which is the cycle"));
  CHECK(first_error("cursor q = range(0, 10) over \"0..50%\"\ny := q.cursor + 1\n") ==
        "2:6 the literal 1 does not fit Partition [type-mismatch]");
  CHECK(first_error("cursor q = range(0, 10) over \"0..50%\"\ny := q.cursor * q.cursor\n").find("arithmetic needs numbers") !=
        std::string::npos);
  CHECK(first_error("cursor q = range(0, 10) over \"0..50%\"\ny := q.cursor as u64\n").find("cannot convert Partition") != std::string::npos);
  CHECK(first_error("cursor q = range(0, 10)\ncursor q = range(0, 5)\nx := q\n") ==
        "2:8 cursor q is already declared in this scope [redefinition]");
  CHECK(first_error("__cursor_q_over := 3\n").starts_with("1:1 names starting with `__cursor_` are made for cursors'"));
  CHECK(first_error("cursor q = range(0, 10) over q.cursor\nx := 1\n") ==
        "1:30 bindings depend on each other in a cycle: cursor q's `over` -> 'q.cursor' -> cursor q's `over` [cyclic-binding]");
  // `cursor` and `over` stay names elsewhere; a binding may be called `cursor`.
  CHECK(first_error("cursor := 1\nover := cursor + 1\n").empty());
  CHECK(first_error("extern cursor: str = \"0..10%\"\ncursor q = range(0, 100) over cursor\nx := end_of(q.cursor)\n").empty());
}

}  // namespace polydat::stdlibtest
