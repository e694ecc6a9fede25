// What the workload runner needs from the frontend to compose a kernel per
// scope: combine templates on `shared` cells, cells as externs
// (scope_cells), renamed bindings (write-through), per-port facts
// (const, volatile, dynamic), and the block analysis (defs, refs, free refs).
#include <doctest/doctest.h>

#include <algorithm>

#include "frontend/block_names.h"
#include "frontend/compile.h"
#include "frontend/embed.h"
#include "ir/pass_pipeline.h"
#include "ir/validate.h"

using namespace polydat;
using frontend::Combine;
using frontend::DiagKind;

namespace {

frontend::CompileOptions cells() {
  frontend::CompileOptions o;
  o.scope_cells = true;
  return o;
}

frontend::CompileResult compile(const std::string& text, const frontend::CompileOptions& o = {}) {
  return frontend::compile_source("scope.gk", text, o);
}

// The one error diagnostic of kind `k` (fails the test when there is none).
const frontend::Diagnostic* error_of(const frontend::CompileResult& r, DiagKind k) {
  for (const frontend::Diagnostic& d : r.diagnostics().list())
    if (d.severity == frontend::Severity::Error && d.kind == k) return &d;
  FAIL_CHECK("no " << frontend::diag_kind_name(k) << " error in:\n" << r.render_diagnostics());
  return nullptr;
}

// `file:line:col` of a diagnostic's start.
std::string where(const frontend::CompileResult& r, const frontend::Diagnostic& d) {
  const auto [line, col] = r.program->sources.file(d.span.file).line_col(d.span.start);
  return std::to_string(line) + ":" + std::to_string(col);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const frontend::Port* port(const std::vector<frontend::Port>& ports, const std::string& name) {
  for (const frontend::Port& p : ports)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<std::string> names(const std::vector<frontend::Port>& ports) {
  std::vector<std::string> out;
  for (const frontend::Port& p : ports) out.push_back(p.name);
  return out;
}

embed::Kernel kernel(const std::string& text, const frontend::CompileOptions& o) {
  embed::KernelOptions ko;
  ko.compile = o;
  auto k = embed::Kernel::compile(text, ko);
  REQUIRE_MESSAGE(k.ok(), (k.ok() ? "" : k.error().to_string()));
  return std::move(*k);
}

ir::Value output(embed::Kernel& k, const std::string& name) {
  auto out = k.evaluate();
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? "" : out.error().to_string()));
  auto v = k.lookup(name);
  REQUIRE(v.has_value());
  return *v;
}

}  // namespace

// ---------------------------------------------------------------------------
// (1) combine templates: syntax and type rules

TEST_CASE("scope: shared(KIND) parses each combine; plain shared is last") {
  auto r = compile(
      "input cycle: u64\n"
      "shared plain := cycle\n"
      "shared(last) label := \"a\"\n"
      "shared(sum) total: u64 := cycle\n"
      "shared(min) low := cycle as f64\n"
      "shared (max) word := \"w\"\n"
      "shared(count) hits: u32 := 0\n"
      "const shared(sum) fixed := 3\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  const std::vector<std::pair<std::string, Combine>> want = {
      {"plain", Combine::Last}, {"label", Combine::Last}, {"total", Combine::Sum}, {"low", Combine::Min},
      {"word", Combine::Max},   {"hits", Combine::Count}, {"fixed", Combine::Sum}};
  for (const auto& [name, combine] : want) {
    const frontend::Port* p = port(r.kernel().outputs, name);
    REQUIRE_MESSAGE(p, name);
    CHECK_MESSAGE(p->is_shared, name);
    CHECK_MESSAGE(p->combine == combine, name);
  }
  CHECK(port(r.kernel().outputs, "fixed")->is_const);
  CHECK(frontend::combine_name(Combine::Count) == "count");
  CHECK(frontend::combine_from_name("max") == Combine::Max);
  CHECK_FALSE(frontend::combine_from_name("Max").has_value());
  CHECK(frontend::combine_names() == std::vector<std::string>{"last", "sum", "min", "max", "count"});
}

