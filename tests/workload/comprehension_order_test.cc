// The comprehension module's parser, orders, `where`, errors and caps, against
// the #[cfg(test)] modules of nb-rs's nbrs-variates/src/comprehension/{parse,order,ast}.rs,
// the listings of nb-rs's docs/sysref/18d and 18e, and values derived by hand.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/workload/comprehension_support.h"

using namespace polydat;
using namespace polydat::workload::comprehension;
using namespace polydat::workload::comprehension::test;

// ---------------------------------------------------------------------------
// parse.rs's unit vectors

TEST_CASE("comprehension: clause splitting (parse.rs split_* and parse_clause_list_* tests)") {
  const Comprehension c = parsed("profile in matching_profiles('{dataset}', '{prefix}')");
  REQUIRE(c.subspaces.size() == 1);
  REQUIRE(c.subspaces[0].size() == 1);
  CHECK(c.subspaces[0][0].exprs[0] == "matching_profiles('{dataset}', '{prefix}')");
  const Comprehension kl = parsed("k in 10, limit in 10,20,30");
  REQUIRE(kl.subspaces[0].size() == 2);
  CHECK(kl.subspaces[0][1].vars[0] == "limit");
  CHECK(kl.subspaces[0][1].exprs[0] == "10,20,30");
  CHECK(kl.subspaces[0][1].expr_at[0].offset == 18);
  CHECK(parsed("a in 1, b in 2, c in 3").subspaces[0].size() == 3);
  // where/order inside parentheses do not split (split_at_where_inside_parens_is_ignored)
  const Comprehension p = parsed("p in pick(profiles, where='ann') where {p} == 'x'");
  CHECK(p.subspaces[0][0].exprs[0] == "pick(profiles, where='ann')");
  CHECK(*p.filter == "{p} == 'x'");
  CHECK(p.filter_at.offset == 39);
  const Comprehension o = parsed("p in pick(profiles, order='ann') order lex");
  CHECK(o.subspaces[0][0].exprs[0] == "pick(profiles, order='ann')");
  CHECK(o.order->strategy == Strategy::Lex);
  const Comprehension wo = parsed("k in 1..10 where {k} > 3 order extrema/1");  // parse_comprehension_text_with_order
  CHECK(*wo.filter == "{k} > 3");
  CHECK(wo.order->strategy == Strategy::Extrema);
  CHECK(wo.order->limit == 1u);
}

TEST_CASE("comprehension: zipped clauses (parse.rs parse_clause_parallel_* tests)") {
  const Clause c = parsed("(x, y) in (1..10, 100..1000..100)").subspaces[0][0];
  CHECK(c.vars == std::vector<std::string>{"x", "y"});
  CHECK(c.exprs == std::vector<std::string>{"1..10", "100..1000..100"});
  CHECK(c.zip == ZipMode::Strict);
  CHECK(parsed("(a, b, c) in (1..3, 10..30..10, 100..300..100)").subspaces[0][0].vars.size() == 3);
  CHECK(parsed("(x, y) in (fib(8), pow2(8))").subspaces[0][0].exprs == std::vector<std::string>{"fib(8)", "pow2(8)"});
  CHECK(parsed("(x, y) in zip_truncate(1..10, fib(8))").subspaces[0][0].zip == ZipMode::Truncate);
  CHECK(parsed("(x, y) in zip_cycle(1..10, 100..1000..100)").subspaces[0][0].zip == ZipMode::Cycle);
  const auto mixed = parsed("(x, y) in (1..2, 10..20..10), z in 100..200..100").subspaces[0];
  REQUIRE(mixed.size() == 2);
  CHECK(mixed[0].zipped());
  CHECK(mixed[1].vars[0] == "z");
  CHECK(error_of("(x, y) in 1..10").message.find("not supported") != std::string::npos);
  CHECK(error_of("x in (1..10, 2..3)").message.find("parentheses") != std::string::npos);
  CHECK(error_of("(x, y, z) in (1..10, 1..20)").message.find("3 variables but 2 expressions") != std::string::npos);
  CHECK(error_of("(x) in (1..10)").message.find("two variables") != std::string::npos);
  CHECK(error_of("(x, 9b) in (1..10, 1..10)").message.find("not a variable name") != std::string::npos);
}

