// What the kernel generator found, shrunk to minimal kernels, kept as
// regression tests (all fixed: the checker's empty argument slot, the lexer's
// nested strings, pow rewritten by LLVM, LLVM 15 aborting on AVX-512 FP16).
#include <doctest/doctest.h>

#include <string>

#include "ir/interp.h"
#include "tests/llvm/generated_support.h"
#include "tests/llvm/native_support.h"

using namespace polydat;
using namespace polydat::nativetest;

namespace {

// The kernel on one input: "" when both engines agree, else both results.
std::string compare_one(const std::string& text, const std::vector<ir::Value>& fields) {
  const Compiled c = compile_text("kernel.gk", text);
  if (!c.ir) return "the frontend refuses it: " + c.diagnostics;
  auto k = sim::NativeKernel::compile(*c.ir, c.ir->entry());
  if (!k) return "the native backend refuses it: " + k.error();
  const ir::Value input = ir::Value::structure(input_type(*c.ir), fields);
  ir::Interpreter interp(*c.ir);
  auto expected = interp.run(input);
  if (!expected) return "the interpreter refuses it: " + expected.error().message;
  const ir::Value got = (*k)->evaluate({input}).at(0);
  if (got == *expected) return "";
  return "input " + ir::render(input) + ": the interpreter gives " + ir::render(*expected) + ", native " +
         ir::render(got);
}

}  // namespace

// The checker followed the empty argument slot check_call leaves for a
// default (reads_loop_variable in frontend/check.cc) and crashed. Fixed.
TEST_CASE("native finding: a call that leaves out a default argument, in a loop guard") {
  const std::string text =
      "f(x: u64, k: u64 = 1) -> (y: u64) := {\n"
      "    y := x + k\n"
      "}\n"
      "input n: u64\n"
      "r := loop (i = 0) while i < (f(n) & 15) { i = i + 1 } yield i\n";
  const std::string crash = run_in_child([&] { return compile_text("guard.gk", text).ir.has_value(); });
  REQUIRE_MESSAGE(crash.empty(), "compiling: " << crash << "\n" << text);
  CHECK(compare_text(text, 128, 1) == "");
}

// "<{"[{"\"{n}"}]"}>" is refused as unterminated, and so are {{ and }} that
// deep. The lexer's matching_brace skips a nested string by looking for its
// closing quote, without minding the interpolations in it.
TEST_CASE("native finding: a string nested three deep holds an escaped quote") {
  const std::string text = "input n: u64\ns := \"<{\"[{\"\\\"{n}\"}]\"}>\"\n";
  CHECK(compare_text(text, 128, 2) == "");
  const Compiled c = compile_text("nested.gk", text);
  REQUIRE_MESSAGE(c.ir, c.diagnostics);
  ir::Interpreter interp(*c.ir);
  auto out = interp.run(ir::Value::structure(input_type(*c.ir), {ir::Value::integer(ir::TyKind::U64, 7)}));
  REQUIRE(out);
  CHECK(out->elems().at(0).as_str() == "<[\"7]>");
}

// A constant power of two raised to a float: 2^31 ** 1.5026792 (f32) is
// 1.0541373e+14 on the interpreter, 1.0541382e+14 native, many ulps apart.
// Consistent with LLVM's library-call simplifier rewriting pow(2^n, x) as
// exp2(n * x), which rounds n * x first (it does so without fast-math).
TEST_CASE("native finding: a constant power of two raised to a float") {
  CHECK(compare_one("input x: f32\np := 2147483648.0 ** x\n", {ir::Value::f32(1.5026792f)}) == "");
  CHECK(compare_one("input x: f64\np := 2147483648.0 ** x\n", {ir::Value::f64(1.5026792)}) == "");
  CHECK(compare_one("input x: f32\np := 8.0 ** x\n", {ir::Value::f32(1.1f)}) == "");
}

// LLVM 15's x86 instruction selection aborts ("Cannot select: v8i16 (or
// v16i16) = X86ISD::VZEXT_MOVL") on hosts with AVX-512 FP16 (Sapphire
// Rapids), which the JIT targets: a 16-bit recurrence that starts from its
// own operand; llvm/llvm-project#59628, fixed after LLVM 15.
TEST_CASE("native finding: a 16-bit recurrence compiles on every host") {
  for (const std::string text : {
           "input (x: u16, n: u64)\n"
           "y := loop (i: u64 = 0, v: u16 = x) while i < (n & 15) { v = v ^ x; i = i + 1 } yield v\n",
           "input (x: u16, n: u8)\n"
           "y := loop (i: u8 = 0, v: u16 = x) while (i < (n & 15)) & (n != 80) { v = v + x; i = i + 1 } yield v\n"}) {
    const std::string crash = run_in_child([&] { return compare_text(text, 128, 3).empty(); });
    CHECK_MESSAGE(crash.empty(), "compiling and comparing: " << crash << "\n" << text);
  }
}
