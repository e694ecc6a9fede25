// Comparisons yield the u64 1 or 0 (LANGUAGE.md, "Typing"): each rule of that
// paragraph on the interpreter, the reach of "known to be 0 or 1" where a bool
// is declared, the host's bool through the adapter catalog, and the fold that
// gives a comparison made a bool again its one bit back. Expected values are
// derived by hand; nb-rs's vectors are cited where they are used.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "frontend/embed.h"
#include "ir/pass_pipeline.h"
#include "tests/frontend/stdlib_kernel.h"

using namespace polydat;
using stdlibtest::Kernel;
using stdlibtest::kAllOnes;
using stdlibtest::u64;
using ir::TyKind;
using ir::Value;

namespace {
Value boolean(bool b) { return Value::boolean(b); }
Value u8(uint64_t v) { return Value::integer(TyKind::U8, v); }
Value i64(int64_t v) { return Value::integer(TyKind::I64, static_cast<uint64_t>(v)); }
Value f64(double v) { return Value::f64(v); }

frontend::CompileResult compile(const std::string& text) { return frontend::compile_source("cmp.gk", text); }

// The diagnostics of a text that must not compile.
std::string refusal(const std::string& text) {
  auto r = compile(text);
  INFO(text);
  CHECK_FALSE(r.ok());
  return r.render_diagnostics();
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The type of the root kernel's output `name`.
ir::Ty output_type(const Kernel& k, const std::string& name) {
  for (const frontend::Port& p : k.unit().outputs)
    if (p.name == name) return p.ty;
  FAIL("no output " << name);
  return ir::Ty();
}
}  // namespace

TEST_CASE("comparisons: each operator is the u64 1 or 0") {
  // nb-rs: tests/stdlib.rs stdlib_comparison_ops, "lib/cmp eq=0 ne=1 lt=0 gt=1 lte=0 gte=1" for 10 against 3.
  Kernel k("input (a: u64, b: u64)\neq := a == b\nne := a != b\nlt := a < b\ngt := a > b\nle := a <= b\nge := a >= b\n");
  for (const char* name : {"eq", "ne", "lt", "gt", "le", "ge"}) CHECK(output_type(k, name) == ir::Ty::u64());
  CHECK(k.run({u64(10), u64(3)}) == std::vector<Value>{u64(0), u64(1), u64(0), u64(1), u64(0), u64(1)});
  CHECK(k.run({u64(3), u64(10)}) == std::vector<Value>{u64(0), u64(1), u64(1), u64(0), u64(1), u64(0)});
  CHECK(k.run({u64(7), u64(7)}) == std::vector<Value>{u64(1), u64(0), u64(0), u64(0), u64(1), u64(1)});
  // Signed, float and str operands give the same u64.
  Kernel s("input (x: i64, y: f64)\nneg := x < 0\nhalf := y >= 0.5\nsame := \"ab\" == \"ab\"\n");
  CHECK(s.run({i64(-4), f64(0.25)}) == std::vector<Value>{u64(1), u64(0), u64(1)});
  CHECK(output_type(s, "same") == ir::Ty::u64());
}

TEST_CASE("comparisons: & | ^ of comparisons are 1 or 0; `!` is bitwise") {
  Kernel k("input (a: u64, b: u64, c: u64, d: u64)\n"
           "both := (a < b) & (c < d)\neither := (a < b) | (c < d)\none := (a < b) ^ (c < d)\n"
           "not_lt := !(a < b)\nchained := a < b & c < d\n");
  // a < b holds, c < d fails.
  CHECK(k.run({u64(1), u64(2), u64(9), u64(3)}) ==
        std::vector<Value>{u64(0), u64(1), u64(1), u64(kAllOnes - 1), u64(1)});
  // Both hold: !1 is all ones but bit 0.
  CHECK(k.run({u64(1), u64(2), u64(3), u64(9)}).at(0) == u64(1));
  // Neither: !0 is all ones (nb-rs's u64_not).
  CHECK(k.run({u64(5), u64(2), u64(9), u64(3)}).at(3) == u64(kAllOnes));
  // `&` binds tighter than `<` (as in nb-rs's parser): a < b & c < d is (a < (b & c)) < d.
  // a=4, b=6, c=3, d=1: (b & c) = 2, 4 < 2 is 0, 0 < 1 is 1; (a < b) & (c < d) would be 0.
  CHECK(k.run({u64(4), u64(6), u64(3), u64(1)}).at(4) == u64(1));
  CHECK(k.run({u64(4), u64(6), u64(3), u64(1)}).at(0) == u64(0));
}

TEST_CASE("comparisons: interpolated as 1 or 0") {
  // nb-rs: tests/stdlib.rs stdlib_hash_chain, "lib/hash eq=1 same=0 diff=1" (stdlib_coverage.yaml's hash_phase).
  Kernel k("h1 := hash(0)\nh2 := hash(0)\nh3 := hash(1)\nline := \"lib/hash eq={h1 == h2} same={h1 - h2} diff={h1 != h3}\"\n"
           "x := 7\nbig := \"{x > 5} {x < 5}\"\n");
  const std::vector<Value> out = k.run({});
  REQUIRE(out.size() == 2);  // h1, h2, h3 and x are read, so not outputs
  CHECK(out.at(0) == Value::str("lib/hash eq=1 same=0 diff=1"));
  CHECK(out.at(1) == Value::str("1 0"));
}

TEST_CASE("comparisons: a u64 in every typing rule") {
  // Meeting a narrower unsigned value widens it; the sum is a u64.
  Kernel k("input (a: u64, b: u64, s: u8)\nplus := (a < b) + s\nshifted := (a < b) << 3\nwide := (a < b) * 300\n");
  CHECK(output_type(k, "plus") == ir::Ty::u64());
  CHECK(k.run({u64(1), u64(2), u8(255)}) == std::vector<Value>{u64(256), u64(8), u64(300)});
  // Meeting a signed value needs `as`.
  const std::string mix = refusal("input (a: u64, b: u64, s: i64)\nx := (a < b) + s\n");
  CHECK(contains(mix, "cannot mix u64 and i64"));
  CHECK(contains(mix, "[signed-unsigned-mix]"));
  Kernel ok("input (a: u64, b: u64, s: i64)\nx := (a < b) as i64 + s\n");
  CHECK(ok.first({u64(1), u64(2), i64(-5)}) == i64(-4));
  // A comparison compared again: (a < b) == (c < d) is a u64 too.
  Kernel again("input (a: u64, b: u64, c: u64, d: u64)\nsame := (a < b) == (c < d)\n");
  CHECK(again.first({u64(1), u64(2), u64(3), u64(4)}) == u64(1));
  CHECK(again.first({u64(1), u64(2), u64(4), u64(3)}) == u64(0));
}

TEST_CASE("comparisons: two bools compare with == and != only") {
  Kernel k("input (p: bool, q: bool)\neq := p == q\nne := p != q\n");
  CHECK(k.run({boolean(true), boolean(false)}) == std::vector<Value>{u64(0), u64(1)});
  CHECK(output_type(k, "eq") == ir::Ty::u64());
  for (const char* op : {"<", ">", "<=", ">="}) {
    const std::string why = refusal(std::string("input (p: bool, q: bool)\nx := p ") + op + " q\n");
    CHECK(contains(why, "cannot order values of type bool"));
    CHECK(contains(why, "[type-mismatch]"));
  }
}

TEST_CASE("comparisons: with a NaN operand every comparison is 0 but !=") {
  Kernel k("input (x: f64, y: f64)\neq := x == y\nne := x != y\nlt := x < y\ngt := x > y\nle := x <= y\nge := x >= y\n");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<Value> zero_but_ne{u64(0), u64(1), u64(0), u64(0), u64(0), u64(0)};
  CHECK(k.run({f64(nan), f64(1.0)}) == zero_but_ne);
  CHECK(k.run({f64(1.0), f64(nan)}) == zero_but_ne);
  CHECK(k.run({f64(nan), f64(nan)}) == zero_but_ne);
  // -0.0 == 0.0 (IEEE).
  CHECK(k.run({f64(-0.0), f64(0.0)}) == std::vector<Value>{u64(1), u64(0), u64(0), u64(0), u64(1), u64(1)});
}

TEST_CASE("comparisons: a declared bool takes a value known to be 0 or 1") {
  // The reach: a comparison; & | ^ of such (the literals 0 and 1 count); if with
  // such branches; a name bound to such, at the top level or in a loop body.
  Kernel k("input (a: u64, b: u64, c: bool)\n"
           "flag: bool := a < b\n"
           "both: bool := (a < b) & (b < 100)\n"
           "masked: bool := (a < b) & 1\n"
           "chosen: bool := if(c, a < b, a > b)\n"
           "literal: bool := if(c, 1, 0)\n"
           "lt := a < b\n"
           "named: bool := lt\n"
           "promoted: bool := (a < b) ^ c\n"
           "looped := loop (i = 0, seen: bool = false) while i < 2 { t := a == i; seen = t; i = i + 1 } yield seen\n"
           "output flag, both, masked, chosen, literal, lt, named, promoted, looped\n");
  for (const char* name : {"flag", "both", "masked", "chosen", "literal", "named", "promoted", "looped"})
    CHECK(output_type(k, name) == ir::Ty::boolean());
  CHECK(output_type(k, "lt") == ir::Ty::u64());
  CHECK(k.run({u64(1), u64(2), boolean(true)}) ==
        std::vector<Value>{boolean(true), boolean(true), boolean(true), boolean(true), boolean(true), u64(1),
                           boolean(true), boolean(false), boolean(true)});
  CHECK(k.run({u64(5), u64(2), boolean(false)}) ==
        std::vector<Value>{boolean(false), boolean(false), boolean(false), boolean(true), boolean(false), u64(0),
                           boolean(false), boolean(false), boolean(false)});
  // A module's bool parameter and result, a loop variable's assignment.
  Kernel m("below(x: u64, y: u64) -> (r: bool) := {\n    r := x < y\n}\n"
           "choose(p: bool, v: u64) -> (r: u64) := {\n    r := if(p, v, 0)\n}\n"
           "input (a: u64, b: u64)\n"
           "x := below(a, b)\ny := choose(a == b, 9)\n"
           "z := loop (i = 0, done: bool = false) while i < 3 { done = i >= 1; i = i + 1 } yield done\n");
  CHECK(output_type(m, "x") == ir::Ty::boolean());
  CHECK(m.run({u64(3), u64(3)}) == std::vector<Value>{boolean(false), u64(9), boolean(true)});
  CHECK(m.run({u64(2), u64(3)}) == std::vector<Value>{boolean(true), u64(0), boolean(true)});
}

TEST_CASE("comparisons: any other integer still needs `as bool`") {
  const char* const refused[] = {
      "input (a: u64, b: u64)\nx: bool := a\n",                       // a plain integer
      "input (a: u64, b: u64)\nx: bool := !(a < b)\n",                // all ones or all ones but bit 0
      "input (a: u64, b: u64)\nx: bool := (a < b) + 0\n",             // arithmetic leaves the reach
      "input (a: u64, b: u64)\nx: bool := (a < b) & a\n",             // one side unknown
      "input (a: u64, b: u64)\nx: bool := min(a < b, b < a)\n",       // calls are outside the reach
      "input (a: u64, b: u64)\nx: bool := if(a, a < b, 2)\n",         // a branch that is not 0 or 1
      "input (a: u64, b: u64)\nx: bool := (a < b) as u8\n",           // a cast from an integer
      "input (a: u64)\nx: bool := loop (t = a < 1, i = 0) while i < 1 { t = t + 1; i = i + 1 } yield t\n",  // a loop variable
      "input (a: u64)\n(p, q) := loop (i = 0) while i < 1 { i = i + 1 } yield (a < 1, i)\nx: bool := p\noutput q\n",  // a part
      "input (a: u64, b: u64)\nf(p: bool) -> (r: u64) := {\n    r := if(p, 1, 2)\n}\nx := f(a)\n",  // a bool parameter
      "input (a: u64, b: u64)\nf(x: u64) -> (r: bool) := {\n    r := x + 1\n}\ny := f(a)\n",      // a bool result
  };
  for (const char* text : refused) {
    const std::string why = refusal(text);
    INFO(why);
    CHECK(contains(why, "[type-mismatch]"));
    CHECK(contains(why, "convert with `as bool`"));
  }
  Kernel k("input (a: u64, b: u64)\nx: bool := a as bool\ny: bool := ((a < b) + 0) as bool\n");
  CHECK(k.run({u64(0), u64(3)}) == std::vector<Value>{boolean(false), boolean(true)});
  CHECK(k.run({u64(6), u64(3)}) == std::vector<Value>{boolean(true), boolean(false)});
}

TEST_CASE("comparisons: a condition is a bool or an integer, nonzero true") {
  Kernel k("input (a: u64, b: u64)\n"
           "x := if(a < b, 10, 20)\ny := if(a, 10, 20)\nz := if((a < b) & (b < 9), 1, 2)\n"
           "n := loop (i = 0) while (i < a) & (i < 100) { i = i + 1 } yield i\n");
  CHECK(k.run({u64(1), u64(2)}) == std::vector<Value>{u64(10), u64(10), u64(1), u64(1)});
  CHECK(k.run({u64(0), u64(0)}) == std::vector<Value>{u64(20), u64(20), u64(2), u64(0)});
  CHECK(k.run({u64(500), u64(9)}) == std::vector<Value>{u64(20), u64(10), u64(2), u64(100)});
}

TEST_CASE("comparisons: `!` of a comparison as a condition is always true, and warned about") {
  auto r = compile("input (a: u64, b: u64)\nx := if(!(a < b), 1, 2)\n");
  REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());  // a warning, not an error
  const std::string text = r.render_diagnostics();
  CHECK(contains(text, "cmp.gk:2:9: warning: the condition of if is always true"));
  CHECK(contains(text, "[constant-condition]"));
  Kernel k("input (a: u64, b: u64)\nx := if(!(a < b), 1, 2)\n");
  CHECK(k.first({u64(1), u64(2)}) == u64(1));
  CHECK(k.first({u64(2), u64(1)}) == u64(1));
  // `!` of a bool is its negation: no warning.
  auto fine = compile("input (a: u64, b: u64)\nx := if(!((a < b) as bool), 1, 2)\n");
  REQUIRE(fine.ok());
  CHECK(fine.render_diagnostics().empty());
}

