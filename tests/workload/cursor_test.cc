// Cursors and partitions through the runner. nb-rs's end-to-end tests
// (nbrs/tests/cursor_partitions.rs and the cursor_all_* tests of
// nbrs/tests/comprehension.rs) run its example workloads
// cursor_partitions_coverage.yaml, all_cursor.yaml and
// comprehension_coverage.yaml; the workloads here are our own, written to
// the same shapes, and each test asserts what the nb-rs test of that shape
// asserts. nb-rs's tests look at the distinct lines; these check every line,
// with the count the cycle rule gives (a phase whose kernel declares a cursor
// runs the cursor's ordinals). Every run is made on the interpreter and on
// native code, and the two outputs must be identical.
#include <doctest/doctest.h>

#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "frontend/embed.h"
#include "ir/partition.h"
#include "sim/llvm/native_embed.h"
#include "workload/model.h"
#include "workload/plan.h"
#include "workload/run_params.h"
#include "workload/runner.h"
#include "tests/workload/run_support.h"

using namespace polydat;
using namespace polydat::workload;

namespace {

using test::Ran;

Ran run_on(const std::string& yaml, const RunOptions& o) { return test::run_on(yaml, o, "cursors.yaml"); }

// Both engines; their lines and their errors must agree.
Ran run(const std::string& yaml, const std::string& scenario, std::vector<std::pair<std::string, std::string>> params = {},
        LineFormat format = LineFormat::Stmt) {
  RunOptions o;
  o.scenario = scenario;
  o.overrides = std::move(params);
  o.render.format = format;
  Ran interp = run_on(yaml, o);
  o.native = true;
  Ran native = run_on(yaml, o);
  CHECK(native.out == interp.out);
  CHECK(native.ok == interp.ok);
  CHECK(native.error == interp.error);
  return interp;
}

std::string lines(const std::string& line, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += line + "\n";
  return out;
}

std::string joined(const std::vector<std::string>& ls) {
  std::string out;
  for (const std::string& l : ls) out += l + "\n";
  return out;
}

std::string ok_out(const Ran& r) {
  REQUIRE_MESSAGE(r.ok, r.error);
  return r.out;
}

// A phase of one cycle: its bindings, one per line, and the op that shows them.
std::string phase(const std::string& name, std::initializer_list<std::string> bindings, const std::string& show) {
  std::string y = "  " + name + ":\n    cycles: 1\n    bindings: |\n";
  for (const std::string& b : bindings) y += "      " + b + "\n";
  return y + "    ops:\n      show: \"" + show + "\"\n";
}

// A phase whose cursor ranges over 0..1000 narrowed by `over SOURCE`; it shows the bounds it runs between.
std::string bounds_phase(const std::string& name, const std::string& source, const std::string& tag) {
  return phase(name, {"cursor c = range(0, 1000) over " + source, "lo := start_of(c.cursor)", "hi := end_of(c.cursor)"},
               "cur/" + tag + " lo={lo} hi={hi}");
}

// Our workload in cursor_partitions_coverage.yaml's shape: one scenario per
// shape (spec forms, recipes, `over` sources, the partition functions).
std::string coverage() {
  const std::vector<std::pair<std::string, std::string>> narrowed = {
      {"pct_end", "\"0..53%\""},     {"frac_end", "\"0..0.53\""},     {"ordinals", "\"100..500\""},
      {"ord_then_pct", "\"100..50%\""}, {"frac_then_ord", "\"0.10..800\""}, {"bracketed", "\"[0..53%)\""},
      {"by_param", "cursor"},        {"warm", "warm_spec"},            {"steady", "steady_spec"},
  };
  const std::vector<std::pair<std::string, std::string>> listed = {
      {"pct_star", "\\\"2%,10%,*%\\\""},        {"frac_star", "\\\"0.02,0.10,*\\\""},
      {"ord_star", "\\\"1000,5000,*\\\", 10000"}, {"mixed_star", "\\\"1000,10%,*\\\", 10000"},
      {"short", "\\\"20%,30%\\\""},            {"linear", "\\\"linear:4\\\""},
      {"ratios", "\\\"ratios:1,1,2\\\""},       {"bin", "\\\"bin:5\\\""},
      {"fib", "\\\"fib:5\\\""},                 {"ln", "\\\"ln:5\\\""},
      {"geom", "\\\"geom:4,2\\\""},             {"front", "\\\"front_heavy:4\\\""},
      {"back", "\\\"back_heavy:4\\\""},
  };
  const std::vector<std::pair<std::string, std::string>> counted = {
      {"mul", "\\\"mul:0.5\\\""}, {"mul_start", "\\\"mul:5,0.5\\\""}, {"zipf", "\\\"zipf:1,4\\\""}, {"pareto", "\\\"pareto:1,4\\\""}};
  std::string y = "params:\n  cursor: \"0..100%\"\n  warm_spec: \"0..10%\"\n  steady_spec: \"10%..100%\"\nscenarios:\n";
  for (const auto& [name, src] : narrowed)
    if (name != "warm" && name != "steady") y += "  " + name + ": [" + name + "]\n";
  y += "  warm_then_steady: [warm, steady]\n";
  for (const auto& [name, spec] : listed) y += "  " + name + ":\n    - for: \"p in partitions(" + spec + ")\"\n      phases: [each]\n";
  for (const auto& [name, spec] : counted) y += "  " + name + ":\n    - for: \"p in partitions(" + spec + ")\"\n      phases: [count]\n";
  y += R"Y(  over_var:
    - for: "p in partitions(\"linear:3\", 1000)"
      phases: [over_var]
  over_other:
    - for: "p in partitions(\"linear:2\", 1000)"
      phases: [over_other]
  sizes:
    - for: "p in partitions(\"linear:3\", 300)"
      phases: [sizes]
  wrapped:
    - for: "p in partitions(\"linear:1\", 100)"
      phases: [wrapped]
  offsets:
    - for: "p in partitions(\"linear:1\", 100)"
      phases: [offsets]
  held:
    - for: "p in partitions(\"linear:1\", 100)"
      phases: [held]
  whole: [whole]
phases:
)Y";
  for (const auto& [name, src] : narrowed) y += bounds_phase(name, src, name == "warm" || name == "steady" ? name : "range");
  y += phase("each", {"i := idx_of(p)", "lo := start_of(p)", "hi := end_of(p)"}, "cur/each idx={i} lo={lo} hi={hi}");
  y += phase("count", {"i := idx_of(p)"}, "cur/count idx={i}");
  y += phase("over_var",
             {"cursor c = range(0, 1000) over p", "i := idx_of(c.cursor)", "lo := start_of(c.cursor)", "hi := end_of(c.cursor)"},
             "cur/var idx={i} lo={lo} hi={hi}");
  y += phase("over_other",
             {"cursor first = range(0, 1000) over p", "cursor second = range(0, 1000) over first.cursor",
              "i := idx_of(first.cursor)", "a := start_of(first.cursor)", "b := end_of(first.cursor)",
              "c := start_of(second.cursor)", "d := end_of(second.cursor)"},
             "cur/other idx={i} first=[{a}..{b}) second=[{c}..{d})");
  y += phase("sizes", {"i := idx_of(p)", "n := cardinality(p)"}, "cur/size idx={i} n={n}");
  y += R"Y(  whole:
    bindings: |
      cursor c = range(0, 50)
      n := c
    ops:
      show: "cur/whole n={n}"
)Y";
  // The per-cycle functions: `cycles` cycles of one value of the loop's partition p.
  for (const auto& [name, cycles, fn] : {std::tuple{"wrapped", 5, "mod_in(cycle, p)"}, std::tuple{"offsets", 3, "at(p, cycle)"},
                                         std::tuple{"held", 5, "clamp_in(cycle, p)"}})
    y += "  " + std::string(name) + ":\n    cycles: " + std::to_string(cycles) + "\n    bindings: |\n      v := " + fn +
         "\n    ops:\n      show: \"cur/" + std::string(fn).substr(0, std::string(fn).find('(')) + " v={v}\"\n";
  return y;
}

