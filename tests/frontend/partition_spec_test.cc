// The partition spec grammar, its recipes and resolution (ir/partition.h),
// on the vectors of nb-rs's unit tests (nbrs-variates/src/cursor_partition.rs,
// `mod tests`, cited by name) and values worked out here by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "ir/partition.h"

using namespace polydat::ir;

namespace {

using K = Bound::Kind;

PartitionSpec spec(const std::string& text) {
  auto s = parse_partition_spec(text);
  REQUIRE_MESSAGE(s, (s ? std::string() : s.error()));
  return *s;
}

std::string refusal(const std::string& text) {
  auto s = parse_partition_spec(text);
  return s ? std::string("(accepted)") : s.error();
}

bool is(const Bound& b, K kind, double v) { return b.kind == kind && (kind == K::Ord ? b.ord == v : b.value == v); }

// The single bound of a one-entry delta list.
Bound one(const std::string& text) {
  const PartitionSpec s = spec(text);
  REQUIRE(!s.single_range);
  REQUIRE(s.bounds.size() == 1);
  return s.bounds[0];
}

std::vector<double> pcts(const std::string& text) {
  std::vector<double> out;
  for (const Bound& b : spec(text).bounds) {
    CHECK(b.kind == K::Pct);
    out.push_back(b.value);
  }
  return out;
}

// "[a..b)" for each partition.
std::vector<std::string> ranges(const std::string& text, uint64_t extent) {
  auto p = partitions_of(text, extent);
  REQUIRE_MESSAGE(p, (p ? std::string() : p.error()));
  std::vector<std::string> out;
  for (const Partition& x : *p) out.push_back("[" + std::to_string(x.start_ord) + ".." + std::to_string(x.end_ord) + ")");
  return out;
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// Equal to within rounding: w / sum * 100 need not be the bits of w * 100 / sum.
bool near(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-12 * std::max(1.0, std::abs(b[i]))) return false;
  return true;
}

}  // namespace

TEST_CASE("partition bounds: percentages, fractions, ordinals, the remainder (parse_bound_*)") {
  CHECK(is(one("53%"), K::Pct, 53));
  CHECK(is(one("0%"), K::Pct, 0));
  CHECK(is(one("100%"), K::Pct, 100));
  CHECK(is(one("0.5%"), K::Pct, 0.5));
  CHECK(is(one("0.5"), K::Frac, 0.5));
  CHECK(is(one("0.0"), K::Frac, 0.0));
  CHECK(is(one("1.0"), K::Frac, 1.0));
  CHECK(is(one("0.123"), K::Frac, 0.123));
  CHECK(is(one("0"), K::Ord, 0));
  CHECK(is(one("100"), K::Ord, 100));
  CHECK(is(one("999999"), K::Ord, 999999));
  CHECK(one("*").kind == K::Star);
  CHECK(one("*%").kind == K::Star);
  // parse_bound_percentage_out_of_range_rejected, parse_bound_fraction_out_of_range_rejected
  CHECK(refusal("101%").find("outside 0%..100%") != std::string::npos);
  CHECK(refusal("-1%").find("outside 0%..100%") != std::string::npos);
  CHECK(refusal("1.5").find("outside 0.0..1.0") != std::string::npos);
  // Rust's number grammar: ".5" and "5." read, an exponent reads, "1e3" without a '.' is no ordinal.
  CHECK(is(one(".5"), K::Frac, 0.5));
  CHECK(is(one("1e2%"), K::Pct, 100));
  CHECK(refusal("1e3").find("is not an ordinal") != std::string::npos);
  CHECK(refusal("nan%").find("outside") != std::string::npos);
  CHECK(refusal("18446744073709551616").find("is not an ordinal") != std::string::npos);  // past u64
  CHECK(is(one("+7"), K::Ord, 7));
}

TEST_CASE("form 1, one range: brackets and whitespace ignored, no `*` (parse_form1_*)") {
  const PartitionSpec s = spec("0..53%");
  CHECK(s.single_range);
  CHECK(is(s.bounds[0], K::Ord, 0));
  CHECK(is(s.bounds[1], K::Pct, 53));
  for (const char* t : {"[0..53%]", "[0..53%)", "(0..53%]", " 0 .. 53 % ", "0\xC2\xA0..\xE3\x80\x80" "53%"}) {
    INFO(t);
    const PartitionSpec b = spec(t);
    CHECK(b.single_range);
    CHECK(is(b.bounds[0], K::Ord, 0));
    CHECK(is(b.bounds[1], K::Pct, 53));
  }
  CHECK(is(spec("0..0.53").bounds[1], K::Frac, 0.53));
  CHECK(is(spec("100..1000").bounds[0], K::Ord, 100));
  CHECK(is(spec("100..1000").bounds[1], K::Ord, 1000));
  CHECK(is(spec("100..50%").bounds[1], K::Pct, 50));
  CHECK(is(spec("0.10..10000").bounds[0], K::Frac, 0.10));
  CHECK(is(spec("0.10..10000").bounds[1], K::Ord, 10000));
  CHECK(refusal("0..*").find("`*`") != std::string::npos);
  CHECK(refusal("*..50%").find("`*`") != std::string::npos);
}

