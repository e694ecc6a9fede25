// The subcontext builder (workload/subcontext.h) and the shared-cell rules
// (workload/cells.h), driven through their API: a ParentView whose Manifest
// is written by hand, fragments with the marks they have in a YAML text
// written one file line per string literal (so every LINE:COL below can be
// counted by hand), then finalize()'s ScopeModule or ContractViolation, and
// where it shows something the module's kernel run by embed::Kernel.
//
// The fixture (see shop()): lines 1-11 are the workload head; the phase's
// `bindings: |` is line 12, its text starts at line 13, column 7; when the
// phase has ops, the op's `bindings: "..."` text is at column 20 and its
// `result: |` text at column 11 of the lines after the phase bindings.
//
// The last eight cases were written against bugs this suite found in the
// builder (a `shared const` cell not shown as const, shadowing escaping through
// `shared`, placeless or displaced op fragments, destructuring over a cell, a
// placeless result block at 0:0, a coordinate suggested as itself); they pass
// since the fixes.
//
// Faults planted to see these tests fail (each restored afterwards):
//   - subcontext.cc, a write-through recorded with Combine::Last instead of
//     the cell's combine: "imports, per-cycle imports, exports and a
//     write-through", "a cell of a grand-parent ..." and "WriteType for a
//     lossy or foreign write ..." fail (combine Sum/Max expected);
//   - subcontext.cc, `if (v.dynamic)` made `if (!v.dynamic)` in the import
//     declarations: six tests fail (imports vs cycle_imports, the source's
//     `extern`/`input` lines, a binding's dynamic flag);
//   - cells.cc, widens() taking unsigned into signed of the same width
//     (`<` made `<=`): "value_for_cell, the refused writes and why" and
//     "writable_into ..." fail (u32 -> i32, u64 -> i64 accepted);
//   - cells.cc, compare() for signed integers by their bits: "combine, each
//     template" fails (min(1, -1) gives 1, max(-1, 1) gives -1).
#include <doctest/doctest.h>

#include "test_text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/compile.h"
#include "frontend/embed.h"
#include "ir/ty.h"
#include "ir/value.h"
#include "workload/cells.h"
#include "workload/model.h"
#include "workload/scope_names.h"
#include "workload/subcontext.h"

using namespace polydat;
using namespace polydat::workload;
using frontend::Combine;
using ir::Ty;
using ir::TyKind;
using ir::Value;

