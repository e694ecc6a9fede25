// pick, identity, nb-rs's parameter assertions, the regex calls and the
// string rules they rely on: values worked by hand, diagnostics at the call.
#include <random>

#include "tests/frontend/stdlib_kernel.h"

namespace polydat::stdlibtest {
namespace {

std::string diagnostics_of(const std::string& text) {
  return frontend::compile_source("k.gk", text).render_diagnostics();
}

}  // namespace

TEST_CASE("pick: the value of the first true selector, the last value when none is") {
  Kernel k("input (a: u64, b: u64)\nv := pick(a == 1, a == 2, b > 5, 100, 200, 300)\n"
           "s := pick(a < 2, a >= 2, \"low\", \"high\")\n");
  auto run = [&](uint64_t a, uint64_t b) { return k.run({u64(a), u64(b)}); };
  CHECK(run(1, 0).at(0) == u64(100));
  CHECK(run(2, 0).at(0) == u64(200));
  CHECK(run(3, 9).at(0) == u64(300));
  CHECK(run(1, 9).at(0) == u64(100));  // two true: the first wins
  CHECK(run(7, 0).at(0) == u64(300));  // none true: the last value (nb-rs stops the run here)
  CHECK(run(0, 0).at(1) == ir::Value::str("low"));
  CHECK(run(5, 0).at(1) == ir::Value::str("high"));
}

TEST_CASE("pick: selectors known when the kernel is built must pick exactly one") {
  CHECK(diagnostics_of("v := pick(1 == 1, 2 == 2, 3, 4)\n").find("2 selectors are true [assertion-failed]") != std::string::npos);
  CHECK(diagnostics_of("v := pick(1 == 2, 3, 4)\n").find("[argument-count]") != std::string::npos);
  CHECK(diagnostics_of("v := pick(1 == 2, 2 == 3, 3, 4)\n").find("no selector is true") != std::string::npos);
  CHECK(diagnostics_of("input a: u64\nv := pick(a == 1, a == 2, 3, \"x\")\n").find("one type") != std::string::npos);
  CHECK(diagnostics_of("v := pick(true, 2 == 3, 3, 4)\n").empty());
}

TEST_CASE("identity is its argument; the assertions pass a constant through or stop the build") {
  Kernel k("input a: u64\nv := identity(a) + in_range(5, 1, 10) + is_one_of(3, 1, 2, 3) + is_positive(7, \"rate\")\n"
           "m := matches(\"abc\", \"^[a-z]+$\")\n");
  CHECK(k.run({u64(100)}).at(0) == u64(115));
  CHECK(k.run({u64(100)}).at(1) == ir::Value::str("abc"));
  CHECK(diagnostics_of("v := in_range(11, 1, 10)\n").find("k.gk:1:15: error: in_range: value 11 outside [1, 10] [assertion-failed]") != std::string::npos);
  CHECK(diagnostics_of("v := in_range(10, 1, 10)\n").empty());  // inclusive
  CHECK(diagnostics_of("v := is_one_of(4, 1, 2, 3)\n").find("[assertion-failed]") != std::string::npos);
  CHECK(diagnostics_of("v := is_positive(0, \"threads\")\n").find("is_positive(threads)") != std::string::npos);
  CHECK(diagnostics_of("v := matches(\"ABC\", \"^[a-z]+$\")\n").find("[assertion-failed]") != std::string::npos);
  CHECK(diagnostics_of("v := matches(\"a\", \"(\")\n").find("[invalid-pattern]") != std::string::npos);
  CHECK(diagnostics_of("input a: u64\nv := in_range(a, 1, 10)\n").find("k.gk:2:15: error: in_range checks a value known") != std::string::npos);
}

TEST_CASE("regex calls: nb-rs's pattern text compiles unchanged and runs Rust's rules") {
  // "\d" keeps its backslash and "{3}" is a count, as nb-rs reads the string;
  // a replacement's ${name} doubles its braces, or {head} would interpolate.
  Kernel k("input a: u64\nt := \"{a}-4567\"\nv := regex_match(t, \"^\\d{3}-\\d{4}$\")\n"
           "r := regex_replace(t, \"(?P<head>\\d+)-(\\d+)\", \"$2/${{head}}\")\ne := str_eq(t, \"123-4567\")\n");
  CHECK(k.run({u64(123)}).at(0) == ir::Value::boolean(true));
  CHECK(k.run({u64(1234)}).at(0) == ir::Value::boolean(false));
  CHECK(k.run({u64(123)}).at(1) == ir::Value::str("4567/123"));
  CHECK(k.run({u64(123)}).at(2) == u64(1));
  CHECK(k.run({u64(12)}).at(2) == u64(0));
  CHECK(diagnostics_of("input s: str\nv := regex_match(s, s)\n").find("[not-constant]") != std::string::npos);
  CHECK(diagnostics_of("input s: str\nv := regex_match(s, \"a(?=b)\")\n").find("k.gk:2:21: error: invalid regex") != std::string::npos);
}

TEST_CASE("dynamic_weighted_select: weighted_strings with a spec that arrives as a value") {
  // The same choice as weighted_strings (built when the kernel is, lowered to integer compares) for every x.
  Kernel k("input (x: u64, s: str)\nd := dynamic_weighted_select(x, s)\n"
           "w := weighted_strings(x, \"alpha:0.3;beta:0.5;gamma:0.2\")\n");
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t x = i < 8 ? static_cast<uint64_t>(i) << 32 : rng();
    const auto out = k.run({u64(x), ir::Value::str("alpha:0.3;beta:0.5;gamma:0.2")});
    CHECK(out.at(0) == out.at(1));
  }
  // Worked by hand: "a:0,b:1" scales to 0 and 2, slot 0 takes its alias b always; slot 1 keeps b.
  // "a:1;b:3": scaled 0.5 and 1.5, slot 0 keeps a when (x >> 32) / (2^32 - 1) < 0.5, else b.
  auto pick = [&](uint64_t x, const char* spec) { return k.run({u64(x), ir::Value::str(spec)}).at(0); };
  CHECK(pick(0, "a:0,b:1") == ir::Value::str("b"));
  CHECK(pick(1, "a:0,b:1") == ir::Value::str("b"));
  CHECK(pick(0, "a:1;b:3") == ir::Value::str("a"));
  CHECK(pick(uint64_t{0x7FFFFFFF} << 32, "a:1;b:3") == ir::Value::str("a"));   // 0.49999999988 < 0.5
  CHECK(pick(uint64_t{0x80000000} << 32, "a:1;b:3") == ir::Value::str("b"));   // 0.50000000012
  CHECK(pick(1, "a:1;b:3") == ir::Value::str("b"));                             // slot 1, bias 1
  CHECK(pick(0, " a :1 ; ;b:3") == ir::Value::str("a "));  // items trimmed, the value kept as written
  // nb-rs panics on these; here the choice is the empty text.
  for (const char* bad : {"", "a", "a:x", "a: 1", "a:0;b:0", "a:-1;b:1"}) {
    CAPTURE(bad);
    CHECK(pick(5, bad) == ir::Value::str(""));
  }
}

