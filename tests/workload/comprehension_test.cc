// The comprehension module (workload/comprehension.h) against nb-rs's own
// vectors: the scenarios of nb-rs's examples/workloads/comprehension_coverage.yaml
// with the lines nbrs/tests/comprehension.rs expects, nbrs/tests/m3_dependent_for_each.rs,
// and the #[cfg(test)] module of nbrs-variates/src/comprehension/eval.rs (each
// test names the one it takes its values from): clause expressions, literals,
// SI suffixes, interpolation, names. comprehension_order_test.cc has the
// parser, the orders, `where`, the errors and the caps.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/workload/comprehension_support.h"
#include "workload/comprehension_detail.h"

using namespace polydat;
using namespace polydat::workload::comprehension;
using namespace polydat::workload::comprehension::test;

// ---------------------------------------------------------------------------
// comprehension_coverage.yaml's scenarios, with nbrs/tests/comprehension.rs's lines.
// nb-rs compares most of them sorted; the order here is the enumeration order
// (rightmost clause fastest, nb-rs's enumerate_into).

TEST_CASE("comprehension coverage: forms (comprehension_form_* in nbrs/tests/comprehension.rs)") {
  // form_single_var, form_for_keyword_synonym: "x in 1,2,3"
  CHECK(lines("x in 1,2,3") == Lines{"x=1", "x=2", "x=3"});
  // form_inline_cartesian: 3 x 2 = 6 tuples
  CHECK(lines("x in 1,2,3, y in a,b") == Lines{"x=1 y=a", "x=1 y=b", "x=2 y=a", "x=2 y=b", "x=3 y=a", "x=3 y=b"});
  // form_array_cartesian: the list form with distinct names is the same product
  const Comprehension array = entries({"x in 1,2,3", "y in a,b"});
  CHECK_FALSE(array.is_union());
  CHECK(lines_of(array) == lines("x in 1,2,3, y in a,b"));
  // form_array_single_entry_multi_clause
  CHECK(lines_of(entries({"x in 1,2,3, y in a,b"})) == lines("x in 1,2,3, y in a,b"));
  // form_repeated_var_union: three one-tuple sub-spaces
  const Comprehension repeated = entries({"x in 1", "x in 2", "x in 3"});
  CHECK(repeated.is_union());
  CHECK(lines_of(repeated) == Lines{"x=1", "x=2", "x=3"});
  CHECK(lines("x in 1, x in 2, x in 3") == Lines{"x=1", "x=2", "x=3"});  // 18_control_flow.md form 5, inline
  // form_subspace_union: 6 tuples, not the 18 of a product
  CHECK(lines_of(entries({"x in 10,  y in a,b,c", "x in 100, y in d,e,f"})) ==
        Lines{"x=10 y=a", "x=10 y=b", "x=10 y=c", "x=100 y=d", "x=100 y=e", "x=100 y=f"});
}

TEST_CASE("comprehension coverage: where (comprehension_where_*_filter)") {
  // where_cartesian_filter: 2 x 4 candidates, k*limit < 1000 keeps four
  Comprehension c = parsed("k in 10,100, limit in 1,10,50,100");
  REQUIRE(set_where(c, "{k} * {limit} < 1000"));
  CHECK(lines_of(c) == Lines{"k=10 limit=1", "k=10 limit=10", "k=10 limit=50", "k=100 limit=1"});
  // where_union_filter: the one predicate applies to every sub-space
  Comprehension u = entries({"k in 1,2,3", "k in 10,20,30"});
  REQUIRE(set_where(u, "{k} > 2"));
  CHECK(lines_of(u) == Lines{"k=3", "k=10", "k=20", "k=30"});
  // The inline form is the same comprehension (18c, "Canonical text form vs YAML sugar").
  CHECK(lines("k in 10,100, limit in 1,10,50,100 where {k} * {limit} < 1000") == lines_of(c));
}

TEST_CASE("comprehension coverage: ranges (comprehension_range_*)") {
  CHECK(values("n in 1..5") == Lines{"1", "2", "3", "4"});  // not one value "1..5"
  CHECK(values("n in 1..=5") == Lines{"1", "2", "3", "4", "5"});
  CHECK(values("n in 1..10..2") == Lines{"1", "3", "5", "7", "9"});
  CHECK(values("n in 1..=10..2") == Lines{"1", "3", "5", "7", "9"});  // 10 is not on the step from 1
}