TEST_CASE("comprehension: zip modes (18e, Layer 7a: strict, truncate, cycle)") {
  CHECK(lines("(x, y) in zip_truncate(1..=4, [a, b])") == Lines{"x=1 y=a", "x=2 y=b"});
  CHECK(lines("(x, y) in zip_cycle(1..=4, [a, b])") == Lines{"x=1 y=a", "x=2 y=b", "x=3 y=a", "x=4 y=b"});
  const SpecError e = error_of("(x, y) in (1..=4, [a, b])");
  CHECK(e.kind == "spec-eval");
  CHECK(e.message.find("expression 1 gives 4 values but expression 2 gives 2") != std::string::npos);
  // A zipped group is one axis of the product: 2 steps x 2 values
  CHECK(lines("(x, y) in (1..=2, [a, b]), z in 5, 6") == Lines{"x=1 y=a z=5", "x=1 y=a z=6", "x=2 y=b z=5", "x=2 y=b z=6"});
  // zip_cycle with an empty column has nothing to repeat: the clause is empty
  Run r;
  CHECK(r.of("(x, y) in zip_cycle(1..=4, [])")->empty());
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].kind == "empty-clause");
}

TEST_CASE("comprehension: order specs (parse.rs parse_order_spec_* tests)") {
  auto order = [](std::string_view t) {
    auto o = parse_order(t);
    REQUIRE_MESSAGE(o, t << ": " << o.error().to_string());
    return *o;
  };
  CHECK(order("lex").strategy == Strategy::Lex);
  CHECK_FALSE(order("lex").limit);
  CHECK(order("extrema").strategy == Strategy::Extrema);
  CHECK(order("shells").origin == ShellOrigin::Outer);
  CHECK(order("extrema/1").limit == 1u);
  CHECK(order("shells/2").limit == 2u);
  CHECK(order("halton/64").strategy == Strategy::Halton);
  CHECK(order("lex/100").limit == 100u);
  const Order sh = order("shells(origin=center, depth=3)");
  CHECK(sh.origin == ShellOrigin::Center);
  CHECK(sh.limit == 3u);
  const Order l = order("lhs(count=20, seed=42)");
  CHECK(l.strategy == Strategy::Lhs);
  CHECK(l.limit == 20u);
  CHECK(l.seed == 42u);
  const Order sf = order("space_filling(sobol, count=64)");
  CHECK(sf.strategy == Strategy::Sobol);
  CHECK(sf.limit == 64u);
  CHECK(order("custom(my_fn)").function == "my_fn");
  CHECK(order("reverse_lex/3").strategy == Strategy::ReverseLex);
  CHECK(order("extrema(strata=2)").limit == 2u);
  // Refusals, each located in the order's text
  CHECK(parse_order("zigzag").error().message.find("not an order") != std::string::npos);
  CHECK(parse_order("lex/x").error().message.find("whole number") != std::string::npos);
  CHECK(parse_order("custom").error().message.find("custom(NAME)") != std::string::npos);
  CHECK(parse_order("").error().message.find("empty") != std::string::npos);
  const SpecError bad_key = parse_order("shells(depth=2, count=3)").error();  // nb-rs ignores unknown keys; we refuse
  CHECK(bad_key.message.find("takes depth, origin") != std::string::npos);
  CHECK(bad_key.at.part == Part::Order);
  CHECK(bad_key.at.offset == 16);
  CHECK(parse_order("shells(origin=middle)").error().message.find("outer, center or corner") != std::string::npos);
  CHECK(parse_order("lex(count=1, count=2)").error().message.find("twice") != std::string::npos);
  CHECK(parse_order("halton(count=5, seed=1)").error().message.find("not `seed`") != std::string::npos);
  CHECK(parse_order("space_filling(zigzag)").error().message.find("halton, sobol or lhs") != std::string::npos);
  // inline: the order's offset is where its spec starts in the spec text
  CHECK(error_of("k in 1..3 order zigzag").at.offset == 16);
}