TEST_CASE("strings compare with == and != byte for byte, as nb-rs's str_eq") {
  // nb-rs's str_eq and str_ne give the u64 1 or 0, as every comparison here.
  Kernel k("input (s: str, t: str)\ne := s == t\nn := s != t\nk := (s == \"alpha\") | (t == \"beta\")\n");
  auto run = [&](const char* s, const char* t) { return k.run({ir::Value::str(s), ir::Value::str(t)}); };
  CHECK(run("alpha", "alpha").at(0) == u64(1));
  CHECK(run("alpha", "alpha").at(1) == u64(0));
  CHECK(run("alpha", "Alpha").at(0) == u64(0));
  CHECK(run("", "").at(0) == u64(1));
  CHECK(run("a\xC3\xA9", "a\xC3\xA9").at(0) == u64(1));
  CHECK(run("x", "beta").at(2) == u64(1));
  CHECK(run("x", "y").at(2) == u64(0));
  CHECK(diagnostics_of("input s: str\nv := s < \"b\"\n").find("cannot order values of type str") != std::string::npos);
}

TEST_CASE("strings: a brace of digits is text, a backslash before a visible character stays") {
  Kernel k("input a: u64\nv := \"{a}{3}{2,}{2,5}\"\nw := \"\\d\\.\\q\\\\\"\n");
  CHECK(k.run({u64(9)}).at(0) == ir::Value::str("9{3}{2,}{2,5}"));
  CHECK(diagnostics_of("v := \"{1,2,3}\"\n").find("[syntax]") != std::string::npos);  // not a count: an interpolation
  CHECK(k.run({u64(9)}).at(1) == ir::Value::str("\\d\\.\\q\\"));
}

}  // namespace polydat::stdlibtest
