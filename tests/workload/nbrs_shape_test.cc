// nb-rs's scope-model integration tests (nbrs/tests/scope.rs and the
// shared_cells tests of nbrs/tests/workload_examples.rs) assert lines that
// its example workloads scope_coverage.yaml and shared_cells.yaml print. The
// workloads here are our own, written to the same shapes (every shared scalar
// type with edge values, const, a binding derived from a cell, for_each and
// do_while three levels deep, nested for_each whose spec reads the outer
// variable, if: on shared bools, several cells in one template), and each
// test asserts what the matching nb-rs test asserts. When nb-rs's own files
// are on this machine (a mirror of the repository), they are run too.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <tuple>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "workload/model.h"
#include "workload/runner.h"

using namespace polydat::workload;

namespace {

// Ours, in scope_coverage.yaml's shape.
const char* kCoverage = R"(params:
  iter_list: "0,1,2"
  iter_count: "3"
bindings: |
  input cycle: u64
  const base_width := 512
  shared n_zero := 0
  shared n_big := 2500
  shared f_zero := 0.0
  shared f_e := 2.71828
  shared s_empty := ""
  shared s_text := "grid"
  shared b_on := true
  shared b_off := false
  twice := mul(n_big, 2)
scenarios:
  types: [types]
  constant: [constant]
  derived: [derived]
  chain_for_each:
    - for_each: "it in {iter_list}"
      phases: [in_for_each]
  nested:
    - for_each: "outer in p,q,r"
      phases:
        - for_each: "inner in pre_{outer}"
          phases: [leaf]
  chain_do_while:
    - do_while: "{i} < {iter_count}"
      counter: i
      phases: [in_do_while]
  gated: [gated]
  cells: [cells]
  default:
    - types
    - constant
    - derived
    - for_each: "it in {iter_list}"
      phases: [in_for_each]
    - do_while: "{i} < {iter_count}"
      counter: i
      phases: [in_do_while]
    - gated
    - cells
phases:
  types:
    cycles: 1
    concurrency: 1
    ops:
      a: "sc/shared_types kind=u64 sub=zero value={n_zero}"
      b: "sc/shared_types kind=u64 sub=big value={n_big}"
      c: "sc/shared_types kind=f64 sub=zero value={f_zero}"
      d: "sc/shared_types kind=f64 sub=e value={f_e}"
      e: "sc/shared_types kind=str sub=empty value=[{s_empty}]"
      f: "sc/shared_types kind=str sub=text value={s_text}"
      g: "sc/shared_types kind=bool sub=on value={b_on}"
      h: "sc/shared_types kind=bool sub=off value={b_off}"
  constant:
    cycles: 1
    ops:
      line: "sc/const base_dim={base_width}"
  derived:
    cycles: 1
    ops:
      line: "sc/derived count_big={n_big} doubled={twice}"
  in_for_each:
    ops:
      line: "sc/for_each_chain iter={it} count_big={n_big} label={s_text}"
  in_do_while:
    ops:
      line: "sc/do_while_chain i={i} count_big={n_big} label={s_text}"
  gated:
    ops:
      on:
        if: b_on
        stmt: "sc/conditional gated=on result=fired"
      off:
        if: b_off
        stmt: "sc/conditional gated=off result=fired"
      always:
        stmt: "sc/conditional gated=always result=fired"
  cells:
    ops:
      line: "sc/multi_cell zero={n_zero} big={n_big} e={f_e} text={s_text} on={b_on} off={b_off}"
  leaf:
    ops:
      line: "sc/nested outer={outer} inner={inner}"
)";

// Ours, in shared_cells.yaml's shape.
const char* kCells = R"(params:
  iterations: "3"
bindings: |
  input cycle: u64
  shared quota := 40
  shared ratio := 0.25
  shared name := "beta"
  shared active := true
  quadrupled := mul(quota, 4)