TEST_CASE("form 2, deltas: one `*` at most, no empty entry (parse_form2_*)") {
  const PartitionSpec s = spec("2%,10%,*%");
  REQUIRE(s.bounds.size() == 3);
  CHECK(is(s.bounds[0], K::Pct, 2));
  CHECK(is(s.bounds[1], K::Pct, 10));
  CHECK(s.bounds[2].kind == K::Star);
  CHECK(is(spec("0.02,0.10,*").bounds[1], K::Frac, 0.10));
  CHECK(is(spec("1000,5000,*").bounds[1], K::Ord, 5000));
  CHECK(is(spec("1000,10%,*").bounds[1], K::Pct, 10));
  CHECK(spec("20%,30%").bounds.size() == 2);
  CHECK(spec(" 2% , 10% , *% ").bounds.size() == 3);  // parse_tolerates_whitespace_in_lists
  CHECK(refusal("*,*").find("2 `*` entries") != std::string::npos);
  CHECK(refusal("1,,2").find("empty entry") != std::string::npos);
  CHECK(refusal("").find("empty") != std::string::npos);
  CHECK(refusal(" [ ] ").find("empty") != std::string::npos);
}

TEST_CASE("recipes: weights made percentages of their sum (recipe_*)") {
  CHECK(near(pcts("linear:4"), {25.0, 25.0, 25.0, 25.0}));
  CHECK(pcts("ratios:1,1,2") == std::vector<double>{25.0, 25.0, 50.0});
  const std::vector<double> bin = pcts("bin:5");  // C(4, k): 1 4 6 4 1 over 16
  REQUIRE(bin.size() == 5);
  CHECK(bin == std::vector<double>{100.0 / 16, 400.0 / 16, 600.0 / 16, 400.0 / 16, 100.0 / 16});
  const std::vector<double> fib = pcts("fib:7");  // 1 2 3 5 8 13 21 over 53
  REQUIRE(fib.size() == 7);
  const double w[] = {1, 2, 3, 5, 8, 13, 21};
  for (size_t i = 0; i < 7; ++i) CHECK(near({fib[i]}, {w[i] * 100 / 53}));
  const std::vector<double> ln = pcts("ln:5");
  REQUIRE(ln.size() == 5);
  for (size_t i = 1; i < ln.size(); ++i) CHECK(ln[i] > ln[i - 1]);
  CHECK(near({sum(ln)}, {100.0}));
  // mul: 1, 1/2, ..., 1/1024 (11 terms: the first below a thousandth is kept, cursor_partitions.rs's
  // recipe_mul_decay); growing, 1 .. 512 and then 1024, the first past a thousand times the start.
  CHECK(pcts("mul:0.5").size() == 11);
  CHECK(pcts("mul:5,0.5").size() == 11);
  CHECK(pcts("mul:0.5")[0] > pcts("mul:0.5")[1]);
  CHECK(pcts("mul:2").size() == 11);
  CHECK(near({sum(pcts("mul:2"))}, {100.0}));
  CHECK(near(pcts("geom:5,2"), {100.0 / 31, 200.0 / 31, 400.0 / 31, 800.0 / 31, 1600.0 / 31}));
  CHECK(near(pcts("front_heavy:4"), {40.0, 30.0, 20.0, 10.0}));
  CHECK(near(pcts("back_heavy:4"), {10.0, 20.0, 30.0, 40.0}));
  // zipf:1,4 and pareto:1,4: 1, 1/2, 1/3, 1/4 over 25/12.
  CHECK(ranges("zipf:1,4", 100) == std::vector<std::string>{"[0..48)", "[48..72)", "[72..88)", "[88..100)"});
  CHECK(ranges("pareto:1,4", 100) == ranges("zipf:1,4", 100));
  CHECK(refusal("blorp:3").find("linear") != std::string::npos);  // recipe_unknown_name_rejected
  CHECK(refusal("linear:0").find("at least 1") != std::string::npos);
  CHECK(refusal("linear:2,3").find("takes 1 argument") != std::string::npos);
  CHECK(refusal("linear:4000000").find("more than") != std::string::npos);  // capped, not allocated
  CHECK(refusal("ratios:1,-1").find("not all finite") != std::string::npos);
  CHECK(refusal("ratios:0,0").find("add up to 0") != std::string::npos);
  CHECK(refusal("mul:0").find("ratio must be above 0") != std::string::npos);
  CHECK(refusal("geom:3,0").find("above 0") != std::string::npos);
  CHECK(refusal("zipf:0,3").find("above 0") != std::string::npos);
  CHECK(refusal("fib:x").find("not an unsigned integer") != std::string::npos);
  CHECK(pcts("fib:93").size() == 93);  // the terms saturate at 2^64 - 1, as nb-rs's saturating_add
}