TEST_CASE("comprehension: union detection and coordinates (parse.rs comprehension_from_subspaces_*, ast.rs tests)") {
  const Comprehension c = parsed("k in {k_values}, limit in {k_{k}_limits}");
  CHECK_FALSE(c.is_union());
  CHECK(coordinate_names(c) == std::vector<std::string>{"k", "limit"});
  const Comprehension u = entries({"k in 10, limit in 10,20,30", "k in 100, limit in 100,200,300"});
  CHECK(u.is_union());
  CHECK(coordinate_names(u) == std::vector<std::string>{"k", "limit"});  // first occurrence, once each
  CHECK(coordinate_names(entries({"a in 1", "b in 2"})) == std::vector<std::string>{"a", "b"});
  // Inline, a clause binding a variable again starts the next sub-space (18e, "the inference path")
  const Comprehension inl = parsed("k in 10, limit in 10,20, k in 100, limit in 100,200");
  REQUIRE(inl.subspaces.size() == 2);
  CHECK(lines_of(inl) == Lines{"k=10 limit=10", "k=10 limit=20", "k=100 limit=100", "k=100 limit=200"});
  CHECK(parsed("k in 1, k in 2 where {k} > 0").is_union());
  CHECK(lines("k in 1, k in 2 where {k} > 1") == Lines{"k=2"});
  // A zipped group's variables count: `y` again starts a sub-space
  CHECK(parsed("(x, y) in (1..3, 4..6), y in 7").is_union());
  // One entry binding a name twice is an error (nb-rs would emit tuples with two `x`s)
  const SpecError twice = parse_entries({"k in 1", "x in 1, x in 2"}).error();
  CHECK(twice.at.part == Part::Entry);
  CHECK(twice.at.entry == 1);
  CHECK(twice.at.offset == 8);
}

TEST_CASE("comprehension: orders on unions (parse.rs union_plus_* tests; ast.rs check_order_for_mode)") {
  for (const char* s : {"k in 10, k in 100 order extrema/1", "k in 10, l in 100, k in 200, l in 400 order halton/64",
                        "k in 10, k in 100 order shells/2", "k in 1, k in 2 order reverse_lex",
                        "k in 1, k in 2 order diagonal", "k in 1, k in 2 order antidiagonal",
                        "k in 1, k in 2 order sobol", "k in 1, k in 2 order lhs"}) {
    auto c = parse(s);
    REQUIRE_FALSE_MESSAGE(c, s);
    CHECK(c.error().kind == "bad-spec");
    CHECK(c.error().message.find("union") != std::string::npos);
  }
  CHECK(lines("k in 10, k in 100, k in 1000 order lex/2") == Lines{"k=10", "k=100"});  // lex truncates the concatenation
  CHECK(parse("k in 10, k in 100 order custom(my_fn)"));  // parses; evaluation says it is unsupported
  CHECK(error_of("k in 10, k in 100 order custom(my_fn)").kind == "spec-unsupported");
  CHECK(parsed("k in 1..10, l in 1..10 order extrema/1").order->strategy == Strategy::Extrema);
  Comprehension u = entries({"k in 1", "k in 2"});
  const auto st = set_order(u, "extrema");
  REQUIRE_FALSE(st);
  CHECK_FALSE(u.order);
  CHECK(set_order(u, "lex/1"));
  CHECK(lines_of(u) == Lines{"k=1"});
}

// ---------------------------------------------------------------------------
// Orders: order.rs's 3x3 vectors, 18d's listings, and halton/lhs against
// an independent transcription of order.rs (a Python script run once; its
// outputs are the literals below).

namespace {
const char* const k3x3 = "x in 1..=3, y in 1..=3";
Lines xy(std::initializer_list<std::pair<int, int>> ps) {
  Lines out;
  for (auto [x, y] : ps) out.push_back("x=" + std::to_string(x) + " y=" + std::to_string(y));
  return out;
}
Lines ordered(const std::string& spec, const std::string& order) { return lines(spec + " order " + order); }
}  // namespace