TEST_CASE("scope: an unknown combine kind names the five and suggests a close one") {
  auto r = compile("shared(summ) total := 0\n");
  const frontend::Diagnostic* d = error_of(r, DiagKind::Syntax);
  REQUIRE(d);
  CHECK(contains(d->message, "unknown combine kind 'summ'"));
  CHECK(contains(d->message, "last, sum, min, max and count"));
  CHECK(contains(d->message, "did you mean 'sum'?"));
  CHECK(where(r, *d) == "1:8");

  auto upper = compile("shared(MAX) best := 0\n");
  REQUIRE(error_of(upper, DiagKind::Syntax));
  CHECK(contains(error_of(upper, DiagKind::Syntax)->message, "did you mean 'max'?"));

  auto far = compile("shared(average) mean := 0\n");
  REQUIRE(error_of(far, DiagKind::Syntax));
  CHECK(contains(error_of(far, DiagKind::Syntax)->message, "unknown combine kind 'average'"));
  CHECK_FALSE(contains(error_of(far, DiagKind::Syntax)->message, "did you mean"));
}

TEST_CASE("scope: malformed shared(...) are syntax errors") {
  struct Case {
    const char* text;
    const char* message;
    const char* at;
  };
  const Case cases[] = {
      {"shared() x := 1\n", "expected how the shared cell combines", "1:8"},
      {"shared(1) x := 1\n", "expected how the shared cell combines", "1:8"},
      {"shared(sum x := 1\n", "expected ')' after the combine kind", "1:12"},
      {"shared(sum) := 1\n", "expected a binding name", "1:13"},
      {"shared(sum) shared x := 1\n", "'shared' is given twice", "1:13"},
      {"shared (a, b) := mixed_radix(7, 2, 0)\n", "a shared cell is one name", "1:8"},
      {"shared (a) := 7\n", "a shared cell is one name", "1:8"},
      {"shared(sum) (a, b) := mixed_radix(7, 2, 0)\n", "a shared cell is one name", "1:13"},
      {"const shared (a, b) := mixed_radix(7, 2, 0)\n", "a shared cell is one name", "1:14"},
  };
  for (const Case& c : cases) {
    const std::string text = c.text;
    CAPTURE(text);
    auto r = compile(c.text);
    const frontend::Diagnostic* d = error_of(r, DiagKind::Syntax);
    REQUIRE(d);
    CHECK_MESSAGE(contains(d->message, c.message), d->message);
    CHECK(where(r, *d) == c.at);
  }
}

TEST_CASE("scope: the combine type rules, with and without scope_cells") {
  struct Case {
    const char* text;
    const char* message;  // empty: accepted
  };
  const Case cases[] = {
      {"shared(sum) s: u8 := 1\n", ""},
      {"shared(sum) s: i32 := -1\n", ""},
      {"shared(sum) s := 0.5\n", ""},
      {"shared(sum) s: f32 := 0.5\n", ""},
      {"shared(sum) s := \"a\"\n", "shared(sum) needs an integer or float cell, but 's' is str"},
      {"shared(sum) s := true\n", "shared(sum) needs an integer or float cell, but 's' is bool"},
      {"shared(min) s := \"a\"\n", ""},
      {"shared(max) s := 1.5\n", ""},
      {"shared(max) s := -3\n", ""},
      {"shared(min) s := false\n", "shared(min) needs an integer, float or str cell, but 's' is bool"},
      {"shared(max) s := false\n", "shared(max) needs an integer, float or str cell, but 's' is bool"},
      {"shared(count) s: u16 := 0\n", ""},
      {"shared(count) s := 0.0\n", "shared(count) needs an integer cell, but 's' is f64"},
      {"shared(count) s := \"n\"\n", "shared(count) needs an integer cell, but 's' is str"},
      {"shared(last) s := true\n", ""},
      {"shared s := \"any\"\n", ""},
  };
  for (bool scope_cells : {false, true}) {
    for (const Case& c : cases) {
      const std::string text = c.text;
      CAPTURE(text);
      CAPTURE(scope_cells);
      frontend::CompileOptions o;
      o.scope_cells = scope_cells;
      // A consumer keeps the kernel from having no outputs when the cell is not one.
      auto r = compile(std::string(c.text) + "out := 1\n", o);
      if (std::string(c.message).empty()) {
        CHECK_MESSAGE(r.ok(), r.render_diagnostics());
        continue;
      }
      const frontend::Diagnostic* d = error_of(r, DiagKind::TypeMismatch);
      REQUIRE(d);
      CHECK_MESSAGE(d->message == c.message, d->message);
      CHECK(r.program->sources.file(0).text.substr(d->span.start, d->span.end - d->span.start) ==
            std::string(c.text).substr(7, d->span.end - d->span.start));  // the kind
    }
  }
}

