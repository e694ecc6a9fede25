// Every diagnostic kind, produced by a malformed input at the line and column
// derived by hand; and inputs that must be diagnosed, not fatal.
#include <doctest/doctest.h>

#include <string>

#include "frontend/compile.h"

using namespace polydat::frontend;

namespace {
struct Expectation {
  DiagKind kind;
  const char* source;
  uint32_t line;
  uint32_t col;
};

// The first diagnostic of `kind` in the compilation of `source`, as line:col.
std::string located(const std::string& source, DiagKind kind) {
  CompileResult r = compile_source("t.gk", source);
  for (const Diagnostic& d : r.diagnostics().list()) {
    if (d.kind != kind) continue;
    const auto [line, col] = r.program->sources.file(d.span.file).line_col(d.span.start);
    return std::to_string(line) + ":" + std::to_string(col);
  }
  return "no " + std::string(diag_kind_name(kind)) + " in:\n" + r.render_diagnostics();
}

const Expectation kCases[] = {
    {DiagKind::UnexpectedCharacter, "y := 1\nz := 2 @ 3\n", 2, 8},
    {DiagKind::UnterminatedString, "y := 1\nz := \"abc\n", 2, 6},
    {DiagKind::UnterminatedComment, "y := 1 /* never\nclosed\n", 1, 8},
    {DiagKind::InvalidEscape, "s := \"a\\\tb\"\n", 1, 8},
    {DiagKind::InvalidNumber, "y := 0b102\n", 1, 6},
    {DiagKind::InvalidPattern, "input s: str\nv := regex_match(s, \"a(\")\n", 2, 21},
    {DiagKind::AssertionFailed, "v := in_range(0, 1, 10)\n", 1, 15},
    {DiagKind::BadPartitionSpec, "cursor q = range(0, 10) over \"50%..20%\"\ny := q\n", 1, 30},
    {DiagKind::IntegerTooLarge, "y := 18446744073709551616\n", 1, 6},
    {DiagKind::Syntax, "y := (1 + 2\nz := 3\n", 2, 1},
    {DiagKind::NestingTooDeep, nullptr, 1, 0},  // built below
    {DiagKind::UnknownName, "input x: u64\ny := x + w\n", 2, 10},
    {DiagKind::UnknownFunction, "y := hsah(x)\n", 1, 6},
    {DiagKind::Redefinition, "y := 1\ny := 2\n", 2, 1},
    {DiagKind::BuiltinRedefinition, "min(a: u64, b: u64) -> (o: u64) := { o := a }\ny := min(1, 2)\n", 1, 1},
    {DiagKind::CyclicBinding, "a := b + 1\nb := a + 1\n", 1, 1},
    {DiagKind::UnknownOutput, "y := x\noutput y, nope\n", 2, 11},
    {DiagKind::NoOutputs, "input x: u64\n", 1, 1},
    {DiagKind::NotALoopVariable, "y := loop (i = 0) while i < 3 { j = i } yield i\n", 1, 33},
    {DiagKind::TypeMismatch, "input x: u32\ny: u16 := x\n", 2, 11},
    {DiagKind::SignedUnsignedMix, "input (a: i32, b: u32)\ny := a + b\n", 2, 6},
    {DiagKind::LiteralOutOfRange, "input x: u8\ny := x + 256\n", 2, 10},
    {DiagKind::ZeroDivisor, "y := x % 0\n", 1, 6},
    {DiagKind::NotConstant, "y := mixed_radix(x, 10, x)\n", 1, 25},
    {DiagKind::TupleMisuse, "y := mixed_radix(x, 10, 10)\n", 1, 6},
    {DiagKind::ArgumentCount, "y := mod(x, 3, 4)\n", 1, 16},
    {DiagKind::UnknownArgument, "y := mod(x, m: 3)\n", 1, 13},
    {DiagKind::DuplicateArgument, "f(a: u64, b: u64 = 1) -> (o: u64) := { o := a + b }\ny := f(x, a: 1)\n", 2, 11},
    {DiagKind::MissingArgument, "f(a: u64, b: u64) -> (o: u64) := { o := a + b }\ny := f(x)\n", 2, 6},
    {DiagKind::ConstDependsOnInput, "input x: u64\nconst c := x * 2\n", 2, 12},
    {DiagKind::ConstVolatile, "y := 1\nconst volatile c := 3\n", 2, 1},
    {DiagKind::LoopGuardInvariant, "input n: u64\ny := loop (i = 0) while n > 3 { i = i + 1 } yield i\n", 2, 25},
    {DiagKind::UnknownPragma, "pragma fast\ny := x\n", 1, 8},
    // The cycle closes at g's call of f.
    {DiagKind::RecursiveModule, "f(a: u64) -> (o: u64) := { o := g(a) }\ng(a: u64) -> (o: u64) := { o := f(a) }\ny := f(x)\n", 2, 33},
};
}  // namespace

