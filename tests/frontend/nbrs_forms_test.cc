// The forms of nb-rs's GK sources that polydat reads as nb-rs does (its
// stdlib/*.gk, examples/modules/*.gk, tests/examples/*.gk): `input` as a
// name, single-quoted strings, `String`, `init NAME = ...`, the anonymous
// module, module parameters passed on to constants, combinations' ignored
// length, and files of module definitions only. Each kernel runs on the
// interpreter against values worked out here (xxHash for hash); nb-rs's own
// vectors are cited where its tests have them.
//
// Faults planted to see these tests fail (each restored afterwards): the
// lexer's own-quote escape turned into a kept backslash ('it\'s' read as
// it\'s): "single-quoted strings" fails; constant_parameters returning no
// names: "a module parameter passed on to a constant" fails (lerp's `a` is
// refused as depending on an input).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/compile.h"
#include "tests/frontend/stdlib_kernel.h"

using namespace polydat;
using stdlibtest::f64;
using stdlibtest::Kernel;
using stdlibtest::ref_hash;
using stdlibtest::u64;

namespace {

frontend::CompileResult compile_named(const std::string& name, const std::string& text) {
  return frontend::compile_source(name, text);
}
frontend::CompileResult compile_ok(const std::string& name, const std::string& text) {
  auto r = frontend::compile_source(name, text);
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
  return r;
}

// The first error's kind name ("" when there is none) and whether some message holds `part`.
std::string first_error_kind(const frontend::CompileResult& r) {
  for (const frontend::Diagnostic& d : r.diagnostics().list())
    if (d.severity == frontend::Severity::Error) return std::string(frontend::diag_kind_name(d.kind));
  return "";
}
bool mentions(const frontend::CompileResult& r, const std::string& part) {
  return r.render_diagnostics().find(part) != std::string::npos;
}

// The signature as `polydat check` prints it: "(a: u64, extern b: f64) -> (c: str)".
std::string signature(const frontend::Unit& k) {
  std::string ins, outs;
  for (const frontend::Port& p : k.params)
    ins += (ins.empty() ? "" : ", ") + std::string(p.is_extern ? "extern " : "") + p.name + ": " + ir::ty_label(p.ty);
  for (const frontend::Port& p : k.outputs) outs += (outs.empty() ? "" : ", ") + p.name + ": " + ir::ty_label(p.ty);
  return "(" + ins + ") -> (" + outs + ")";
}

// nb-rs's unit_interval and lerp (docs/nb-rs-functions.md §5, §10).
double unit_interval(uint64_t x) { return static_cast<double>(x) / 18446744073709551615.0; }
double lerp(double t, double a, double b) { return a + t * (b - a); }

// A folder of kernel files for one test, removed afterwards.
struct Folder {
  std::filesystem::path dir;
  explicit Folder(const std::string& name) : dir(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~Folder() { std::filesystem::remove_all(dir); }
  std::string write(const std::string& file, const std::string& text) const {
    std::ofstream(dir / file) << text;
    return (dir / file).string();
  }
};

}  // namespace

TEST_CASE("input names a value wherever a statement does not start with it") {
  // nb-rs's stdlib modules call their first parameter `input` (parser.rs: expect_ident takes the keyword).
  Kernel k(
      "hashed(input: u64, bound: u64) -> (id: u64) := {\n"
      "    h := hash(input)\n"
      "    id := mod(h, bound)\n"
      "}\n"
      "input cycle: u64\n"
      "a := hashed(input: cycle, bound: 1000000)\n"
      "b := hashed(cycle, 77)\n");
  for (uint64_t c : {0ull, 1ull, 42ull, 123456789ull}) {
    const auto out = k.run({u64(c)});
    CHECK(out[0].as_u64() == ref_hash(c) % 1000000);
    CHECK(out[1].as_u64() == ref_hash(c) % 77);
  }
  // examples/modules/module_test.yaml's first row: hashed_id(input: cycle, bound: 1000000) at cycle 0.
  CHECK(k.run({u64(0)})[0].as_u64() == 527897);

  SUBCASE("an inferred input named input (examples/modules/hashed_id.gk)") {
    auto r = compile_ok("hashed_id.gk", "h := hash(input)\nid := mod(h, bound)\n");
    CHECK(signature(r.kernel()) == "(input: u64, bound: u64) -> (id: u64)");
  }
  SUBCASE("a destructuring and an output list may name it too") {
    Kernel d("input cycle: u64\n(input, rest) := mixed_radix(cycle, 10, 0)\noutput input\n");
    CHECK(d.run({u64(57)})[0].as_u64() == 7);
  }
  SUBCASE("at the start of a statement it still declares inputs") {
    auto r = compile_named("t.gk", "input := 3\n");
    CHECK_FALSE(r.ok());
    CHECK(first_error_kind(r) == "syntax");
  }
}

TEST_CASE("single-quoted strings, with nb-rs's escapes") {
  // lexer.rs: in either quote, \n \t \\ and the string's own quote are escapes;
  // any other backslash, the other quote's included, stays as written.
  Kernel k(
      "input cycle: u64\n"
      "a := 'it\\'s'\n"
      "b := 'say \"hi\"'\n"
      "c := 'a\\\"b'\n"
      "d := \"a\\'b\"\n"
      "e := 'tab\\there'\n"
      "f := 'id={cycle}-{'x'}'\n"
      "g := '0-9A-Za-z'\n");
  const auto out = k.run({u64(5)});
  CHECK(out[0].as_str() == "it's");
  CHECK(out[1].as_str() == "say \"hi\"");
  CHECK(out[2].as_str() == "a\\\"b");
  CHECK(out[3].as_str() == "a\\'b");
  CHECK(out[4].as_str() == "tab\there");
  CHECK(out[5].as_str() == "id=5-x");
  CHECK(out[6].as_str() == "0-9A-Za-z");

  auto r = compile_named("t.gk", "x := 'abc\n");
  CHECK(first_error_kind(r) == "unterminated-string");
  CHECK(mentions(r, "never closed with '"));
}

TEST_CASE("String is nb-rs's name for str") {
  auto r = compile_ok("t.gk",
                         "label(x: u64) -> (s: String) := {\n    s := format_u64(x, 16)\n}\n"
                         "input cycle: u64\nv := label(cycle)\n");
  CHECK(signature(r.kernel()) == "(cycle: u64) -> (v: str)");
}

TEST_CASE("init NAME = value is a const") {
  // docs/sysref/11_gk_evaluation.md: `init` was folded into `const`, materialised once per scope activation.
  Kernel k("init base = 40 + 2\ninit width: u32 = 7\ninit also := 1\ninput cycle: u64\nv := cycle + base + width + also\n");
  CHECK(k.run({u64(8)})[0].as_u64() == 8 + 42 + 7 + 1);
  CHECK(k.unit().outputs.size() == 1);  // the inits are read, so not outputs

  auto r = compile_named("t.gk", "input cycle: u64\ninit k = cycle * 2\nv := k\n");
  CHECK_FALSE(r.ok());
  CHECK(first_error_kind(r) == "const-depends-on-input");
  CHECK(mentions(r, "const 'k' depends on an input"));
}

TEST_CASE("an anonymous module is its file's signature") {
  // nb-rs's tests/examples/library_kernel.gk (which nb-rs's current parser refuses; the file names the module).
  const std::string library_kernel =
      "(entity: u64) -> (entity_h: u64, entity_code: u64, entity_bucket: u64) := {\n"
      "    entity_h := hash(entity)\n"
      "    entity_code := mod(entity_h, 10000)\n"
      "    entity_bucket := mod(entity_h, 64)\n"
      "}\n";
  auto r = compile_ok("library_kernel.gk", library_kernel);
  CHECK(signature(r.kernel()) == "(entity: u64) -> (entity_h: u64, entity_code: u64, entity_bucket: u64)");

  SUBCASE("its values, and a call from another file") {
    Folder f("polydat_anonymous_module");
    f.write("library_kernel.gk", library_kernel);
    f.write("one.gk", "(x: u64, y: u64) -> (s: u64) := {\n    s := x * 10 + y\n}\n");
    const std::string main = f.write("main.gk",
                                     "input cycle: u64\n(h, code, bucket) := library_kernel(cycle)\n"
                                     "s := one(y: 3, x: cycle)\n");
    auto m = frontend::compile_file(main);
    REQUIRE_MESSAGE(m.ok(), m.render_diagnostics());
    for (uint64_t c : {0ull, 9ull, 1000ull}) {
      const ir::Value in = ir::Value::structure(m.ir->object(m.ir->func(m.ir->entry()).input).ty, {u64(c)});
      auto out = ir::evaluate(*m.ir, m.ir->entry(), in);
      REQUIRE(out.ok());
      CHECK(out->elems()[0].as_u64() == ref_hash(c));
      CHECK(out->elems()[1].as_u64() == ref_hash(c) % 10000);
      CHECK(out->elems()[2].as_u64() == ref_hash(c) % 64);
      CHECK(out->elems()[3].as_u64() == c * 10 + 3);
    }
  }
  SUBCASE("results adapt as a module's do: a u8 result of a wider body") {
    Kernel k("(x: u8) -> (y: u16) := {\n    y := x * 2\n}\n");
    CHECK(k.run({ir::Value::integer(ir::TyKind::U8, 200)})[0].as_u64() == 144);  // wraps at 8 bits, then widens
  }
  SUBCASE("refusals") {
    struct Case {
      std::string file, text, kind, part;
    };
    const std::vector<Case> cases = {
        {"two.gk", "(a: u64) -> (b: u64) := {\n  b := a\n}\n(c: u64) -> (d: u64) := {\n  d := c\n}\n", "syntax",
         "at most one anonymous module"},
        {"dflt.gk", "(a: u64, k: u64 = 3) -> (b: u64) := {\n  b := a + k\n}\n", "syntax", "has no default"},
        {"inner.gk", "f(a: u64) -> (b: u64) := {\n  (x: u64) -> (y: u64) := {\n    y := x\n  }\n  b := a\n}\n",
         "syntax", "inside braces, name it"},
        {"my-lib.gk", "(a: u64) -> (b: u64) := {\n  b := a\n}\n", "syntax", "'my-lib' is not a name"},
        {"table.gk", "(entity: u64, table: alias_table) -> (c: u64) := {\n  c := entity\n}\n", "syntax",
         "unknown type 'alias_table'"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.file);
      auto bad = compile_named(c.file, c.text);
      CHECK_FALSE(bad.ok());
      CHECK(first_error_kind(bad) == c.kind);
      CHECK_MESSAGE(mentions(bad, c.part), bad.render_diagnostics());
    }
  }
}

TEST_CASE("a module parameter passed on to a constant is a constant") {
  // nb-rs's stdlib/hashing.gk: hash_interval passes min and max to lerp's constants. nb-rs inlines the
  // module, so they take the caller's; polydat makes them the module's constant parameters.
  const std::string def =
      "spread(input: u64, min: f64, max: f64) -> (value: f64) := {\n"
      "    value := lerp(unit_interval(hash(input)), min, max)\n"
      "}\n";
  Kernel k(def + "input cycle: u64\nlon := spread(cycle, -180.0, 180.0)\ntemp := spread(input: cycle, min: 15.0, max: 45.0)\n");
  for (uint64_t c : {0ull, 1ull, 77ull, ~0ull}) {
    const auto out = k.run({u64(c)});
    CHECK(out[0].as_f64() == lerp(unit_interval(ref_hash(c)), -180.0, 180.0));
    CHECK(out[1].as_f64() == lerp(unit_interval(ref_hash(c)), 15.0, 45.0));
  }

  auto lib = compile_ok("hashing.gk", def);
  const frontend::Unit& spread = lib.program->units.at(1);
  REQUIRE(spread.name == "spread");
  CHECK_FALSE(spread.params[0].is_extern);
  CHECK(spread.params[1].is_extern);
  CHECK(spread.params[2].is_extern);

  SUBCASE("so a caller must pass a constant") {
    auto r = compile_named("t.gk", def + "input cycle: u64\nv := spread(cycle, to_f64(cycle), 1.0)\n");
    CHECK_FALSE(r.ok());
    CHECK(first_error_kind(r) == "not-constant");
    CHECK(mentions(r, "'min' of spread is a constant"));
  }
  SUBCASE("a file's inferred inputs likewise (examples/modules/euler_circuit.gk)") {
    auto r = compile_ok("euler_circuit.gk", "value := cycle_walk(position, range, seed, stream)\n");
    CHECK(signature(r.kernel()) ==
          "(position: u64, extern range: u64, extern seed: u64, extern stream: u64) -> (value: u64)");
  }
  SUBCASE("through a chain of modules") {
    Kernel two(def +
               "outer(input: u64, lo: f64) -> (v: f64) := {\n    v := spread(input, lo, 1.0)\n}\n"
               "input cycle: u64\nw := outer(cycle, 0.5)\n");
    CHECK(two.run({u64(3)})[0].as_f64() == lerp(unit_interval(ref_hash(3)), 0.5, 1.0));
  }
}

TEST_CASE("a module that needs a constant parameter's value is checked but cannot be called") {
  // nb-rs's stdlib/latency.gk: icd_normal's table comes from gaussian_latency's mean and stddev, which
  // polydat, compiling the module once, cannot know.
  const std::string def =
      "tilted(input: u64, mean: f64, stddev: f64) -> (v: f64) := {\n"
      "    q := unit_interval(hash(input))\n"
      "    v := clamp_f64(icd_normal(q, mean, stddev), 0.1, 999999.0)\n"
      "}\n";
  auto lib = compile_ok("latency.gk", def);
  CHECK(lib.program->units.at(1).needs_values ==
        "its parameter 'mean' gives 'mean' of icd_normal, from which its table is built");

  auto r = compile_named("t.gk", def + "input cycle: u64\nv := tilted(cycle, 10.0, 2.0)\n");
  CHECK_FALSE(r.ok());
  CHECK(first_error_kind(r) == "not-constant");
  CHECK(mentions(r, "module 'tilted' cannot be called"));
  // Only a parameter passed as it is becomes constant: in an expression it is refused in the body, as before.
  auto dyn = compile_named("t.gk", "f(x: u64, m: f64) -> (v: f64) := {\n    v := icd_normal(unit_interval(x), m * 2.0, 1.0)\n}\n");
  CHECK(first_error_kind(dyn) == "not-constant");
  CHECK(mentions(dyn, "'mean' of icd_normal is fixed when the kernel is built"));
}

TEST_CASE("combinations takes no length: a constant third argument is dropped, with a warning") {
  // nb-rs's tests/examples/gk/string_generation.gk and stdlib/strings.gk pass one; nb-rs's node builder
  // reads the pattern only (nodes/string.rs), so "A-Z0-9" gives one character of 36.
  const std::string charset = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  auto r = compile_ok("t.gk", "input cycle: u64\ncode := combinations(hash(cycle), \"A-Z0-9\", 8)\n");
  REQUIRE(r.diagnostics().list().size() == 1);
  CHECK(r.diagnostics().list()[0].severity == frontend::Severity::Warning);
  CHECK(frontend::diag_kind_name(r.diagnostics().list()[0].kind) == "argument-count");
  Kernel k("input cycle: u64\ncode := combinations(hash(cycle), \"A-Z0-9\", 8)\n");
  for (uint64_t c : {0ull, 1ull, 2ull, 99ull}) CHECK(k.first({u64(c)}).as_str() == std::string(1, charset[ref_hash(c) % 36]));

  SUBCASE("stdlib/strings.gk's alpha_numeric: one character of 62") {
    const std::string alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    Kernel a(
        "alpha_numeric(input: u64, length: u64) -> (value: String) := {\n"
        "    value := combinations(hash(input), '0-9A-Za-z', length)\n"
        "}\n"
        "input cycle: u64\nv := alpha_numeric(cycle, 12)\n");
    for (uint64_t c : {0ull, 5ull, 1234ull}) CHECK(a.first({u64(c)}).as_str() == std::string(1, alnum[ref_hash(c) % 62]));
  }
  SUBCASE("one that changes per evaluation is refused, as nb-rs refuses a wire too many") {
    auto bad = compile_named("t.gk", "input cycle: u64\ncode := combinations(cycle, \"a-z\", cycle)\n");
    CHECK_FALSE(bad.ok());
    CHECK(first_error_kind(bad) == "argument-count");
  }
}

TEST_CASE("a file of module definitions only is a library, checked without outputs") {
  auto r = compile_ok("waves.gk",
                         "// nb-rs's stdlib/waves.gk\n"
                         "sawtooth(input: u64, period: u64) -> (value: f64) := {\n"
                         "    value := scale_range(mod(input, period), 0.0, 1.0)\n"
                         "}\n");
  CHECK(signature(r.kernel()) == "() -> ()");
  // A definition's errors are still reported.
  auto bad = compile_named("w.gk", "f(input: u64) -> (v: u64) := {\n    v := nope(input)\n}\n");
  CHECK(first_error_kind(bad) == "unknown-function");
  // A file with nothing at all still has no outputs.
  CHECK(first_error_kind(compile_named("e.gk", "pragma no_inline\n")) == "no-outputs");
}