std::string each(std::initializer_list<std::pair<uint64_t, uint64_t>> ranges) {
  std::string out;
  uint64_t i = 0;
  for (auto [lo, hi] : ranges) out += "cur/each idx=" + std::to_string(i++) + " lo=" + std::to_string(lo) + " hi=" + std::to_string(hi) + "\n";
  return out;
}

std::string counts(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += "cur/count idx=" + std::to_string(i) + "\n";
  return out;
}

}  // namespace

TEST_CASE("cursor partitions, form 1: `over \"start..end\"` narrows the cursor and runs its ordinals (form1_*)") {
  const std::string y = coverage();
  CHECK(ok_out(run(y, "pct_end")) == lines("cur/range lo=0 hi=530", 530));
  CHECK(ok_out(run(y, "frac_end")) == lines("cur/range lo=0 hi=530", 530));
  CHECK(ok_out(run(y, "ordinals")) == lines("cur/range lo=100 hi=500", 400));
  CHECK(ok_out(run(y, "ord_then_pct")) == lines("cur/range lo=100 hi=500", 400));
  CHECK(ok_out(run(y, "frac_then_ord")) == lines("cur/range lo=100 hi=800", 700));
  CHECK(ok_out(run(y, "bracketed")) == lines("cur/range lo=0 hi=530", 530));
}