TEST_CASE("every diagnostic kind at its line and column") {
  for (const Expectation& e : kCases) {
    if (e.source == nullptr) continue;
    INFO(diag_kind_name(e.kind) << " from: " << std::string(e.source));
    CHECK(located(e.source, e.kind) == std::to_string(e.line) + ":" + std::to_string(e.col));
  }
}

TEST_CASE("every diagnostic kind is covered by a case above") {
  for (int k = 0; k <= static_cast<int>(DiagKind::UnknownPragma); ++k) {
    const auto kind = static_cast<DiagKind>(k);
    // Below (FileNotFound, BinaryFile), in tests/cli/edge_input_test.cc (ShadowedLibrary: files beside a kernel),
    // and a later stage's (NotForHardware).
    if (kind == DiagKind::FileNotFound || kind == DiagKind::BinaryFile || kind == DiagKind::ShadowedLibrary ||
        kind == DiagKind::NotForHardware)
      continue;
    bool covered = false;
    for (const Expectation& e : kCases) covered = covered || e.kind == kind;
    CHECK_MESSAGE(covered, diag_kind_name(kind));
  }
}

TEST_CASE("file-not-found names the file") {
  CompileResult r = compile_file("/nonexistent/k.gk");
  REQUIRE_FALSE(r.ok());
  CHECK(r.diagnostics().list().front().kind == DiagKind::FileNotFound);
  CHECK(r.render_diagnostics().find("cannot read /nonexistent/k.gk") != std::string::npos);
}

TEST_CASE("a warning does not stop compilation") {
  CompileResult r = compile_source("t.gk", "pragma fast\ny := x + 1\n");
  CHECK(r.ok());
  REQUIRE(r.diagnostics().list().size() == 1);
  CHECK(r.diagnostics().list().front().severity == Severity::Warning);
  CHECK(r.render_diagnostics().rfind("t.gk:1:8: warning: unknown pragma 'fast' is ignored [unknown-pragma]", 0) == 0);
}

TEST_CASE("the rendering: location, severity, message, kind, source line, caret") {
  CompileResult r = compile_source("k.gk", "input x: u32\n\ty: u16 := x\n");
  CHECK(r.render_diagnostics() ==
        "k.gk:2:12: error: expected u16 (the annotated type), found u32; convert with `as u16` [type-mismatch]\n"
        "   y: u16 := x\n"
        "             ^\n");
}

TEST_CASE("hostile inputs are diagnosed, not fatal") {
  SUBCASE("a 100,000-deep parenthesised expression") {
    const std::string src = "y := " + std::string(100000, '(') + "x" + std::string(100000, ')') + "\n";
    CHECK(located(src, DiagKind::NestingTooDeep).rfind("1:", 0) == 0);
  }
  SUBCASE("a 1 MB line: a sum of 200,000 terms") {
    std::string src = "y := x";
    for (int i = 0; i < 200000; ++i) src += "+x";
    CHECK(located(src + "\n", DiagKind::NestingTooDeep) == "1:6");
  }
  SUBCASE("a 1 MB string literal compiles") {
    const std::string src = "y := \"" + std::string(1 << 20, 'a') + "\"\n";
    CHECK(compile_source("t.gk", src).ok());
  }
  SUBCASE("100,000 prefix operators") {
    const std::string src = "y := " + std::string(100000, '-') + "x\n";
    CHECK(located(src, DiagKind::NestingTooDeep).rfind("1:", 0) == 0);
  }
  SUBCASE("deeply nested string interpolations") {
    std::string src = "y := \"";
    for (int i = 0; i < 2000; ++i) src += "{\"";
    for (int i = 0; i < 2000; ++i) src += "\"}";
    CHECK(located(src + "\"\n", DiagKind::NestingTooDeep).rfind("1:", 0) == 0);
  }
  SUBCASE("100,000 bindings in a chain compile") {
    std::string src = "input x: u64\nb0 := x\n";
    for (int i = 1; i < 100000; ++i) src += "b" + std::to_string(i) + " := b" + std::to_string(i - 1) + " + 1\n";
    CHECK(compile_source("t.gk", src).ok());
  }
  SUBCASE("bytes that are not text") {
    std::string src = "y := x\n";
    for (int i = 0; i < 256; ++i) src += static_cast<char>(i);
    CompileResult r = compile_source("t.gk", src);
    CHECK_FALSE(r.ok());
    // A NUL byte: one error at it, not one per byte.
    REQUIRE(r.diagnostics().list().size() == 1);
    CHECK(located(src, DiagKind::BinaryFile) == "2:1");
  }
}