TEST_CASE("comprehension coverage: generators (comprehension_gen_*)") {
  CHECK(values("n in fib(7)") == Lines{"1", "1", "2", "3", "5", "8", "13"});  // sum 33
  CHECK(values("n in pow2(6)") == Lines{"1", "2", "4", "8", "16", "32"});
  // geometric gives f64s, printed as nb-rs prints floats (no trailing .0)
  CHECK(values("n in geometric(1, 2, 5)") == Lines{"1", "2", "4", "8", "16"});
  // start + step * i: 0.2 * 3 is 0.6000000000000001 in IEEE doubles, as nb-rs prints it
  CHECK(values("n in subdivide(0.0, 1.0, 5)") == Lines{"0", "0.2", "0.4", "0.6000000000000001", "0.8"});
  CHECK(values("n in linear_steps(0, 100, 5)") == Lines{"0", "25", "50", "75", "100"});
}

TEST_CASE("comprehension coverage: set operations (comprehension_setop_*)") {
  CHECK(values("n in unique(1..=3, 3..=5)") == Lines{"1", "2", "3", "4", "5"});
  CHECK(values("n in intersect(1..=3, 2..=4)") == Lines{"2", "3"});
  CHECK(values("n in subtract(1..=4, 2..=4..2)") == Lines{"1", "3"});
}

TEST_CASE("comprehension coverage: order lex/5, zip, all(cursor), dependent clauses") {
  Comprehension c = parsed("n in 1..=10");  // order_lex_with_truncation: the sibling `order:` key
  REQUIRE(set_order(c, "lex/5"));
  CHECK(lines_of(c) == seq(1, 6, "n"));
  // tuple_lhs_zip_strict
  CHECK(lines("(a, b) in (1..=3, 10..=30..10)") == Lines{"a=1 b=10", "a=2 b=20", "a=3 b=30"});
  // cursor_all_*: `cursor row = range(0, 50)`
  Run r;
  r.cursors["row"] = {0, 50};
  CHECK(*r.of("xval in all(row)") == seq(0, 50, "xval"));
  CHECK(*r.of("xval in all(row) where {xval} % 10 == 0") == Lines{"xval=0", "xval=10", "xval=20", "xval=30", "xval=40"});
  CHECK(*r.of("xval in all(row) order lex/5") == seq(0, 5, "xval"));
  // dependent_clauses: params k_values "1, 10", k_1_limits "1, 2", k_10_limits "10, 20, 30"
  embed::MapLookup params;
  params.set("k_values", "1, 10").set("k_1_limits", "1, 2").set("k_10_limits", "10, 20, 30");
  CHECK(lines("k in {k_values}, limit in {k_{k}_limits}", params) ==
        Lines{"k=1 limit=1", "k=1 limit=2", "k=10 limit=10", "k=10 limit=20", "k=10 limit=30"});
}

TEST_CASE("comprehension: nbrs/tests/m3_dependent_for_each.rs") {
  embed::MapLookup params;  // dependent_tuple_with_dynamic_name_composition: 4 + 3 tuples
  params.set("k_values", "1, 10").set("k_1_limits", "100, 200, 300, 400").set("k_10_limits", "1000, 2000, 3000");
  CHECK(lines("k in {k_values}, limit in {k_{k}_limits}", params) ==
        Lines{"k=1 limit=100", "k=1 limit=200", "k=1 limit=300", "k=1 limit=400", "k=10 limit=1000",
              "k=10 limit=2000", "k=10 limit=3000"});
  embed::MapLookup p2;  // multi_clause_independent_cartesian_product: 3 x 2
  p2.set("alphas", "a, b, c").set("nums", "1, 2");
  CHECK(lines("alpha in {alphas}, num in {nums}", p2) ==
        Lines{"alpha=a num=1", "alpha=a num=2", "alpha=b num=1", "alpha=b num=2", "alpha=c num=1", "alpha=c num=2"});
  // for_each_union_across_subspaces: {1,2} x {a,b}, then {9} x {z}
  CHECK(lines_of(entries({"x in 1, 2, y in a, b", "x in 9, y in z"})) ==
        Lines{"x=1 y=a", "x=1 y=b", "x=2 y=a", "x=2 y=b", "x=9 y=z"});
  CHECK(values("k in 1, 2, 3") == Lines{"1", "2", "3"});  // phase_with_for_each_and_bindings...
}

// ---------------------------------------------------------------------------
// eval.rs's unit vectors