// ---------------------------------------------------------------------------
// (2) scope_cells: the root's shared bindings become extern cells

TEST_CASE("scope: under scope_cells each top-level shared binding is an extern cell") {
  const std::string text =
      "input cycle: u64\n"
      "shared(sum) budget: u64 := 100\n"
      "shared label := \"x\"\n"
      "shared(min) neg := -5\n"
      "shared(max) ratio := 0.5\n"
      "shared flag := true\n"
      "shared const base: u64 := 3 + 4\n"
      "shared(count) small: u8 := 9\n"
      "left := budget - cycle % 10\n"
      "tag := \"{label}-{base}-{neg}-{ratio}-{flag}-{small}\"\n";
  auto r = compile(text, cells());
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(names(r.kernel().params) == std::vector<std::string>{"cycle", "budget", "label", "neg", "ratio", "flag", "base", "small"});
  CHECK(names(r.kernel().outputs) == std::vector<std::string>{"left", "tag"});
  struct Want {
    const char* name;
    ir::Ty ty;
    Combine combine;
    std::string rendered;
  };
  const Want want[] = {
      {"budget", ir::Ty::u64(), Combine::Sum, "100"},
      {"label", ir::Ty::str(), Combine::Last, "x"},
      {"neg", ir::Ty::scalar(ir::TyKind::I64), Combine::Min, "-5"},
      {"ratio", ir::Ty::scalar(ir::TyKind::F64), Combine::Max, "0.5"},
      {"flag", ir::Ty::boolean(), Combine::Last, "true"},
      {"base", ir::Ty::u64(), Combine::Last, "7"},
      {"small", ir::Ty::scalar(ir::TyKind::U8), Combine::Count, "9"},
  };
  for (const Want& w : want) {
    const std::string name = w.name;
    CAPTURE(name);
    const frontend::Port* p = port(r.kernel().params, w.name);
    REQUIRE(p);
    CHECK(p->is_extern);
    CHECK(p->is_shared);
    CHECK(p->combine == w.combine);
    CHECK(p->ty == w.ty);
    CHECK_FALSE(p->dynamic);
    REQUIRE(p->default_constant.has_value());
    CHECK(ir::render(*p->default_constant) == w.rendered);
  }
  CHECK(port(r.kernel().params, "base")->is_const);
  CHECK_FALSE(port(r.kernel().params, "budget")->is_const);
  CHECK_FALSE(port(r.kernel().params, "cycle")->is_shared);

  // Without the option the same text is today's: the shared bindings are bindings.
  auto plain = compile(text);
  REQUIRE_MESSAGE(plain.ok(), plain.render_diagnostics());
  CHECK(names(plain.kernel().params) == std::vector<std::string>{"cycle"});
  CHECK(names(plain.kernel().outputs) == std::vector<std::string>{"left", "tag"});  // the others are read
  frontend::CompileOptions o;
  o.outputs = {"ratio", "base"};
  auto picked = compile(text, o);
  REQUIRE_MESSAGE(picked.ok(), picked.render_diagnostics());
  REQUIRE(picked.kernel().outputs.size() == 2);
  CHECK(picked.kernel().outputs[0].is_shared);
  CHECK(picked.kernel().outputs[0].combine == Combine::Max);
  CHECK(picked.kernel().outputs[1].is_const);
}