scenarios:
  basic: [emit]
  loop:
    - do_while: "{i} < {iterations}"
      counter: i
      phases: [iter]
  typed: [typed]
  default:
    - emit
    - do_while: "{i} < {iterations}"
      counter: i
      phases: [iter]
    - typed
phases:
  emit:
    cycles: 3
    ops:
      line: "cells/basic cycle={cycle} quota={quota} ratio={ratio} name={name} active={active} quadrupled={quadrupled}"
  iter:
    ops:
      line: "cells/loop iter={i} quota={quota}"
  typed:
    ops:
      a: "cells/typed kind=u64 value={quota}"
      b: "cells/typed kind=f64 value={ratio}"
      c: "cells/typed kind=str value={name}"
      d: "cells/typed kind=bool value={active}"
)";

struct Out {
  std::vector<std::string> lines;
  bool has(const std::string& l) const { return std::find(lines.begin(), lines.end(), l) != lines.end(); }
  std::vector<std::string> starting(const std::string& prefix) const {
    std::vector<std::string> r;
    for (const std::string& l : lines)
      if (l.rfind(prefix, 0) == 0) r.push_back(l);
    return r;
  }
};

Out run(const Workload& w, const std::string& scenario, bool native) {
  RunOptions o;
  o.scenario = scenario;
  o.native = native;
  std::string text;
  auto s = run_workload(w, o, [&](const std::string& t) {
    text += t;
    return true;
  });
  REQUIRE_MESSAGE(s, (s ? std::string() : s.error()));
  Out out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.lines.push_back(l);
  return out;
}

Out run_text(const char* yaml, const std::string& scenario) {
  auto w = parse_workload_text(yaml, "shape.yaml");
  REQUIRE_MESSAGE(w, (w ? std::string() : w.error().rendered));
  Out a = run(*w, scenario, false), b = run(*w, scenario, true);
  CHECK(a.lines == b.lines);
  return a;
}

// What scope.rs asserts, for a workload of scope_coverage's shape: its line
// prefix, its scenarios' names and the values its cells and bindings hold.
struct Coverage {
  std::string p;  // the prefix: "cm" (nb-rs's) or "sc" (ours)
  std::string types, constant, derived, for_each, nested, do_while, gated, cells;  // scenario names
  std::string big, ftag, f, text, base_dim, doubled;
  std::vector<std::string> outers;
};

void check_coverage(const std::function<Out(const std::string&)>& scenario, const Coverage& c) {
  Out t = scenario(c.types);
  const std::string T = c.p + "/shared_types kind=";
  for (const std::string& l : {T + "u64 sub=zero value=0", T + "u64 sub=big value=" + c.big, T + "f64 sub=zero value=0",
                               T + "f64 sub=" + c.ftag + " value=" + c.f, T + "str sub=empty value=[]",
                               T + "str sub=text value=" + c.text, T + "bool sub=on value=true", T + "bool sub=off value=false"})
    CHECK_MESSAGE(t.has(l), l);
  CHECK(scenario(c.constant).has(c.p + "/const base_dim=" + c.base_dim));
  CHECK(scenario(c.derived).has(c.p + "/derived count_big=" + c.big + " doubled=" + c.doubled));
  for (const auto& [name, chain, var] : {std::tuple{c.for_each, "/for_each_chain ", "iter"}, std::tuple{c.do_while, "/do_while_chain ", "i"}}) {
    const std::vector<std::string> lines = scenario(name).starting(c.p + chain);
    REQUIRE(lines.size() == 3);
    for (int i = 0; i < 3; ++i)
      CHECK(lines[i] == c.p + chain + var + "=" + std::to_string(i) + " count_big=" + c.big + " label=" + c.text);
  }
  Out g = scenario(c.gated);
  CHECK(g.has(c.p + "/conditional gated=on result=fired"));
  CHECK(g.has(c.p + "/conditional gated=always result=fired"));
  CHECK(g.starting(c.p + "/conditional gated=off").empty());
  CHECK(scenario(c.cells).has(c.p + "/multi_cell zero=0 big=" + c.big + " " + c.ftag + "=" + c.f + " text=" + c.text +
                              " on=true off=false"));
  Out n = scenario(c.nested);
  REQUIRE(n.starting(c.p + "/nested ").size() == 3);
  for (const std::string& o : c.outers) CHECK(n.has(c.p + "/nested outer=" + o + " inner=pre_" + o));
  Out all = scenario("");
  for (const char* prefix : {"/shared_types ", "/const ", "/derived ", "/for_each_chain ", "/do_while_chain ", "/conditional ",
                             "/multi_cell "})
    CHECK_MESSAGE(!all.starting(c.p + prefix).empty(), prefix);
}