TEST_CASE("comparisons: a host asking for bool gets the U64 -> Bool adapter; strict surfaces refuse it") {
  using embed::AdaptMode;
  using Kind = embed::EmbeddingError::Kind;
  auto v = embed::eval_const_expr("3 > 2");
  REQUIRE(v.ok());
  CHECK(*v == u64(1));
  auto t = embed::eval_const_expr_typed<bool>("3 > 2");
  REQUIRE(t.ok());
  CHECK(*t == true);
  auto f = embed::eval_const_expr_typed<bool>("3 < 2");
  REQUIRE(f.ok());
  CHECK(*f == false);
  auto direct = embed::value_as<bool>(u64(1));
  REQUIRE(direct.ok());
  CHECK(*direct == true);
  // Seed 001 §5.4.2: the strict surfaces refuse boolean projection, which the
  // catalog judges by the pair of types (u64 -> bool), whatever the value.
  auto strict = embed::eval_const_expr_strict<bool>("3 > 2");
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.error().kind == Kind::TypeMismatch);
  CHECK(strict.error().from_type == ir::Ty::u64());
  CHECK(strict.error().to_type == ir::Ty::boolean());
  CHECK(contains(strict.error().message, "`(...) as bool` makes it a bool"));
  auto value_strict = embed::value_as<bool>(u64(1), AdaptMode::LosslessOnly);
  CHECK_FALSE(value_strict.ok());
  // Written as a bool in the text, or asked for as an integer, it passes.
  auto as_bool = embed::eval_const_expr_strict<bool>("(3 > 2) as bool");
  REQUIRE(as_bool.ok());
  CHECK(*as_bool == true);
  auto as_u64 = embed::eval_const_expr_strict<uint64_t>("3 > 2");
  REQUIRE(as_u64.ok());
  CHECK(*as_u64 == 1);
}

TEST_CASE("comparisons: a comparison made a bool again is the one-bit comparison after optimize") {
  // No cast remains between the comparison and the bool that is declared or
  // used as a condition, even through a name (the fold of (b as u64) as bool).
  for (const char* text : {"input (a: u64, b: u64)\nflag: bool := a < b\n",
                           "input (a: u64, b: u64)\nlt := a < b\nflag: bool := lt\noutput flag\n",
                           "input (a: u64, b: u64)\nflag: bool := (a < b) | (b == 7)\n",
                           "input (a: u64, b: u64, c: u64)\nx := if(a < b, c, a)\n",
                           "input (a: u64, b: u64)\nn := loop (i = 0) while i < a { lt := i < b; i = i + if(lt, 1, 2) } yield i\n"}) {
    CAPTURE(text);
    auto r = compile(text);
    REQUIRE_MESSAGE(r.ok(), r.render_diagnostics());
    auto opt = ir::optimize(*r.ir);
    REQUIRE(opt.ok());
    size_t casts = 0;
    for (const ir::Morphism& m : opt->morphisms()) casts += m.op.kind == ir::OpKind::Cast;
    CHECK(casts == 0);
  }
}
