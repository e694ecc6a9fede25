// nb-rs's own example workloads (`examples/workloads/` of nosqlbench/nb-rs)
// run unchanged, from a fetched copy when one is present ($NBRS_REPO: a
// checkout or a git directory; else the workplace's mirror; else /tmp/nbrs),
// and skipped, saying so, otherwise. Every file has its outcome here (runs,
// or refused with a kind, as docs/nb-rs-compatibility.md lists), and the
// stdout lines nb-rs's integration tests assert on these files
// (nbrs/tests/scope.rs, stdlib.rs, comprehension.rs, cursor_partitions.rs,
// workload_examples.rs; each row names its nb-rs test) hold, on both
// engines. `make test` also runs workloads of our own in the same shapes
// (nbrs_compat_test.cc, comprehension_test.cc, cursor_test.cc).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "run_support.h"
#include "tests/support/process.h"
#include "workload/model.h"
#include "workload/run_params.h"
#include "workload/runner.h"

using namespace polydat;
using namespace polydat::workload;
using polydat::workload::test::Ran;
using polydat::workload::test::run_loaded;
namespace fs = std::filesystem;

namespace {

// The examples folder of a fetched nb-rs, copied into `into`; empty when there is none.
fs::path fetch_examples(const fs::path& into) {
  std::vector<std::string> roots;
  if (const char* env = std::getenv("NBRS_REPO")) roots.push_back(env);
  roots.push_back("/work/.mirror/nosqlbench+nb-rs/repo");
  roots.push_back("/tmp/nbrs");
  for (const std::string& r : roots) {
    const fs::path root(r);
    std::error_code ec;
    if (fs::is_directory(root / "examples" / "workloads", ec)) {
      fs::copy(root / "examples", into / "examples", fs::copy_options::recursive, ec);
      if (!ec) return into / "examples" / "workloads";
    }
    if (fs::is_regular_file(root / "HEAD", ec) || fs::is_directory(root / "objects", ec)) {  // a bare git directory
      const std::string cmd = "git --git-dir='" + r + "' archive HEAD examples 2>/dev/null | tar -x -C '" + into.string() + "'";
      if (std::system(cmd.c_str()) == 0 && fs::is_directory(into / "examples" / "workloads")) return into / "examples" / "workloads";
    }
  }
  return {};
}

// As `polydat run FILE ARGS...` does it (nb-rs's parameters resolved, the file's own settings read), on one engine.
Ran run_file(const fs::path& file, const std::vector<std::string>& args, bool native) {
  auto w = load_workload_file(file);
  if (!w) return Ran{false, "", w.error().rendered, {}};
  auto pairs = split_assignments(args);
  REQUIRE(pairs);
  RunOptions o;
  o.native = native;
  auto p = resolve_params(*pairs, *w, ParamUse::Lines, o);
  if (!p) return Ran{false, "", p.error(), {}};
  return run_loaded(*w, o);
}

Ran run_both(const fs::path& file, const std::vector<std::string>& args) {
  const Ran interp = run_file(file, args, false);
  const Ran native = run_file(file, args, true);
  CHECK(native.out == interp.out);
  CHECK(native.ok == interp.ok);
  return interp;
}

std::vector<std::string> with_prefix(const std::string& out, const std::string& prefix) {
  std::vector<std::string> lines;
  for (const std::string& l : polydat::testing::split_lines(out))
    if (l.rfind(prefix, 0) == 0) lines.push_back(l);
  return lines;
}

struct Check {
  // Refused: the scenario is refused, `prefix` naming the error's kind (docs/nb-rs-compatibility.md says why).
  enum Kind { First, Sorted, Distinct, Lines, CountLines, CountSorted, CountDistinct, CountWith, Contains, Absent, Refused } kind;
  std::string prefix;
  std::vector<std::string> lines;
  size_t count = 0;
};

struct Assertion {
  const char* test;  // nb-rs's test
  const char* file;
  const char* scenario;
  std::vector<std::string> args;
  std::vector<Check> checks;
};

const std::vector<Assertion>& assertions() {
  static const std::vector<Assertion> table = {
    // Generated from nb-rs's integration tests at 376f64a (one row per #[test] that runs a scenario).
    {"scope_shared_types_all_four_with_edge_values", "scope_coverage.yaml", "shared_types", {}, {{Check::Contains, "", {"cm/shared_types kind=u64 sub=zero value=0"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=u64 sub=big value=1000"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=f64 sub=zero value=0"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=f64 sub=pi value=3.14159"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=str sub=empty value=[]"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=str sub=text value=matrix"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=bool sub=on value=true"}, 0},
      {Check::Contains, "", {"cm/shared_types kind=bool sub=off value=false"}, 0}}},
    {"scope_const_modifier_round_trips", "scope_coverage.yaml", "const_modifier", {}, {{Check::Contains, "", {"cm/const base_dim=256"}, 0}}},
    {"scope_derived_binding_consumes_shared_cell", "scope_coverage.yaml", "derived_from_shared", {}, {{Check::Contains, "", {"cm/derived count_big=1000 doubled=2000"}, 0}}},
    {"scope_conditional_op_gated_by_shared_bool", "scope_coverage.yaml", "conditional_op", {}, {{Check::Contains, "", {"cm/conditional gated=on result=fired"}, 0},
      {Check::Contains, "", {"cm/conditional gated=always result=fired"}, 0},
      {Check::Absent, "", {"cm/conditional gated=off"}, 0}}},
    {"scope_multi_cell_no_cross_name_interference", "scope_coverage.yaml", "multi_cell", {}, {{Check::Contains, "", {"cm/multi_cell zero=0 big=1000 pi=3.14159 text=matrix on=true off=false"}, 0}}},
    {"stdlib_arithmetic_u64", "stdlib_coverage.yaml", "arithmetic_u64", {}, {{Check::First, "lib/arith_u64 ", {"lib/arith_u64 sum=13 diff=7 prod=30 quot=3 rem=1 pow=100"}, 0}}},
    {"stdlib_arithmetic_f64", "stdlib_coverage.yaml", "arithmetic_f64", {}, {{Check::First, "lib/arith_f64 ", {"lib/arith_f64 sum=10 diff=6 prod=16 quot=4 power=8"}, 0}}},
    {"stdlib_arithmetic_named_nodes", "stdlib_coverage.yaml", "arithmetic_named_nodes", {}, {{Check::First, "lib/arith_named ", {"lib/arith_named sum=13 prod=30 quot=3 rem=1"}, 0}}},
    {"stdlib_bitwise_ops", "stdlib_coverage.yaml", "bitwise_ops", {}, {{Check::First, "lib/bitwise ", {"lib/bitwise and=0 or=255 xor=255 shl=3840 shr=15"}, 0}}},
    {"stdlib_comparison_ops", "stdlib_coverage.yaml", "comparison_ops", {}, {{Check::First, "lib/cmp ", {"lib/cmp eq=0 ne=1 lt=0 gt=1 lte=0 gte=1"}, 0}}},
    {"stdlib_conversion_to_f64_to_u64", "stdlib_coverage.yaml", "conversion_to_f64_to_u64", {}, {{Check::First, "lib/convert ", {"lib/convert as_f64=42 back_u64=42"}, 0}}},
    {"stdlib_format_u64_bases", "stdlib_coverage.yaml", "format_u64_bases", {}, {{Check::First, "lib/format ", {"lib/format dec=255 hex=0xff bin=0b11111111"}, 0}}},
    {"stdlib_hash_chain", "stdlib_coverage.yaml", "hash_chain", {}, {{Check::First, "lib/hash ", {"lib/hash eq=1 same=0 diff=1"}, 0}}},
    {"stdlib_string_interpolation", "stdlib_coverage.yaml", "string_interpolation", {}, {{Check::First, "lib/strinterp ", {"lib/strinterp greeting=hello, alice! stringified=alice = 42"}, 0}}},
    {"stdlib_probability_unit_interval", "stdlib_coverage.yaml", "probability_unit_interval", {}, {{Check::First, "lib/unit_interval ", {"lib/unit_interval in_unit=1 non_neg=1"}, 0}}},
    {"stdlib_distribution_uniform", "stdlib_coverage.yaml", "distribution_uniform", {}, {{Check::First, "lib/dist_uniform ", {"lib/dist_uniform ge_lo=1 lt_hi=1"}, 0}}},
    {"stdlib_fair_coin_flip", "stdlib_coverage.yaml", "fair_coin_flip", {}, {{Check::First, "lib/fair_coin ", {"lib/fair_coin one_of_two=1"}, 0}}},
    {"stdlib_weighted_strings", "stdlib_coverage.yaml", "weighted_strings_pick", {}, {{Check::First, "lib/weighted_strings ", {"lib/weighted_strings is_known=1"}, 0}}},
    {"stdlib_weighted_u64", "stdlib_coverage.yaml", "weighted_u64_pick", {}, {{Check::First, "lib/weighted_u64 ", {"lib/weighted_u64 is_known=1"}, 0}}},
    {"stdlib_pick_select_blend", "stdlib_coverage.yaml", "pick_select_blend", {}, {{Check::First, "lib/pick ", {"lib/pick sel=100 bl=15"}, 0}}},
    {"stdlib_noise_perlin_2d", "stdlib_coverage.yaml", "noise_perlin_2d", {}, {{Check::First, "lib/perlin ", {"lib/perlin in_range=1"}, 0}}},
    {"stdlib_date_components", "stdlib_coverage.yaml", "date_components", {}, {{Check::First, "lib/date ", {"lib/date y=1970 mo=1 d=1 h=0 mi=0 s=0 ms=0"}, 0}}},
    // nb-rs asserts "lib/json s=42"; to_json and json_to_str are not in our library (docs/nb-rs-compatibility.md).
    {"stdlib_json_round_trip", "stdlib_coverage.yaml", "json_round_trip", {}, {{Check::Refused, "unknown-function", {}, 0}}},
    {"comprehension_form_single_var", "comprehension_coverage.yaml", "form_single_var", {}, {{Check::Sorted, "cmp/x ", {"cmp/x x=1", "cmp/x x=2", "cmp/x x=3"}, 0}}},
    {"comprehension_form_for_keyword_synonym", "comprehension_coverage.yaml", "form_for_keyword_synonym", {}, {{Check::Sorted, "cmp/x ", {"cmp/x x=1", "cmp/x x=2", "cmp/x x=3"}, 0}}},
    {"comprehension_form_inline_cartesian", "comprehension_coverage.yaml", "form_inline_cartesian", {}, {{Check::Sorted, "cmp/xy ", {"cmp/xy x=1 y=a", "cmp/xy x=1 y=b", "cmp/xy x=2 y=a", "cmp/xy x=2 y=b", "cmp/xy x=3 y=a", "cmp/xy x=3 y=b"}, 0}}},
    {"comprehension_form_array_cartesian", "comprehension_coverage.yaml", "form_array_cartesian", {}, {{Check::CountSorted, "cmp/xy ", {}, 6}}},
    {"comprehension_form_array_single_entry_multi_clause", "comprehension_coverage.yaml", "form_array_single_entry_multi_clause", {}, {{Check::CountSorted, "cmp/xy ", {}, 6}}},
    {"comprehension_form_repeated_var_union", "comprehension_coverage.yaml", "form_repeated_var_union", {}, {{Check::Sorted, "cmp/x ", {"cmp/x x=1", "cmp/x x=2", "cmp/x x=3"}, 0}}},
    {"comprehension_form_subspace_union", "comprehension_coverage.yaml", "form_subspace_union", {}, {{Check::CountSorted, "cmp/xy ", {}, 6}}},
    {"comprehension_where_cartesian_filter", "comprehension_coverage.yaml", "where_cartesian_filter", {}, {{Check::Sorted, "cmp/kl ", {"cmp/kl k=10 limit=1", "cmp/kl k=10 limit=10", "cmp/kl k=10 limit=50", "cmp/kl k=100 limit=1"}, 0}}},
    {"comprehension_where_union_filter", "comprehension_coverage.yaml", "where_union_filter", {}, {{Check::Sorted, "cmp/k ", {"cmp/k k=10", "cmp/k k=20", "cmp/k k=3", "cmp/k k=30"}, 0}}},
    {"comprehension_range_half_open", "comprehension_coverage.yaml", "range_half_open", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=2", "cmp/n n=3", "cmp/n n=4"}, 0}}},
    {"comprehension_range_inclusive", "comprehension_coverage.yaml", "range_inclusive", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=2", "cmp/n n=3", "cmp/n n=4", "cmp/n n=5"}, 0}}},
    {"comprehension_range_with_step", "comprehension_coverage.yaml", "range_with_step", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=3", "cmp/n n=5", "cmp/n n=7", "cmp/n n=9"}, 0}}},
    {"comprehension_range_inclusive_with_step", "comprehension_coverage.yaml", "range_inclusive_with_step", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=3", "cmp/n n=5", "cmp/n n=7", "cmp/n n=9"}, 0}}},
    {"comprehension_gen_fib_count", "comprehension_coverage.yaml", "gen_fib_count", {}, {{Check::CountLines, "cmp/n ", {}, 7}}},
    {"comprehension_gen_pow2_count", "comprehension_coverage.yaml", "gen_pow2_count", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=16", "cmp/n n=2", "cmp/n n=32", "cmp/n n=4", "cmp/n n=8"}, 0}}},
    {"comprehension_gen_geometric", "comprehension_coverage.yaml", "gen_geometric", {}, {{Check::CountLines, "cmp/n ", {}, 5}}},
    {"comprehension_gen_subdivide", "comprehension_coverage.yaml", "gen_subdivide", {}, {{Check::CountLines, "cmp/n ", {}, 5}}},
    {"comprehension_gen_linear_steps", "comprehension_coverage.yaml", "gen_linear_steps", {}, {{Check::CountLines, "cmp/n ", {}, 5}}},
    {"comprehension_setop_union", "comprehension_coverage.yaml", "setop_union", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=2", "cmp/n n=3", "cmp/n n=4", "cmp/n n=5"}, 0}}},
    {"comprehension_setop_intersect", "comprehension_coverage.yaml", "setop_intersect", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=2", "cmp/n n=3"}, 0}}},
    {"comprehension_setop_difference", "comprehension_coverage.yaml", "setop_difference", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=3"}, 0}}},
    {"comprehension_order_lex_with_truncation", "comprehension_coverage.yaml", "order_lex_with_truncation", {}, {{Check::Sorted, "cmp/n ", {"cmp/n n=1", "cmp/n n=2", "cmp/n n=3", "cmp/n n=4", "cmp/n n=5"}, 0}}},
    {"comprehension_tuple_lhs_zip_strict", "comprehension_coverage.yaml", "tuple_lhs_zip_strict", {}, {{Check::Sorted, "cmp/ab ", {"cmp/ab a=1 b=10", "cmp/ab a=2 b=20", "cmp/ab a=3 b=30"}, 0}}},
    {"comprehension_cursor_all_full_extent", "comprehension_coverage.yaml", "cursor_all_full_extent", {}, {{Check::CountLines, "cmp/xval ", {}, 50}}},
    {"comprehension_cursor_all_with_where", "comprehension_coverage.yaml", "cursor_all_with_where", {}, {{Check::Sorted, "cmp/xval ", {"cmp/xval xval=0", "cmp/xval xval=10", "cmp/xval xval=20", "cmp/xval xval=30", "cmp/xval xval=40"}, 0}}},
    {"comprehension_cursor_all_with_lex_truncate", "comprehension_coverage.yaml", "cursor_all_with_lex_truncate", {}, {{Check::Sorted, "cmp/xval ", {"cmp/xval xval=0", "cmp/xval xval=1", "cmp/xval xval=2", "cmp/xval xval=3", "cmp/xval xval=4"}, 0}}},
    {"comprehension_dependent_clauses", "comprehension_coverage.yaml", "dependent_clauses", {}, {{Check::Sorted, "cmp/kl ", {"cmp/kl k=1 limit=1", "cmp/kl k=1 limit=2", "cmp/kl k=10 limit=10", "cmp/kl k=10 limit=20", "cmp/kl k=10 limit=30"}, 0}}},
    {"cursor_partitions_form1_percentage_end", "cursor_partitions_coverage.yaml", "form1_percentage_end", {}, {{Check::Distinct, "cp/form1 ", {"cp/form1 lo=0 hi=530"}, 0}}},
    {"cursor_partitions_form1_fraction_end", "cursor_partitions_coverage.yaml", "form1_fraction_end", {}, {{Check::Distinct, "cp/form1 ", {"cp/form1 lo=0 hi=530"}, 0}}},
    {"cursor_partitions_form1_literal_ordinals", "cursor_partitions_coverage.yaml", "form1_literal_ordinals", {}, {{Check::Distinct, "cp/form1 ", {"cp/form1 lo=100 hi=500"}, 0}}},
    {"cursor_partitions_form1_mixed_literal_then_pct", "cursor_partitions_coverage.yaml", "form1_mixed_literal_then_pct", {}, {{Check::Distinct, "cp/form1 ", {"cp/form1 lo=100 hi=500"}, 0}}},
    {"cursor_partitions_form1_mixed_frac_then_literal", "cursor_partitions_coverage.yaml", "form1_mixed_frac_then_literal", {}, {{Check::Distinct, "cp/form1 ", {"cp/form1 lo=100 hi=800"}, 0}}},
    {"cursor_partitions_form1_brackets_tolerated", "cursor_partitions_coverage.yaml", "form1_brackets_tolerated", {}, {{Check::Distinct, "cp/form1 ", {"cp/form1 lo=0 hi=530"}, 0}}},
    {"cursor_partitions_form2_pct_with_star", "cursor_partitions_coverage.yaml", "form2_pct_with_star", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=2", "cp/iter idx=1 lo=2 hi=12", "cp/iter idx=2 lo=12 hi=100"}, 0}}},
    {"cursor_partitions_form2_fraction_with_star", "cursor_partitions_coverage.yaml", "form2_fraction_with_star", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=2", "cp/iter idx=1 lo=2 hi=12", "cp/iter idx=2 lo=12 hi=100"}, 0}}},
    {"cursor_partitions_form2_literal_with_star", "cursor_partitions_coverage.yaml", "form2_literal_with_star", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=1000", "cp/iter idx=1 lo=1000 hi=6000", "cp/iter idx=2 lo=6000 hi=10000"}, 0}}},
    {"cursor_partitions_form2_mixed_literal_pct_with_star", "cursor_partitions_coverage.yaml", "form2_mixed_literal_pct_with_star", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=1000", "cp/iter idx=1 lo=1000 hi=2000", "cp/iter idx=2 lo=2000 hi=10000"}, 0}}},
    {"cursor_partitions_form2_short_list_drops_gap", "cursor_partitions_coverage.yaml", "form2_short_list_drops_gap", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=20", "cp/iter idx=1 lo=20 hi=50"}, 0}}},
    {"cursor_partitions_recipe_linear", "cursor_partitions_coverage.yaml", "recipe_linear", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=25", "cp/iter idx=1 lo=25 hi=50", "cp/iter idx=2 lo=50 hi=75", "cp/iter idx=3 lo=75 hi=100"}, 0}}},
    {"cursor_partitions_recipe_ratios", "cursor_partitions_coverage.yaml", "recipe_ratios", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=25", "cp/iter idx=1 lo=25 hi=50", "cp/iter idx=2 lo=50 hi=100"}, 0}}},
    {"cursor_partitions_recipe_bin", "cursor_partitions_coverage.yaml", "recipe_bin", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=6", "cp/iter idx=1 lo=6 hi=31", "cp/iter idx=2 lo=31 hi=69", "cp/iter idx=3 lo=69 hi=94", "cp/iter idx=4 lo=94 hi=100"}, 0}}},
    {"cursor_partitions_recipe_fib", "cursor_partitions_coverage.yaml", "recipe_fib", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=5", "cp/iter idx=1 lo=5 hi=16", "cp/iter idx=2 lo=16 hi=32", "cp/iter idx=3 lo=32 hi=58", "cp/iter idx=4 lo=58 hi=100"}, 0}}},
    {"cursor_partitions_recipe_ln", "cursor_partitions_coverage.yaml", "recipe_ln", {}, {{Check::CountDistinct, "cp/iter ", {}, 5}}},
    {"cursor_partitions_recipe_mul_decay", "cursor_partitions_coverage.yaml", "recipe_mul_decay", {}, {{Check::CountDistinct, "cp/count ", {}, 11}}},
    {"cursor_partitions_recipe_mul_with_start", "cursor_partitions_coverage.yaml", "recipe_mul_with_start", {}, {{Check::CountDistinct, "cp/count ", {}, 11}}},
    {"cursor_partitions_recipe_geom", "cursor_partitions_coverage.yaml", "recipe_geom", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=7", "cp/iter idx=1 lo=7 hi=20", "cp/iter idx=2 lo=20 hi=47", "cp/iter idx=3 lo=47 hi=100"}, 0}}},
    {"cursor_partitions_recipe_zipf", "cursor_partitions_coverage.yaml", "recipe_zipf", {}, {{Check::CountDistinct, "cp/count ", {}, 4}}},
    {"cursor_partitions_recipe_pareto", "cursor_partitions_coverage.yaml", "recipe_pareto", {}, {{Check::CountDistinct, "cp/count ", {}, 4}}},
    {"cursor_partitions_recipe_front_heavy", "cursor_partitions_coverage.yaml", "recipe_front_heavy", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=40", "cp/iter idx=1 lo=40 hi=70", "cp/iter idx=2 lo=70 hi=90", "cp/iter idx=3 lo=90 hi=100"}, 0}}},
    {"cursor_partitions_recipe_back_heavy", "cursor_partitions_coverage.yaml", "recipe_back_heavy", {}, {{Check::Distinct, "cp/iter ", {"cp/iter idx=0 lo=0 hi=10", "cp/iter idx=1 lo=10 hi=30", "cp/iter idx=2 lo=30 hi=60", "cp/iter idx=3 lo=60 hi=100"}, 0}}},
    {"cursor_partitions_over_workload_param", "cursor_partitions_coverage.yaml", "over_workload_param", {"cursor=0..50%"}, {{Check::Distinct, "cp/over_cursor ", {"cp/over_cursor lo=0 hi=500"}, 0}}},
    {"cursor_partitions_over_iter_var", "cursor_partitions_coverage.yaml", "over_iter_var", {}, {{Check::Distinct, "cp/over_p ", {"cp/over_p idx=0 lo=0 hi=333", "cp/over_p idx=1 lo=333 hi=666", "cp/over_p idx=2 lo=666 hi=999"}, 0}}},
    {"cursor_partitions_over_cross_cursor", "cursor_partitions_coverage.yaml", "over_cross_cursor", {}, {{Check::Distinct, "cp/cross ", {"cp/cross idx=0 q1=[0..500) q2=[0..500)", "cp/cross idx=1 q1=[500..1000) q2=[500..1000)"}, 0}}},
    {"cursor_partitions_fn_cardinality", "cursor_partitions_coverage.yaml", "fn_cardinality", {}, {{Check::CountDistinct, "cp/fn cardinality ", {}, 3}}},
    {"cursor_partitions_fn_idx_and_bounds", "cursor_partitions_coverage.yaml", "fn_idx_and_bounds", {}, {{Check::Distinct, "cp/fn bounds ", {"cp/fn bounds idx=0 lo=0 hi=25", "cp/fn bounds idx=1 lo=25 hi=50", "cp/fn bounds idx=2 lo=50 hi=75", "cp/fn bounds idx=3 lo=75 hi=100"}, 0}}},
    {"cursor_partitions_fn_mod_in", "cursor_partitions_coverage.yaml", "fn_mod_in", {}, {{Check::Distinct, "cp/fn mod_in ", {"cp/fn mod_in v=0", "cp/fn mod_in v=1", "cp/fn mod_in v=2", "cp/fn mod_in v=3", "cp/fn mod_in v=4"}, 0}}},
    {"cursor_partitions_fn_at", "cursor_partitions_coverage.yaml", "fn_at", {}, {{Check::Distinct, "cp/fn at ", {"cp/fn at v=0", "cp/fn at v=1", "cp/fn at v=2"}, 0}}},
    {"cursor_partitions_fn_clamp_in", "cursor_partitions_coverage.yaml", "fn_clamp_in", {}, {{Check::Distinct, "cp/fn clamp_in ", {"cp/fn clamp_in v=0", "cp/fn clamp_in v=1", "cp/fn clamp_in v=2", "cp/fn clamp_in v=3", "cp/fn clamp_in v=4"}, 0}}},
    {"cursor_partitions_reified_warmup_steady", "cursor_partitions_coverage.yaml", "reified_warmup_steady", {}, {{Check::Distinct, "cp/warmup ", {"cp/warmup lo=0 hi=100"}, 0},
      {Check::Distinct, "cp/steady ", {"cp/steady lo=100 hi=1000"}, 0}}},
    // scope.rs: the lines built with format! in nb-rs's loops, written out.
    {"scope_for_each_chain_three_levels", "scope_coverage.yaml", "for_each_chain", {},
     {{Check::Lines, "cm/for_each_chain ", {"cm/for_each_chain iter=0 count_big=1000 label=matrix",
                                           "cm/for_each_chain iter=1 count_big=1000 label=matrix",
                                           "cm/for_each_chain iter=2 count_big=1000 label=matrix"}, 0}}},
    {"scope_do_while_chain_three_levels", "scope_coverage.yaml", "do_while_chain", {},
     {{Check::Lines, "cm/do_while_chain ", {"cm/do_while_chain i=0 count_big=1000 label=matrix",
                                           "cm/do_while_chain i=1 count_big=1000 label=matrix",
                                           "cm/do_while_chain i=2 count_big=1000 label=matrix"}, 0}}},
    {"scope_nested_for_each_inner_sees_outer_iter_var", "scope_coverage.yaml", "nested_for_each", {},
     {{Check::Sorted, "cm/nested ", {"cm/nested outer=a inner=pre_a", "cm/nested outer=b inner=pre_b",
                                    "cm/nested outer=c inner=pre_c"}, 0}}},
    // workload_examples.rs: the stdout it asserts.
    {"gk_bindings_produces_output", "getting_started/gk_bindings.yaml", "", {"cycles=3"},
     {{Check::Contains, "", {"INSERT INTO telemetry"}, 0}}},
    {"math_and_bitwise_operators", "math_and_bitwise.yaml", "", {"cycles=8"},
     {{Check::Contains, "", {"doubled="}, 0}, {Check::Contains, "", {"wave="}, 0}, {Check::Contains, "", {"low_byte="}, 0}}},
    {"conditional_ops_skip_falsy", "conditional_ops.yaml", "", {"cycles=18"},
     // A stanza of 3 ops, 6 stanzas: always 6 times; even_only at cycles 1, 4, ..., 16, shown when odd (3).
     {{Check::CountWith, "(always)", {}, 6}, {Check::CountWith, "(even", {}, 3}}},
    {"feature_showcase_phased_execution", "feature_showcase.yaml", "", {},
     {{Check::Contains, "", {"CREATE KEYSPACE"}, 0}, {Check::Contains, "", {"INSERT INTO"}, 0},
      {Check::Contains, "", {"SELECT *"}, 0}}},
    {"service_model_mixed_ops", "service_model.yaml", "", {"cycles=22"},
     {{Check::Contains, "", {"SELECT * FROM service.users"}, 0}, {Check::Contains, "", {"SELECT * FROM service.products"}, 0},
      {Check::Contains, "", {"INSERT INTO service.orders"}, 0}, {Check::CountLines, "SELECT count(*), avg(price)", {}, 2},
      {Check::CountLines, "SELECT * FROM service.users", {}, 10}, {Check::CountLines, "SELECT * FROM service.products", {}, 6},
      {Check::CountLines, "INSERT INTO service.orders", {}, 4}}},
    {"bare_file_invocation", "visual/maze.yaml", "", {"cycles=3"}, {{Check::CountLines, "", {}, 3}}},
    {"shared_cells_basic_emits_all_four_types", "shared_cells.yaml", "basic", {},
     {{Check::Lines, "shared/basic ", {"shared/basic cycle=0 budget=100 rate=0.5 label=alpha enabled=true scaled=200",
                                      "shared/basic cycle=1 budget=100 rate=0.5 label=alpha enabled=true scaled=200",
                                      "shared/basic cycle=2 budget=100 rate=0.5 label=alpha enabled=true scaled=200"}, 0}}},
    {"shared_cells_loop_iterates_with_visible_counter", "shared_cells.yaml", "loop", {},
     {{Check::Lines, "shared/loop ", {"shared/loop iter=0 budget=100", "shared/loop iter=1 budget=100",
                                     "shared/loop iter=2 budget=100"}, 0}}},
    {"shared_cells_mixed_types_round_trip", "shared_cells.yaml", "mixed_types", {},
     {{Check::Contains, "", {"shared/typed kind=u64 value=100"}, 0}, {Check::Contains, "", {"shared/typed kind=f64 value=0.5"}, 0},
      {Check::Contains, "", {"shared/typed kind=str value=alpha"}, 0}, {Check::Contains, "", {"shared/typed kind=bool value=true"}, 0}}},
    {"shared_cells_default_scenario_runs_all", "shared_cells.yaml", "", {},
     {{Check::Contains, "", {"shared/basic "}, 0}, {Check::Contains, "", {"shared/loop "}, 0},
      {Check::Contains, "", {"shared/typed "}, 0}}},
    {"shared_bool_through_for_each_into_consumer_phase_bindings", "shared_pick_through_for_each.yaml", "", {},
     {{Check::CountLines, "spc/consume ", {}, 4}, {Check::CountWith, "chosen=alpha_table", {}, 4}}},
    {"set_baseline_picks_up_workload_param_defaults", "scenario_param_overrides.yaml", "baseline", {},
     {{Check::Contains, "", {"set/default/small"}, 0}}},
    {"set_single_shadow_overrides_one_param", "scenario_param_overrides.yaml", "single_shadow", {},
     {{Check::Contains, "", {"set/verbose/small"}, 0}}},
    {"set_multi_shadow_overrides_two_params_at_once", "scenario_param_overrides.yaml", "multi_shadow", {},
     {{Check::Contains, "", {"set/verbose/bulk"}, 0}}},
    {"set_value_supports_workload_param_interpolation", "scenario_param_overrides.yaml", "computed_value", {},
     {{Check::Contains, "", {"set/mode_for_small/small"}, 0}}},
    {"set_composes_with_for_each_inside_phases", "scenario_param_overrides.yaml", "with_for_each", {},
     {{Check::Contains, "", {"set/n=1/swept"}, 0}, {Check::Contains, "", {"set/n=2/swept"}, 0},
      {Check::Contains, "", {"set/n=3/swept"}, 0}}},
    {"set_nesting_composes_overrides_across_layers", "scenario_param_overrides.yaml", "nested", {},
     {{Check::Contains, "", {"set/outer/inner_size"}, 0}}},
    {"bindings_long_form_equivalent_to_set_sugar", "scenario_param_overrides.yaml", "long_form", {},
     {{Check::Contains, "", {"set/verbose/bulk"}, 0}}},
    {"json_shaped_workload_param_values_round_trip", "json_param.yaml", "", {},
     {{Check::Contains, "", {"json_param/cql_replication value={'class': 'SimpleStrategy', 'replication_factor': '1'}"}, 0},
      {Check::Contains, "", {"json_param/json_object value={\"a\": 1, \"b\": [2, 3]}"}, 0},
      {Check::Contains, "", {"json_param/scalar_string value=plain"}, 0}}},
  };
  return table;
}

// How each of nb-rs's example files fares run as `polydat run FILE` (its default scenario):
// "" runs; otherwise the refusal's kind (docs/nb-rs-compatibility.md says why).
const std::map<std::string, std::string>& outcomes() {
  static const std::map<std::string, std::string> table = {
      {"all_cursor.yaml", "unbound-name"},
      {"capture_flow.yaml", ""},
      {"cartesian_space.yaml", ""},
      {"comprehension_coverage.yaml", "unbound-name"},
      {"conditional_ops.yaml", ""},
      {"control_flow.yaml", ""},
      {"cursor_partitions_coverage.yaml", "unbound-import"},
      {"diag_unresolved.yaml", "spec-eval"},
      {"dynamic_controls.yaml", "unsupported-adapter"},
      {"feature_showcase.yaml", ""},
      {"getting_started/basic_workload.yaml", ""},
      {"getting_started/gk_bindings.yaml", ""},
      {"getting_started/inline_ops.yaml", ""},
      {"json_param.yaml", ""},
      {"math_and_bitwise.yaml", ""},
      {"report_text_file_demo.yaml", ""},
      {"reports_coverage.yaml", ""},
      {"resume_test.yaml", "unsupported-adapter"},
      {"scenario_includes.yaml", ""},
      {"scenario_param_overrides.yaml", "unbound-name"},
      {"scope_coverage.yaml", ""},
      {"service_model.yaml", ""},
      {"shared_cells.yaml", ""},
      {"shared_pick_through_for_each.yaml", ""},
      {"signals/fourier_analysis.yaml", "unknown-function"},
      {"signals/lfsr.yaml", ""},
      {"stdlib_coverage.yaml", "unknown-function"},
      {"summary.yaml", "not-a-map"},
      {"summary_aggregates.yaml", ""},
      {"summary_basics.yaml", ""},
      {"summary_cli_override.yaml", ""},
      {"summary_gk_context.yaml", ""},
      {"summary_multi_phase.yaml", ""},
      {"summary_sidecar_demo.yaml", ""},
      {"synthetic_metrics.yaml", ""},
      {"visual/distribution.yaml", "unsupported-adapter"},
      {"visual/heatmap.yaml", "unsupported-adapter"},
      {"visual/lissajous_plot.yaml", "unsupported-adapter"},
      {"visual/maze.yaml", ""},
      {"visual/polar_rose.yaml", "unsupported-adapter"},
      {"visual/spirograph.yaml", "unsupported-adapter"},
  };
  return table;
}

}  // namespace

TEST_SUITE("workload") {

TEST_CASE("nb-rs's example workloads: each file's outcome, and every stdout line nb-rs's tests assert") {
  polydat::testing::TempDir tmp("polydat-nbrs");
  const fs::path dir = fetch_examples(tmp.path());
  if (dir.empty()) {
    MESSAGE("skipped: no fetched nb-rs (set NBRS_REPO to a checkout or its git directory)");
    return;
  }
  std::set<std::string> seen;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".yaml") continue;
    const std::string rel = fs::relative(e.path(), dir).generic_string();
    seen.insert(rel);
    CAPTURE(rel);
    const auto want = outcomes().find(rel);
    REQUIRE_MESSAGE(want != outcomes().end(), "no outcome listed for " << rel);
    const Ran r = run_both(e.path(), {});
    if (want->second.empty()) {
      CHECK_MESSAGE(r.ok, r.error);
    } else {
      CHECK_FALSE(r.ok);
      CHECK_MESSAGE(r.error.find("[" + want->second + "]") != std::string::npos, r.error);
    }
  }
  CHECK(seen.size() == outcomes().size());
  for (const Assertion& a : assertions()) {
    const std::string test = a.test;
    CAPTURE(test);
    std::vector<std::string> args = a.args;
    if (*a.scenario) args.push_back(std::string("scenario=") + a.scenario);
    const Ran r = run_both(dir / a.file, args);
    if (a.checks.front().kind == Check::Refused) {
      CHECK_FALSE(r.ok);
      CHECK_MESSAGE(r.error.find("[" + a.checks.front().prefix + "]") != std::string::npos, r.error);
      continue;
    }
    CHECK_MESSAGE(r.ok, r.error);
    if (!r.ok) continue;
    for (const Check& c : a.checks) {
      std::vector<std::string> got = with_prefix(r.out, c.prefix);
      std::vector<std::string> sorted = got;
      std::sort(sorted.begin(), sorted.end());
      std::vector<std::string> distinct = sorted;
      distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
      switch (c.kind) {
        case Check::First: REQUIRE(!got.empty()); CHECK(got.front() == c.lines.front()); break;
        case Check::Sorted: CHECK(sorted == c.lines); break;
        case Check::Distinct: CHECK(distinct == c.lines); break;
        case Check::Lines: CHECK(got == c.lines); break;
        case Check::CountLines: CHECK(got.size() == c.count); break;
        case Check::CountSorted: CHECK(sorted.size() == c.count); break;
        case Check::CountDistinct: CHECK(distinct.size() == c.count); break;
        case Check::CountWith: {  // lines holding `prefix` anywhere
          const std::vector<std::string> lines = polydat::testing::split_lines(r.out);
          CHECK(std::count_if(lines.begin(), lines.end(),
                              [&](const std::string& l) { return l.find(c.prefix) != std::string::npos; }) ==
                static_cast<long>(c.count));
          break;
        }
        case Check::Contains: CHECK(r.out.find(c.lines.front()) != std::string::npos); break;
        case Check::Absent: CHECK(r.out.find(c.lines.front()) == std::string::npos); break;
        case Check::Refused: break;  // handled above
      }
    }
  }
}

}  // TEST_SUITE