namespace {

// ---------------------------------------------------------------------------
// Texts and marks

std::string join(const std::vector<std::string>& ls) {
  std::string out;
  for (const std::string& l : ls) out += l + "\n";
  return out;
}

using test::file_line;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

Fragment frag(std::string text, Mark content, bool literal_block, bool no_shadow = false) {
  Fragment f;
  f.text = std::move(text);
  f.content = content;
  f.literal_block = literal_block;
  f.no_shadow = no_shadow;
  return f;
}

// `rendered` is "PATH:LINE:COL: error: ... [KIND]", then the file's line LINE
// and a caret under COL.
void check_rendered(const std::string& rendered, const std::string& text, uint32_t line, uint32_t col,
                    const std::string& kind) {
  INFO("rendered:\n" << rendered);
  const std::vector<std::string> ls = split(rendered);
  REQUIRE(ls.size() >= 3);
  const std::string head = "shop.yaml:" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
  CHECK(ls[0].rfind(head, 0) == 0);
  if (!kind.empty()) CHECK(ls[0].size() >= kind.size() + 3);
  if (!kind.empty()) CHECK(ls[0].substr(ls[0].size() - kind.size() - 3) == " [" + kind + "]");
  CHECK(ls[1] == "  " + file_line(text, line));
  CHECK(ls[2] == "  " + std::string(col - 1, ' ') + "^");
}

// ---------------------------------------------------------------------------
// The workload scope as a phase under it sees it (hand-made)

VisibleName vn(std::string name, Ty ty, VisibleName::Kind kind, std::string scope, Mark at) {
  VisibleName v;
  v.name = std::move(name);
  v.ty = std::move(ty);
  v.kind = kind;
  v.scope = std::move(scope);
  v.at = at;
  return v;
}

const Ty kU64 = Ty::u64();
const Ty kU32 = Ty::scalar(TyKind::U32);

// Workload lines 1-11 (the head of every fixture):
//   3  `  limit: "10"`                  param limit (u64)
//   5  `  shared(sum) total: u64 := 0`  cell total at 5:15
//   6  `  const seed := 42`             const binding seed at 6:9
//   7  `  rate := cycle * 2`            per-cycle binding rate at 7:3
//   8  `  shared(max) peak: u32 := 0`   cell peak at 8:15
const std::vector<std::string> kHead = {
    "# shop.yaml: cells in the workload, one phase writes them",  // 1
    "params:",                                                    // 2
    "  limit: \"10\"",                                            // 3
    "bindings: |",                                                // 4
    "  shared(sum) total: u64 := 0",                              // 5
    "  const seed := 42",                                         // 6
    "  rate := cycle * 2",                                        // 7
    "  shared(max) peak: u32 := 0",                               // 8
    "phases:",                                                    // 9
    "  rampup:",                                                  // 10
    "    cycles: \"100\"",                                        // 11
};

Manifest workload_manifest() {
  Manifest m;
  m["limit"] = vn("limit", kU64, VisibleName::Kind::Param, "workload", {3, 3});
  VisibleName total = vn("total", kU64, VisibleName::Kind::Cell, "workload", {5, 15});
  total.combine = Combine::Sum;
  m["total"] = total;
  VisibleName seed = vn("seed", kU64, VisibleName::Kind::Binding, "workload", {6, 9});
  seed.is_const = true;
  m["seed"] = seed;
  VisibleName rate = vn("rate", kU64, VisibleName::Kind::Binding, "workload", {7, 3});
  rate.dynamic = true;
  m["rate"] = rate;
  VisibleName peak = vn("peak", kU32, VisibleName::Kind::Cell, "workload", {8, 15});
  peak.combine = Combine::Max;
  m["peak"] = peak;
  m["cycle"] = vn("cycle", kU64, VisibleName::Kind::Coordinate, "workload", {});
  return m;
}

// A workload text: the head, phase rampup's `bindings: |` (line 12) with
// `body` from line 13, column 7; then, when there is an op, `ops:` and one op
// with `bindings: "OP"` (column 20) and/or `result: |` (column 11).
struct Shop {
  std::string text;
  Fragment phase;
  std::optional<Fragment> op;
  std::optional<Fragment> result;
};

Shop shop(const std::vector<std::string>& body, const std::string& op = "",
          const std::vector<std::string>& result = {}) {
  std::vector<std::string> ls = kHead;
  ls.push_back("    bindings: |");  // 12
  for (const std::string& b : body) ls.push_back("      " + b);
  Shop s;
  s.phase = frag(join(body), {13, 7}, true);
  if (!op.empty() || !result.empty()) {
    ls.push_back("    ops:");
    ls.push_back("      - stmt: \"select {x}\"");
    if (!op.empty()) {
      ls.push_back("        bindings: \"" + op + "\"");
      s.op = frag(op, {static_cast<uint32_t>(ls.size()), 20}, false, true);
    }
    if (!result.empty()) {
      ls.push_back("        result: |");
      s.result = frag(join(result), {static_cast<uint32_t>(ls.size() + 1), 11}, true);
      for (const std::string& r : result) ls.push_back("          " + r);
    }
  }
  s.text = join(ls);
  return s;
}

ParentView view(const Shop& s, Manifest names = workload_manifest()) {
  return ParentView{std::move(names), "shop.yaml", s.text};
}

SubcontextBuilder rampup(const Shop& s, Manifest names = workload_manifest()) {
  return SubcontextBuilder(view(s, std::move(names)), "phase rampup", Mark{10, 3});
}

ScopeModule ok_module(const ir::Expected<ScopeModule, ContractViolation>& r) {
  if (!r) FAIL(std::string(kind_name(r.error().kind)) << ": " << r.error().message << "\n" << r.error().rendered);
  return r.value();
}

ContractViolation violation(const ir::Expected<ScopeModule, ContractViolation>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

template <class T>
bool contains(const std::vector<T>& v, const T& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

embed::Kernel kernel_of(const ScopeModule& m) {
  embed::KernelOptions ko;
  ko.compile = m.options;
  auto k = embed::Kernel::compile(m.source, ko);
  if (!k) FAIL(k.error().to_string() << "\n" << m.source);
  return std::move(k).value();
}

void set(embed::Kernel& k, const std::string& name, const Value& v) {
  auto r = k.set(name, v);
  if (!r) FAIL(name << ": " << r.error().to_string());
}

Value out(embed::Kernel& k, const std::string& name) {
  auto v = k.lookup(name);
  REQUIRE(v.has_value());
  return *v;
}

void evaluate(embed::Kernel& k) {
  auto r = k.evaluate();
  if (!r) FAIL(r.error().to_string());
}

Value u64v(uint64_t x) { return Value::integer(TyKind::U64, x); }
Value u32v(uint64_t x) { return Value::integer(TyKind::U32, x); }
Value u8v(uint64_t x) { return Value::integer(TyKind::U8, x); }
Value i64v(int64_t x) { return Value::integer(TyKind::I64, static_cast<uint64_t>(x)); }
Value i8v(int64_t x) { return Value::integer(TyKind::I8, static_cast<uint64_t>(x)); }
Value i32v(int64_t x) { return Value::integer(TyKind::I32, static_cast<uint64_t>(x)); }
Ty ty(TyKind k) { return Ty::scalar(k); }

}  // namespace

TEST_SUITE("workload") {

// ===========================================================================
// place_fragments

TEST_CASE("subcontext: place_fragments puts each fragment at its file line and column") {
  // A one-line scalar at 3:5: two blank lines, then the text after 4 spaces.
  CHECK(place_fragments({frag("x := 1", {3, 5}, false)}) == "\n\n    x := 1\n");
  // A literal block at 2:3: every line at column 3; its final newline adds no line.
  CHECK(place_fragments({frag("a := 1\nb := a\n", {2, 3}, true)}) == "\n  a := 1\n  b := a\n");
  // A multi-line non-literal scalar (folded, multi-line quoted): only its first line is placed at the column.
  CHECK(place_fragments({frag("a := 1\nb := a", {2, 3}, false)}) == "\n  a := 1\nb := a\n");
  // Column 1 and column 0: no indentation.
  CHECK(place_fragments({frag("a := 1", {1, 1}, false)}) == "a := 1\n");
  CHECK(place_fragments({frag("a := 1", {2, 0}, true)}) == "\na := 1\n");
  // Nothing to place.
  CHECK(place_fragments({}) == "");
}

TEST_CASE("subcontext: place_fragments orders by line and fills the gaps") {
  // Given out of order: the one at line 5 is placed after the one at line 2.
  const std::string placed =
      place_fragments({frag("late := 2", {5, 3}, false), frag("early := 1\nmid := 3", {2, 1}, true)});
  CHECK(placed == "\nearly := 1\nmid := 3\n\n  late := 2\n");
  //             1  2           3         4  5
}

TEST_CASE("subcontext: place_fragments, colliding lines fall back to the next free line") {
  // A at lines 2-3; B wants line 3 (taken): B goes to line 4, right after A, unindented.
  CHECK(place_fragments({frag("a := 1\nb := 2", {2, 1}, true), frag("c := 3", {3, 5}, false)}) ==
        "\na := 1\nb := 2\nc := 3\n");
  // B has two lines from line 3: both move down (4 and 5), keeping their order.
  CHECK(place_fragments({frag("a := 1\nb := 2", {2, 1}, true), frag("c := 3\nd := c", {3, 2}, true)}) ==
        "\na := 1\nb := 2\nc := 3\nd := c\n");
  // Two fragments on one line (two inline bindings of one op field): the second on the next line.
  CHECK(place_fragments({frag("p := 1", {4, 3}, false), frag("q := 2", {4, 9}, false)}) ==
        "\n\n\n  p := 1\nq := 2\n");
  // A fragment that was pushed down pushes the next one down too, but one with room keeps its line.
  CHECK(place_fragments({frag("a := 1\nb := 2", {1, 1}, true), frag("c := 3", {2, 1}, false),
                         frag("d := 4", {3, 1}, false), frag("e := 5", {6, 1}, false)}) ==
        "a := 1\nb := 2\nc := 3\nd := 4\n\ne := 5\n");
  // A fragment with no place (line 0) is placed at the first free line.
  CHECK(place_fragments({frag("z := 0", {0, 0}, false)}) == "z := 0\n");
  CHECK(place_fragments({frag("a := 1", {2, 3}, false), frag("z := 0", {0, 0}, false)}) == "z := 0\n  a := 1\n");
}

// Byte offset of the first `needle` in `text`.
uint32_t offset_of(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return static_cast<uint32_t>(at);
}

std::string str(Mark m) { return std::to_string(m.line) + ":" + std::to_string(m.col); }

TEST_CASE("subcontext: place() maps every placed byte back to its file line and column") {
  {
    // In place: the placed line and column are the file's.
    const Placement p = place({frag("a := 1\nbb := a", {2, 3}, true)});
    CHECK(p.text == "\n  a := 1\n  bb := a\n");
    REQUIRE(p.origin.size() == 3);
    CHECK(p.origin[0].line == 0);  // a blank line made here
    CHECK(p.origin[1].line == 2);
    CHECK(p.origin[2].line == 3);
    CHECK(str(p.file_mark(offset_of(p.text, "a :="))) == "2:3");
    CHECK(str(p.file_mark(offset_of(p.text, "bb"))) == "3:3");
    CHECK(str(p.file_mark(offset_of(p.text, "a\n"))) == "3:9");
    CHECK(str(p.file_mark(0)) == "0:0");  // the blank line 1: nowhere in the file
  }
  {
    // Pushed down to line 4, column 1: still shown at the file's 3:5.
    const Placement p = place({frag("a := 1\nb := 2", {2, 1}, true), frag("c := 3", {3, 5}, false)});
    REQUIRE(p.origin.size() == 4);
    CHECK(p.origin[3].line == 3);
    CHECK(p.origin[3].shift == 4);
    CHECK(str(p.file_mark(offset_of(p.text, "c :="))) == "3:5");
    CHECK(str(p.file_mark(offset_of(p.text, "3\n"))) == "3:10");
    CHECK(str(p.file_mark(offset_of(p.text, "b :="))) == "3:1");
  }
  {
    // No place: nowhere in the file.
    const Placement p = place({frag("z := 0", {0, 0}, false)});
    CHECK(str(p.file_mark(offset_of(p.text, "0"))) == "0:0");
  }
  {
    // A made-up prefix (an inline binding `__if_0 := ` before the text of an
    // `if:` at 5:20): the text's own bytes are at their file columns, the
    // prefix's show at the text's first column.
    Fragment f = frag("__if_0 := x > 1", {5, 20}, false, true);
    f.prefix = 10;
    const Placement p = place({f});
    CHECK(p.text == "\n\n\n\n" + std::string(9, ' ') + "__if_0 := x > 1\n");
    CHECK(str(p.file_mark(offset_of(p.text, "x >"))) == "5:20");
    CHECK(str(p.file_mark(offset_of(p.text, "1\n"))) == "5:24");
    CHECK(str(p.file_mark(offset_of(p.text, "__if_0"))) == "5:20");
    // No room for the prefix before column 4: placed after what is there (here line 1), mapped back.
    Fragment g = frag("__if_0 := x > 1", {5, 4}, false, true);
    g.prefix = 10;
    const Placement q = place({g});
    CHECK(q.text == "__if_0 := x > 1\n");
    CHECK(str(q.file_mark(offset_of(q.text, "x >"))) == "5:4");
    CHECK(str(q.file_mark(0)) == "5:4");
  }
}

// ===========================================================================
// The fixture itself: the marks written by hand are the loader's

TEST_CASE("subcontext: the fixture's hand-counted marks are the workload loader's") {
  const Shop s = shop({"input cycle: u64", "step := limit + rate"}, "extra := step * 2", {"done := ok"});
  // Lines: 13-14 the phase's body, 15 ops:, 16 the op, 17 its bindings, 18 result: |, 19 its text.
  REQUIRE(s.op.has_value());
  REQUIRE(s.result.has_value());
  CHECK(s.op->content.line == 17);
  CHECK(s.result->content.line == 19);
  auto w = parse_workload_text(s.text, "shop.yaml");
  if (!w) FAIL(w.error().rendered);
  REQUIRE(w->phases.size() == 1);
  const PhaseDef& p = w->phases[0];
  REQUIRE(p.bindings.has_value());
  CHECK(p.bindings->content.line == 13);
  CHECK(p.bindings->content.col == 7);
  CHECK(p.bindings->literal_block);
  CHECK(p.bindings->text == s.phase.text);
  REQUIRE(p.ops.size() == 1);
  REQUIRE(p.ops[0].bindings.has_value());
  CHECK(p.ops[0].bindings->content.line == 17);
  CHECK(p.ops[0].bindings->content.col == 20);
  CHECK(p.ops[0].bindings->text == "extra := step * 2");
  CHECK(file_line(s.text, 5).substr(14, 5) == "total");  // total at 5:15
  CHECK(file_line(s.text, 6).substr(8, 4) == "seed");    // seed at 6:9
}

// ===========================================================================
// The builder: a phase under the workload

TEST_CASE("subcontext: imports, per-cycle imports, exports and a write-through") {
  const Shop s = shop({
      "input cycle: u64",       // 13
      "step := limit + rate",   // 14
      "total := total + step",  // 15
      "seen := total",          // 16
  });
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).import_free_names();
  const ScopeModule m = ok_module(b.finalize());

  CHECK(m.label == "phase rampup");
  // limit is read once at scope start; rate changes per cycle (dynamic) so it is an input.
  CHECK(m.imports == std::vector<std::string>{"limit"});
  CHECK(m.cycle_imports == std::vector<std::string>{"rate"});
  CHECK(m.reads_cycle);  // declares `input cycle`
  // total is a write, not an export; seen reads the cell.
  CHECK(m.exports == std::vector<std::string>{"step", "seen"});
  REQUIRE(m.write_throughs.size() == 1);
  CHECK(m.write_throughs[0].cell == "total");
  CHECK(m.write_throughs[0].output == "__write_total");
  CHECK(m.write_throughs[0].ty == kU64);
  CHECK(m.write_throughs[0].combine == Combine::Sum);
  CHECK(m.write_throughs[0].binding_scope == "phase rampup");
  CHECK(m.cells.empty());
  CHECK(m.diagnostics.empty());

  // The source: the body at its lines and column, then the declarations.
  const std::string placed = std::string(12, '\n') +
                             "      input cycle: u64\n"
                             "      step := limit + rate\n"
                             "      total := total + step\n"
                             "      seen := total\n";
  CHECK(m.source == placed +
                        "extern total: u64\n"
                        "extern limit: u64\n"
                        "input rate: u64\n");
  CHECK(m.options.scope_cells);
  CHECK(m.options.rename_bindings == std::map<std::string, std::string>{{"total", "__write_total"}});
  CHECK(m.options.outputs == std::vector<std::string>{"step", "seen", "__write_total"});
  CHECK(m.outputs == std::vector<std::string>{"step", "seen", "__write_total"});

  // Params: cycle and rate as inputs, total and limit as externs.
  std::vector<std::string> params;
  for (const auto& [n, t] : m.params) params.push_back(n);
  std::sort(params.begin(), params.end());
  CHECK(params == std::vector<std::string>{"cycle", "limit", "rate", "total"});

  // What the phase shows inner scopes: its bindings, not the write.
  CHECK(m.names.size() == 2);
  REQUIRE(m.names.count("step"));
  CHECK(m.names.at("step").kind == VisibleName::Kind::Binding);
  CHECK(m.names.at("step").ty == kU64);
  CHECK(m.names.at("step").dynamic);  // reads rate, an input
  CHECK_FALSE(m.names.at("step").is_const);
  CHECK(m.names.at("step").scope == "phase rampup");
  CHECK(m.names.at("step").at.line == 14);
  CHECK(m.names.at("step").at.col == 7);
  REQUIRE(m.names.count("seen"));
  CHECK(m.names.at("seen").dynamic);  // it reads a cell, which a write may change at any cycle
  CHECK(m.names.count("total") == 0);
  CHECK(m.names.count("__write_total") == 0);

  // The kernel: __write_total computes from the cell's value (total = 100),
  // and `seen` reads the cell, not what is written.
  embed::Kernel k = kernel_of(m);
  set(k, "cycle", u64v(0));
  set(k, "limit", u64v(10));
  set(k, "rate", u64v(4));
  set(k, "total", u64v(100));
  evaluate(k);
  CHECK(out(k, "step") == u64v(14));
  CHECK(out(k, "__write_total") == u64v(114));
  CHECK(out(k, "seen") == u64v(100));
  set(k, "total", u64v(114));
  evaluate(k);
  CHECK(out(k, "__write_total") == u64v(128));
}

TEST_CASE("subcontext: reading cycle declares `input cycle`; names carry dynamic and const") {
  const Shop s = shop({
      "const k := 3",      // 13
      "d := cycle + 1",    // 14
      "s := limit * 2",    // 15
      "r := rate + seed",  // 16
  });
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).import_free_names();
  const ScopeModule m = ok_module(b.finalize());
  CHECK(m.reads_cycle);
  CHECK(has(m.source, "\ninput cycle: u64\n"));
  CHECK(m.imports == std::vector<std::string>{"limit", "seed"});
  CHECK(m.cycle_imports == std::vector<std::string>{"rate"});
  CHECK(m.exports == std::vector<std::string>{"k", "d", "s", "r"});
  REQUIRE(m.names.size() == 4);
  CHECK(m.names.at("k").is_const);
  CHECK_FALSE(m.names.at("k").dynamic);
  CHECK(m.names.at("d").dynamic);
  CHECK_FALSE(m.names.at("d").is_const);
  CHECK_FALSE(m.names.at("s").dynamic);
  CHECK_FALSE(m.names.at("s").is_const);
  CHECK(m.names.at("r").dynamic);
  CHECK(m.names.at("d").at.line == 14);
  CHECK(m.names.at("r").at.line == 16);
  for (const auto& [n, v] : m.names) {
    CHECK(v.kind == VisibleName::Kind::Binding);
    CHECK(v.scope == "phase rampup");
  }
  // `cycle` is no import, whatever the parent shows for it.
  CHECK_FALSE(contains(m.imports, std::string("cycle")));
  CHECK_FALSE(contains(m.cycle_imports, std::string("cycle")));

  embed::Kernel k = kernel_of(m);
  set(k, "cycle", u64v(41));
  set(k, "limit", u64v(10));
  set(k, "seed", u64v(42));
  set(k, "rate", u64v(8));
  evaluate(k);
  CHECK(out(k, "d") == u64v(42));
  CHECK(out(k, "s") == u64v(20));
  CHECK(out(k, "r") == u64v(50));
}

TEST_CASE("subcontext: explicit imports; one never read is a diagnostic, not an error") {
  const Shop s = shop({"x := seed + 1"});  // 13
  SubcontextBuilder b = rampup(s);
  b.import("limit", {3, 3}).import("seed").body(s.phase);
  const ScopeModule m = ok_module(b.finalize());
  CHECK(m.imports == std::vector<std::string>{"limit", "seed"});
  CHECK(has(m.source, "extern limit: u64\nextern seed: u64\n"));
  CHECK(m.diagnostics == std::vector<std::string>{"import 'limit' of phase rampup is declared but never read"});
  CHECK(m.exports == std::vector<std::string>{"x"});
  CHECK(m.options.lib_paths.empty());
  CHECK(b.parent().path == "shop.yaml");
  CHECK(b.parent().names.size() == 6);

  // Library folders reach the compile options.
  SubcontextBuilder b1 = rampup(s);
  b1.import("seed").body(s.phase).lib_paths({"/nowhere/lib", "/nowhere/more"});
  CHECK(ok_module(b1.finalize()).options.lib_paths == std::vector<std::string>{"/nowhere/lib", "/nowhere/more"});

  // The same import twice is one import (and one diagnostic).
  SubcontextBuilder b2 = rampup(s);
  b2.import("seed").import("seed").body(s.phase);
  const ScopeModule m2 = ok_module(b2.finalize());
  CHECK(m2.imports == std::vector<std::string>{"seed"});
  CHECK(m2.diagnostics.empty());

  // Without the import nor import_free_names, `seed` is declared nowhere: the
  // compiler takes it for an inferred input, which nothing feeds (13:12).
  SubcontextBuilder b3 = rampup(s);
  b3.body(s.phase);
  const ContractViolation v = violation(b3.finalize());
  CHECK(v.kind == ContractViolation::Kind::Compile);
  CHECK(v.name == "seed");
  CHECK(v.message == "input 'seed' of phase rampup has no source: a scope's kernel is fed `cycle` only");
  check_rendered(v.rendered, s.text, 13, 12, "compile");
}

TEST_CASE("subcontext: UnboundImport, at the read, at the import's mark, or at the scope's") {
  {
    // `limt` read at 13:12 ("      x := limt + 1": x at 7, limt at 12).
    const Shop s = shop({"x := limt + 1"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::UnboundImport);
    CHECK(std::string(kind_name(v.kind)) == "unbound-import");
    CHECK(v.name == "limt");
    CHECK(v.message == "'limt' is not defined in phase rampup nor in any scope around it (did you mean 'limit'?)");
    check_rendered(v.rendered, s.text, 13, 12, "unbound-import");
  }
  {
    // Nothing close: no suggestion. The second read (line 14) is the one at fault.
    const Shop s = shop({"x := limit + 1", "y := x * qqqqqqq"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::UnboundImport);
    CHECK(v.name == "qqqqqqq");
    CHECK(v.message == "'qqqqqqq' is not defined in phase rampup nor in any scope around it");
    check_rendered(v.rendered, s.text, 14, 16, "unbound-import");
  }
  {
    // An explicit import with a mark: the error is there.
    const Shop s = shop({"x := 1"});
    SubcontextBuilder b = rampup(s);
    b.import("nope", {11, 5}).body(s.phase);
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::UnboundImport);
    CHECK(v.name == "nope");
    check_rendered(v.rendered, s.text, 11, 5, "unbound-import");
  }
  {
    // Without a mark: at the scope's own (10:3, `rampup:`).
    const Shop s = shop({"x := 1"});
    SubcontextBuilder b = rampup(s);
    b.import("nope").body(s.phase);
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::UnboundImport);
    check_rendered(v.rendered, s.text, 10, 3, "unbound-import");
  }
  {
    // A coordinate other than `cycle` is not importable.
    Manifest names = workload_manifest();
    names["tick"] = vn("tick", kU64, VisibleName::Kind::Coordinate, "workload", {});
    const Shop s = shop({"x := tick"});
    SubcontextBuilder b = rampup(s, names);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::UnboundImport);
    CHECK(v.name == "tick");
    check_rendered(v.rendered, s.text, 13, 12, "unbound-import");
  }
  {
    // The explicit imports are checked before the names read (import order).
    const Shop s = shop({"x := limt"});
    SubcontextBuilder b = rampup(s);
    b.import("nope", {11, 5}).body(s.phase).import_free_names();
    CHECK(violation(b.finalize()).name == "nope");
  }
}