TEST_CASE("nesting: 1,000 levels of any kind are accepted, 1,001 are not") {
  auto nested = [](int n, const std::string& open, const std::string& close) {
    std::string inner = "x";
    std::string src = "input x: u64\ny := ";
    for (int i = 0; i < n; ++i) src += open;
    src += inner;
    for (int i = 0; i < n && !close.empty(); ++i) src += close;
    return src + "\n";
  };
  for (auto [open, close] : {std::pair<std::string, std::string>{"(", ")"}, {"-", ""}, {"hash(", ")"}, {"(x + ", ")"}}) {
    CAPTURE(open);
    CHECK(compile_source("t.gk", nested(1000, open, close)).ok());
    CHECK(located(nested(1001, open, close), DiagKind::NestingTooDeep).rfind("2:", 0) == 0);
  }
  std::string chain = "input x: u64\ny := x";  // `**` is right-associative: each one nests
  for (int i = 0; i < 1000; ++i) chain += " ** 1";
  CHECK(compile_source("t.gk", chain + "\n").ok());
  CHECK(located(chain + " ** 1\n", DiagKind::NestingTooDeep).rfind("2:", 0) == 0);
}

TEST_CASE("at most 20 diagnostics are shown, then how many more; warnings are counted apart") {
  std::string src = "input x: u64\n";
  for (int i = 0; i < 30; ++i) src += "pragma p" + std::to_string(i) + "\n";
  for (int i = 0; i < 25; ++i) src += "b" + std::to_string(i) + " := nope\n";
  CompileResult r = compile_source("t.gk", src);
  CHECK(r.diagnostics().list().size() == 55);  // all are kept; only the rendering stops
  const std::string text = r.render_diagnostics();
  size_t shown = 0;
  for (size_t at = text.find("\nt.gk:"); at != std::string::npos; at = text.find("\nt.gk:", at + 1)) ++shown;
  CHECK(shown + 1 == 20);  // the first has no newline before it
  CHECK(text.size() > 0);
  size_t errors = 0, warnings = 0;  // among the ones not shown
  for (size_t i = 20; i < r.diagnostics().list().size(); ++i)
    ++(r.diagnostics().list()[i].severity == Severity::Error ? errors : warnings);
  CHECK(errors + warnings == 35);
  CHECK(text.substr(text.rfind('\n', text.size() - 2) + 1) ==
        std::to_string(errors) + " more errors and " + std::to_string(warnings) + " more warnings not shown (the first 20 are)\n");
}

TEST_CASE("control bytes are escaped in the echoed line and the message; the caret follows the escapes") {
  CompileResult r = compile_source("t.gk", std::string("y := 1\x01 @\n"));
  CHECK(r.render_diagnostics() ==
        "t.gk:1:7: error: unexpected character '\\x01' [unexpected-character]\n"
        "  y := 1\\x01 @\n"
        "        ^~~~\n"
        "t.gk:1:9: error: unexpected character '@' [unexpected-character]\n"
        "  y := 1\\x01 @\n"
        "             ^\n");
}

TEST_CASE("structural mistakes get messages that say what to do") {
  auto first = [](const std::string& src) {
    CompileResult r = compile_source("t.gk", src);
    REQUIRE_FALSE(r.ok());
    return r.diagnostics().list().front().message;
  };
  CHECK(first("_ := 3\ny := x\n").find("'_' only discards a value in a destructuring") != std::string::npos);
  CHECK(first("f(a: u64) -> (o: u64) := {\n  input b: u64\n  o := a\n}\ny := f(x)\n")
            .find("belongs at the top of a file") != std::string::npos);
  CHECK(first("input n: u64\ny := loop (i = 0) while i < n { next := i + 1; i = next } yield next\n")
            .find("bound inside a loop body") != std::string::npos);
  // An unknown function is reported once, at its first call.
  CompileResult r = compile_source("t.gk", "a := nope(x)\nb := nope(a)\n");
  REQUIRE(r.diagnostics().list().size() == 1);
  CHECK(r.program->sources.file(0).line_col(r.diagnostics().list().front().span.start).first == 1);
}