TEST_CASE("comprehension: ranges (eval.rs range_* tests)") {
  CHECK(values("x in 0..100..10") == Lines{"0", "10", "20", "30", "40", "50", "60", "70", "80", "90"});
  CHECK(values("x in 0..=100..25") == Lines{"0", "25", "50", "75", "100"});
  CHECK(values("x in 0.0..=1.0..0.25") == Lines{"0", "0.25", "0.5", "0.75", "1"});  // range_float_step
  CHECK(values("x in 5..5").empty());
  CHECK(values("x in 5..=5") == Lines{"5"});
  CHECK(values("x in 1K..1K..200").empty());  // range_with_si_suffix_bounds
  CHECK(values("x in 0..1K..200") == Lines{"0", "200", "400", "600", "800"});
  CHECK(values("x in (1)..(5)") == Lines{"1", "2", "3", "4"});  // range_inside_parens_doesnt_split
  CHECK(error_of("x in 1..10..0").message.find("step is 0") != std::string::npos);
  CHECK(error_of("x in 1..2..3..4").message.find("more than two") != std::string::npos);
  CHECK(error_of("x in 1..10..=2").message.find("only the first") != std::string::npos);
  embed::MapLookup bounds;  // range_with_kernel_referenced_bounds
  bounds.set("lo", uint64_t{5}).set("hi", uint64_t{12});
  CHECK(lines("x in {lo}..{hi}", bounds) == seq(5, 12, "x"));
  // 18c's examples: a descending range, subdivision by the step, a float walk
  CHECK(values("x in 10..1..-1") == Lines{"10", "9", "8", "7", "6", "5", "4", "3", "2"});
  CHECK(values("x in 0..100..(100/5)") == Lines{"0", "20", "40", "60", "80"});
  CHECK(values("x in 0..=100..(100/4)") == Lines{"0", "25", "50", "75", "100"});
  CHECK(values("x in 5..2..1").empty());  // the step's direction does not reach the end
  // a float range accumulates its step, ends compared within 1e-12 (0.1 * 3 drifts)
  CHECK(values("x in 0.0..=0.3..0.1") == Lines{"0", "0.1", "0.2", "0.30000000000000004"});
  CHECK(error_of("x in 2..-3..-1").message.find("negative") != std::string::npos);
  CHECK(error_of("x in a..3").kind == "spec-eval");
}

TEST_CASE("comprehension: generators (eval.rs fib/pow2/binomial/geometric/subdivide/log_steps tests)") {
  CHECK(values("x in fib(8)") == Lines{"1", "1", "2", "3", "5", "8", "13", "21"});
  CHECK(values("x in fib_until(50)") == Lines{"1", "1", "2", "3", "5", "8", "13", "21", "34"});
  CHECK(values("x in pow2_until(100)") == Lines{"1", "2", "4", "8", "16", "32", "64"});
  CHECK(values("x in binomial(5)") == Lines{"1", "5", "10", "10", "5", "1"});
  CHECK(values("x in subdivide(0, 100, 5)") == Lines{"0", "20", "40", "60", "80"});
  CHECK(values("x in subdivide_inclusive(0, 100, 5)") == Lines{"0", "25", "50", "75", "100"});
  CHECK(values("x in geometric(1, 2, 4)") == Lines{"1", "2", "4", "8"});
  CHECK(values("x in geometric_until(1, 3, 100)") == Lines{"1", "3", "9", "27", "81"});
  CHECK(values("x in geometric_until(1, 1, 100)").empty());  // not growing: none (nb-rs's guard)
  // log_steps(1, 1000, 4): exp(ln 1000 / 3 * i), within 1e-9 of the decades
  const Lines logs = values("x in log_steps(1, 1000, 4)");
  REQUIRE(logs.size() == 4);
  for (size_t i = 0; i < 4; ++i) CHECK(std::stod(logs[i]) == doctest::Approx(std::pow(10.0, i)).epsilon(1e-12));
  CHECK(error_of("x in log_steps(0, 100, 5)").message.find("positive") != std::string::npos);
  // Edges: pow2 stops at 2^63, binomial at the first coefficient past 64 bits, fib(0) is empty
  CHECK(values("x in pow2(100)").size() == 64);
  CHECK(values("x in pow2(100)").back() == "9223372036854775808");
  CHECK(values("x in binomial(70)").size() == 28);  // C(70, 28) > 2^64 - 1 >= C(70, 27) = 18208558839321176480
  CHECK(values("x in binomial(70)").back() == "18208558839321176480");
  CHECK(values("x in fib(0)").empty());
  CHECK(values("x in fib(93)").back() == "12200160415121876738");  // F(93): the largest below 2^64
  CHECK(values("x in fib(94)").back() == "18446744073709551615");  // F(94) saturates, as nb-rs's saturating_add
  // arguments are GK constant expressions
  CHECK(values("x in fib(2 + 1)") == Lines{"1", "1", "2"});
  CHECK(error_of("x in fib(1.5)").message.find("whole number") != std::string::npos);
  CHECK(error_of("x in fib(1, 2)").message.find("takes 1 argument") != std::string::npos);
}