TEST_CASE("scope: a kernel reads its cells, and setting a cell changes what it computes") {
  const std::string text =
      "input cycle: u64\n"
      "shared(sum) budget: u64 := 100\n"
      "shared const base := 7\n"
      "shared label := \"x\"\n"
      "left := budget - cycle\n"
      "const twice := base * 2\n"
      "tag := \"{label}{twice}\"\n";
  embed::Kernel k = kernel(text, cells());
  CHECK(k.extern_names() == std::vector<std::string>{"budget", "base", "label"});
  REQUIRE(k.set("cycle", uint64_t{3}).ok());
  CHECK(output(k, "left").as_u64() == 97);
  CHECK(output(k, "tag").as_str() == "x14");
  REQUIRE(k.set("budget", uint64_t{50}).ok());
  REQUIRE(k.set("base", uint64_t{10}).ok());
  REQUIRE(k.set("label", "y").ok());
  CHECK(output(k, "left").as_u64() == 47);
  CHECK(output(k, "tag").as_str() == "y20");
  // A cell keeps its type: a value that does not fit it is refused.
  CHECK_FALSE(k.set("budget", "text").ok());

  // KernelOptions.outputs still picks the outputs alongside the compile options.
  embed::KernelOptions ko;
  ko.compile = cells();
  ko.outputs = {"tag"};
  auto only = embed::Kernel::compile(text, ko);
  REQUIRE(only.ok());
  CHECK(only->output_names() == std::vector<std::string>{"tag"});
}

TEST_CASE("scope: a scope holding only cells compiles to a kernel of no outputs") {
  auto r = compile("shared(sum) budget: u64 := 100\nshared name := \"n\"\n", cells());
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(r.kernel().outputs.empty());
  CHECK(ir::validate(*r.ir).empty());
  auto optimized = ir::optimize(*r.ir);
  CHECK(optimized.ok());
  CHECK(names(r.kernel().params) == std::vector<std::string>{"budget", "name"});
  embed::Kernel k = kernel("shared(sum) budget: u64 := 100\n", cells());
  auto out = k.evaluate();
  REQUIRE(out.ok());
  CHECK(out->empty());
  CHECK(k.lookup("budget")->as_u64() == 100);
  // Without the option the kernel has its binding as an output, as before.
  CHECK(compile("shared(sum) budget: u64 := 100\n").kernel().outputs.size() == 1);
}

TEST_CASE("scope: a cell's value is a constant of a known type") {
  struct Case {
    const char* text;
    DiagKind kind;
    const char* message;
    const char* at;
  };
  const Case cases[] = {
      {"shared total := 1 + 2\n", DiagKind::TypeMismatch,
       "the type of shared cell 'total' is taken from a literal value; for this value write its type: `shared total: TYPE := ...`",
       "1:17"},
      {"shared const total := 4 * 2\n", DiagKind::TypeMismatch, "write its type", "1:23"},
      {"input cycle: u64\nshared total: u64 := cycle * 2\n", DiagKind::NotConstant,
       "a shared cell's value must be a constant", "2:22"},
      {"extern k: u64 = 3\nshared total: u64 := k\n", DiagKind::NotConstant, "a shared cell's value must be a constant",
       "2:22"},
      {"shared total: u8 := \"a\"\n", DiagKind::TypeMismatch, "expected u8 (the annotated type), found str", "1:21"},
      {"shared total: u8 := 300\n", DiagKind::LiteralOutOfRange, "does not fit u8", "1:21"},
      {"shared total: u64 := loop (i = 0) while i < 3 { i = i + 1 } yield i\n", DiagKind::NotConstant,
       "cannot be a loop", "1:22"},
  };
  for (const Case& c : cases) {
    const std::string text = c.text;
    CAPTURE(text);
    auto r = compile(std::string(c.text) + "out := 1\n", cells());
    const frontend::Diagnostic* d = error_of(r, c.kind);
    REQUIRE(d);
    CHECK_MESSAGE(contains(d->message, c.message), d->message);
    CHECK(where(r, *d) == c.at);
  }
  // Annotated, a constant expression is folded into the cell's initial value.
  auto r = compile("shared const total: u64 := 4 * 2 + 1\nshared(sum) f: f32 := 2\nout := total\n", cells());
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(ir::render(*port(r.kernel().params, "total")->default_constant) == "9");
  CHECK(port(r.kernel().params, "f")->ty == ir::Ty::scalar(ir::TyKind::F32));
}