TEST_CASE("comprehension: lex, reverse_lex, diagonal, antidiagonal (order.rs tests; 18d listings)") {
  CHECK(ordered(k3x3, "lex") == lines(k3x3));
  CHECK(ordered(k3x3, "lex/4") == xy({{1, 1}, {1, 2}, {1, 3}, {2, 1}}));
  CHECK(ordered(k3x3, "reverse_lex") == xy({{1, 1}, {2, 1}, {3, 1}, {1, 2}, {2, 2}, {3, 2}, {1, 3}, {2, 3}, {3, 3}}));
  // 18d "diagonal": diag 0 (1,a); 1: (1,b) (2,a); 2: (1,c) (2,b) (3,a); 3: (2,c) (3,b); 4: (3,c)
  CHECK(lines("x in 1..=3, y in a,b,c order diagonal") ==
        Lines{"x=1 y=a", "x=1 y=b", "x=2 y=a", "x=1 y=c", "x=2 y=b", "x=3 y=a", "x=2 y=c", "x=3 y=b", "x=3 y=c"});
  // 18d "antidiagonal": the mirror, ties in reverse lex order
  CHECK(lines("x in 1..=3, y in a,b,c order antidiagonal") ==
        Lines{"x=3 y=c", "x=3 y=b", "x=2 y=c", "x=3 y=a", "x=2 y=b", "x=1 y=c", "x=2 y=a", "x=1 y=b", "x=1 y=a"});
  CHECK(ordered(k3x3, "diagonal/3") == xy({{1, 1}, {1, 2}, {2, 1}}));
}

TEST_CASE("comprehension: extrema (order.rs extrema_* tests; 18d's 3x3x3 strata)") {
  CHECK(ordered(k3x3, "extrema") == xy({{1, 1}, {1, 3}, {3, 1}, {3, 3}, {1, 2}, {2, 1}, {2, 3}, {3, 2}, {2, 2}}));
  CHECK(ordered(k3x3, "extrema/1") == xy({{1, 1}, {1, 3}, {3, 1}, {3, 3}}));
  // 18d: corners (8), edges (12), faces (6), interior (1), each stratum in lex order
  const Lines cube = lines("a in 0..=2, b in 0..=2, c in 0..=2 order extrema");
  auto abc = [](const char* s) { return std::string("a=") + s[0] + " b=" + s[1] + " c=" + s[2]; };
  Lines want;
  for (const char* s : {"000", "002", "020", "022", "200", "202", "220", "222", "001", "010", "012", "021", "100", "102",
                        "120", "122", "201", "210", "212", "221", "011", "101", "110", "112", "121", "211", "111"})
    want.push_back(abc(s));
  CHECK(cube == want);
  CHECK(lines("a in 0..=2, b in 0..=2, c in 0..=2 order extrema/2").size() == 20);
  // Two-value axes are all extreme: extrema changes nothing
  CHECK(lines("x in 1..3, y in 1..3 order extrema") == lines("x in 1..3, y in 1..3"));
}

TEST_CASE("comprehension: shells (order.rs shells_* tests; 18d's 5x5 and 10x10x10)") {
  const Lines outer = ordered(k3x3, "shells");
  REQUIRE(outer.size() == 9);
  CHECK(outer.back() == "x=2 y=2");
  CHECK(ordered(k3x3, "shells/1").size() == 8);
  CHECK(ordered(k3x3, "shells(origin=center)").front() == "x=2 y=2");
  // 18d: a 5x5 grid from the center: 1, then 8, then the 16 of the boundary
  const Lines center = lines("x in 0..5, y in 0..5 order shells(origin=center)");
  CHECK(center.front() == "x=2 y=2");
  CHECK(lines("x in 0..5, y in 0..5 order shells(origin=center, depth=2)").size() == 9);
  CHECK(std::set<std::string>(center.begin() + 9, center.end()).size() == 16);
  CHECK(lines("x in 0..5, y in 0..5 order shells(origin=outer, depth=1)").size() == 16);
  CHECK(lines("x in 0..5, y in 0..5 order shells").back() == "x=2 y=2");
  // corner: L-infinity from (0, 0): the max index
  CHECK(lines("x in 0..3, y in 0..3 order shells(origin=corner, depth=2)") ==
        Lines{"x=0 y=0", "x=0 y=1", "x=1 y=0", "x=1 y=1"});
  // 18d's worked example: the boundary of a 10x10x10 cube is 1000 - 8^3 = 488 tuples
  CHECK(lines("k in 1..=10, l in 1..=10, c in 1..=10 order shells/1").size() == 488);
}