// A file of nb-rs's repository from a mirror of it on this machine (a bare
// git directory), or "" when there is none.
std::string nbrs_file(const std::string& path) {
  const char* git_dir = "/work/.mirror/nosqlbench+nb-rs/repo";
  if (!std::filesystem::exists(git_dir)) return "";
  const std::string cmd = std::string("git --git-dir=") + git_dir + " show HEAD:" + path + " 2>/dev/null";
  std::string text;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    pclose(f);
  }
  return text;
}

}  // namespace

TEST_CASE("nb-rs shape: scope_coverage's assertions, on a workload of ours of the same shape") {
  check_coverage([](const std::string& s) { return run_text(kCoverage, s); },
                 Coverage{"sc", "types", "constant", "derived", "chain_for_each", "nested", "chain_do_while", "gated",
                          "cells", "2500", "e", "2.71828", "grid", "512", "5000", {"p", "q", "r"}});
}

TEST_CASE("nb-rs shape: shared_cells' assertions, on a workload of ours of the same shape") {
  Out basic = run_text(kCells, "basic");
  const std::vector<std::string> lines = basic.starting("cells/basic ");
  REQUIRE(lines.size() == 3);
  for (int i = 0; i < 3; ++i)
    CHECK(lines[i] == "cells/basic cycle=" + std::to_string(i) +
                          " quota=40 ratio=0.25 name=beta active=true quadrupled=160");
  Out loop = run_text(kCells, "loop");
  REQUIRE(loop.starting("cells/loop ").size() == 3);
  for (int i = 0; i < 3; ++i) CHECK(loop.starting("cells/loop ")[i] == "cells/loop iter=" + std::to_string(i) + " quota=40");
  Out typed = run_text(kCells, "typed");
  for (const char* l : {"cells/typed kind=u64 value=40", "cells/typed kind=f64 value=0.25", "cells/typed kind=str value=beta",
                        "cells/typed kind=bool value=true"})
    CHECK(typed.has(l));
  Out all = run_text(kCells, "");
  for (const char* p : {"cells/basic ", "cells/loop ", "cells/typed "}) CHECK(!all.starting(p).empty());
}

TEST_CASE("nb-rs shape: nb-rs's own scope_coverage.yaml and shared_cells.yaml, when a mirror of nb-rs is here") {
  const std::string coverage_text = nbrs_file("examples/workloads/scope_coverage.yaml");
  const std::string cells_text = nbrs_file("examples/workloads/shared_cells.yaml");
  if (coverage_text.empty() || cells_text.empty()) {
    MESSAGE("no mirror of nosqlbench/nb-rs on this machine: only our workloads of the same shape ran");
    return;
  }
  auto coverage = parse_workload_text(coverage_text, "scope_coverage.yaml");
  auto cells = parse_workload_text(cells_text, "shared_cells.yaml");
  REQUIRE(coverage);
  REQUIRE(cells);
  check_coverage([&](const std::string& s) { return run(*coverage, s, false); },
                 Coverage{"cm", "shared_types", "const_modifier", "derived_from_shared", "for_each_chain", "nested_for_each",
                          "do_while_chain", "conditional_op", "multi_cell", "1000", "pi", "3.14159", "matrix", "256", "2000",
                          {"a", "b", "c"}});
  Out basic = run(*cells, "basic", true);
  REQUIRE(basic.starting("shared/basic ").size() == 3);
  for (int i = 0; i < 3; ++i)
    CHECK(basic.starting("shared/basic ")[i] == "shared/basic cycle=" + std::to_string(i) +
                                                     " budget=100 rate=0.5 label=alpha enabled=true scaled=200");
  Out loop = run(*cells, "loop", false);
  for (int i = 0; i < 3; ++i) CHECK(loop.starting("shared/loop ").at(i) == "shared/loop iter=" + std::to_string(i) + " budget=100");
  Out typed = run(*cells, "mixed_types", true);
  for (const char* l : {"shared/typed kind=u64 value=100", "shared/typed kind=f64 value=0.5", "shared/typed kind=str value=alpha",
                        "shared/typed kind=bool value=true"})
    CHECK(typed.has(l));
}