TEST_CASE("cursor partitions, form 2: delta lists as for_each sources (form2_*)") {
  const std::string y = coverage();
  CHECK(ok_out(run(y, "pct_star")) == each({{0, 2}, {2, 12}, {12, 100}}));
  CHECK(ok_out(run(y, "frac_star")) == each({{0, 2}, {2, 12}, {12, 100}}));
  CHECK(ok_out(run(y, "ord_star")) == each({{0, 1000}, {1000, 6000}, {6000, 10000}}));
  CHECK(ok_out(run(y, "mixed_star")) == each({{0, 1000}, {1000, 2000}, {2000, 10000}}));
  CHECK(ok_out(run(y, "short")) == each({{0, 20}, {20, 50}}));
}

TEST_CASE("cursor partitions, form 3: recipes (recipe_*)") {
  const std::string y = coverage();
  CHECK(ok_out(run(y, "linear")) == each({{0, 25}, {25, 50}, {50, 75}, {75, 100}}));
  CHECK(ok_out(run(y, "ratios")) == each({{0, 25}, {25, 50}, {50, 100}}));
  CHECK(ok_out(run(y, "bin")) == each({{0, 6}, {6, 31}, {31, 69}, {69, 94}, {94, 100}}));
  CHECK(ok_out(run(y, "fib")) == each({{0, 5}, {5, 16}, {16, 32}, {32, 58}, {58, 100}}));
  // nb-rs asserts 5 partitions ending at 100; by hand, ln 2..ln 6 over their sum 6.579 are
  // 10.5%, 16.7%, 21.1%, 24.5%, 27.2%, rounded to 11, 17, 21, 24, 27 ordinals.
  CHECK(ok_out(run(y, "ln")) == each({{0, 11}, {11, 28}, {28, 49}, {49, 73}, {73, 100}}));
  CHECK(ok_out(run(y, "geom")) == each({{0, 7}, {7, 20}, {20, 47}, {47, 100}}));
  CHECK(ok_out(run(y, "front")) == each({{0, 40}, {40, 70}, {70, 90}, {90, 100}}));
  CHECK(ok_out(run(y, "back")) == each({{0, 10}, {10, 30}, {30, 60}, {60, 100}}));
  CHECK(ok_out(run(y, "mul")) == counts(11));
  CHECK(ok_out(run(y, "mul_start")) == counts(11));
  CHECK(ok_out(run(y, "zipf")) == counts(4));
  CHECK(ok_out(run(y, "pareto")) == counts(4));
}

TEST_CASE("cursor partitions, `over` sources: a param, a loop variable, another cursor (over_*)") {
  const std::string y = coverage();
  // over_workload_param: cursor=0..50% on the command line narrows [0, 1000) to [0, 500).
  CHECK(ok_out(run(y, "by_param", {{"cursor", "0..50%"}})) == lines("cur/range lo=0 hi=500", 500));
  CHECK(ok_out(run(y, "by_param")) == lines("cur/range lo=0 hi=1000", 1000));  // the param's default, 0..100%
  // over_iter_var: each partition of linear:3 over 1000 narrows the cursor; the ordinal 999 is in none.
  CHECK(ok_out(run(y, "over_var")) == lines("cur/var idx=0 lo=0 hi=333", 333) + lines("cur/var idx=1 lo=333 hi=666", 333) +
                                          lines("cur/var idx=2 lo=666 hi=999", 333));
  // over_cross_cursor: the second cursor over the first one's .cursor narrows alike.
  CHECK(ok_out(run(y, "over_other")) == lines("cur/other idx=0 first=[0..500) second=[0..500)", 500) +
                                            lines("cur/other idx=1 first=[500..1000) second=[500..1000)", 500));
}