TEST_CASE("comprehension: halton and lhs (order.rs halton_*/lhs_* tests; a transcription of order.rs for the literals)") {
  CHECK(ordered(k3x3, "halton/4") == xy({{2, 2}, {1, 2}, {2, 1}, {1, 1}}));  // also derived by hand
  CHECK(lines("x in 0..4, y in 0..5 order halton/6") ==
        Lines{"x=2 y=1", "x=1 y=3", "x=2 y=0", "x=0 y=2", "x=2 y=3", "x=1 y=1"});
  CHECK(lines("a in 0..3, b in 0..3, c in 0..2 order halton") ==
        Lines{"a=1 b=1 c=0", "a=0 b=1 c=0", "a=1 b=0 c=1", "a=0 b=1 c=1", "a=1 b=2 c=0", "a=1 b=0 c=0",
              "a=2 b=1 c=0", "a=0 b=2 c=1", "a=2 b=0 c=1", "a=0 b=0 c=0", "a=2 b=2 c=0", "a=0 b=0 c=1",
              "a=1 b=1 c=1", "a=1 b=2 c=1", "a=2 b=0 c=0", "a=0 b=2 c=0", "a=2 b=2 c=1", "a=2 b=1 c=1"});
  CHECK(ordered(k3x3, "halton/100").size() == 9);  // halton_count_larger_than_set_emits_all_and_stops
  CHECK(ordered(k3x3, "lhs/4") == xy({{2, 2}, {3, 2}, {2, 1}, {1, 3}}));  // seed 0
  CHECK(ordered(k3x3, "lhs(count=4, seed=1)") == xy({{2, 2}, {2, 3}, {1, 1}, {3, 2}}));
  CHECK(ordered(k3x3, "lhs(count=4, seed=42)") == xy({{2, 2}, {2, 1}, {1, 1}, {3, 3}}));
  CHECK(lines("x in 0..4, y in 0..5 order space_filling(lhs, count=6, seed=7)") ==
        Lines{"x=3 y=2", "x=1 y=2", "x=2 y=1", "x=2 y=3", "x=1 y=0", "x=0 y=4"});
  const Lines all = ordered(k3x3, "lhs");  // lhs_count_none_emits_every_tuple
  CHECK(std::set<std::string>(all.begin(), all.end()).size() == 9);
  // sobol_returns_clear_error_pointing_at_alternatives
  const SpecError sobol = error_of("x in 1..=3 order sobol/4");
  CHECK(sobol.kind == "spec-unsupported");
  CHECK(sobol.message.find("halton") != std::string::npos);
  CHECK(sobol.at.offset == 17);
}

TEST_CASE("comprehension: orders after where keep the lattice places (18e, index-space contract)") {
  // Corners of the 3x3 lattice: (1,1) (1,3) (3,1) (3,3); dropping (1,1) leaves three, edges follow
  CHECK(lines("x in 1..=3, y in 1..=3 where {x} + {y} > 2 order extrema/1") == xy({{1, 3}, {3, 1}, {3, 3}}));
  CHECK(lines("x in 1..=3, y in 1..=3 where {x} != 2 order reverse_lex") ==
        xy({{1, 1}, {3, 1}, {1, 2}, {3, 2}, {1, 3}, {3, 3}}));
  CHECK(lines("x in 1..=3, y in 1..=3 where {x} * {y} == 0 order extrema").empty());
}

// ---------------------------------------------------------------------------
// where