TEST_CASE("scope: only the root's top-level shared bindings become cells") {
  auto r = compile(
      "f(x: u64) -> (y: u64) := {\n"
      "    shared y := x + 1\n"
      "}\n"
      "input cycle: u64\n"
      "shared(sum) total: u64 := 5\n"
      "out := f(cycle) + total\n",
      cells());
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(names(r.kernel().params) == std::vector<std::string>{"cycle", "total"});
  CHECK(names(r.kernel().outputs) == std::vector<std::string>{"out"});
}

TEST_CASE("scope: a volatile cell is dynamic, and so is what reads it") {
  auto r = compile("shared volatile v := 1\nw := v + 1\nc := 2\n", cells());
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  const frontend::Port* v = port(r.kernel().params, "v");
  REQUIRE(v);
  CHECK(v->is_volatile);
  CHECK(v->dynamic);
  CHECK(port(r.kernel().outputs, "w")->dynamic);
  CHECK_FALSE(port(r.kernel().outputs, "c")->dynamic);
}

// ---------------------------------------------------------------------------
// (3) rename_bindings: write-through

TEST_CASE("scope: a renamed binding writes through to the caller's extern") {
  frontend::CompileOptions o;
  o.rename_bindings = {{"budget", "__write_budget"}};
  const std::string text = "extern budget: u64\nbudget := budget - 1\nother := budget * 2\n";
  auto r = compile(text, o);
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(names(r.kernel().params) == std::vector<std::string>{"budget"});
  CHECK(names(r.kernel().outputs) == std::vector<std::string>{"__write_budget", "other"});
  embed::Kernel k = kernel(text, o);
  REQUIRE(k.set("budget", uint64_t{10}).ok());
  CHECK(output(k, "__write_budget").as_u64() == 9);
  CHECK(output(k, "other").as_u64() == 20);
  // Without the option the same text defines budget twice.
  CHECK(error_of(compile(text), DiagKind::Redefinition));
}

TEST_CASE("scope: references to a renamed binding are not renamed") {
  frontend::CompileOptions o;
  o.rename_bindings = {{"x", "x2"}, {"a", "z"}, {"y", "inner"}};
  // `y` reads `x`, and the destructuring reads `y`: nothing defines them now,
  // so they are inferred inputs. The destructured `a` and the module's `y`
  // keep their names.
  auto r = compile(
      "f(p: u64) -> (y: u64) := {\n"
      "    y := p + 1\n"
      "}\n"
      "x := 1\n"
      "y := x + f(x)\n"
      "(a, b) := mixed_radix(y, 10, 0)\n",
      o);
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(r.kernel().inputs_inferred);
  CHECK(names(r.kernel().params) == std::vector<std::string>{"x", "y"});
  CHECK(names(r.kernel().outputs) == std::vector<std::string>{"x2", "inner", "a", "b"});
}