TEST_CASE("cursor partitions, the partition functions in a phase (fn_*)") {
  const std::string y = coverage();
  CHECK(ok_out(run(y, "sizes")) == joined({"cur/size idx=0 n=100", "cur/size idx=1 n=100", "cur/size idx=2 n=100"}));
  CHECK(ok_out(run(y, "wrapped")) ==
        joined({"cur/mod_in v=0", "cur/mod_in v=1", "cur/mod_in v=2", "cur/mod_in v=3", "cur/mod_in v=4"}));
  CHECK(ok_out(run(y, "offsets")) == joined({"cur/at v=0", "cur/at v=1", "cur/at v=2"}));
  CHECK(ok_out(run(y, "held")) ==
        joined({"cur/clamp_in v=0", "cur/clamp_in v=1", "cur/clamp_in v=2", "cur/clamp_in v=3", "cur/clamp_in v=4"}));
}

TEST_CASE("cursor partitions, params named by the phases' cursors (reified_warmup_steady*)") {
  const std::string y = coverage();
  CHECK(ok_out(run(y, "warm_then_steady")) == lines("cur/warm lo=0 hi=100", 100) + lines("cur/steady lo=100 hi=1000", 900));
  CHECK(ok_out(run(y, "warm_then_steady", {{"warm_spec", "0..1%"}})) ==
        lines("cur/warm lo=0 hi=10", 10) + lines("cur/steady lo=100 hi=1000", 900));
}

TEST_CASE("cursor partitions, a cursor without `over` keeps its whole range (no_over_ignores_cursor_param)") {
  const Ran r = run(coverage(), "whole", {{"cursor", "0..10%"}});
  std::string want;
  for (int n = 0; n < 50; ++n) want += "cur/whole n=" + std::to_string(n) + "\n";  // the cursor's name reads its ordinal
  CHECK(ok_out(r) == want);
}

TEST_CASE("cursor partitions: a `cycles:` the cursor overrides is said, once; --explain shows the range") {
  const std::string y = coverage();
  const Ran r = run(y, "over_var");
  REQUIRE(r.ok);
  size_t notes = 0;
  for (const std::string& w : r.summary.warnings) notes += w.find("`cycles: 1`") != std::string::npos && w.find("cursor 'c'") != std::string::npos;
  CHECK(notes == 1);
  RunOptions o;
  o.scenario = "ordinals";
  auto w = parse_workload_text(y, "cursors.yaml");
  REQUIRE(w);
  auto e = explain_workload(*w, o);
  REQUIRE_MESSAGE(e, (e ? std::string() : e.error()));
  CHECK(e->tree.find("phase ordinals (400 cycles, from 100: cursor c)") != std::string::npos);
}

// Ours, in all_cursor.yaml's and comprehension_coverage.yaml's shape: a cursor
// declared in the workload's bindings, iterated by a scenario-level for.
const char* kRows = R"Y(bindings: |
  cursor rows = range(0, 50)
  cursor later = range(10, 15)
scenarios:
  all_rows:
    - for: "r in all(rows)"
      phases: [show]
  inline_where:
    - for: "r in all(rows) where {r} % 10 == 0"
      phases: [show]
  inline_order:
    - for: "r in all(rows) order lex/5"
      phases: [show]
  keyed_where:
    - for: "r in all(rows)"
      where: "{r} % 10 == 0"
      phases: [show]
  keyed_order:
    - for: "r in all(rows)"
      order: "lex/5"
      phases: [show]
  not_zero_based:
    - for: "r in all(later)"
      phases: [show]
  no_such:
    - for: "r in all(nope)"
      phases: [show]
  driven: [driven]
phases:
  show:
    cycles: 1
    ops:
      line: "rows r={r}"
  driven:
    bindings: |
      cursor mine = range(10, 15)
    ops:
      line: "driven cycle={cycle}"
)Y";