TEST_CASE("comprehension: the where predicate") {
  // Truthiness (18c layer 4, eval.rs enumerate_into): bool, or a nonzero u64/f64
  CHECK(lines("k in 1..=6 where {k} % 3") == Lines{"k=1", "k=2", "k=4", "k=5"});
  CHECK(lines("k in 1..=3 where {k} - 2.0") == Lines{"k=1", "k=3"});
  CHECK(lines("k in 1..=4 where ({k} > 1) & ({k} < 4)") == Lines{"k=2", "k=3"});
  // Bare names read the tuple (and then the outer names): nb-rs's parse tests write `where k * limit < 1000`
  embed::MapLookup outer;
  outer.set("threshold", uint64_t{15});
  CHECK(lines("k in 10, 100, limit in 1, 10 where k * limit < 1000", outer) ==
        Lines{"k=10 limit=1", "k=10 limit=10", "k=100 limit=1"});
  CHECK(lines("k in 5..30..5 where k > threshold", outer) == Lines{"k=20", "k=25"});
  CHECK(lines("k in 5..30..5 where {k} > {threshold}", outer) == Lines{"k=20", "k=25"});
  // strings: the placeholder is the value's text, quoted by the predicate itself
  CHECK(lines("p in ann, exact, scan where \"{p}\" != \"exact\"") == Lines{"p=ann", "p=scan"});
  CHECK(lines("p in ann, exact where p == 'ann'") == Lines{"p=ann"});
  // errors, located at the predicate
  const SpecError str = error_of("k in 1..3 where \"yes\"");
  CHECK(str.kind == "spec-eval");
  CHECK(str.message.find("not true/false or a number") != std::string::npos);
  CHECK(str.at.offset == 16);
  const SpecError unbound = error_of("k in 1..3 where {k} > {nope}");
  CHECK(unbound.message.find("nope") != std::string::npos);
  CHECK(unbound.at.offset == 22);  // the `{nope}`
  CHECK(error_of("k in 1..3 where k > nope").message.find("no value for `nope`") != std::string::npos);
  Comprehension c = parsed("k in 1..3 where {k} > 1");
  CHECK(set_where(c, "{k} > 2").error().message.find("inline `where`") != std::string::npos);
  CHECK(error_of("k in 1..3 where ").message.find("without a predicate") != std::string::npos);
}

// ---------------------------------------------------------------------------
// Names in clause expressions, empty clauses, located errors, caps

TEST_CASE("comprehension: names in clause expressions") {
  embed::MapLookup outer;
  outer.set("n", uint64_t{3}).set("k", uint64_t{7}).set("list", "a, b");
  CHECK(lines("x in 1..=n", outer) == seq(1, 4, "x"));          // a bare name in a bound
  CHECK(lines("x in fib(n)", outer) == Lines{"x=1", "x=1", "x=2"});
  CHECK(lines("x in k * 2", outer) == Lines{"x=14"});           // an expression reading a name
  CHECK(lines("x in k", outer) == Lines{"x=k"});                // a bare word is text (nb-rs), not the name
  CHECK(lines("x in {k}", outer) == Lines{"x=7"});
  CHECK(lines("x in {list}, y in {x}1", outer) == Lines{"x=a y=a1", "x=b y=b1"});
  CHECK(lines("x in 1..=2, y in {x}..=2") == Lines{"x=1 y=1", "x=1 y=2", "x=2 y=2"});
  CHECK(lines("x in 1..=2, y in 0..x") == Lines{"x=1 y=0", "x=2 y=0", "x=2 y=1"});  // an earlier clause, bare
  // An earlier clause shadows an outer name of its name
  CHECK(lines("n in 1, 2, y in {n}", outer) == Lines{"n=1 y=1", "n=2 y=2"});
  // Anything that is not literals and fails as an expression is an error, never split as text
  // (eval.rs function_call_eval_failure_is_not_silently_split)
  const SpecError e = error_of("x in nonexistent_func('a', 'b', 'c')");
  CHECK(e.kind == "spec-eval");
  CHECK(e.at.offset == 5);
  CHECK(error_of("x in a + b, c").message.find("neither a list of literals") != std::string::npos);
  CHECK(error_of("x in 1, 2,").message.find("empty item") != std::string::npos);
}