namespace {
// Ours, in the shape of stdlib_coverage.yaml's comparison_phase and hash_phase:
// comparisons rendered in an op, and a bool gate fed by one.
const char* kComparisons = R"(scenarios:
  apart: [apart]
  equal: [equal]
  hashes: [hashes]
phases:
  apart:
    cycles: 1
    bindings: |
      a := 12
      b := 4
      eq_ := a == b
      ne_ := a != b
      lt_ := a < b
      gt_ := a > b
      lte_ := a <= b
      gte_ := a >= b
    ops:
      emit: "cmp/apart eq={eq_} ne={ne_} lt={lt_} gt={gt_} lte={lte_} gte={gte_}"
  equal:
    cycles: 1
    bindings: |
      a := 5
      b := 5
      gated: bool := a == b
    ops:
      emit: "cmp/equal eq={a == b} ne={a != b} lt={a < b} gt={a > b} lte={a <= b} gte={a >= b}"
      gate:
        if: gated
        stmt: "cmp/gated {gated}"
  hashes:
    cycles: 1
    bindings: |
      g1 := hash(7)
      g2 := hash(7)
      g3 := hash(8)
      eq := g1 == g2
      same := g1 - g2
      diff := g1 != g3
    ops:
      emit: "cmp/hash eq={eq} same={same} diff={diff}"
)";
}  // namespace

TEST_CASE("nb-rs shape: comparisons render as 1 or 0 (stdlib_comparison_ops, stdlib_hash_chain)") {
  // nb-rs: tests/stdlib.rs stdlib_comparison_ops ("lib/cmp eq=0 ne=1 lt=0 gt=1 lte=0 gte=1", 10 against 3)
  // and stdlib_hash_chain ("lib/hash eq=1 same=0 diff=1"): the same shapes, other operands.
  CHECK(run_text(kComparisons, "apart").has("cmp/apart eq=0 ne=1 lt=0 gt=1 lte=0 gte=1"));
  Out equal = run_text(kComparisons, "equal");
  CHECK(equal.has("cmp/equal eq=1 ne=0 lt=0 gt=0 lte=1 gte=1"));
  CHECK(equal.has("cmp/gated true"));  // annotated bool: the comparison through the U64 -> Bool adapter
  CHECK(run_text(kComparisons, "hashes").has("cmp/hash eq=1 same=0 diff=1"));
}

TEST_CASE("nb-rs shape: nb-rs's own stdlib_coverage.yaml comparison scenarios, when a mirror of nb-rs is here") {
  const std::string text = nbrs_file("examples/workloads/stdlib_coverage.yaml");
  if (text.empty()) {
    MESSAGE("no mirror of nosqlbench/nb-rs on this machine: only our workload of the same shape ran");
    return;
  }
  auto w = parse_workload_text(text, "stdlib_coverage.yaml");
  REQUIRE_MESSAGE(w, (w ? std::string() : w.error().rendered));
  for (bool native : {false, true}) {
    CAPTURE(native);
    CHECK(run(*w, "comparison_ops", native).has("lib/cmp eq=0 ne=1 lt=0 gt=1 lte=0 gte=1"));
    CHECK(run(*w, "hash_chain", native).has("lib/hash eq=1 same=0 diff=1"));
  }
}