TEST_CASE("scope: diagnostics about a renamed binding point at its original text") {
  frontend::CompileOptions o;
  o.rename_bindings = {{"budget", "__write_budget"}, {"a", "b"}};
  auto r = compile(
      "input cycle: u64\n"
      "extern budget: u64 = 10\n"
      "const budget := budget + cycle\n",
      o);
  const frontend::Diagnostic* d = error_of(r, DiagKind::ConstDependsOnInput);
  REQUIRE(d);
  CHECK(where(r, *d) == "3:17");
  CHECK(contains(r.render_diagnostics(), "scope.gk:3:17: error: const '__write_budget' depends on an input"));

  auto twice = compile("a := 1\nb := 2\n", o);
  const frontend::Diagnostic* re = error_of(twice, DiagKind::Redefinition);
  REQUIRE(re);
  CHECK(where(twice, *re) == "2:1");
  REQUIRE(re->notes.size() == 1);
  CHECK(twice.program->sources.file(0).line_col(re->notes[0].first.start) == std::pair<uint32_t, uint32_t>{1, 1});

  auto typed = compile("extern budget: u64 = 1\nbudget: u8 := budget\n", o);
  const frontend::Diagnostic* tm = error_of(typed, DiagKind::TypeMismatch);
  REQUIRE(tm);
  CHECK(where(typed, *tm) == "2:15");
}

TEST_CASE("scope: a renamed shared binding becomes a cell of the new name") {
  frontend::CompileOptions o = cells();
  o.rename_bindings = {{"total", "__write_total"}};
  auto r = compile("extern total: u64 = 1\nshared(sum) total: u64 := 5\nout := total\n", o);
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  CHECK(names(r.kernel().params) == std::vector<std::string>{"total", "__write_total"});
  CHECK(port(r.kernel().params, "__write_total")->combine == Combine::Sum);
}

// ---------------------------------------------------------------------------
// (4) the facts on ports