TEST_CASE("comprehension: empty clauses warn, or fail when strict (18_control_flow.md, empty iteration sources)") {
  Run r;
  CHECK(r.of("x in 1..=3, y in {x}..3")->size() == 3);  // x=3 gives 3..3: nothing
  REQUIRE(r.warnings.size() == 1);                      // once per clause
  CHECK(r.warnings[0].kind == "empty-clause");
  CHECK(r.warnings[0].message.find("`y`") != std::string::npos);
  CHECK(r.warnings[0].at.offset == 12);
  Run strict;
  strict.strict = true;
  const auto failed = strict.of("x in 1..=3, y in {x}..3");
  REQUIRE_FALSE(failed);
  CHECK(failed.error().kind == "empty-clause");
  // a union's empty sub-space drops out, the others run
  Run u;
  CHECK(*u.of("k in 1, k in 5..5, k in 3") == Lines{"k=1", "k=3"});
  CHECK(u.warnings.size() == 1);
}

TEST_CASE("comprehension: located parse errors") {
  struct Case {
    const char* spec;
    size_t offset;
    const char* message;
  };
  for (const Case& c : {
           Case{"x 1..3", 0, "a clause reads"},
           Case{"x in f(1, y in 2", 6, "never closed"},
           Case{"x in 1), y in 2", 6, "closes nothing"},
           Case{"x in 'abc, y in 2", 5, "quote that is never closed"},
           Case{"x in 1..3, (a, b) in 1..3", 21, "not supported"},
           Case{"x in 1..3, 9b in 1..3", 5, "clause `x`: parse error"},  // `9b in` starts no clause
           Case{"x in 1..3, y in 2 order", 18, "without a strategy"},
           Case{"x in 1..3 where", 10, "without a predicate"},
           Case{"x in", 2, "no expression after `in`"},
           Case{"a b in 1..3", 0, "a clause reads"},
           Case{"x in 1, (a b) in (1, 2)", 9, "not a variable name"},
           Case{"x in 1..3 order lex/q", 20, "whole number"},
       }) {
    const std::string spec = c.spec;
    CAPTURE(spec);
    const SpecError e = error_of(spec);
    CAPTURE(e.message);
    CHECK(e.at.offset == c.offset);
    CHECK(e.message.find(c.message) != std::string::npos);
  }
  const SpecError entry = parse_entries({"x in 1", "y in 1..3 where {y} > 1"}).error();
  CHECK(entry.at.part == Part::Entry);
  CHECK(entry.at.entry == 1);
  CHECK(entry.at.offset == 10);
  CHECK(entry.message.find("`where:` key") != std::string::npos);
  CHECK(parse_entries({"x in 1", "  "}).error().at.entry == 1);
  CHECK(parse_entries({}).error().kind == "bad-spec");
  CHECK(entry.to_string() == "byte 10 of entry 1: " + entry.message + " [bad-spec]");
}

TEST_CASE("comprehension: located evaluation errors") {
  const SpecError step = error_of("x in 1..3, y in 1..{x}..0");
  CHECK(step.at.offset == 16);
  CHECK(step.message.find("clause `y`") != std::string::npos);
  CHECK(step.kind == "spec-eval");
  const SpecError unbound = error_of("x in 1..3, y in {x}..{nope}");
  CHECK(unbound.at.offset == 21);  // the placeholder
  CHECK(unbound.message.find("no value for `nope`") != std::string::npos);
  const SpecError entry = [] {
    auto r = Run{}.of(entries({"x in 1", "x in fib(a, b)"}));
    REQUIRE_FALSE(r);
    return r.error();
  }();
  CHECK(entry.at.part == Part::Entry);
  CHECK(entry.at.entry == 1);
  CHECK(entry.at.offset == 5);
  Run r;  // all() of a cursor nobody declared
  CHECK(r.of("x in all(nothing)").error().message.find("no cursor `nothing`") != std::string::npos);
  r.cursors["back"] = {5, 2};
  CHECK(r.of("x in all(back)").error().message.find("before it starts") != std::string::npos);
}