TEST_CASE("all(cursor): a workload's cursor iterated by a scenario (all_cursor.yaml, comprehension.rs cursor_all_*)") {
  std::string all;
  for (int r = 0; r < 50; ++r) all += "rows r=" + std::to_string(r) + "\n";
  // The inner phase does not declare the cursor: it runs its own `cycles: 1` (cursor_all_full_extent counts 50).
  CHECK(ok_out(run(kRows, "all_rows")) == all);
  const std::string tens = joined({"rows r=0", "rows r=10", "rows r=20", "rows r=30", "rows r=40"});
  const std::string five = joined({"rows r=0", "rows r=1", "rows r=2", "rows r=3", "rows r=4"});
  CHECK(ok_out(run(kRows, "inline_where")) == tens);   // all_cursor.yaml every_tenth
  CHECK(ok_out(run(kRows, "keyed_where")) == tens);    // cursor_all_with_where
  CHECK(ok_out(run(kRows, "inline_order")) == five);   // all_cursor.yaml first_five
  CHECK(ok_out(run(kRows, "keyed_order")) == five);    // cursor_all_with_lex_truncate
  // range(10, 15): all() iterates 10..14; the phase it drives runs cycles 0..4 (nb-rs counts from 0).
  CHECK(ok_out(run(kRows, "not_zero_based")) == joined({"rows r=10", "rows r=11", "rows r=12", "rows r=13", "rows r=14"}));
  CHECK(ok_out(run(kRows, "driven")) ==
        joined({"driven cycle=0", "driven cycle=1", "driven cycle=2", "driven cycle=3", "driven cycle=4"}));
  const Ran bad = run(kRows, "no_such");
  CHECK_FALSE(bad.ok);
  CHECK(bad.error.find("cursors.yaml:26:18: error: for: clause `r`: all(nope): no cursor `nope`") != std::string::npos);
}

TEST_CASE("a partition shown in an op: nb-rs's text, as stmt and as json") {
  const char* y = R"Y(scenarios:
  show:
    - for: "p in partitions(\"linear:3\", 1000)"
      phases: [show]
phases:
  show:
    cycles: 1
    bindings: |
      t := "in {p}"
    ops:
      a: "{p}"
)Y";
  CHECK(ok_out(run(y, "show")) == joined({"Partition(0/? [0..333) [0.00%..33.30%))", "Partition(1/? [333..666) [33.30%..66.60%))",
                                          "Partition(2/? [666..999) [66.60%..99.90%))"}));
  CHECK(ok_out(run(y, "show", {}, LineFormat::Json)).starts_with("{\"stmt\":\"Partition(0/? [0..333) [0.00%..33.30%))\"}\n"));
}

const char* kBad = R"Y(params:
  cursor: "0..150%"
scenarios:
  by_param: [by_param]
  literal: [literal]
  listed:
    - for: "p in partitions(\"thirds:3\")"
      phases: [each]
  too_many:
    - for: "p in partitions(\"60%,60%\", 10)"
      phases: [each]
phases:
  by_param:
    bindings: |
      cursor c = range(0, 1000) over cursor
      lo := start_of(c.cursor)
    ops:
      a: "lo={lo}"
  literal:
    bindings: |
      cursor c = range(0, 1000) over "5%,*,*"
      lo := start_of(c.cursor)
    ops:
      a: "lo={lo}"
  each:
    bindings: |
      lo := start_of(p)
    ops:
      a: "lo={lo}"
)Y";

TEST_CASE("partition specs that do not resolve are errors at their place, before any line") {
  const Ran param = run(kBad, "by_param");
  CHECK_FALSE(param.ok);
  CHECK(param.out.empty());
  CHECK(param.error.find("cursors.yaml:15:38: error: cursor 'c': the partition spec \"0..150%\" of its `over` does not "
                         "resolve against its 1000 ordinals: the percentage `150%` is outside 0%..100% [bad-partition-spec]") !=
        std::string::npos);
  CHECK(ok_out(run(kBad, "by_param", {{"cursor", "0..5%"}})) == lines("lo=0", 50));
  const Ran literal = run(kBad, "literal");
  CHECK_FALSE(literal.ok);
  CHECK(literal.error.find("cursors.yaml:21:38: error: the partition spec \"5%,*,*\" does not resolve") != std::string::npos);
  CHECK(literal.error.find("[bad-partition-spec]") != std::string::npos);
  const Ran listed = run(kBad, "listed");
  CHECK_FALSE(listed.ok);
  CHECK(listed.error.find("cursors.yaml:7:18: error: for: clause `p`: partitions(\"thirds:3\", 100): no recipe `thirds`") != std::string::npos);
  const Ran over = run(kBad, "too_many");
  CHECK(over.error.find("the deltas cover more than the extent of 10 ordinals") != std::string::npos);
  CHECK(over.error.find("[bad-partition-spec]") != std::string::npos);
}