TEST_CASE("comprehension: set operations (eval.rs concat/unique/intersect/... tests)") {
  CHECK(values("x in concat(1..4, 10..13)") == Lines{"1", "2", "3", "10", "11", "12"});
  CHECK(values("x in unique(1..4, 3..6)") == Lines{"1", "2", "3", "4", "5"});
  CHECK(values("x in intersect(1..10, 5..15)") == Lines{"5", "6", "7", "8", "9"});
  CHECK(values("x in subtract(1..6, 3..5)") == Lines{"1", "2", "5"});
  CHECK(values("x in interleave(1..4, 10..13)") == Lines{"1", "10", "2", "11", "3", "12"});
  CHECK(values("x in cycle(1..3, 3)") == Lines{"1", "2", "1", "2", "1", "2"});
  CHECK(values("x in reverse(1..5)") == Lines{"4", "3", "2", "1"});
  CHECK(values("x in take(1..10, 3)") == Lines{"1", "2", "3"});
  CHECK(values("x in skip(1..6, 2)") == Lines{"3", "4", "5"});
  const Lines u = values("x in unique(pow2(8), 1..1000..100)");  // unique_composes_with_pow2_and_range
  REQUIRE(u.size() == 17);
  CHECK(u[0] == "1");
  CHECK(u[7] == "128");
  CHECK(u[8] == "101");
  // Values compare with their types: u64 3 and f64 3 are two values (nb-rs's Value equality)
  CHECK(values("x in unique(1..=3, 3.0..=4.0)") == Lines{"1", "2", "3", "3", "4"});
  CHECK(values("x in interleave(1..=3, 10..=10)") == Lines{"1", "10", "2", "3"});
  CHECK(values("x in concat(a, b, [c, d])") == Lines{"a", "b", "c", "d"});
}

TEST_CASE("comprehension: sequencers (eval.rs bucket/concat_seq/interval_seq tests)") {
  // bucket: round robin over buckets of 3, 1 and 2 (counts as bucket_ratio_prefix_shorthand_round_robin)
  CHECK(values("x in bucket(\"3:ann, 1:scan, 2:fetch\")") == Lines{"ann", "scan", "fetch", "ann", "fetch", "ann"});
  CHECK(values("x in concat_seq(\"2:warmup, 3:bench, 1:cooldown\")") ==
        Lines{"warmup", "warmup", "bench", "bench", "bench", "cooldown"});
  // interval_seq: slot k goes to the item furthest below ratio*(k+1)/4; a tie (slot 1) to the first
  CHECK(values("x in interval_seq(\"3:read, 1:write\")") == Lines{"read", "read", "write", "read"});
  CHECK(values("x in bucket('3:ann, 1:exact')") == Lines{"ann", "exact", "ann", "ann"});  // 18c's worked example
  CHECK(values("x in bucket([a, b], [2, 1])") == Lines{"a", "b", "a"});                    // items, ratios
  CHECK(error_of("x in bucket([a, b], [2])").message.find("2 items but 1 ratios") != std::string::npos);
  CHECK(error_of("x in bucket(\"3 ann\")").message.find("RATIO:ITEM") != std::string::npos);
}

