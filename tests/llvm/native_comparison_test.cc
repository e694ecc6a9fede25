// Comparisons yield the u64 1 or 0 (LANGUAGE.md, "Typing") on the LLVM
// engine as on the interpreter: each kernel's outputs on hand-derived cases
// from both engines, then both engines on random and edge inputs.
#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "ir/interp.h"
#include "tests/llvm/native_support.h"

using namespace polydat;
using namespace polydat::nativetest;
using ir::TyKind;
using ir::Value;

namespace {
Value u64(uint64_t v) { return Value::integer(TyKind::U64, v); }
Value u8(uint64_t v) { return Value::integer(TyKind::U8, v); }
Value f64(double v) { return Value::f64(v); }
Value boolean(bool b) { return Value::boolean(b); }
constexpr uint64_t kAllOnes = ~uint64_t{0};

struct Case {
  std::vector<Value> in;
  std::vector<Value> out;
};

struct Checked {
  const char* text;
  std::vector<Case> cases;
};

// Both engines give `out` for each case, then agree on random inputs.
void check_both_engines(const Checked& k) {
  CAPTURE(std::string(k.text));
  const Compiled c = compile_text("cmp.gk", k.text);
  REQUIRE_MESSAGE(c.ir, c.diagnostics);
  const ir::CategoryIr& g = *c.ir;
  auto native = sim::NativeKernel::compile(g, g.entry());
  REQUIRE_MESSAGE(native.ok(), (native.ok() ? "" : native.error()));
  const ir::Ty in_ty = g.object(g.func(g.entry()).input).ty;
  ir::Interpreter interp(g);
  std::vector<Value> records;
  for (const Case& cs : k.cases) {
    records.push_back(Value::structure(in_ty, cs.in));
    auto want = interp.run(records.back());
    REQUIRE(want.ok());
    CHECK(want->elems() == cs.out);
  }
  const std::vector<Value> got = (*native)->evaluate(records);
  REQUIRE(got.size() == records.size());
  for (size_t i = 0; i < records.size(); ++i) CHECK_MESSAGE(got[i].elems() == k.cases[i].out, ir::render(records[i]));
  std::mt19937_64 rng(0xC0FFEE);
  std::vector<Value> random;
  for (int i = 0; i < 2000; ++i) {
    std::vector<Value> fields;
    for (size_t f = 0; f < in_ty.arity(); ++f) fields.push_back(random_scalar(in_ty.component(f), rng));
    random.push_back(Value::structure(in_ty, std::move(fields)));
  }
  size_t compared = 0;
  const std::string diff = differences(g, **native, random, compared);
  CHECK_MESSAGE(diff.empty(), diff);
  CHECK(compared == random.size());
}
}  // namespace

TEST_CASE("native: the six comparisons are the u64 1 or 0") {
  // nb-rs: tests/stdlib.rs stdlib_comparison_ops, "eq=0 ne=1 lt=0 gt=1 lte=0 gte=1" for 10 against 3.
  check_both_engines({"input (a: u64, b: u64)\neq := a == b\nne := a != b\nlt := a < b\ngt := a > b\nle := a <= b\nge := a >= b\n",
                      {{{u64(10), u64(3)}, {u64(0), u64(1), u64(0), u64(1), u64(0), u64(1)}},
                       {{u64(3), u64(10)}, {u64(0), u64(1), u64(1), u64(0), u64(1), u64(0)}},
                       {{u64(7), u64(7)}, {u64(1), u64(0), u64(0), u64(0), u64(1), u64(1)}}}});
}

TEST_CASE("native: & | ^ of comparisons, bitwise `!`, arithmetic on a comparison") {
  check_both_engines({"input (a: u64, b: u64, s: u8)\n"
                      "both := (a < b) & (s < 9)\neither := (a < b) | (s < 9)\nnot_lt := !(a < b)\n"
                      "plus := (a < b) + s\nsel := if(a < b, a, b)\n",
                      {{{u64(1), u64(2), u8(200)}, {u64(0), u64(1), u64(kAllOnes - 1), u64(201), u64(1)}},
                       {{u64(5), u64(2), u8(3)}, {u64(0), u64(1), u64(kAllOnes), u64(3), u64(2)}},
                       {{u64(0), u64(9), u8(8)}, {u64(1), u64(1), u64(kAllOnes - 1), u64(9), u64(0)}}}});
}

TEST_CASE("native: a declared bool takes a comparison; a condition takes either") {
  check_both_engines({"input (a: u64, b: u64)\n"
                      "flag: bool := a < b\nboth: bool := (a < b) & (b != 4)\nlt := a < b\nnamed: bool := lt\n"
                      "n := loop (i = 0, hits = 0) while i < (a & 15) { hits = hits + (i < b); i = i + 1 } yield hits\n"
                      "output flag, both, named, n\n",
                      {{{u64(1), u64(4)}, {boolean(true), boolean(false), boolean(true), u64(1)}},
                       {{u64(9), u64(4)}, {boolean(false), boolean(false), boolean(false), u64(4)}},
                       {{u64(13), u64(20)}, {boolean(true), boolean(true), boolean(true), u64(13)}}}});
}

TEST_CASE("native: with a NaN operand every comparison is 0 but !=") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Value> zero_but_ne{u64(0), u64(1), u64(0), u64(0), u64(0), u64(0)};
  check_both_engines({"input (x: f64, y: f64)\neq := x == y\nne := x != y\nlt := x < y\ngt := x > y\nle := x <= y\nge := x >= y\n",
                      {{{f64(nan), f64(1.0)}, zero_but_ne},
                       {{f64(2.0), f64(nan)}, zero_but_ne},
                       {{f64(nan), f64(nan)}, zero_but_ne},
                       {{f64(-0.0), f64(0.0)}, {u64(1), u64(0), u64(0), u64(0), u64(1), u64(1)}}}});
}

TEST_CASE("native: a comparison interpolated renders 1 or 0") {
  check_both_engines({"input x: u64\ns := \"{x > 5} {x == 5}\"\n",
                      {{{u64(7)}, {Value::str("1 0")}}, {{u64(5)}, {Value::str("0 1")}}}});
}