TEST_CASE("subcontext: FinalShadow names the const's place and the scope redefining it") {
  {
    // seed is const in the workload (line 6); the phase redefines it at 14:7.
    const Shop s = shop({"x := 1", "seed := 7"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::FinalShadow);
    CHECK(std::string(kind_name(v.kind)) == "final-shadow");
    CHECK(v.name == "seed");
    CHECK(v.message == "'seed' is const in workload at line 6 and cannot be redefined in phase rampup");
    check_rendered(v.rendered, s.text, 14, 7, "final-shadow");
  }
  {
    // A part of a destructuring is a definition too: `(a, seed, c)`, seed at 13:11.
    const Shop s = shop({"(a, seed, c) := mixed_radix(7, 10, 10, 0)"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::FinalShadow);
    CHECK(v.name == "seed");
    check_rendered(v.rendered, s.text, 13, 11, "final-shadow");
  }
  {
    // A const cell is not written through: it cannot be redefined at all.
    Manifest names = workload_manifest();
    names["total"].is_const = true;
    const Shop s = shop({"total := 1"});
    SubcontextBuilder b = rampup(s, names);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::FinalShadow);
    CHECK(v.message == "'total' is const in workload at line 5 and cannot be redefined in phase rampup");
    check_rendered(v.rendered, s.text, 13, 7, "final-shadow");
  }
  {
    // A parent name without a place: the message names the scope only.
    Manifest names = workload_manifest();
    names["seed"].at = {};
    const Shop s = shop({"seed := 7"});
    SubcontextBuilder b = rampup(s, names);
    b.body(s.phase);
    const ContractViolation v = violation(b.finalize());
    CHECK(v.message == "'seed' is const in workload and cannot be redefined in phase rampup");
  }
  {
    // Shadowing a name that is not const is allowed: rate (a binding) and limit (a param).
    const Shop s = shop({"rate := 1", "limit := 2"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ScopeModule m = ok_module(b.finalize());
    CHECK(m.exports == std::vector<std::string>{"rate", "limit"});
    CHECK(m.imports.empty());
    CHECK(m.cycle_imports.empty());
    CHECK(m.names.at("rate").scope == "phase rampup");
  }
}

TEST_CASE("subcontext: a cell of a grand-parent that reached the parent is still written through") {
  // Building a phase inside `for_each i` inside the workload: the parent view
  // is the loop's, which shows its own `i` and the workload's cell `total`
  // (scope "workload"), which the loop's own bindings never name.
  const std::string text = join({
      "bindings: |",                   // 1
      "  shared(sum) total: u64 := 0", // 2
      "scenarios:",                    // 3
      "  default:",                    // 4
      "    - for_each: \"i in 1,2\"",  // 5
      "      phases: [leaf]",          // 6
      "phases:",                       // 7
      "  leaf:",                       // 8
      "    bindings: |",               // 9
      "      total := total * 2 + i",  // 10
  });
  Manifest names;
  VisibleName total = vn("total", kU64, VisibleName::Kind::Cell, "workload", {2, 15});
  total.combine = Combine::Sum;
  names["total"] = total;
  names["i"] = vn("i", kU64, VisibleName::Kind::Var, "for_each i", {5, 20});
  names["cycle"] = vn("cycle", kU64, VisibleName::Kind::Coordinate, "workload", {});
  SubcontextBuilder b(ParentView{names, "shop.yaml", text}, "phase leaf", Mark{8, 3});
  b.body(frag("total := total * 2 + i\n", {10, 7}, true)).import_free_names();
  const ScopeModule m = ok_module(b.finalize());
  REQUIRE(m.write_throughs.size() == 1);
  CHECK(m.write_throughs[0].cell == "total");
  CHECK(m.write_throughs[0].output == "__write_total");
  CHECK(m.write_throughs[0].ty == kU64);
  CHECK(m.write_throughs[0].combine == Combine::Sum);
  CHECK(m.write_throughs[0].binding_scope == "phase leaf");
  CHECK(m.exports.empty());
  CHECK(m.imports == std::vector<std::string>{"i"});
  CHECK(has(m.source, "\nextern total: u64\nextern i: u64\n"));
  CHECK(m.outputs == std::vector<std::string>{"__write_total"});
  CHECK(m.names.empty());

  embed::Kernel k = kernel_of(m);
  set(k, "total", u64v(5));
  set(k, "i", u64v(3));
  evaluate(k);
  CHECK(out(k, "__write_total") == u64v(13));

  // The WriteType message names the cell's own scope and line.
  SubcontextBuilder b2(ParentView{names, "shop.yaml", text}, "phase leaf", Mark{8, 3});
  b2.body(frag("total := \"x\"\n", {10, 7}, true));
  const ContractViolation v = violation(b2.finalize());
  CHECK(v.kind == ContractViolation::Kind::WriteType);
  CHECK(v.message ==
        "binding 'total' of phase leaf writes a str value into shared cell 'total' (u64, declared in workload at line "
        "2); convert it explicitly");
}

TEST_CASE("subcontext: WriteType for a lossy or foreign write, none for a lossless one") {
  {
    // f64 into the u64 cell `total`, at 13:7.
    const Shop s = shop({"total := 1.5"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::WriteType);
    CHECK(std::string(kind_name(v.kind)) == "write-type");
    CHECK(v.name == "total");
    CHECK(v.message ==
          "binding 'total' of phase rampup writes a f64 value into shared cell 'total' (u64, declared in workload at "
          "line 5); convert it explicitly");
    check_rendered(v.rendered, s.text, 13, 7, "write-type");
  }
  {
    // str into u64, on the second line (14:7).
    const Shop s = shop({"x := 1", "total := \"many\""});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::WriteType);
    CHECK(v.name == "total");
    CHECK(has(v.message, "writes a str value into shared cell 'total' (u64"));
    check_rendered(v.rendered, s.text, 14, 7, "write-type");
  }
  {
    // A u64 (an unannotated literal) into the u32 cell `peak`: narrowing.
    const Shop s = shop({"peak := 5"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::WriteType);
    CHECK(v.name == "peak");
    CHECK(has(v.message, "writes a u64 value into shared cell 'peak' (u32, declared in workload at line 8)"));
  }
  {
    // Signed into unsigned: i64 into u64.
    const Shop s = shop({"total := -1"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    CHECK(violation(b.finalize()).kind == ContractViolation::Kind::WriteType);
  }
  {
    // Lossless: u32 into u64, bool into u64, and an annotated u32 into the u32 cell.
    const Shop s = shop({
        "total := limit as u32",  // 13
        "peak: u32 := 9",         // 14
    });
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ScopeModule m = ok_module(b.finalize());
    REQUIRE(m.write_throughs.size() == 2);
    CHECK(m.write_throughs[0].cell == "total");
    CHECK(m.write_throughs[1].cell == "peak");
    CHECK(m.write_throughs[1].ty == kU32);
    CHECK(m.write_throughs[1].combine == Combine::Max);
    CHECK(has(m.source, "extern total: u64\nextern peak: u32\n"));
    embed::Kernel k = kernel_of(m);
    set(k, "limit", u64v(10));
    set(k, "total", u64v(0));
    set(k, "peak", u32v(0));
    evaluate(k);
    CHECK(out(k, "__write_total") == u32v(10));  // the write is the kernel's u32; the runner widens it
    CHECK(out(k, "__write_peak") == u32v(9));
  }
  {
    const Shop s = shop({"total := (rate > 2) as bool"});  // bool into u64 (a comparison alone is a u64)
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ScopeModule m = ok_module(b.finalize());
    REQUIRE(m.write_throughs.size() == 1);
    CHECK(m.cycle_imports == std::vector<std::string>{"rate"});
    embed::Kernel k = kernel_of(m);
    set(k, "rate", u64v(3));
    set(k, "total", u64v(0));
    evaluate(k);
    CHECK(out(k, "__write_total") == Value::boolean(true));
  }
}

TEST_CASE("subcontext: OpShadow for an op's bindings over a name the parent shows") {
  {
    // The op's `bindings: "rate := 5"` is at 17:20; rate is the workload's binding of line 7.
    const Shop s = shop({"x := 1", "y := 2"}, "rate := 5");
    REQUIRE(s.op.has_value());
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).body(*s.op).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::OpShadow);
    CHECK(std::string(kind_name(v.kind)) == "op-shadow");
    CHECK(v.name == "rate");
    CHECK(v.message ==
          "op-level binding 'rate' would shadow the binding 'rate' of workload at line 7; op bindings add names, "
          "they do not replace them");
    check_rendered(v.rendered, s.text, 17, 20, "op-shadow");
  }
  {
    // Over a param; and over a const it is OpShadow, not FinalShadow.
    const Shop s = shop({"x := 1"}, "limit := 5");
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).body(*s.op);
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::OpShadow);
    CHECK(has(v.message, "would shadow the param 'limit' of workload at line 3"));
    check_rendered(v.rendered, s.text, 16, 20, "op-shadow");

    const Shop s2 = shop({"x := 1"}, "seed := 5");
    SubcontextBuilder b2 = rampup(s2);
    b2.body(s2.phase).body(*s2.op);
    CHECK(violation(b2.finalize()).kind == ContractViolation::Kind::OpShadow);
  }
  {
    // Over a cell: an op's bindings do not write through either.
    const Shop s = shop({"x := 1"}, "total := 5");
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).body(*s.op);
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::OpShadow);
    CHECK(has(v.message, "would shadow the shared cell 'total' of workload at line 5"));
  }
  {
    // The same text in the phase's own bindings shadows freely; the op adds a new name reading it.
    const Shop s = shop({"rate := 5"}, "extra := rate * 2");
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).body(*s.op).import_free_names();
    const ScopeModule m = ok_module(b.finalize());
    CHECK(m.exports == std::vector<std::string>{"rate", "extra"});
    CHECK(m.cycle_imports.empty());
    CHECK(m.names.at("extra").at.line == 16);
    CHECK(m.names.at("extra").at.col == 20);
    CHECK(has(m.source, "\n      rate := 5\n\n\n" + std::string(19, ' ') + "extra := rate * 2\n"));  // lines 13-16
    embed::Kernel k = kernel_of(m);
    evaluate(k);
    CHECK(out(k, "extra") == u64v(10));
  }
}