TEST_CASE("comprehension: caps (spec-too-large)") {
  CHECK(error_of("x in 0..2000000").kind == "spec-too-large");
  CHECK(error_of("x in 0..1000, y in 0..1001").kind == "spec-too-large");  // 1,001,000 tuples
  CHECK(error_of("x in 0.0..1.0..0.0000001").kind == "spec-too-large");
  CHECK(error_of("x in fib(2000000)").kind == "spec-too-large");
  CHECK(error_of("x in cycle(1..=1000, 1001)").kind == "spec-too-large");
  CHECK(error_of("x in bucket([a], [1000001])").kind == "spec-too-large");
  CHECK(error_of("x in geometric_until(1, 1.0000001, 1e300)").kind == "spec-too-large");
  Run r;
  r.cursors["big"] = {0, 5'000'000};
  CHECK(r.of("x in all(big)").error().kind == "spec-too-large");
  std::string nested = "1";
  for (int i = 0; i < 70; ++i) nested = "concat(" + nested + ")";
  CHECK(error_of("x in " + nested).kind == "spec-too-large");
  std::string many;
  for (int i = 0; i < 65; ++i) many += (many.empty() ? "" : ", ") + std::string("v") + std::to_string(i) + " in 1";
  CHECK(error_of(many).kind == "spec-too-large");
  CHECK(error_of(std::string(kMaxTextBytes + 1, ' ')).kind == "spec-too-large");
  CHECK(lines("x in 0..1000 order halton").size() == 1000);              // 10^6 comparisons
  CHECK(error_of("x in 0..10000 order halton").kind == "spec-too-large");  // 10^8
  CHECK(error_of("x in 0..100, y in 0..100, z in 0..2 order lhs/1000").kind == "spec-too-large");  // 1000 x 20000 x 3
  CHECK(lines("x in 0..2000 order halton/10").size() == 10);
  // Clause evaluations count too: a million prefixes whose clause is empty
  Run quiet;
  CHECK(quiet.of("x in 0..1000000, y in 0..0, z in 1").error().kind == "spec-too-large");
}

TEST_CASE("comprehension: random token soup never throws and always ends") {
  // Grammar fragments glued at random (a fixed seed): every outcome must be a
  // value or a SpecError, never an exception; sizes stay small so it is quick.
  const std::vector<std::string> tokens = {
      "x", "y", " in ", ", ", "(", ")", "[", "]", "{", "}", "{x}", "{n}", "\\{", "..", "..=", "1", "3", "0.5", "-1",
      "2 * ", "'a'", "\"b\"", "'", "\"", " where ", " order ", "lex/2", "extrema", "shells(origin=center)", "halton/3",
      "fib(", "concat(", "unique(", "bucket(\"2:a, 1:b\")", "zip_cycle(", "all(row)", "5m", "true", "k_{x}_l",
      "reverse(", "take(", ", 1)", "subdivide(0, 1, 3)", "(a, b) in ", " x in ", "=", "/", " ", "\t"};
  embed::MapLookup names;
  names.set("n", uint64_t{2}).set("k_1_l", "1, 2");
  uint64_t state = 12345;
  auto next = [&] {  // splitmix64
    state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  };
  size_t accepted = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string spec = next() % 4 ? "x in " : "";
    for (uint64_t n = 1 + next() % 8; n-- > 0;) spec += tokens[next() % tokens.size()];
    CAPTURE(spec);
    Run r;
    r.names = &names;
    r.cursors["row"] = {0, 4};
    bool ok = false;
    CHECK_NOTHROW(ok = r.of(spec).ok());
    accepted += ok;
  }
  CHECK(accepted > 150);  // the soup does reach evaluation, not only the parser's refusals
}

TEST_CASE("comprehension: a hand-built AST is checked before it runs") {
  Comprehension c;
  CHECK(Run{}.of(c).error().message.find("no clauses") != std::string::npos);
  Clause x;
  x.vars = {"x"};
  x.exprs = {"1..3"};
  x.expr_at = {Place{}};
  c.subspaces = {{x, x}};
  CHECK(Run{}.of(c).error().message.find("bound twice") != std::string::npos);
  c.subspaces = {{x}};
  CHECK(*Run{}.of(c) == Lines{"x=1", "x=2"});
  c.subspaces[0][0].exprs.push_back("4");
  CHECK(Run{}.of(c).error().message.find("pair up") != std::string::npos);
}