TEST_CASE("resolution against an extent (resolve_*)") {
  auto p = partitions_of("0..50%", 1000);
  REQUIRE(p);
  CHECK(p->size() == 1);
  CHECK((*p)[0].start_ord == 0);
  CHECK((*p)[0].end_ord == 500);
  CHECK((*p)[0].cardinality() == 500);
  CHECK(ranges("100..1000", 10000) == std::vector<std::string>{"[100..1000)"});
  CHECK(ranges("100..50%", 1000) == std::vector<std::string>{"[100..500)"});
  CHECK(ranges("2%,10%,*%", 1000) == std::vector<std::string>{"[0..20)", "[20..120)", "[120..1000)"});
  CHECK(ranges("1000,5000,*", 10000) == std::vector<std::string>{"[0..1000)", "[1000..6000)", "[6000..10000)"});
  CHECK(ranges("1000,10%,*", 10000) == std::vector<std::string>{"[0..1000)", "[1000..2000)", "[2000..10000)"});
  CHECK(ranges("20%,30%", 1000) == std::vector<std::string>{"[0..200)", "[200..500)"});  // the tail left out
  CHECK(ranges("linear:4", 1000) == std::vector<std::string>{"[0..250)", "[250..500)", "[500..750)", "[750..1000)"});
  CHECK(partitions_of("60%,60%", 1000).error().find("more than the extent") != std::string::npos);
  CHECK(partitions_of("50%..20%", 100).error().find("before its start") != std::string::npos);
  CHECK(partitions_of("18446744073709551615,1", 10).error().find("more than the extent") != std::string::npos);
  auto five = partitions_of("linear:5", 1000);
  REQUIRE(five);
  for (size_t i = 0; i < five->size(); ++i) CHECK((*five)[i].idx == i);
  auto four = partitions_of("linear:4", 1000);
  REQUIRE(four);
  CHECK((*four)[0].start_pct == 0.0);
  CHECK((*four)[0].end_pct == 25.0);
  CHECK((*four)[3].end_pct == 100.0);
  CHECK((*four)[3].base_extent == 1000);
  // Worked by hand: linear:3 of 1000 rounds each third to 333, leaving ordinal 999 out;
  // an ordinal range end past the extent stops at it; an empty extent gives empty partitions.
  CHECK(ranges("linear:3", 1000) == std::vector<std::string>{"[0..333)", "[333..666)", "[666..999)"});
  CHECK(ranges("5..50", 20) == std::vector<std::string>{"[5..20)"});
  CHECK(ranges("linear:2", 0) == std::vector<std::string>{"[0..0)", "[0..0)"});
  // Rounding half away from zero: 2.5 ordinals are 3 (Rust's f64::round).
  CHECK(ranges("25%", 10) == std::vector<std::string>{"[0..3)"});
  auto off = resolve_partitions(spec("10%,*"), 100, 200);  // a base that does not start at 0
  REQUIRE(off);
  CHECK((*off)[0].start_ord == 100);
  CHECK((*off)[0].end_ord == 110);
  CHECK((*off)[1].end_pct == 100.0);
}

TEST_CASE("reprojection: a partition's percentages against another extent (executor.rs resolve_over)") {
  auto p = partitions_of("linear:3", 100);
  REQUIRE(p);
  const Partition q = reproject((*p)[1], 1000);  // [33..66) is 33%..66% of 100
  CHECK(q.idx == 1);
  CHECK(q.start_ord == 330);
  CHECK(q.end_ord == 660);
  CHECK(q.base_extent == 1000);
  CHECK(reproject((*p)[1], 100) == (*p)[1]);  // the same extent: unchanged
  CHECK(reproject((*p)[1], 0) == (*p)[1]);
}

TEST_CASE("a partition as a value and as nb-rs shows it") {
  const Partition p{2, 100, 500, 10.0, 50.0, 1000};
  const Value v = partition_value(p);
  CHECK(is_partition(v.ty()));
  CHECK(ty_label(v.ty()) == "Partition");
  REQUIRE(as_partition(v));
  CHECK(*as_partition(v) == p);
  CHECK(as_partition(Value::integer(TyKind::U64, 42)) == std::nullopt);  // non_partition_value_downcast_returns_none
  CHECK(partition_display(p) == "Partition(2/? [100..500) [10.00%..50.00%))");
  CHECK(partition_display(Partition{0, 0, 333, 0.0, 33.3, 1000}) == "Partition(0/? [0..333) [0.00%..33.30%))");
}