TEST_CASE("cursor=: nb-rs drops one pair of outer quotes, around the word or the value") {
  auto a = split_assignments({"cursor='0..53%'", "'cursor=0..53%'", "\"cursor=[0..53%)\"", "x=\"a'"});
  REQUIRE(a);
  CHECK((*a)[0] == Assignment{"cursor", "0..53%"});
  CHECK((*a)[1] == Assignment{"cursor", "0..53%"});
  CHECK((*a)[2] == Assignment{"cursor", "[0..53%)"});
  CHECK((*a)[3] == Assignment{"x", "\"a'"});  // not a matching pair: kept
}

TEST_CASE("hardware: a cursor, or a partition read by a kernel, is refused at its line (hw-scenario)") {
  auto plan = [](const std::string& yaml, const std::string& scenario) {
    auto w = parse_workload_text(yaml, "cursors.yaml");
    REQUIRE(w);
    RunOptions o;
    o.scenario = scenario;
    auto p = plan_workload(*w, o);
    return p ? std::string("(planned)") : p.error();
  };
  const std::string y = coverage();
  CHECK(plan(y, "ordinals").find("cursors.yaml:") != std::string::npos);
  CHECK(plan(y, "ordinals").find("declares cursor 'c', which sets the cycles it runs") != std::string::npos);
  CHECK(plan(y, "ordinals").find("[hw-scenario]") != std::string::npos);
  const std::string read = plan(y, "sizes");
  CHECK(read.find("reads partition 'p', which has no hardware form") != std::string::npos);
  CHECK(read.find("[hw-scenario]") != std::string::npos);
  CHECK(plan(kRows, "all_rows") == "(planned)");  // all(rows) is the host's: the phase reads a u64
}

TEST_CASE("the partition built-ins agree on both engines (partition.rs's fixtures, one kernel)") {
  const char* text = "input cycle: u64\nextern p: Partition\nc := cardinality(p)\ns := start_of(p)\ne := end_of(p)\n"
                     "i := idx_of(p)\nm := mod_in(cycle, p)\nl := clamp_in(cycle, p)\na := at(p, cycle)\n"
                     "cursor q = range(0, 1000) over p\nr := \"{q.cursor}\"\n";
  std::map<std::string, std::vector<std::vector<ir::Value>>> seen;
  for (const bool native : {false, true}) {
    embed::KernelOptions ko;
    if (native) ko.engine = sim::native_engine();
    auto k = embed::Kernel::compile(text, ko);
    REQUIRE_MESSAGE(k, (k ? std::string() : k.error().to_string()));
    for (const ir::Partition& p : {ir::Partition{2, 100, 500, 10.0, 50.0, 1000}, ir::Partition{0, 100, 200, 0.0, 0.0, 200},
                                   ir::Partition{0, 100, 100, 0.0, 0.0, 100}, ir::Partition{1, 33, 66, 33.0, 66.0, 100}})
      for (uint64_t n : {0, 50, 99, 100, 250, 1000}) {
        REQUIRE(k->set("p", ir::partition_value(p)));
        REQUIRE(k->set("cycle", ir::Value::integer(ir::TyKind::U64, n)));
        auto out = k->evaluate();
        REQUIRE_MESSAGE(out, (out ? std::string() : out.error().to_string()));
        seen[native ? "llvm" : "interp"].push_back(*out);
      }
  }
  REQUIRE(seen["interp"].size() == 24);
  CHECK(seen["interp"] == seen["llvm"]);
  // Hand-checked: [100, 200) at n = 250 (mod_in 150, clamp_in 199, at 350); [33, 66) of 100 re-resolved
  // against the cursor's 1000 ordinals is [330, 660).
  const std::vector<ir::Value>& row = seen["interp"][1 * 6 + 4];
  auto u = [](uint64_t v) { return ir::Value::integer(ir::TyKind::U64, v); };
  CHECK(row[4] == u(150));
  CHECK(row[5] == u(199));
  CHECK(row[6] == u(350));
  CHECK(seen["interp"][3 * 6][7] == ir::Value::str("Partition(1/? [330..660) [33.00%..66.00%))"));
}