TEST_CASE("comprehension: list literals are typed (eval.rs parse_list_native_types, parse_list_mixed_types)") {
  const Comprehension c = parsed("x in 1, 1.5, true, hello");
  auto t = evaluate(c, Env{kNoNames, {}, false, {}});
  REQUIRE(t);
  REQUIRE(t->size() == 4);
  CHECK((*t)[0][0].second == ir::Value::integer(ir::TyKind::U64, 1));
  CHECK((*t)[1][0].second == ir::Value::f64(1.5));
  CHECK((*t)[2][0].second == ir::Value::boolean(true));
  CHECK((*t)[3][0].second == ir::Value::str("hello"));
  // nb-rs reads items as u64, else f64 (Rust's syntax: -1 and 1e3 are floats), else bool, else str
  auto neg = evaluate(parsed("x in -1, 1e3, inf, 007, 1_000"), Env{kNoNames, {}, false, {}});
  REQUIRE(neg);
  CHECK((*neg)[0][0].second == ir::Value::f64(-1));
  CHECK((*neg)[1][0].second == ir::Value::f64(1000));
  CHECK((*neg)[2][0].second == ir::Value::f64(INFINITY));
  CHECK((*neg)[3][0].second == ir::Value::integer(ir::TyKind::U64, 7));
  CHECK((*neg)[4][0].second == ir::Value::str("1_000"));
  CHECK(values("x in -1, 2") == Lines{"-1", "2"});
  // One item is a GK constant expression
  CHECK(values("x in 2 * 3") == Lines{"6"});
  CHECK(values("x in \"a, b\"") == Lines{"a", "b"});  // a str value is read as a list (nb-rs)
  CHECK(values("x in 'ann', 'exact'") == Lines{"ann", "exact"});
  CHECK(values("x in hello") == Lines{"hello"});
  CHECK(values("x in [10, 1000]") == Lines{"10", "1000"});  // polydat's bracket list
  CHECK(values("x in []").empty());
}

TEST_CASE("comprehension: SI suffixes (18c layer 6; nb-rs lexer.rs lex_si_* tests)") {
  CHECK(values("x in 1K, 1M, 1G, 1T, 1P") ==
        Lines{"1000", "1000000", "1000000000", "1000000000000", "1000000000000000"});
  CHECK(values("x in 1Ki, 1Mi, 1Gi, 1Ti, 1Pi") ==
        Lines{"1024", "1048576", "1073741824", "1099511627776", "1125899906842624"});
  CHECK(values("x in 5m, 5u, 5n") == Lines{"0.005", "0.000005", "0.000000005"});
  CHECK(values("x in 1.5K") == Lines{"1500"});
  CHECK(values("x in 1.5m") == Lines{"0.0015"});
  CHECK(values("x in 1K..3K..1K") == Lines{"1000", "2000"});
  CHECK(values("x in 2 * 1K") == Lines{"2000"});
  CHECK(values("x in 1Kilometers") == Lines{"1Kilometers"});  // lex_si_kilometers_stays_identifier
  CHECK(error_of("x in 100000P").message.find("64 bits") != std::string::npos);  // lex_si_overflow_errors_loud
  auto t = evaluate(parsed("x in 1.5K"), Env{kNoNames, {}, false, {}});
  REQUIRE(t);
  CHECK((*t)[0][0].second == ir::Value::integer(ir::TyKind::U64, 1500));  // lex_si_float_base_with_decimal_suffix
}

TEST_CASE("comprehension: interpolation (eval.rs interpolation tests)") {
  using workload::comprehension::detail::interpolate;
  embed::MapLookup names;
  names.set("dataset", "example").set("prefix", "label").set("k", uint64_t{1}).set("k_1_limits", "1,2,4,8");
  names.set("x", "a").set("y", "b").set("z", "c").set("a_b_c", "WIN").set("greeting", "hello {planet}");
  names.set("cyc_a", "{cyc_b}").set("cyc_b", "{cyc_a}");
  CHECK(*interpolate("matching('{dataset}', '{prefix}')", names) == "matching('example', 'label')");
  CHECK(*interpolate("{k_{k}_limits}", names) == "1,2,4,8");  // nested_placeholder_resolves_inside_out
  CHECK(*interpolate("{{x}_{y}_{z}}", names) == "WIN");        // deeply_nested
  CHECK(*interpolate("\\{not_a_var\\}", names) == "{not_a_var}");
  CHECK(*interpolate("a={k} literal=\\{k\\}", names) == "a=1 literal={k}");
  CHECK(interpolate("hello {nope}", names).error().message.find("nope") != std::string::npos);
  CHECK(interpolate("hello {nope}", names).error().offset == 6);
  CHECK(interpolate("a{}b", names).error().message.find("empty") != std::string::npos);
  CHECK(interpolate("a {x", names).error().message.find("never closed") != std::string::npos);
  CHECK(interpolate("{greeting}", names).error().message.find("planet") != std::string::npos);
  CHECK(interpolate("{cyc_a}", names).error().message.find("passes") != std::string::npos);
  // a float prints as nb-rs prints it, without a trailing .0
  names.set("f", 0.5).set("g", 2.0);
  CHECK(*interpolate("{f} {g}", names) == "0.5 2");
}