TEST_CASE("scope: ports say which values are const, volatile and dynamic") {
  auto r = compile(
      "input cycle: u64\n"
      "extern scale: u64 = 3\n"
      "const k := scale * 2\n"
      "per := cycle * k\n"
      "fixed := scale + 1\n"
      "volatile noise := 5\n"
      "stirred := noise + 1\n"
      "lit := 42\n"
      "(d0, d1) := mixed_radix(cycle, 4, 0)\n"
      "(e0, e1) := mixed_radix(scale, 4, 0)\n"
      "looped := loop (i = 0) while i < cycle % 4 { i = i + 1 } yield i\n"
      "counted := loop (i = 0) while i < scale { i = i + 1 } yield i\n"
      "text := \"{fixed}\"\n"
      "said := \"{per}\"\n"
      "output k, fixed, noise, per\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  const auto& outs = r.kernel().outputs;
  struct Want {
    const char* name;
    bool is_const, is_volatile, dynamic;
  };
  const Want want[] = {
      {"k", true, false, false},        {"per", false, false, true},      {"fixed", false, false, false},
      {"noise", false, true, true},     {"stirred", false, false, true},  {"lit", false, false, false},
      {"d0", false, false, true},       {"d1", false, false, true},       {"e0", false, false, false},
      {"e1", false, false, false},      {"looped", false, false, true},   {"counted", false, false, false},
      {"text", false, false, false},    {"said", false, false, true},
  };
  for (const Want& w : want) {
    const std::string name = w.name;
    CAPTURE(name);
    const frontend::Port* p = port(outs, w.name);
    REQUIRE(p);
    CHECK(p->is_const == w.is_const);
    CHECK(p->is_volatile == w.is_volatile);
    CHECK(p->dynamic == w.dynamic);
    CHECK_FALSE(p->is_shared);
  }
  CHECK(port(r.kernel().params, "cycle")->dynamic);
  CHECK_FALSE(port(r.kernel().params, "scale")->dynamic);
  // An inferred input is dynamic too.
  auto inferred = compile("y := x + 1\n");
  REQUIRE(inferred.ok());
  CHECK(port(inferred.kernel().params, "x")->dynamic);
  CHECK(port(inferred.kernel().outputs, "y")->dynamic);
  // Under --outputs (CompileOptions::outputs) the facts are the same.
  frontend::CompileOptions o;
  o.outputs = {"stirred", "k"};
  auto picked = compile("input cycle: u64\nconst k := 2\nvolatile noise := 5\nstirred := noise + k\n", o);
  REQUIRE_MESSAGE(picked.ok(), picked.render_diagnostics());
  CHECK(picked.kernel().outputs[0].dynamic);
  CHECK(picked.kernel().outputs[1].is_const);
  CHECK_FALSE(picked.kernel().outputs[1].dynamic);
}

// ---------------------------------------------------------------------------
// (5) the block analysis

namespace {
const frontend::NameDef* def(const frontend::BlockNames& b, const std::string& name) {
  for (const frontend::NameDef& d : b.defs)
    if (d.name == name) return &d;
  return nullptr;
}
std::vector<std::string> def_names(const frontend::BlockNames& b) {
  std::vector<std::string> out;
  for (const frontend::NameDef& d : b.defs) out.push_back(d.name);
  return out;
}
std::vector<std::string> free_names(const frontend::BlockNames& b) {
  std::vector<std::string> out;
  for (const frontend::NameRef& r : b.free_refs) out.push_back(r.name);
  return out;
}
std::string_view text_of(const std::string& text, frontend::Span s) {
  return std::string_view(text).substr(s.start, s.end - s.start);
}
using Strings = std::vector<std::string>;
}  // namespace

TEST_CASE("scope: analyze_block lists defs, refs and free refs") {
  const std::string text =
      "input (cycle: u64, part: u32)\n"
      "extern limit: u64 = 10\n"
      "shared(max) best: u64 := 0\n"
      "const base := offset + 1\n"
      "id := mod(hash(cycle), base)\n"
      "(a, _, b) := mixed_radix(id, width, 3, 0)\n"
      "label: str := \"{prefix}-{a}-{missing + b}\"\n"
      "walk := loop (s = seed, i = 0) while i < n { t := s ^ i; s = t + step; i = i + 1 } yield s + i\n"
      "scramble(x: u64, k: u64 = 7) -> (out: u64) := {\n"
      "    tmp := rotl(x ^ k, 13)\n"
      "    out := tmp + salt\n"
      "}\n"
      "volatile mixed := scramble(id, k: 3) + scramble(limit)\n"
      "pragma no_inline\n"
      "output b, extra, prefix\n";
  const frontend::BlockNames b = frontend::analyze_block("phase.gk", text);
  REQUIRE_MESSAGE(b.parse_ok, b.diagnostics);
  CHECK(b.diagnostics.empty());
  CHECK(def_names(b) == Strings{"cycle", "part", "limit", "best", "base", "id", "a", "b", "label", "walk", "scramble", "mixed"});
  using K = frontend::NameDef;
  const std::vector<std::pair<std::string, K::Kind>> kinds = {
      {"cycle", K::Input}, {"part", K::Input}, {"limit", K::Extern}, {"best", K::Binding}, {"a", K::Part},
      {"b", K::Part},      {"scramble", K::Module}, {"mixed", K::Binding}};
  for (const auto& [n, k] : kinds) CHECK_MESSAGE(def(b, n)->kind == k, n);

  CHECK(def(b, "part")->type == "u32");
  CHECK(text_of(text, def(b, "part")->name_span) == "part");
  CHECK(text_of(text, def(b, "part")->span) == "input (cycle: u64, part: u32)");
  CHECK(def(b, "limit")->type == "u64");
  CHECK(def(b, "limit")->refs.empty());
  const frontend::NameDef* best = def(b, "best");
  CHECK(best->is_shared);
  CHECK(best->combine == Combine::Max);
  CHECK(best->type == "u64");
  CHECK_FALSE(best->is_const);
  CHECK(text_of(text, best->name_span) == "best");
  CHECK(text_of(text, best->span) == "shared(max) best: u64 := 0");
  CHECK(def(b, "base")->is_const);
  CHECK_FALSE(def(b, "base")->type.has_value());
  CHECK(def(b, "base")->refs == Strings{"offset"});
  CHECK(def(b, "id")->refs == Strings{"cycle", "base"});  // mod and hash are callees
  CHECK(def(b, "a")->refs == Strings{"id", "width"});
  CHECK(def(b, "b")->refs == Strings{"id", "width"});
  CHECK(text_of(text, def(b, "b")->name_span) == "b");
  CHECK(def(b, "label")->refs == Strings{"prefix", "a", "missing", "b"});
  CHECK(def(b, "label")->type == "str");
  CHECK(def(b, "walk")->refs == Strings{"seed", "n", "step"});  // s, i, t are the loop's
  CHECK(def(b, "scramble")->refs == Strings{"salt"});            // x, k, tmp, out are the module's
  CHECK(def(b, "mixed")->refs == Strings{"id", "limit"});         // k: is an argument's name
  CHECK(def(b, "mixed")->is_volatile);

  CHECK(free_names(b) == Strings{"offset", "width", "prefix", "missing", "seed", "n", "step", "salt", "extra"});
  for (const frontend::NameRef& r : b.free_refs) CHECK(text_of(text, r.span) == r.name);
  // The first use: `prefix` in the string, not in the output statement.
  CHECK(b.free_refs[2].span.start == text.find("prefix"));
}

TEST_CASE("scope: analyze_block follows the loop body's scoping") {
  const std::string text =
      "r := loop (i = 0) while i < 3 { u := v + 1; v := 2; i = i + u + v } yield i + v + u\n"
      "q := loop (j = i) while j < 9 { j = j + loop (k = j) while k < 2 { k = k + j } yield k } yield j\n";
  const frontend::BlockNames b = frontend::analyze_block("b.gk", text);
  REQUIRE(b.parse_ok);
  // The body's `u := v + 1` reads an outer v (the local v comes after it);
  // the yield does not see body locals.
  CHECK(def(b, "r")->refs == Strings{"v", "u"});
  // A loop variable's initial value is read outside its loop.
  CHECK(def(b, "q")->refs == Strings{"i"});
  CHECK(free_names(b) == Strings{"v", "u", "i"});
}

TEST_CASE("scope: analyze_block of a block that does not parse") {
  const frontend::BlockNames b = frontend::analyze_block("bad.gk", "a := 1\nb := +\nc := a + d\nshared(avg) e := 0\n");
  CHECK_FALSE(b.parse_ok);
  CHECK(contains(b.diagnostics, "bad.gk:2:6: error:"));
  CHECK(contains(b.diagnostics, "unknown combine kind 'avg'"));
  CHECK(def_names(b) == Strings{"a", "c"});
  CHECK(free_names(b) == Strings{"d"});
  // A self-reference is a ref (the write-through pattern) but not a free one.
  const frontend::BlockNames w = frontend::analyze_block("w.gk", "budget := budget - 1\n");
  REQUIRE(w.parse_ok);
  CHECK(def(w, "budget")->refs == Strings{"budget"});
  CHECK(w.free_refs.empty());
}

TEST_CASE("scope: placeholder_names reads op templates") {
  using frontend::placeholder_names;
  CHECK(placeholder_names("INSERT INTO t (id, v) VALUES ({id}, { v })") == Strings{"id", "v"});
  CHECK(placeholder_names("{id} and {id} again, {other}") == Strings{"id", "other"});
  CHECK(placeholder_names("{{literal}} {{{x}}} }} {{") == Strings{"x"});
  CHECK(placeholder_names("{a + 1} {f(b, k: c) as u32} {hash(d)}") == Strings{"a", "b", "c", "d"});
  CHECK(placeholder_names("{\"x{e}\"} {if(g, h, 2)}") == Strings{"e", "g", "h"});
  CHECK(placeholder_names("{m} {n") == Strings{"m"});  // an unclosed brace ends the scan
  CHECK(placeholder_names("} {p}") == Strings{"p"});
  CHECK(placeholder_names("no placeholders").empty());
  CHECK(placeholder_names("{}").empty());
}