TEST_CASE("subcontext: result bindings; ok, count and body declared only when read") {
  {
    // result lines 17-18 (column 11): ok and count read, body not.
    const Shop s = shop({"x := 1"}, "", {"done := ok", "rows := count + 1"});
    REQUIRE(s.result.has_value());
    CHECK(s.result->content.line == 17);
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    REQUIRE(b.add_result_bindings(*s.result).ok());
    b.import_free_names();
    const ScopeModule m = ok_module(b.finalize());
    CHECK(has(m.source, "\nextern ok: bool\nextern count: u64\n"));
    CHECK_FALSE(has(m.source, "extern body"));
    CHECK(m.exports == std::vector<std::string>{"x", "done", "rows"});
    CHECK(m.imports.empty());  // the magic names are no imports
    CHECK(has(m.source, "\n      x := 1\n\n\n\n          done := ok\n          rows := count + 1\n"));  // 13-18
    embed::Kernel k = kernel_of(m);
    set(k, "ok", Value::boolean(true));
    set(k, "count", u64v(4));
    evaluate(k);
    CHECK(out(k, "done") == Value::boolean(true));
    CHECK(out(k, "rows") == u64v(5));
  }
  {
    const Shop s = shop({"x := 1"}, "", {"first := body"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    REQUIRE(b.add_result_bindings(*s.result).ok());
    const ScopeModule m = ok_module(b.finalize());
    CHECK(has(m.source, "\nextern body: str\n"));
    CHECK_FALSE(has(m.source, "extern ok"));
    CHECK_FALSE(has(m.source, "extern count"));
    embed::Kernel k = kernel_of(m);
    set(k, "body", Value::str("row 1"));
    evaluate(k);
    CHECK(out(k, "first") == Value::str("row 1"));
  }
  {
    // None read: none declared.
    const Shop s = shop({"x := 1"}, "", {"y := x + 1"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    REQUIRE(b.add_result_bindings(*s.result).ok());
    const ScopeModule m = ok_module(b.finalize());
    CHECK_FALSE(has(m.source, "extern ok"));
    CHECK_FALSE(has(m.source, "extern count"));
    CHECK_FALSE(has(m.source, "extern body"));
    CHECK(m.exports == std::vector<std::string>{"x", "y"});
  }
  {
    // Read twice, in two result blocks: declared once.
    const Shop s = shop({"x := 1"}, "", {"a := ok"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    REQUIRE(b.add_result_bindings(*s.result).ok());
    REQUIRE(b.add_result_bindings(frag("b := ok", {30, 1}, false)).ok());
    const ScopeModule m = ok_module(b.finalize());
    const std::string decl = "extern ok: bool\n";
    CHECK(m.source.find(decl) == m.source.rfind(decl));
  }
  {
    // A result binding over a cell writes through it (count into the sum cell).
    const Shop s = shop({"x := 1"}, "", {"total := count"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    REQUIRE(b.add_result_bindings(*s.result).ok());
    const ScopeModule m = ok_module(b.finalize());
    REQUIRE(m.write_throughs.size() == 1);
    CHECK(m.write_throughs[0].cell == "total");
    CHECK(has(m.source, "extern total: u64\n"));
    CHECK(has(m.source, "extern count: u64\n"));
    embed::Kernel k = kernel_of(m);
    set(k, "count", u64v(7));
    set(k, "total", u64v(1));
    evaluate(k);
    CHECK(out(k, "__write_total") == u64v(7));
  }
}

TEST_CASE("subcontext: ReservedName when result bindings assign ok, count or body") {
  {
    // `ok := true` on the result's second line: 18:11.
    const Shop s = shop({"x := 1"}, "", {"done := x > 0", "ok := true"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase);
    auto r = b.add_result_bindings(*s.result);
    REQUIRE_FALSE(r.ok());
    const ContractViolation& v = r.error();
    CHECK(v.kind == ContractViolation::Kind::ReservedName);
    CHECK(std::string(kind_name(v.kind)) == "reserved-name");
    CHECK(v.name == "ok");
    CHECK(v.message == "'ok' is given by the op's result and cannot be assigned in result bindings");
    check_rendered(v.rendered, s.text, 18, 11, "reserved-name");
    // The refused block is not added: the builder still finalizes with the phase alone.
    const ScopeModule m = ok_module(b.finalize());
    CHECK(m.exports == std::vector<std::string>{"x"});
  }
  {
    const Shop s = shop({"x := 1"}, "", {"count := 3"});
    SubcontextBuilder b = rampup(s);
    auto r = b.add_result_bindings(*s.result);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ContractViolation::Kind::ReservedName);
    CHECK(r.error().name == "count");
    check_rendered(r.error().rendered, s.text, 17, 11, "reserved-name");
  }
  {
    // As a part of a destructuring: `(rows, body)`, body at 17:18.
    const Shop s = shop({"x := 1"}, "", {"(rows, body) := mixed_radix(7, 10, 0)"});
    SubcontextBuilder b = rampup(s);
    auto r = b.add_result_bindings(*s.result);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ContractViolation::Kind::ReservedName);
    CHECK(r.error().name == "body");
    check_rendered(r.error().rendered, s.text, 17, 18, "reserved-name");
  }
  {
    // Outside result bindings the names are ordinary.
    const Shop s = shop({"ok := 1", "count := ok + 1"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ScopeModule m = ok_module(b.finalize());
    CHECK(m.exports == std::vector<std::string>{"ok", "count"});
    CHECK_FALSE(has(m.source, "extern"));
  }
}

TEST_CASE("subcontext: cells the scope declares, with their initial values") {
  const Shop s = shop({
      "shared(max) best: u32 := 7",    // 13
      "shared note := \"hi\"",         // 14
      "shared(count) hits: u64 := 0",  // 15
      "shared(sum) sum_f := 0.5",      // 16
  });
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).import_free_names();
  const ScopeModule m = ok_module(b.finalize());
  // No bindings: a kernel output is made up for the cells to live in.
  CHECK(m.exports.empty());
  CHECK(m.write_throughs.empty());
  CHECK(m.outputs == std::vector<std::string>{"__scope"});
  CHECK(m.source.size() >= 13);
  CHECK(m.source.substr(m.source.size() - 13) == "__scope := 0\n");
  REQUIRE(m.cells.size() == 4);
  std::map<std::string, OwnCell> cells;
  for (const OwnCell& c : m.cells) cells[c.name] = c;
  REQUIRE(cells.size() == 4);
  CHECK(cells.at("best").ty == kU32);
  CHECK(cells.at("best").combine == Combine::Max);
  CHECK(cells.at("best").initial == u32v(7));
  CHECK(cells.at("note").ty == Ty::str());
  CHECK(cells.at("note").combine == Combine::Last);
  CHECK(cells.at("note").initial == Value::str("hi"));
  CHECK(cells.at("hits").ty == kU64);
  CHECK(cells.at("hits").combine == Combine::Count);
  CHECK(cells.at("hits").initial == u64v(0));
  CHECK(cells.at("sum_f").ty == ty(TyKind::F64));
  CHECK(cells.at("sum_f").combine == Combine::Sum);
  CHECK(cells.at("sum_f").initial == Value::f64(0.5));
  // Shown to inner scopes as cells of this scope.
  REQUIRE(m.names.size() == 4);
  for (const auto& [n, v] : m.names) {
    CHECK(v.kind == VisibleName::Kind::Cell);
    CHECK(v.scope == "phase rampup");
    CHECK_FALSE(v.dynamic);
  }
  CHECK(m.names.at("best").combine == Combine::Max);
  CHECK(m.names.at("best").ty == kU32);
  CHECK(m.names.at("best").at.line == 13);
  CHECK(m.names.at("hits").at.line == 15);
  CHECK(m.names.at("hits").combine == Combine::Count);

  // A cell read by a binding of the same scope: the binding reads the cell (an extern, default its initial value).
  const Shop s2 = shop({"shared(sum) acc: u64 := 3", "twice := acc * 2"});
  SubcontextBuilder b2 = rampup(s2);
  b2.body(s2.phase).import_free_names();
  const ScopeModule m2 = ok_module(b2.finalize());
  CHECK(m2.exports == std::vector<std::string>{"twice"});
  CHECK(m2.imports.empty());
  REQUIRE(m2.cells.size() == 1);
  CHECK(m2.cells[0].initial == u64v(3));
  embed::Kernel k = kernel_of(m2);
  evaluate(k);
  CHECK(out(k, "twice") == u64v(6));
  set(k, "acc", u64v(10));
  evaluate(k);
  CHECK(out(k, "twice") == u64v(20));

  // The phase's own cell over the workload's cell of the same name: a new cell, not a write.
  const Shop s3 = shop({"shared total: u64 := 1", "x := total"});
  SubcontextBuilder b3 = rampup(s3);
  b3.body(s3.phase).import_free_names();
  const ScopeModule m3 = ok_module(b3.finalize());
  CHECK(m3.write_throughs.empty());
  REQUIRE(m3.cells.size() == 1);
  CHECK(m3.cells[0].name == "total");
  CHECK(m3.names.at("total").scope == "phase rampup");
  CHECK(m3.imports.empty());
}

TEST_CASE("subcontext: compile errors, at their place in the workload file") {
  {
    // A type error on the phase's second line.
    const Shop s = shop({"x := 1", "y := \"a\" + x"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::Compile);
    CHECK(std::string(kind_name(v.kind)) == "compile");
    CHECK(v.message == "the bindings of phase rampup do not compile");
    // The compiler's own diagnostic, at the file's line and column: `"a"` at 14:12.
    CHECK(v.rendered.rfind("shop.yaml:14:12: error: cannot combine str and u64 [type-mismatch]\n", 0) == 0);
    check_rendered(v.rendered, s.text, 14, 12, "type-mismatch");
  }
  {
    // A syntax error.
    const Shop s = shop({"x := 1", "y := x + )"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::Compile);
    CHECK(v.message == "the bindings of phase rampup do not parse");
    // `)` at 14:16.
    CHECK(v.rendered.rfind("shop.yaml:14:16: error: expected an expression, found ')' [syntax]\n", 0) == 0);
    check_rendered(v.rendered, s.text, 14, 16, "syntax");
  }
  {
    // An input other than `cycle` has nothing to feed it: at the input's name, 13:13.
    const Shop s = shop({"input other: u64", "x := other"});
    SubcontextBuilder b = rampup(s);
    b.body(s.phase).import_free_names();
    const ContractViolation v = violation(b.finalize());
    CHECK(v.kind == ContractViolation::Kind::Compile);
    CHECK(v.name == "other");
    CHECK(v.message == "input 'other' of phase rampup has no source: a scope's kernel is fed `cycle` only");
    check_rendered(v.rendered, s.text, 13, 13, "compile");
  }
}

// ===========================================================================
// The builder: behaviours that look wrong (reported; each test asserts what
// the header and docs/language.md promise and is expected to fail until fixed)

TEST_CASE("subcontext: a `shared const` cell is shown as const") {
  // docs/language.md: "`shared const` is allowed: a cell ... which no inner scope may shadow".
  // finalize builds the cell's VisibleName with is_const = false (subcontext.cc, the p.is_shared branch).
  const Shop s = shop({"shared const lim: u64 := 3"});
  SubcontextBuilder b = rampup(s);
  b.body(s.phase);
  const ScopeModule m = ok_module(b.finalize());
  REQUIRE(m.names.count("lim"));
  CHECK(m.names.at("lim").kind == VisibleName::Kind::Cell);
  CHECK(m.names.at("lim").is_const);
}

TEST_CASE("subcontext: a `shared` cell may not shadow a parent const") {
  // The export loop skips `shared` definitions before the const check.
  const Shop s = shop({"shared seed: u64 := 1"});
  SubcontextBuilder b = rampup(s);
  b.body(s.phase);
  auto r = b.finalize();
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == ContractViolation::Kind::FinalShadow);
}

TEST_CASE("subcontext: an op's bindings without a place are still no_shadow") {
  // no_shadow_lines only holds fragments with content.line != 0.
  const Shop s = shop({"x := 1"});
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).body(frag("rate := 5", {0, 0}, false, true));
  auto r = b.finalize();
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == ContractViolation::Kind::OpShadow);
}

TEST_CASE("subcontext: no_shadow follows the fragment, not the line it asked for") {
  // Phase bindings on lines 13-14 (14 shadows rate, allowed); an op fragment
  // that asked for line 14 is placed at line 15. no_shadow is decided by the
  // asked-for lines, so the phase's `rate` (line 14) is taken for an op's.
  const Shop s = shop({"x := 1", "rate := 2"});
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).body(frag("extra := 3", {14, 20}, false, true));
  const ScopeModule m = ok_module(b.finalize());
  CHECK(m.exports == std::vector<std::string>{"x", "rate", "extra"});
}

TEST_CASE("subcontext: an op fragment pushed off its line is still checked, and shown at its own place") {
  // The op fragment asked for line 14 (taken by the phase's `y := 2`), is placed at
  // line 15, and its `rate` is still an op-level definition, reported at 14:20.
  const Shop s = shop({"x := 1", "y := 2"});
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).body(frag("rate := 3", {14, 20}, false, true));
  const ContractViolation v = violation(b.finalize());
  CHECK(v.kind == ContractViolation::Kind::OpShadow);
  CHECK(v.name == "rate");
  CHECK(v.rendered.rfind("shop.yaml:14:20: error: ", 0) == 0);
}

TEST_CASE("subcontext: destructuring over a cell is refused") {
  // `(total, x) := ...` under a workload cell `total`: neither a write-through
  // nor an error; the phase exports a new `total` and the write is lost.
  // (The Rust original leaves multi-target bindings un-rewritten so the
  // collision surfaces as an error.)
  const Shop s = shop({"(total, x) := mixed_radix(7, 10, 0)"});
  SubcontextBuilder b = rampup(s);
  b.body(s.phase);
  auto r = b.finalize();
  const bool silently_shadowed =
      r.ok() && r->write_throughs.empty() && contains(r->exports, std::string("total"));
  CHECK_FALSE(silently_shadowed);
}

TEST_CASE("subcontext: an op's `shared` over a parent name is OpShadow") {
  // Same cause as above: `shared` definitions skip every shadowing check, so
  // an op's bindings `shared rate := 0` (17:20) replace the workload's `rate`.
  const Shop s = shop({"x := 1", "y := 2"}, "shared rate := 0");
  SubcontextBuilder b = rampup(s);
  b.body(s.phase).body(*s.op);
  auto r = b.finalize();
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().kind == ContractViolation::Kind::OpShadow);
}

TEST_CASE("subcontext: an inline binding's made-up prefix; its errors are at the file's column") {
  // The runner makes `{limt > 1}` of an `if:` an inline binding `__top_if_0 := limt > 1`
  // whose first 14 bytes are its own; the text starts at 3:11, with no room
  // for the prefix before it, so it is placed elsewhere and mapped back.
  const std::string text = join({
      "ops:",                      // 1
      "  - stmt: \"select {x}\"",  // 2
      "    if: \"{limt > 1}\"",     // 3: `{` at 10, `limt` at 11
  });
  Manifest names;
  names["limit"] = vn("limit", kU64, VisibleName::Kind::Param, "workload", {});
  Fragment f = frag("__top_if_0 := limt > 1", {3, 11}, false, true);
  f.prefix = 14;
  SubcontextBuilder b(ParentView{names, "shop.yaml", text}, "workload", Mark{1, 1});
  b.body(f).import_free_names();
  const ContractViolation v = violation(b.finalize());
  CHECK(v.kind == ContractViolation::Kind::UnboundImport);
  CHECK(v.name == "limt");
  check_rendered(v.rendered, text, 3, 11, "unbound-import");

  // Spelled right, it compiles to an output named by the prefix.
  Fragment g = frag("__top_if_0 := limit > 1", {3, 11}, false, true);
  g.prefix = 14;
  SubcontextBuilder b2(ParentView{names, "shop.yaml", text}, "workload", Mark{1, 1});
  b2.body(g).import_free_names();
  const ScopeModule m = ok_module(b2.finalize());
  CHECK(m.exports == std::vector<std::string>{"__top_if_0"});
  CHECK(m.imports == std::vector<std::string>{"limit"});
  CHECK(m.names.empty());  // `__` names are not shown to inner scopes
  embed::Kernel k = kernel_of(m);
  set(k, "limit", u64v(10));
  evaluate(k);
  CHECK(out(k, "__top_if_0") == u64v(1));  // a comparison is the u64 1 or 0
}

TEST_CASE("subcontext: an error in a fragment with no place is shown at the scope's mark") {
  const Shop s = shop({"x := 1"});
  SubcontextBuilder b = rampup(s);
  b.body(frag("y := nope", {0, 0}, false)).import_free_names();
  const ContractViolation v = violation(b.finalize());
  CHECK(v.kind == ContractViolation::Kind::UnboundImport);
  check_rendered(v.rendered, s.text, 10, 3, "unbound-import");
}

TEST_CASE("subcontext: ReservedName of a result block with no place is shown at the scope's mark") {
  const Shop s = shop({"x := 1"});
  SubcontextBuilder b = rampup(s);
  auto r = b.add_result_bindings(frag("ok := 1", {0, 0}, false));
  REQUIRE_FALSE(r.ok());
  // add_result_bindings renders at pl.file_mark(), which is 0:0 for a fragment
  // with no place, and has no fallback to the builder's mark (finalize's fail() has).
  CHECK(r.error().rendered.rfind("shop.yaml:10:3: error: ", 0) == 0);  // got "shop.yaml:0:0: error: ..."
}

TEST_CASE("subcontext: importing a coordinate does not suggest the name itself") {
  // The suggestion list is every parent name, coordinates included:
  // "'tick' is not defined in phase rampup nor in any scope around it (did you mean 'tick'?)".
  Manifest names = workload_manifest();
  names["tick"] = vn("tick", kU64, VisibleName::Kind::Coordinate, "workload", {});
  const Shop s = shop({"x := tick"});
  SubcontextBuilder b = rampup(s, names);
  b.body(s.phase).import_free_names();
  const ContractViolation v = violation(b.finalize());
  CHECK(v.kind == ContractViolation::Kind::UnboundImport);
  CHECK_FALSE(has(v.message, "did you mean 'tick'"));
}

// ===========================================================================
// cells.h

TEST_CASE("cells: value_for_cell, the accepted writes") {
  auto ok = [](const Value& w, const Ty& cell, const Value& expected) {
    auto r = value_for_cell(w, cell);
    INFO(ir::render(w) << ": " << ir::ty_label(w.ty()) << " into " << ir::ty_label(cell));
    CHECK(r.ok());
    if (!r.ok()) return;
    CHECK(r.value().ty() == cell);
    CHECK(r.value() == expected);
  };
  // The same type, as is.
  ok(u64v(5), kU64, u64v(5));
  ok(Value::str("x"), Ty::str(), Value::str("x"));
  ok(Value::f64(2.5), ty(TyKind::F64), Value::f64(2.5));
  ok(Value::boolean(true), Ty::boolean(), Value::boolean(true));
  ok(i8v(-3), ty(TyKind::I8), i8v(-3));
  // Unsigned into a wider unsigned; into a strictly wider signed.
  ok(u32v(4000000000u), kU64, u64v(4000000000u));
  ok(u8v(255), ty(TyKind::U16), Value::integer(TyKind::U16, 255));
  ok(u8v(200), ty(TyKind::I16), Value::integer(TyKind::I16, 200));
  ok(u32v(4000000000u), ty(TyKind::I64), i64v(4000000000));
  // Signed into a wider signed keeps the sign.
  ok(i8v(-5), ty(TyKind::I64), i64v(-5));
  ok(i8v(-5), ty(TyKind::I16), Value::integer(TyKind::I16, static_cast<uint64_t>(int64_t{-5})));
  ok(i32v(-7), ty(TyKind::I64), i64v(-7));
  // bool into an integer: 0 or 1.
  ok(Value::boolean(true), kU64, u64v(1));
  ok(Value::boolean(false), kU64, u64v(0));
  ok(Value::boolean(true), ty(TyKind::I8), i8v(1));
  // 0 or 1 into bool, from any integer type.
  ok(u64v(0), Ty::boolean(), Value::boolean(false));
  ok(u64v(1), Ty::boolean(), Value::boolean(true));
  ok(i32v(1), Ty::boolean(), Value::boolean(true));
  ok(u8v(0), Ty::boolean(), Value::boolean(false));
  // Integers into floats by mantissa width: up to 32 bits into f64, up to 16 into f32.
  ok(u32v(4000000000u), ty(TyKind::F64), Value::f64(4000000000.0));
  ok(i32v(-3), ty(TyKind::F64), Value::f64(-3.0));
  ok(Value::integer(TyKind::U16, 65535), ty(TyKind::F32), Value::f32(65535.0f));
  ok(i8v(-128), ty(TyKind::F32), Value::f32(-128.0f));
  // f32 into f64.
  ok(Value::f32(0.25f), ty(TyKind::F64), Value::f64(0.25));
}

TEST_CASE("cells: value_for_cell, the refused writes and why") {
  auto refused = [](const Value& w, const Ty& cell, const std::string& why) {
    auto r = value_for_cell(w, cell);
    INFO(ir::render(w) << ": " << ir::ty_label(w.ty()) << " into " << ir::ty_label(cell));
    CHECK_FALSE(r.ok());
    if (!r.ok()) CHECK(r.error() == why);
  };
  // Not 0 or 1 into a bool.
  refused(u64v(7), Ty::boolean(), "a bool cell takes 0 or 1, not 7");
  refused(u8v(2), Ty::boolean(), "a bool cell takes 0 or 1, not 2");
  refused(i32v(-1), Ty::boolean(), "a bool cell takes 0 or 1, not -1");
  // Narrowing.
  refused(u64v(5), kU32, "a u64 value cannot be stored in a u32 cell without loss");
  refused(Value::integer(TyKind::I64, 5), ty(TyKind::I32), "a i64 value cannot be stored in a i32 cell without loss");
  // Signedness: signed into unsigned (any width), unsigned into signed of the same width.
  refused(i8v(5), kU64, "a i8 value cannot be stored in a u64 cell without loss");
  refused(u32v(5), ty(TyKind::I32), "a u32 value cannot be stored in a i32 cell without loss");
  refused(u64v(5), ty(TyKind::I64), "a u64 value cannot be stored in a i64 cell without loss");
  // Integers too wide for the mantissa; floats into integers; f64 into f32.
  refused(u64v(5), ty(TyKind::F64), "a u64 value cannot be stored in a f64 cell without loss");
  refused(i64v(5), ty(TyKind::F64), "a i64 value cannot be stored in a f64 cell without loss");
  refused(u32v(5), ty(TyKind::F32), "a u32 value cannot be stored in a f32 cell without loss");
  refused(Value::f64(1.5), kU64, "a f64 value cannot be stored in a u64 cell without loss");
  refused(Value::f64(2.0), kU64, "a f64 value cannot be stored in a u64 cell without loss");
  refused(Value::f64(0.5), ty(TyKind::F32), "a f64 value cannot be stored in a f32 cell without loss");
  // A kind change.
  refused(Value::str("5"), kU64, "a str value cannot be stored in a u64 cell without loss");
  refused(u64v(5), Ty::str(), "a u64 value cannot be stored in a str cell without loss");
  refused(Value::boolean(true), ty(TyKind::F64), "a bool value cannot be stored in a f64 cell without loss");
  refused(Value::f64(1.0), Ty::boolean(), "a f64 value cannot be stored in a bool cell without loss");
  refused(Value::str("true"), Ty::boolean(), "a str value cannot be stored in a bool cell without loss");
}

TEST_CASE("cells: writable_into, the compile-time half of value_for_cell") {
  struct Row {
    TyKind from, to;
    bool ok;
  };
  const Row rows[] = {
      {TyKind::U64, TyKind::U64, true},  {TyKind::U32, TyKind::U64, true},  {TyKind::U8, TyKind::U16, true},
      {TyKind::U8, TyKind::I16, true},   {TyKind::U32, TyKind::I64, true},  {TyKind::I8, TyKind::I64, true},
      {TyKind::Bool, TyKind::U64, true}, {TyKind::Bool, TyKind::I8, true},  {TyKind::U64, TyKind::Bool, true},
      {TyKind::I32, TyKind::Bool, true}, {TyKind::U32, TyKind::F64, true},  {TyKind::I32, TyKind::F64, true},
      {TyKind::U16, TyKind::F32, true},  {TyKind::F32, TyKind::F64, true},  {TyKind::Str, TyKind::Str, true},
      {TyKind::Bool, TyKind::Bool, true},
      {TyKind::U64, TyKind::U32, false}, {TyKind::I64, TyKind::I32, false}, {TyKind::I8, TyKind::U64, false},
      {TyKind::U32, TyKind::I32, false}, {TyKind::U64, TyKind::I64, false}, {TyKind::U64, TyKind::F64, false},
      {TyKind::I64, TyKind::F64, false}, {TyKind::U32, TyKind::F32, false}, {TyKind::F64, TyKind::U64, false},
      {TyKind::F64, TyKind::F32, false}, {TyKind::Str, TyKind::U64, false}, {TyKind::U64, TyKind::Str, false},
      {TyKind::Bool, TyKind::F64, false}, {TyKind::F64, TyKind::Bool, false}, {TyKind::Str, TyKind::Bool, false},
  };
  for (const Row& r : rows) {
    INFO(ir::scalar_name(r.from) << " into " << ir::scalar_name(r.to));
    CHECK(writable_into(ty(r.from), ty(r.to)) == r.ok);
  }
}

TEST_CASE("cells: combine, each template") {
  // last: the write.
  CHECK(combine(Combine::Last, u64v(5), u64v(9)) == u64v(9));
  CHECK(combine(Combine::Last, Value::str("a"), Value::str("b")) == Value::str("b"));
  // sum: integers wrap at the type's width.
  CHECK(combine(Combine::Sum, u64v(5), u64v(9)) == u64v(14));
  CHECK(combine(Combine::Sum, u8v(250), u8v(10)) == u8v(4));  // 260 - 256
  CHECK(combine(Combine::Sum, u8v(250), u8v(10)).ty() == ty(TyKind::U8));
  CHECK(combine(Combine::Sum, Value::integer(TyKind::U16, 65535), Value::integer(TyKind::U16, 2)) ==
        Value::integer(TyKind::U16, 1));
  CHECK(combine(Combine::Sum, u32v(0xFFFFFFFFu), u32v(1)) == u32v(0));
  CHECK(combine(Combine::Sum, u64v(std::numeric_limits<uint64_t>::max()), u64v(2)) == u64v(1));
  // Signed: two's complement.
  CHECK(combine(Combine::Sum, i64v(-5), i64v(3)) == i64v(-2));
  CHECK(combine(Combine::Sum, i64v(-5), i64v(3)).as_i64() == -2);
  CHECK(combine(Combine::Sum, i8v(100), i8v(100)) == i8v(-56));  // 200 - 256
  CHECK(combine(Combine::Sum, i8v(100), i8v(100)).as_i64() == -56);
  CHECK(combine(Combine::Sum, i8v(-128), i8v(-1)).as_i64() == 127);
  // Floats: IEEE.
  CHECK(combine(Combine::Sum, Value::f64(0.5), Value::f64(0.25)) == Value::f64(0.75));
  CHECK(combine(Combine::Sum, Value::f64(0.1), Value::f64(0.2)).as_f64() == 0.1 + 0.2);
  CHECK(combine(Combine::Sum, Value::f32(1.5f), Value::f32(2.25f)) == Value::f32(3.75f));
  CHECK(combine(Combine::Sum, Value::f64(1e308), Value::f64(1e308)).as_f64() == std::numeric_limits<double>::infinity());
  // min / max: unsigned, signed (by value, not by bits), floats, str bytewise.
  CHECK(combine(Combine::Min, u64v(3), u64v(7)) == u64v(3));
  CHECK(combine(Combine::Min, u64v(7), u64v(3)) == u64v(3));
  CHECK(combine(Combine::Max, u64v(3), u64v(7)) == u64v(7));
  CHECK(combine(Combine::Max, u64v(7), u64v(3)) == u64v(7));
  CHECK(combine(Combine::Min, i64v(1), i64v(-1)) == i64v(-1));
  CHECK(combine(Combine::Max, i64v(-1), i64v(1)) == i64v(1));
  CHECK(combine(Combine::Max, i8v(-1), i8v(-100)) == i8v(-1));
  CHECK(combine(Combine::Min, Value::f64(2.5), Value::f64(-0.5)) == Value::f64(-0.5));
  CHECK(combine(Combine::Max, Value::f64(2.5), Value::f64(-0.5)) == Value::f64(2.5));
  CHECK(combine(Combine::Max, Value::f32(1.0f), Value::f32(1.5f)) == Value::f32(1.5f));
  CHECK(combine(Combine::Min, Value::str("banana"), Value::str("apple")) == Value::str("apple"));
  CHECK(combine(Combine::Max, Value::str("banana"), Value::str("apple")) == Value::str("banana"));
  CHECK(combine(Combine::Min, Value::str("apple"), Value::str("Zed")) == Value::str("Zed"));  // 'Z' < 'a'
  CHECK(combine(Combine::Max, Value::str("ab"), Value::str("abc")) == Value::str("abc"));    // a prefix is smaller
  CHECK(combine(Combine::Min, Value::str(""), Value::str("a")) == Value::str(""));
  // NaN is neither smaller nor larger: the cell stays.
  CHECK(combine(Combine::Min, Value::f64(1.0), Value::f64(std::nan(""))) == Value::f64(1.0));
  CHECK(combine(Combine::Max, Value::f64(1.0), Value::f64(std::nan(""))) == Value::f64(1.0));
  // count: cell + 1, whatever the write; wraps too.
  CHECK(combine(Combine::Count, u64v(5), u64v(100)) == u64v(6));
  CHECK(combine(Combine::Count, u64v(5), Value::str("ignored")) == u64v(6));
  CHECK(combine(Combine::Count, u32v(0), Value::boolean(false)) == u32v(1));
  CHECK(combine(Combine::Count, u8v(255), u8v(0)) == u8v(0));
  CHECK(combine(Combine::Count, i64v(-2), i64v(0)) == i64v(-1));
}

TEST_CASE("cells: combine_allows") {
  for (TyKind k : {TyKind::Bool, TyKind::U8, TyKind::U64, TyKind::I32, TyKind::F32, TyKind::F64, TyKind::Str})
    CHECK(combine_allows(Combine::Last, ty(k)));
  for (TyKind k : {TyKind::U8, TyKind::U64, TyKind::I8, TyKind::I64, TyKind::F32, TyKind::F64}) {
    INFO(ir::scalar_name(k));
    CHECK(combine_allows(Combine::Sum, ty(k)));
    CHECK(combine_allows(Combine::Min, ty(k)));
    CHECK(combine_allows(Combine::Max, ty(k)));
  }
  CHECK_FALSE(combine_allows(Combine::Sum, Ty::str()));
  CHECK_FALSE(combine_allows(Combine::Sum, Ty::boolean()));
  CHECK(combine_allows(Combine::Min, Ty::str()));
  CHECK(combine_allows(Combine::Max, Ty::str()));
  CHECK_FALSE(combine_allows(Combine::Min, Ty::boolean()));
  CHECK_FALSE(combine_allows(Combine::Max, Ty::boolean()));
  for (TyKind k : {TyKind::U8, TyKind::U32, TyKind::U64, TyKind::I16, TyKind::I64}) CHECK(combine_allows(Combine::Count, ty(k)));
  CHECK_FALSE(combine_allows(Combine::Count, ty(TyKind::F64)));
  CHECK_FALSE(combine_allows(Combine::Count, ty(TyKind::F32)));
  CHECK_FALSE(combine_allows(Combine::Count, Ty::str()));
  CHECK_FALSE(combine_allows(Combine::Count, Ty::boolean()));
  // Not scalars: a tuple only for last.
  const Ty pair = Ty::tuple({kU64, kU64});
  CHECK(combine_allows(Combine::Last, pair));
  CHECK_FALSE(combine_allows(Combine::Sum, pair));
  CHECK_FALSE(combine_allows(Combine::Min, pair));
  CHECK_FALSE(combine_allows(Combine::Count, pair));
}

}  // TEST_SUITE
