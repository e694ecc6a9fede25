// The interpreter, operation by operation, against LANGUAGE.md ("Semantics —
// every engine, bit for bit" and "Typing"). Every expected value is a literal
// derived by hand (floats as IEEE bit patterns where the bits matter), with
// the derivation in a comment when it is not obvious; nothing here recomputes
// a result with the formula under test.
//
// Each scalar case runs twice: once with its operands arriving through the
// function's input (so nothing is constant), once with them as Constant
// objects (the frame's initial values).
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "ir/interp.h"
#include "shapes.h"

using namespace polydat::ir;
using shapes::must;
using K = OpKind;

namespace doctest {
template <>
struct StringMaker<Value> {
  static String convert(const Value& v) {
    std::string s = render(v) + ": " + ty_label(v.ty());
    if (v.ty().is_scalar()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, " [0x%llx]", static_cast<unsigned long long>(v.bits()));
      s += buf;
    }
    return String(s.c_str());
  }
};
}  // namespace doctest

namespace {

// ---- literals (a typo that does not fit its type throws instead of truncating) ----

Value uv(TyKind k, uint64_t v) {
  Value r = Value::integer(k, v);
  if (r.bits() != v) throw std::logic_error("literal " + std::to_string(v) + " does not fit " + scalar_name(k));
  return r;
}
Value sv(TyKind k, int64_t v) {
  Value r = Value::integer(k, static_cast<uint64_t>(v));
  if (r.as_i64() != v) throw std::logic_error("literal " + std::to_string(v) + " does not fit " + scalar_name(k));
  return r;
}
Value u8(uint64_t v) { return uv(TyKind::U8, v); }
Value u16(uint64_t v) { return uv(TyKind::U16, v); }
Value u32(uint64_t v) { return uv(TyKind::U32, v); }
Value u64(uint64_t v) { return uv(TyKind::U64, v); }
Value i8(int64_t v) { return sv(TyKind::I8, v); }
Value i16(int64_t v) { return sv(TyKind::I16, v); }
Value i32(int64_t v) { return sv(TyKind::I32, v); }
Value i64(int64_t v) { return sv(TyKind::I64, v); }
Value bl(bool b) { return Value::boolean(b); }
Value f32(float f) { return Value::f32(f); }
Value f64(double d) { return Value::f64(d); }
Value f32b(uint32_t bits) { return Value::f32(std::bit_cast<float>(bits)); }
Value f64b(uint64_t bits) { return Value::f64(std::bit_cast<double>(bits)); }

constexpr uint64_t kU64Max = ~uint64_t{0};
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr float kInff = std::numeric_limits<float>::infinity();

Ty ty(TyKind k) { return Ty::scalar(k); }

// ---- building and running ----

// One function under construction; every builder error throws (caught by the callers).
struct Kernel {
  IrBuilder b;
  shapes::Lines lines;
  FuncId id;
  std::optional<FnBuilder> fb;

  Kernel(const char* name, Ty in, Ty out) {
    id = must(b.declare(name, std::move(in), std::move(out), lines.next()));
    fb.emplace(must(b.build_fn(id)));
  }
  SourceLoc at() { return lines.next(); }
  ObjectId in() const { return fb->input(); }
  ObjectId c(Value v) { return must(fb->constant(std::move(v), at())); }
  ObjectId bin(K op, ObjectId l, ObjectId r, Dest d = Dest::fresh()) { return must(fb->binop(op, l, r, d, at())); }
  ObjectId un(K op, ObjectId x, Dest d = Dest::fresh()) { return must(fb->unop(op, x, d, at())); }
  ObjectId cast(ObjectId x, const Ty& to, Dest d = Dest::fresh()) { return must(fb->cast(x, to, d, at())); }
  ObjectId proj(ObjectId s, uint32_t i, Dest d = Dest::fresh()) { return must(fb->proj(s, i, d, at())); }
  ObjectId pack(std::initializer_list<ObjectId> parts, Dest d = Dest::fresh()) {
    return must(fb->pack(std::vector<ObjectId>(parts), d, at()));
  }
  ObjectId phi(ObjectId t, ObjectId f, ObjectId cond, Dest d = Dest::fresh()) {
    return must(fb->phi(t, f, cond, d, at()));
  }
  void out(ObjectId v) { must(fb->output(v, std::nullopt, at())); }
  LoopHandle loop(ObjectId init) { return must(fb->begin_loop(init, at())); }
  ObjectId merge(LoopHandle lh) const { return fb->merge_of(lh); }
  void back(LoopHandle lh, ObjectId next, ObjectId cond) { must(fb->loop_back(lh, next, cond, at())); }
  ObjectId exit(LoopHandle lh, ObjectId v, ObjectId cond, Dest d = Dest::fresh()) {
    return must(fb->loop_exit(lh, v, cond, d, at()));
  }
  void end(LoopHandle lh) { must(fb->end_loop(lh)); }
  CategoryIr seal() {
    must(fb->finish());
    fb.reset();
    return must(std::move(b).seal(id));
  }
};

// The result, or a str value naming the error (never equal to a wanted scalar).
Value run(const CategoryIr& ir, const Value& input, InterpOptions opt = {}) {
  auto r = evaluate(ir, ir.entry(), input, opt);
  if (!r) return Value::str("interpreter error " + std::string(interp_error_name(r.error().kind)) + ": " + r.error().message);
  return *r;
}

std::optional<InterpErrorKind> run_error(const CategoryIr& ir, const Value& input, InterpOptions opt = {}) {
  auto r = evaluate(ir, ir.entry(), input, opt);
  if (r) return std::nullopt;
  return r.error().kind;
}

enum class Feed { Input, Constant };
const char* feed_name(Feed f) { return f == Feed::Input ? "operands from the input" : "operands as constants"; }

template <class Build>
Value build_and_run(const std::vector<Value>& operands, const Ty& result, Feed feed, Build build) {
  try {
    std::vector<Ty> tys;
    for (const Value& v : operands) tys.push_back(v.ty());
    const Ty in_ty = operands.size() == 1 ? tys[0] : Ty::tuple(tys);
    const Value input = operands.size() == 1 ? operands[0] : Value::tuple(operands);
    Kernel k("f", in_ty, result);
    std::vector<ObjectId> xs;
    for (uint32_t i = 0; i < operands.size(); ++i) {
      if (feed == Feed::Constant) xs.push_back(k.c(operands[i]));
      else xs.push_back(operands.size() == 1 ? k.in() : k.proj(k.in(), i));
    }
    build(k, xs);
    return run(k.seal(), input);
  } catch (const std::logic_error& e) {
    return Value::str(std::string("build error ") + e.what());
  }
}

std::string show(const Value& v) { return doctest::StringMaker<Value>::convert(v).c_str(); }

// `l OP r` (the result type is the wanted value's type).
struct Bin {
  K op;
  Value l, r, want;
};
void check(const Bin& c) {
  for (Feed feed : {Feed::Input, Feed::Constant}) {
    INFO((std::string(op_name(c.op)) + "(" + show(c.l) + ", " + show(c.r) + "), " + feed_name(feed)));
    CHECK(build_and_run({c.l, c.r}, c.want.ty(), feed,
                        [&](Kernel& k, auto& xs) { k.bin(c.op, xs[0], xs[1], Dest::ret()); }) == c.want);
  }
}
void check_bin(std::initializer_list<Bin> cases) {
  for (const Bin& c : cases) check(c);
}

// `OP x`.
struct Un {
  K op;
  Value x, want;
};
void check(const Un& c) {
  for (Feed feed : {Feed::Input, Feed::Constant}) {
    INFO((std::string(op_name(c.op)) + "(" + show(c.x) + "), " + feed_name(feed)));
    CHECK(build_and_run({c.x}, c.want.ty(), feed, [&](Kernel& k, auto& xs) { k.un(c.op, xs[0], Dest::ret()); }) ==
          c.want);
  }
}
void check_un(std::initializer_list<Un> cases) {
  for (const Un& c : cases) check(c);
}

// `x as T` where T is the wanted value's type.
struct As {
  Value x, want;
};
void check(const As& c) {
  for (Feed feed : {Feed::Input, Feed::Constant}) {
    INFO((show(c.x) + " as " + ty_label(c.want.ty()) + ", " + feed_name(feed)));
    CHECK(build_and_run({c.x}, c.want.ty(), feed,
                        [&](Kernel& k, auto& xs) { k.cast(xs[0], c.want.ty(), Dest::ret()); }) == c.want);
  }
}
void check_as(std::initializer_list<As> cases) {
  for (const As& c : cases) check(c);
}

// `a * b + c` as two operations.
Value mul_add(const Value& a, const Value& b, const Value& c) {
  return build_and_run({a, b, c}, a.ty(), Feed::Input,
                       [](Kernel& k, auto& xs) { k.bin(K::Add, k.bin(K::Mul, xs[0], xs[1]), xs[2], Dest::ret()); });
}

}  // namespace

// =====================================================================
// Arithmetic
// =====================================================================

TEST_CASE("interp: + wraps at every integer width") {
  check_bin({
      {K::Add, u8(3), u8(4), u8(7)},
      {K::Add, u8(255), u8(1), u8(0)},
      {K::Add, u8(200), u8(100), u8(44)},  // 300 - 256
      {K::Add, u8(255), u8(255), u8(254)},
      {K::Add, u16(65535), u16(1), u16(0)},
      {K::Add, u16(40000), u16(30000), u16(4464)},  // 70000 - 65536
      {K::Add, u32(0xFFFFFFFF), u32(1), u32(0)},
      {K::Add, u32(0xFFFFFFFF), u32(0xFFFFFFFF), u32(0xFFFFFFFE)},
      {K::Add, u64(1), u64(2), u64(3)},
      {K::Add, u64(kU64Max), u64(1), u64(0)},
      {K::Add, u64(kU64Max), u64(kU64Max), u64(0xFFFFFFFFFFFFFFFE)},
      {K::Add, i8(127), i8(1), i8(-128)},
      {K::Add, i8(-128), i8(-1), i8(127)},
      {K::Add, i8(-5), i8(3), i8(-2)},
      {K::Add, i8(-128), i8(-128), i8(0)},
      {K::Add, i16(32767), i16(1), i16(-32768)},
      {K::Add, i16(-32768), i16(-1), i16(32767)},
      {K::Add, i32(2147483647), i32(1), i32(-2147483648)},
      {K::Add, i32(-100), i32(58), i32(-42)},
      {K::Add, i64(kI64Max), i64(1), i64(kI64Min)},
      {K::Add, i64(kI64Min), i64(-1), i64(kI64Max)},
      {K::Add, i64(-1), i64(1), i64(0)},
  });
}

TEST_CASE("interp: - wraps at every integer width") {
  check_bin({
      {K::Sub, u8(0), u8(1), u8(255)},
      {K::Sub, u8(5), u8(3), u8(2)},
      {K::Sub, u8(3), u8(5), u8(254)},
      {K::Sub, u16(0), u16(1), u16(65535)},
      {K::Sub, u32(0), u32(1), u32(0xFFFFFFFF)},
      {K::Sub, u32(1), u32(0xFFFFFFFF), u32(2)},
      {K::Sub, u64(0), u64(1), u64(kU64Max)},
      {K::Sub, u64(10), u64(3), u64(7)},
      {K::Sub, i8(-128), i8(1), i8(127)},
      {K::Sub, i8(127), i8(-1), i8(-128)},
      {K::Sub, i8(-3), i8(4), i8(-7)},
      {K::Sub, i16(-32768), i16(1), i16(32767)},
      {K::Sub, i32(-2147483648), i32(1), i32(2147483647)},
      {K::Sub, i32(5), i32(10), i32(-5)},
      {K::Sub, i64(kI64Min), i64(1), i64(kI64Max)},
      {K::Sub, i64(0), i64(kI64Min), i64(kI64Min)},
  });
}

TEST_CASE("interp: * wraps at every integer width") {
  check_bin({
      {K::Mul, u8(16), u8(16), u8(0)},
      {K::Mul, u8(200), u8(2), u8(144)},  // 400 - 256
      {K::Mul, u8(15), u8(17), u8(255)},
      {K::Mul, u8(255), u8(255), u8(1)},  // 65025 = 254 * 256 + 1
      {K::Mul, u16(300), u16(300), u16(24464)},  // 90000 - 65536
      {K::Mul, u16(256), u16(256), u16(0)},
      {K::Mul, u32(65537), u32(65537), u32(131073)},  // 2^32 + 2^17 + 1
      {K::Mul, u32(0x10000), u32(0x10000), u32(0)},
      {K::Mul, u64(3), u64(7), u64(21)},
      {K::Mul, u64(0x100000000), u64(0x100000000), u64(0)},
      {K::Mul, u64(kU64Max), u64(kU64Max), u64(1)},  // (-1)^2
      {K::Mul, u64(0x100000001), u64(0x100000001), u64(0x200000001)},  // 2^64 + 2^33 + 1
      {K::Mul, i8(-128), i8(-1), i8(-128)},
      {K::Mul, i8(100), i8(3), i8(44)},  // 300 - 256
      {K::Mul, i8(-7), i8(3), i8(-21)},
      {K::Mul, i8(16), i8(8), i8(-128)},
      {K::Mul, i8(-1), i8(-1), i8(1)},
      {K::Mul, i16(200), i16(200), i16(-25536)},  // 40000 - 65536
      {K::Mul, i16(-32768), i16(-1), i16(-32768)},
      {K::Mul, i32(65536), i32(32768), i32(-2147483648)},
      {K::Mul, i32(-46341), i32(46341), i32(2147479015)},  // -2147488281 + 2^32
      {K::Mul, i64(kI64Max), i64(2), i64(-2)},
      {K::Mul, i64(kI64Min), i64(-1), i64(kI64Min)},
      {K::Mul, i64(-3), i64(5), i64(-15)},
  });
}

TEST_CASE("interp: / and % follow RISC-V and truncate toward zero") {
  check_bin({
      // unsigned
      {K::Div, u8(7), u8(2), u8(3)},
      {K::Div, u8(255), u8(16), u8(15)},
      {K::Div, u8(1), u8(255), u8(0)},
      {K::Div, u8(7), u8(0), u8(255)},
      {K::Div, u8(0), u8(0), u8(255)},
      {K::Div, u16(65535), u16(256), u16(255)},
      {K::Div, u16(9), u16(0), u16(65535)},
      {K::Div, u32(0xFFFFFFFF), u32(2), u32(0x7FFFFFFF)},
      {K::Div, u32(5), u32(0), u32(0xFFFFFFFF)},
      {K::Div, u64(kU64Max), u64(3), u64(0x5555555555555555)},
      {K::Div, u64(0x8000000000000000), u64(2), u64(0x4000000000000000)},
      {K::Div, u64(100), u64(0), u64(kU64Max)},
      {K::Mod, u8(7), u8(2), u8(1)},
      {K::Mod, u8(255), u8(16), u8(15)},
      {K::Mod, u8(7), u8(0), u8(7)},
      {K::Mod, u8(200), u8(0), u8(200)},
      {K::Mod, u8(0), u8(0), u8(0)},
      {K::Mod, u16(65535), u16(256), u16(255)},
      {K::Mod, u16(1234), u16(0), u16(1234)},
      {K::Mod, u32(0xFFFFFFFF), u32(10), u32(5)},  // 4294967295
      {K::Mod, u32(9), u32(0), u32(9)},
      {K::Mod, u64(kU64Max), u64(10), u64(5)},  // 18446744073709551615
      {K::Mod, u64(42), u64(0), u64(42)},
      // signed: truncation toward zero, x / 0 = -1, x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0
      {K::Div, i8(-7), i8(2), i8(-3)},
      {K::Div, i8(7), i8(-2), i8(-3)},
      {K::Div, i8(-7), i8(-2), i8(3)},
      {K::Div, i8(7), i8(2), i8(3)},
      {K::Div, i8(-1), i8(2), i8(0)},
      {K::Div, i8(-128), i8(2), i8(-64)},
      {K::Div, i8(-128), i8(-1), i8(-128)},
      {K::Div, i8(-128), i8(0), i8(-1)},
      {K::Div, i8(5), i8(0), i8(-1)},
      {K::Div, i8(0), i8(0), i8(-1)},
      {K::Mod, i8(-7), i8(2), i8(-1)},
      {K::Mod, i8(7), i8(-2), i8(1)},
      {K::Mod, i8(-7), i8(-2), i8(-1)},
      {K::Mod, i8(-128), i8(-1), i8(0)},
      {K::Mod, i8(-128), i8(0), i8(-128)},
      {K::Mod, i8(-5), i8(0), i8(-5)},
      {K::Mod, i8(127), i8(0), i8(127)},
      {K::Div, i16(-32768), i16(-1), i16(-32768)},
      {K::Div, i16(-7), i16(2), i16(-3)},
      {K::Div, i16(-32768), i16(0), i16(-1)},
      {K::Div, i16(300), i16(-7), i16(-42)},  // -42.86 truncated
      {K::Mod, i16(-32768), i16(-1), i16(0)},
      {K::Mod, i16(-7), i16(2), i16(-1)},
      {K::Mod, i16(300), i16(-7), i16(6)},    // 300 - (-42)(-7)
      {K::Mod, i16(-300), i16(7), i16(-6)},
      {K::Div, i32(-2147483648), i32(-1), i32(-2147483648)},
      {K::Div, i32(-7), i32(2), i32(-3)},
      {K::Div, i32(7), i32(0), i32(-1)},
      {K::Div, i32(-2147483648), i32(2), i32(-1073741824)},
      {K::Mod, i32(-2147483648), i32(-1), i32(0)},
      {K::Mod, i32(-7), i32(2), i32(-1)},
      {K::Mod, i32(-7), i32(0), i32(-7)},
      {K::Mod, i32(-2147483648), i32(0), i32(-2147483648)},
      {K::Div, i64(kI64Min), i64(-1), i64(kI64Min)},
      {K::Div, i64(-7), i64(2), i64(-3)},
      {K::Div, i64(1), i64(0), i64(-1)},
      {K::Div, i64(kI64Min), i64(1), i64(kI64Min)},
      {K::Div, i64(kI64Min), i64(kI64Max), i64(-1)},  // MIN = -MAX - 1
      {K::Mod, i64(kI64Min), i64(-1), i64(0)},
      {K::Mod, i64(-7), i64(2), i64(-1)},
      {K::Mod, i64(kI64Min), i64(0), i64(kI64Min)},
      {K::Mod, i64(kI64Min), i64(kI64Max), i64(-1)},
      {K::Mod, i64(kI64Min), i64(2), i64(0)},
  });
}

TEST_CASE("interp: prefix - wraps; on floats it flips the sign bit") {
  check_un({
      {K::Neg, u8(1), u8(255)},
      {K::Neg, u8(0), u8(0)},
      {K::Neg, u8(255), u8(1)},
      {K::Neg, u8(128), u8(128)},
      {K::Neg, u16(1), u16(65535)},
      {K::Neg, u32(1), u32(0xFFFFFFFF)},
      {K::Neg, u32(0x80000000), u32(0x80000000)},
      {K::Neg, u64(1), u64(kU64Max)},
      {K::Neg, u64(0), u64(0)},
      {K::Neg, i8(-128), i8(-128)},
      {K::Neg, i8(5), i8(-5)},
      {K::Neg, i8(-5), i8(5)},
      {K::Neg, i8(127), i8(-127)},
      {K::Neg, i8(0), i8(0)},
      {K::Neg, i16(-32768), i16(-32768)},
      {K::Neg, i32(-2147483648), i32(-2147483648)},
      {K::Neg, i32(7), i32(-7)},
      {K::Neg, i64(kI64Min), i64(kI64Min)},
      {K::Neg, i64(-1), i64(1)},
      {K::Neg, f32(0.0f), f32b(0x80000000)},  // -0.0: the sign bit set
      {K::Neg, f32b(0x80000000), f32b(0x00000000)},
      {K::Neg, f32(1.5f), f32b(0xBFC00000)},
      {K::Neg, f32(kInff), f32b(0xFF800000)},
      {K::Neg, f64(0.0), f64b(0x8000000000000000)},
      {K::Neg, f64b(0x8000000000000000), f64b(0x0000000000000000)},
      {K::Neg, f64(2.5), f64b(0xC004000000000000)},
      {K::Neg, f64(-kInf), f64b(0x7FF0000000000000)},
  });
}

// =====================================================================
// Comparisons
// =====================================================================

TEST_CASE("interp: comparisons are signed or unsigned by type and yield bool") {
  check_bin({
      // the same bit pattern 0xC8: 200 unsigned, -56 signed
      {K::Lt, u8(200), u8(100), bl(false)},
      {K::Gt, u8(200), u8(100), bl(true)},
      {K::Le, u8(200), u8(100), bl(false)},
      {K::Ge, u8(200), u8(100), bl(true)},
      {K::Eq, u8(200), u8(100), bl(false)},
      {K::Neq, u8(200), u8(100), bl(true)},
      {K::Lt, i8(-56), i8(100), bl(true)},
      {K::Gt, i8(-56), i8(100), bl(false)},
      {K::Le, i8(-56), i8(100), bl(true)},
      {K::Ge, i8(-56), i8(100), bl(false)},
      {K::Lt, u8(7), u8(7), bl(false)},
      {K::Gt, u8(7), u8(7), bl(false)},
      {K::Le, u8(7), u8(7), bl(true)},
      {K::Ge, u8(7), u8(7), bl(true)},
      {K::Eq, u8(7), u8(7), bl(true)},
      {K::Neq, u8(7), u8(7), bl(false)},
      {K::Lt, i8(-128), i8(127), bl(true)},
      {K::Gt, i8(-1), i8(-2), bl(true)},
      {K::Gt, u16(65535), u16(0), bl(true)},
      {K::Lt, i16(-1), i16(0), bl(true)},
      {K::Eq, i16(-1), i16(-1), bl(true)},
      {K::Gt, u32(0x80000000), u32(0x7FFFFFFF), bl(true)},
      {K::Lt, i32(-2147483648), i32(2147483647), bl(true)},
      {K::Neq, i32(-2147483648), i32(2147483647), bl(true)},
      {K::Gt, u64(kU64Max), u64(0), bl(true)},
      {K::Gt, u64(0x8000000000000000), u64(1), bl(true)},
      {K::Lt, i64(kI64Min), i64(-1), bl(true)},
      {K::Lt, i64(-1), i64(0), bl(true)},
      {K::Le, i64(kI64Min), i64(kI64Min), bl(true)},
      {K::Ge, i64(-1), i64(kI64Min), bl(true)},
      // bool admits == and != only
      {K::Eq, bl(true), bl(true), bl(true)},
      {K::Eq, bl(true), bl(false), bl(false)},
      {K::Eq, bl(false), bl(false), bl(true)},
      {K::Neq, bl(true), bl(false), bl(true)},
      {K::Neq, bl(false), bl(false), bl(false)},
  });
}

TEST_CASE("interp: IEEE comparisons: NaN is unordered, -0.0 == 0.0") {
  check_bin({
      {K::Eq, f64(kNaN), f64(kNaN), bl(false)},
      {K::Neq, f64(kNaN), f64(kNaN), bl(true)},
      {K::Lt, f64(kNaN), f64(1.0), bl(false)},
      {K::Gt, f64(kNaN), f64(1.0), bl(false)},
      {K::Le, f64(kNaN), f64(kNaN), bl(false)},
      {K::Ge, f64(kNaN), f64(1.0), bl(false)},
      {K::Lt, f64(1.0), f64(kNaN), bl(false)},
      {K::Ge, f64(1.0), f64(kNaN), bl(false)},
      {K::Eq, f64(1.0), f64(kNaN), bl(false)},
      {K::Neq, f64(1.0), f64(kNaN), bl(true)},
      {K::Eq, f64(-0.0), f64(0.0), bl(true)},
      {K::Neq, f64(-0.0), f64(0.0), bl(false)},
      {K::Lt, f64(-0.0), f64(0.0), bl(false)},
      {K::Le, f64(-0.0), f64(0.0), bl(true)},
      {K::Ge, f64(-0.0), f64(0.0), bl(true)},
      {K::Lt, f64(-kInf), f64(kInf), bl(true)},
      {K::Lt, f64(1.0), f64(2.0), bl(true)},
      {K::Eq, f64b(0x3FD3333333333334), f64(0.3), bl(false)},  // 0.1 + 0.2 is not 0.3
      {K::Eq, f32(kNaNf), f32(kNaNf), bl(false)},
      {K::Neq, f32(kNaNf), f32(kNaNf), bl(true)},
      {K::Ge, f32(kNaNf), f32(kNaNf), bl(false)},
      {K::Lt, f32(kNaNf), f32(0.0f), bl(false)},
      {K::Eq, f32(-0.0f), f32(0.0f), bl(true)},
      {K::Le, f32(1.0f), f32(1.0f), bl(true)},
      {K::Gt, f32(2.0f), f32(1.0f), bl(true)},
  });
}

// =====================================================================
// Bitwise and logical
// =====================================================================

TEST_CASE("interp: & | ^ ! are bitwise on integers") {
  check_bin({
      {K::And, u8(0xF0), u8(0x3C), u8(0x30)},
      {K::Or, u8(0xF0), u8(0x3C), u8(0xFC)},
      {K::Xor, u8(0xF0), u8(0x3C), u8(0xCC)},
      {K::And, u8(1), u8(2), u8(0)},  // bitwise: a logical "nonzero and nonzero" would be 1
      {K::And, u16(0xFF00), u16(0x0FF0), u16(0x0F00)},
      {K::Or, u16(0xFF00), u16(0x0FF0), u16(0xFFF0)},
      {K::Xor, u16(0xFF00), u16(0x0FF0), u16(0xF0F0)},
      {K::And, u32(0xDEADBEEF), u32(0xFFFF0000), u32(0xDEAD0000)},
      {K::Or, u32(0x12345678), u32(0x0F0F0F0F), u32(0x1F3F5F7F)},
      {K::Xor, u32(0x12345678), u32(0xFFFFFFFF), u32(0xEDCBA987)},
      {K::And, u64(kU64Max), u64(0x123), u64(0x123)},
      {K::Or, u64(0xF0F0F0F0F0F0F0F0), u64(0x0F0F0F0F0F0F0F0F), u64(kU64Max)},
      {K::Xor, u64(0xAAAAAAAAAAAAAAAA), u64(kU64Max), u64(0x5555555555555555)},
      {K::And, i8(-1), i8(0x0F), i8(15)},
      {K::Or, i8(-128), i8(1), i8(-127)},
      {K::Xor, i8(-1), i8(1), i8(-2)},
      {K::And, i16(-256), i16(0x7FFF), i16(32512)},  // 0xFF00 & 0x7FFF = 0x7F00
      {K::Xor, i32(-1), i32(0x7FFFFFFF), i32(-2147483648)},
      {K::Or, i64(kI64Min), i64(1), i64(-9223372036854775807)},
      {K::And, i64(-1), i64(kI64Min), i64(kI64Min)},
  });
  check_un({
      {K::Not, u8(0xF0), u8(0x0F)},
      {K::Not, u8(0), u8(255)},
      {K::Not, u8(1), u8(254)},  // bitwise: a logical not would be 0
      {K::Not, u16(0x00FF), u16(0xFF00)},
      {K::Not, u32(0), u32(0xFFFFFFFF)},
      {K::Not, u64(0x5555555555555555), u64(0xAAAAAAAAAAAAAAAA)},
      {K::Not, i8(0), i8(-1)},
      {K::Not, i8(5), i8(-6)},
      {K::Not, i8(-128), i8(127)},
      {K::Not, i16(-1), i16(0)},
      {K::Not, i32(5), i32(-6)},
      {K::Not, i64(kI64Max), i64(kI64Min)},
  });
}

TEST_CASE("interp: & | ^ ! are logical on bool") {
  check_bin({
      {K::And, bl(true), bl(true), bl(true)},
      {K::And, bl(true), bl(false), bl(false)},
      {K::And, bl(false), bl(true), bl(false)},
      {K::And, bl(false), bl(false), bl(false)},
      {K::Or, bl(true), bl(false), bl(true)},
      {K::Or, bl(false), bl(true), bl(true)},
      {K::Or, bl(true), bl(true), bl(true)},
      {K::Or, bl(false), bl(false), bl(false)},
      {K::Xor, bl(true), bl(true), bl(false)},
      {K::Xor, bl(true), bl(false), bl(true)},
      {K::Xor, bl(false), bl(true), bl(true)},
      {K::Xor, bl(false), bl(false), bl(false)},
  });
  check_un({
      {K::Not, bl(true), bl(false)},
      {K::Not, bl(false), bl(true)},
  });
}

TEST_CASE("interp: bool is refused where the typing table does not admit it") {
  Kernel k("f", Ty::tuple({Ty::boolean(), Ty::boolean()}), Ty::boolean());
  const ObjectId a = k.proj(k.in(), 0);
  const ObjectId b = k.proj(k.in(), 1);
  for (K op : {K::Add, K::Sub, K::Mul, K::Div, K::Mod, K::Lt, K::Gt, K::Le, K::Ge, K::Pow}) {
    INFO(op_name(op));
    auto r = k.fb->binop(op, a, b, Dest::fresh(), k.at());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == IrErrorKind::TypeMismatch);
  }
  for (K op : {K::Neg, K::Popcount, K::Clz, K::Ctz}) {
    INFO(op_name(op));
    auto r = k.fb->unop(op, a, Dest::fresh(), k.at());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == IrErrorKind::TypeMismatch);
  }
}

// =====================================================================
// Shifts, rotates, power
// =====================================================================

TEST_CASE("interp: << takes any unsigned amount; >= width gives 0") {
  check_bin({
      {K::Shl, u8(1), u8(7), u8(128)},
      {K::Shl, u8(0xFF), u8(4), u8(0xF0)},
      {K::Shl, u8(1), u8(8), u8(0)},
      {K::Shl, u8(1), u64(4294967297), u8(0)},  // 2^32 + 1: not reduced modulo anything
      {K::Shl, u8(1), u16(256), u8(0)},         // not truncated to the value's width first
      {K::Shl, u16(1), u8(15), u16(0x8000)},
      {K::Shl, u16(0xFFFF), u32(16), u16(0)},
      {K::Shl, u32(1), u32(31), u32(0x80000000)},
      {K::Shl, u32(0xFFFFFFFF), u32(32), u32(0)},
      {K::Shl, u32(1), u8(33), u32(0)},
      {K::Shl, u32(0x12345678), u64(4), u32(0x23456780)},
      {K::Shl, u64(1), u8(63), u64(0x8000000000000000)},
      {K::Shl, u64(kU64Max), u64(64), u64(0)},
      {K::Shl, u64(3), u32(62), u64(0xC000000000000000)},
      {K::Shl, u64(1), u8(255), u64(0)},
      {K::Shl, i8(1), u8(7), i8(-128)},
      {K::Shl, i8(64), u8(1), i8(-128)},
      {K::Shl, i8(-1), u8(1), i8(-2)},
      {K::Shl, i8(-1), u8(8), i8(0)},
      {K::Shl, i16(1), u8(15), i16(-32768)},
      {K::Shl, i16(-1), u16(16), i16(0)},
      {K::Shl, i32(1), u32(31), i32(-2147483648)},
      {K::Shl, i32(3), u64(100), i32(0)},
      {K::Shl, i64(1), u8(63), i64(kI64Min)},
      {K::Shl, i64(-1), u64(64), i64(0)},
      {K::Shl, i64(5), u32(2), i64(20)},
  });
}

TEST_CASE("interp: >> is logical on unsigned, arithmetic on signed, at any amount") {
  check_bin({
      {K::Shr, u8(0x80), u8(7), u8(1)},
      {K::Shr, u8(0xFF), u8(4), u8(0x0F)},
      {K::Shr, u8(0xFF), u8(8), u8(0)},
      {K::Shr, u8(0xFF), u64(1000), u8(0)},
      {K::Shr, u8(0x80), u16(256), u8(0)},
      {K::Shr, u16(0x8000), u8(15), u16(1)},
      {K::Shr, u16(0xFFFF), u32(16), u16(0)},
      {K::Shr, u32(0x80000000), u8(31), u32(1)},
      {K::Shr, u32(0xFFFFFFFF), u32(32), u32(0)},
      {K::Shr, u32(0x12345678), u64(8), u32(0x00123456)},
      {K::Shr, u64(kU64Max), u8(63), u64(1)},
      {K::Shr, u64(kU64Max), u64(64), u64(0)},
      {K::Shr, u64(0x8000000000000000), u32(1), u64(0x4000000000000000)},
      {K::Shr, i8(-128), u8(1), i8(-64)},
      {K::Shr, i8(-128), u8(7), i8(-1)},
      {K::Shr, i8(-128), u8(8), i8(-1)},
      {K::Shr, i8(-128), u8(200), i8(-1)},
      {K::Shr, i8(-7), u8(1), i8(-4)},  // arithmetic: floor(-3.5)
      {K::Shr, i8(-1), u64(0x10000000000), i8(-1)},
      {K::Shr, i8(-2), u64(kU64Max), i8(-1)},
      {K::Shr, i8(64), u8(8), i8(0)},
      {K::Shr, i8(64), u64(kU64Max), i8(0)},
      {K::Shr, i8(127), u8(6), i8(1)},
      {K::Shr, i8(127), u8(7), i8(0)},
      {K::Shr, i16(-32768), u8(15), i16(-1)},
      {K::Shr, i16(-32768), u8(16), i16(-1)},
      {K::Shr, i16(0x4000), u8(14), i16(1)},
      {K::Shr, i16(-2), u8(1), i16(-1)},
      {K::Shr, i32(-2147483648), u8(31), i32(-1)},
      {K::Shr, i32(-2147483648), u32(32), i32(-1)},
      {K::Shr, i32(-7), u8(1), i32(-4)},
      {K::Shr, i32(-256), u8(4), i32(-16)},
      {K::Shr, i32(0x40000000), u8(32), i32(0)},
      {K::Shr, i64(kI64Min), u8(1), i64(-4611686018427387904)},  // 0xC000000000000000
      {K::Shr, i64(kI64Min), u8(63), i64(-1)},
      {K::Shr, i64(kI64Min), u64(64), i64(-1)},
      {K::Shr, i64(kI64Max), u8(62), i64(1)},
      {K::Shr, i64(kI64Max), u8(64), i64(0)},
      {K::Shr, i64(-1), u8(255), i64(-1)},
  });
}

TEST_CASE("interp: rotl / rotr rotate by k % width") {
  check_bin({
      // 0x81 = 1000_0001
      {K::Rotl, u8(0x81), u8(0), u8(0x81)},
      {K::Rotl, u8(0x81), u8(1), u8(0x03)},
      {K::Rotl, u8(0x81), u8(8), u8(0x81)},
      {K::Rotl, u8(0x81), u8(9), u8(0x03)},
      {K::Rotl, u8(0x81), u8(200), u8(0x81)},   // 200 % 8 = 0
      {K::Rotl, u8(0x81), u64(203), u8(0x0C)},  // 203 % 8 = 3: 0000_1100
      {K::Rotl, u8(0xB4), u8(4), u8(0x4B)},
      {K::Rotr, u8(0x81), u8(0), u8(0x81)},
      {K::Rotr, u8(0x81), u8(1), u8(0xC0)},
      {K::Rotr, u8(0x81), u8(3), u8(0x30)},
      {K::Rotr, u8(0x81), u8(8), u8(0x81)},
      {K::Rotr, u8(0x81), u8(9), u8(0xC0)},
      {K::Rotr, u8(0x81), u16(259), u8(0x30)},  // 259 % 8 = 3
      {K::Rotl, u16(0x1234), u8(4), u16(0x2341)},
      {K::Rotr, u16(0x1234), u8(4), u16(0x4123)},
      {K::Rotl, u16(0x1234), u8(16), u16(0x1234)},
      {K::Rotl, u16(0x1234), u8(20), u16(0x2341)},
      {K::Rotl, u32(0x12345678), u8(8), u32(0x34567812)},
      {K::Rotr, u32(0x12345678), u8(8), u32(0x78123456)},
      {K::Rotl, u32(0x12345678), u32(32), u32(0x12345678)},
      {K::Rotl, u32(0x12345678), u64(36), u32(0x23456781)},
      {K::Rotl, u64(0x8000000000000001), u8(0), u64(0x8000000000000001)},
      {K::Rotl, u64(0x8000000000000001), u8(1), u64(3)},
      {K::Rotl, u64(0x8000000000000001), u8(64), u64(0x8000000000000001)},
      {K::Rotl, u64(0x8000000000000001), u8(65), u64(3)},
      {K::Rotl, u64(0x8000000000000001), u64(kU64Max), u64(0xC000000000000000)},  // k % 64 = 63
      {K::Rotr, u64(0x8000000000000001), u8(1), u64(0xC000000000000000)},
      {K::Rotr, u64(0x8000000000000001), u8(64), u64(0x8000000000000001)},
      {K::Rotr, u64(0x8000000000000001), u8(65), u64(0xC000000000000000)},
      {K::Rotr, u64(0x8000000000000001), u8(255), u64(3)},  // 255 % 64 = 63
      {K::Rotl, u64(0x0123456789ABCDEF), u8(4), u64(0x123456789ABCDEF0)},
      {K::Rotr, u64(0x0123456789ABCDEF), u8(4), u64(0xF0123456789ABCDE)},
      {K::Rotl, u64(0x0123456789ABCDEF), u64(0x100000004), u64(0x123456789ABCDEF0)},  // (2^32 + 4) % 64 = 4
      {K::Rotl, i8(-128), u8(1), i8(1)},
      {K::Rotr, i8(1), u8(1), i8(-128)},
      {K::Rotl, i8(-1), u8(3), i8(-1)},
      {K::Rotl, i16(0x1234), u8(4), i16(0x2341)},
      {K::Rotl, i16(-32767), u8(1), i16(3)},                  // 0x8001
      {K::Rotr, i32(-2147483647), u8(1), i32(-1073741824)},  // 0x80000001 -> 0xC0000000
      {K::Rotl, i64(kI64Min), u8(1), i64(1)},
      {K::Rotr, i64(1), u8(1), i64(kI64Min)},
  });
}

TEST_CASE("interp: ** wraps on integers (0 ** 0 = 1) and is pow on floats") {
  check_bin({
      {K::Pow, u8(0), u8(0), u8(1)},
      {K::Pow, u8(3), u8(5), u8(243)},
      {K::Pow, u8(3), u8(6), u8(217)},  // 729 - 512
      {K::Pow, u8(2), u8(7), u8(128)},
      {K::Pow, u8(2), u8(8), u8(0)},
      {K::Pow, u8(0), u8(5), u8(0)},
      {K::Pow, u8(1), u64(kU64Max), u8(1)},
      {K::Pow, u8(255), u8(2), u8(1)},
      // 3 has order 64 mod 256, so 3^(2^64 - 1) = 3^63 = 3^-1 = 171 (3 * 171 = 513 = 2 * 256 + 1);
      // also shows the exponent is not stepped through one multiplication at a time
      {K::Pow, u8(3), u64(kU64Max), u8(171)},
      {K::Pow, u16(2), u8(15), u16(32768)},
      {K::Pow, u16(2), u8(16), u16(0)},
      {K::Pow, u16(10), u8(4), u16(10000)},
      {K::Pow, u16(10), u8(5), u16(34464)},  // 100000 - 65536
      {K::Pow, u32(2), u32(31), u32(0x80000000)},
      {K::Pow, u32(3), u8(20), u32(3486784401)},
      {K::Pow, u32(10), u8(10), u32(1410065408)},  // 10^10 - 2 * 2^32
      {K::Pow, u64(0), u64(0), u64(1)},
      {K::Pow, u64(7), u64(0), u64(1)},
      {K::Pow, u64(2), u8(63), u64(0x8000000000000000)},
      {K::Pow, u64(2), u8(64), u64(0)},
      {K::Pow, u64(3), u8(40), u64(12157665459056928801u)},  // (3^20)^2 = 3486784401^2, < 2^64
      {K::Pow, u64(3), u8(41), u64(18026252303461234787u)},  // 3 * 3^40 - 2^64
      {K::Pow, u64(kU64Max), u8(2), u64(1)},
      {K::Pow, u64(kU64Max), u8(3), u64(kU64Max)},
      {K::Pow, i8(0), u8(0), i8(1)},
      {K::Pow, i8(-2), u8(7), i8(-128)},
      {K::Pow, i8(-2), u8(8), i8(0)},
      {K::Pow, i8(-1), u64(kU64Max), i8(-1)},
      {K::Pow, i8(-1), u64(0xFFFFFFFFFFFFFFFE), i8(1)},
      {K::Pow, i8(-3), u8(3), i8(-27)},
      {K::Pow, i8(3), u8(5), i8(-13)},  // 243 - 256
      {K::Pow, i16(-2), u8(15), i16(-32768)},
      {K::Pow, i32(-2), u8(3), i32(-8)},
      {K::Pow, i32(-2), u8(31), i32(-2147483648)},
      {K::Pow, i32(-2), u8(32), i32(0)},
      {K::Pow, i32(10), u8(9), i32(1000000000)},
      {K::Pow, i64(-3), u8(3), i64(-27)},
      {K::Pow, i64(-2), u8(63), i64(kI64Min)},
      {K::Pow, i64(10), u8(18), i64(1000000000000000000)},
      // floats: C pow; these results are exact, so any conforming pow gives these bits
      {K::Pow, f64(2.0), f64(10.0), f64b(0x4090000000000000)},  // 1024
      {K::Pow, f64(0.0), f64(0.0), f64b(0x3FF0000000000000)},   // 1
      {K::Pow, f64(4.0), f64(0.5), f64b(0x4000000000000000)},   // 2
      {K::Pow, f64(2.0), f64(-2.0), f64b(0x3FD0000000000000)},  // 0.25
      {K::Pow, f64(-2.0), f64(3.0), f64b(0xC020000000000000)},  // -8
      {K::Pow, f64(10.0), f64(2.0), f64b(0x4059000000000000)},  // 100
      {K::Pow, f64(kNaN), f64(0.0), f64b(0x3FF0000000000000)},  // pow(x, 0) = 1 even for NaN
      {K::Pow, f64(1.0), f64(kNaN), f64b(0x3FF0000000000000)},  // pow(1, y) = 1 even for NaN
      {K::Pow, f64(-8.0), f64(0.5), f64(kNaN)},
      {K::Pow, f64(0.0), f64(-1.0), f64b(0x7FF0000000000000)},     // +inf
      {K::Pow, f64(2.0), f64(1024.0), f64b(0x7FF0000000000000)},   // overflow
      {K::Pow, f32(2.0f), f32(10.0f), f32b(0x44800000)},  // 1024
      {K::Pow, f32(1.5f), f32(2.0f), f32b(0x40100000)},   // 2.25
      {K::Pow, f32(0.0f), f32(0.0f), f32b(0x3F800000)},   // 1
      {K::Pow, f32(4.0f), f32(0.5f), f32b(0x40000000)},   // 2
      {K::Pow, f32(2.0f), f32(-1.0f), f32b(0x3F000000)},  // 0.5
      {K::Pow, f32(kNaNf), f32(0.0f), f32b(0x3F800000)},
      {K::Pow, f32(-8.0f), f32(0.5f), f32(kNaNf)},
  });
}

// =====================================================================
// Bit counts
// =====================================================================

TEST_CASE("interp: popcount / clz / ctz at the width of the type") {
  check_un({
      {K::Popcount, u8(0), u8(0)},
      {K::Clz, u8(0), u8(8)},
      {K::Ctz, u8(0), u8(8)},
      {K::Popcount, u8(0xFF), u8(8)},
      {K::Clz, u8(0xFF), u8(0)},
      {K::Ctz, u8(0xFF), u8(0)},
      {K::Popcount, u8(0x10), u8(1)},
      {K::Clz, u8(0x10), u8(3)},
      {K::Ctz, u8(0x10), u8(4)},
      {K::Popcount, u16(0), u16(0)},
      {K::Clz, u16(0), u16(16)},
      {K::Ctz, u16(0), u16(16)},
      {K::Clz, u16(1), u16(15)},
      {K::Ctz, u16(1), u16(0)},
      {K::Clz, u16(0x8000), u16(0)},
      {K::Ctz, u16(0x8000), u16(15)},
      {K::Popcount, u16(0xFFFF), u16(16)},
      {K::Clz, u32(0), u32(32)},
      {K::Ctz, u32(0), u32(32)},
      {K::Popcount, u32(0x00F00000), u32(4)},
      {K::Clz, u32(0x00F00000), u32(8)},
      {K::Ctz, u32(0x00F00000), u32(20)},
      {K::Popcount, u64(0), u64(0)},
      {K::Clz, u64(0), u64(64)},
      {K::Ctz, u64(0), u64(64)},
      {K::Clz, u64(1), u64(63)},
      {K::Ctz, u64(1), u64(0)},
      {K::Clz, u64(0x8000000000000000), u64(0)},
      {K::Ctz, u64(0x8000000000000000), u64(63)},
      {K::Popcount, u64(kU64Max), u64(64)},
      {K::Popcount, u64(0x0123456789ABCDEF), u64(32)},  // 0+1+1+2+1+2+2+3+1+2+2+3+2+3+3+4
      // signed: the count is over the width's bits, not the sign-extended 64 bits
      {K::Popcount, i8(-1), i8(8)},
      {K::Clz, i8(-1), i8(0)},
      {K::Ctz, i8(-1), i8(0)},
      {K::Clz, i8(0), i8(8)},
      {K::Ctz, i8(0), i8(8)},
      {K::Clz, i8(1), i8(7)},
      {K::Popcount, i8(-128), i8(1)},
      {K::Clz, i8(-128), i8(0)},
      {K::Ctz, i8(-128), i8(7)},
      {K::Popcount, i16(-1), i16(16)},
      {K::Clz, i16(0), i16(16)},
      {K::Ctz, i16(0), i16(16)},
      {K::Clz, i16(256), i16(7)},
      {K::Ctz, i16(256), i16(8)},
      {K::Popcount, i32(-1), i32(32)},
      {K::Clz, i32(0), i32(32)},
      {K::Ctz, i32(0), i32(32)},
      {K::Ctz, i32(-2147483648), i32(31)},
      {K::Clz, i32(-2147483648), i32(0)},
      {K::Popcount, i64(-1), i64(64)},
      {K::Clz, i64(0), i64(64)},
      {K::Ctz, i64(0), i64(64)},
      {K::Popcount, i64(kI64Min), i64(1)},
      {K::Clz, i64(kI64Min), i64(0)},
      {K::Ctz, i64(kI64Min), i64(63)},
      {K::Popcount, i64(-2), i64(63)},
      {K::Ctz, i64(-2), i64(1)},
  });
}

// =====================================================================
// Casts
// =====================================================================

TEST_CASE("interp: integer to integer casts truncate or extend by the source's signedness") {
  check_as({
      {u64(0x100000001), u32(1)},
      {u64(0x1FF), u8(0xFF)},
      {i8(-1), u64(kU64Max)},
      {i8(-1), i32(-1)},
      {i8(-128), i16(-128)},
      {u8(255), i16(255)},  // zero extension
      {u8(255), i8(-1)},
      {u8(128), i8(-128)},
      {i16(-32768), u8(0)},
      {i16(-32768), u16(0x8000)},
      {i32(-1), u16(65535)},
      {u32(0x80000000), i64(2147483648)},
      {i32(-2147483648), i64(-2147483648)},
      {i32(-2147483648), u64(0xFFFFFFFF80000000)},
      {i64(-1), u64(kU64Max)},
      {u64(kU64Max), i64(-1)},
      {i64(4886718345), i32(591751049)},  // 0x1_2345_6789 -> 0x2345_6789
      {u16(0xFFFF), u32(65535)},
  });
}

TEST_CASE("interp: bool <-> integer casts: 0/1 and nonzero") {
  check_as({
      {bl(true), u8(1)},
      {bl(false), u8(0)},
      {bl(true), i8(1)},  // 1, not -1: bool is not a signed 1-bit integer
      {bl(true), i64(1)},
      {bl(true), u64(1)},
      {bl(false), i32(0)},
      {u8(0), bl(false)},
      {u8(1), bl(true)},
      {u8(2), bl(true)},
      {u64(0x100), bl(true)},  // nonzero, not the low bit
      {u64(0x8000000000000000), bl(true)},
      {i8(-128), bl(true)},
      {i32(0), bl(false)},
      {u16(2), bl(true)},
      {bl(true), f64b(0x3FF0000000000000)},
      {bl(false), f32b(0x00000000)},
      {bl(true), f32b(0x3F800000)},
  });
}

TEST_CASE("interp: integer to float rounds to nearest once, straight to the target") {
  check_as({
      {u64(9007199254740993), f64b(0x4340000000000000)},  // 2^53 + 1: tie between 2^53 and 2^53 + 2, even is 2^53
      {u64(16777217), f32b(0x4B800000)},                   // 2^24 + 1 -> 2^24 (tie to even)
      // 0x20000010000001 = 2^53 + 2^28 + 1. f32 spacing at 2^53 is 2^30; 2^28 + 1 < 2^29 (half),
      // so 2^53 directly, and through f64 (2^53 + 2^28, then 2^53) as well.
      {u64(0x20000010000001), f32b(0x5A000000)},
      // 0x20000020000001 = 2^53 + 2^29 + 1: just above the midpoint of 2^53 and 2^53 + 2^30, so
      // directly it rounds up to 2^53 + 2^30 (f32 0x5A000001). Through f64 it would first become
      // 2^53 + 2^29 (odd +1 is a tie at spacing 2, even wins), an exact f32 tie that goes to 2^53.
      {u64(0x20000020000001), f32b(0x5A000001)},
      // the same above 2^63 (the unsigned conversion path): 2^63 + 2^39 + 1, f32 spacing 2^40
      // -> 2^63 + 2^40 (0x5F000001); through f64 (spacing 2^11) it would be 2^63 + 2^39, then 2^63.
      {u64(0x8000008000000001), f32b(0x5F000001)},
      {i64(-0x20000020000001), f32b(0xDA000001)},
      {u64(kU64Max), f64b(0x43F0000000000000)},  // 2^64
      {u64(kU64Max), f32b(0x5F800000)},          // 2^64
      {u64(0), f64b(0x0000000000000000)},
      {i64(kI64Min), f64b(0xC3E0000000000000)},  // -2^63
      {i64(-1), f64b(0xBFF0000000000000)},
      {i32(16777217), f32b(0x4B800000)},
      {i32(-16777217), f32b(0xCB800000)},
      {i32(2147483647), f32b(0x4F000000)},        // rounds up to 2^31
      {u32(0xFFFFFFFF), f32b(0x4F800000)},        // rounds up to 2^32
      {u32(0xFFFFFFFF), f64b(0x41EFFFFFFFE00000)},  // exact
      {u16(65535), f64b(0x40EFFFE000000000)},
      {u8(255), f32b(0x437F0000)},
      {i8(-128), f64b(0xC060000000000000)},
  });
}

TEST_CASE("interp: float to integer truncates toward zero, saturates, NaN is 0") {
  check_as({
      {f64(-1.5), u64(0)},
      {f64(1e30), i32(2147483647)},
      {f64(-1e30), i32(-2147483648)},
      {f64(300.7), u8(255)},
      {f64(-0.9), i8(0)},
      {f64(kNaN), u64(0)},
      {f64(kNaN), i64(0)},
      {f64(kNaN), i8(0)},
      {f64(kNaN), u8(0)},
      {f64(kInf), u16(65535)},
      {f64(-kInf), u16(0)},
      {f64(-kInf), i16(-32768)},
      {f64(kInf), i64(kI64Max)},
      {f64b(0x43E0000000000000), i64(kI64Max)},  // 2^63: one past MAX, saturates
      {f64b(0xC3E0000000000000), i64(kI64Min)},  // -2^63: exactly MIN
      {f64b(0xC3E0000000000001), i64(kI64Min)},  // -2^63 - 2048: saturates
      {f64b(0x43DFFFFFFFFFFFFF), i64(9223372036854774784)},  // 2^63 - 1024, exact
      {f64b(0x43F0000000000000), u64(kU64Max)},  // 2^64
      {f64b(0x43EFFFFFFFFFFFFF), u64(0xFFFFFFFFFFFFF800)},  // 2^64 - 2048, exact
      {f64b(0x43E0000000000000), u64(0x8000000000000000)},  // 2^63 fits u64
      {f64(2147483647.9), i32(2147483647)},
      {f64(-2147483648.9), i32(-2147483648)},  // truncates to MIN, in range
      {f64(2147483648.0), i32(2147483647)},
      {f64(-2147483649.0), i32(-2147483648)},
      {f64(255.9), u8(255)},
      {f64(256.0), u8(255)},
      {f64(127.9), i8(127)},
      {f64(128.0), i8(127)},
      {f64(-128.9), i8(-128)},
      {f64(-129.0), i8(-128)},
      {f64(-0.0), u32(0)},
      {f64(65535.99), u16(65535)},
      {f64(-7.9), i64(-7)},
      {f64(7.9), u64(7)},
      {f32(3.9f), i32(3)},
      {f32(-1.5f), i8(-1)},
      {f32(-kInff), i64(kI64Min)},
      {f32(kNaNf), u32(0)},
      {f32b(0x4F800000), u32(0xFFFFFFFF)},  // 2^32 saturates
      {f32b(0x4F7FFFFF), u32(4294967040)},  // 2^32 - 256, the largest f32 below 2^32
      {f32(1e10f), i16(32767)},
  });
}

TEST_CASE("interp: float to float casts round once; float to bool is != 0.0") {
  check_as({
      // 0.1 = 0x3FB999999999999A; the 29 dropped mantissa bits start 1 1001..., above half: round up
      {f64(0.1), f32b(0x3DCCCCCD)},
      {f32b(0x3DCCCCCD), f64b(0x3FB99999A0000000)},  // exact widening: mantissa 0x4CCCCD << 29
      {f64(16777217.0), f32b(0x4B800000)},           // tie, even is 2^24
      {f64(16777219.0), f32b(0x4B800002)},           // tie between 2^24 + 2 (odd) and 2^24 + 4 (even)
      {f64(1e40), f32b(0x7F800000)},
      {f64(-1e40), f32b(0xFF800000)},
      {f64(1e-50), f32b(0x00000000)},
      {f64(-1e-50), f32b(0x80000000)},
      {f64(-0.0), f32b(0x80000000)},
      {f32b(0x80000000), f64b(0x8000000000000000)},
      {f64(kNaN), f32(kNaNf)},
      {f32(kNaNf), f64(kNaN)},
      // float -> bool: LANGUAGE.md is silent; the interpreter takes "nonzero" as the IEEE
      // comparison x != 0.0, so both zeros are false and NaN is true.
      {f64(0.0), bl(false)},
      {f64(-0.0), bl(false)},
      {f64(0.5), bl(true)},  // note: (0.5 as u64) as bool would be false
      {f64(kNaN), bl(true)},
      {f32(0.0f), bl(false)},
      {f32(-2.0f), bl(true)},
  });
}

// =====================================================================
// Float arithmetic
// =====================================================================

TEST_CASE("interp: IEEE float arithmetic, rounded at each operation's width") {
  check_bin({
      {K::Add, f64(0.1), f64(0.2), f64b(0x3FD3333333333334)},
      {K::Sub, f64(1.0), f64(0.9), f64b(0x3FB9999999999998)},  // 0.09999999999999998
      {K::Div, f64(1.0), f64(3.0), f64b(0x3FD5555555555555)},
      {K::Mul, f64(0.1), f64(3.0), f64b(0x3FD3333333333334)},
      {K::Add, f64(16777216.0), f64(1.0), f64b(0x4170000010000000)},  // 16777217, exact in f64
      // f32: 0.1f = 13421773 * 2^-27, 0.2f = 13421773 * 2^-26; the sum is 40265319 * 2^-27,
      // which to 24 bits is 10066329.75 * 2^-25 -> 10066330 = 0x99999A -> 0x3E99999A (= 0.3f)
      {K::Add, f32(0.1f), f32(0.2f), f32b(0x3E99999A)},
      {K::Mul, f32(0.1f), f32(3.0f), f32b(0x3E99999A)},  // the same 40265319 * 2^-27
      {K::Div, f32(1.0f), f32(3.0f), f32b(0x3EAAAAAB)},
      {K::Add, f32(16777216.0f), f32(1.0f), f32b(0x4B800000)},  // 2^24 + 1 is not an f32: tie to 2^24
      // 0.9f = 0x3F666666 = 15099494 * 2^-24; 1 - 0.9f = 1677722 * 2^-24 exactly
      // = 0x19999A * 2^-24 -> exponent 2^-4, mantissa (1677722 - 2^20) << 3 = 0x4CCCD0
      {K::Sub, f32(1.0f), f32b(0x3F666666), f32b(0x3DCCCCD0)},
      {K::Sub, f32(-0.0f), f32(0.0f), f32b(0x80000000)},
      {K::Sub, f32(kInff), f32(kInff), f32(kNaNf)},
      // signed zeros
      {K::Add, f64(-0.0), f64(0.0), f64b(0x0000000000000000)},
      {K::Add, f64(-0.0), f64(-0.0), f64b(0x8000000000000000)},
      {K::Sub, f64(0.0), f64(0.0), f64b(0x0000000000000000)},
      {K::Sub, f64(-0.0), f64(0.0), f64b(0x8000000000000000)},
      {K::Mul, f64(1.0), f64(-0.0), f64b(0x8000000000000000)},
      {K::Mul, f32(0.0f), f32(-1.0f), f32b(0x80000000)},
      // infinities and NaN
      {K::Div, f64(1.0), f64(0.0), f64b(0x7FF0000000000000)},
      {K::Div, f64(-1.0), f64(0.0), f64b(0xFFF0000000000000)},
      {K::Div, f64(1.0), f64(-0.0), f64b(0xFFF0000000000000)},
      {K::Div, f64(0.0), f64(0.0), f64(kNaN)},
      {K::Sub, f64(kInf), f64(kInf), f64(kNaN)},
      {K::Mul, f64(kInf), f64(0.0), f64(kNaN)},
      {K::Div, f32(1.0f), f32(0.0f), f32b(0x7F800000)},
      {K::Mul, f32(3.4e38f), f32(10.0f), f32b(0x7F800000)},
      // subnormals are kept (no flush to zero): 2^-1022 / 2 = 2^-1023 = 0x0008000000000000
      {K::Div, f64b(0x0010000000000000), f64(2.0), f64b(0x0008000000000000)},
      {K::Div, f32b(0x00800000), f32(2.0f), f32b(0x00400000)},
  });
}

// Float % is C fmod (LANGUAGE.md is silent): the exact remainder x - n*y with n = trunc(x/y)
// computed without rounding; the result has the sign of x; x % 0, inf % y are NaN
// (unlike integer x % 0 = x); x % inf = x.
TEST_CASE("interp: float % is fmod") {
  check_bin({
      {K::Mod, f64(5.5), f64(2.0), f64b(0x3FF8000000000000)},   // 1.5
      {K::Mod, f64(-5.5), f64(2.0), f64b(0xBFF8000000000000)},  // -1.5
      {K::Mod, f64(5.5), f64(-2.0), f64b(0x3FF8000000000000)},
      {K::Mod, f64(-5.5), f64(-2.0), f64b(0xBFF8000000000000)},
      // 10^17 = 2^17 * 5^17 is exact; 10 = 1 (mod 3), so the exact remainder is 1. A rounded
      // x - trunc(x / y) * y gives 0 here (x / y rounds to ...332, times 3 rounds back to 10^17).
      {K::Mod, f64(1e17), f64(3.0), f64b(0x3FF0000000000000)},
      {K::Mod, f64(5.0), f64(0.0), f64(kNaN)},
      {K::Mod, f64(kInf), f64(2.0), f64(kNaN)},
      {K::Mod, f64(3.0), f64(kInf), f64b(0x4008000000000000)},  // 3
      {K::Mod, f64(-0.0), f64(1.0), f64b(0x8000000000000000)},
      {K::Mod, f64(0.0), f64(1.0), f64b(0x0000000000000000)},
      {K::Mod, f64(-7.0), f64(7.0), f64b(0x8000000000000000)},  // a zero remainder keeps x's sign
      {K::Mod, f32(7.5f), f32(2.0f), f32b(0x3FC00000)},
      {K::Mod, f32(-7.5f), f32(2.0f), f32b(0xBFC00000)},
      {K::Mod, f32(1.0f), f32(0.0f), f32(kNaNf)},
  });
}

TEST_CASE("interp: no fused multiply-add") {
  // a = b = 1 + 2^-27 (0x3FF0000002000000): a*b = 1 + 2^-26 + 2^-54, which rounds to 1 + 2^-26
  // (2^-54 is a quarter of the spacing 2^-52). With c = -(1 + 2^-26) the unfused sum is +0.0;
  // a fused multiply-add would give the exact 2^-54 = 0x3C90000000000000.
  CHECK(mul_add(f64b(0x3FF0000002000000), f64b(0x3FF0000002000000), f64b(0xBFF0000004000000)) ==
        f64b(0x0000000000000000));
  // f32: a = b = 1 + 2^-12 (0x3F800800): a*b = 1 + 2^-11 + 2^-24, a tie at spacing 2^-23 that goes
  // to the even 1 + 2^-11; with c = -(1 + 2^-11) (0xBF801000) unfused is +0.0, fused 2^-24 (0x33800000).
  CHECK(mul_add(f32b(0x3F800800), f32b(0x3F800800), f32b(0xBF801000)) == f32b(0x00000000));
}

TEST_CASE("interp: f32 intermediates are rounded to f32, not kept wider") {
  // (x + y) - x with x = 2^24, y = 1: at f32 the sum is 2^24 again, so 0; at f64 it is 1.
  auto add_sub = [](const Value& x, const Value& y) {
    return build_and_run({x, y}, x.ty(), Feed::Input,
                         [](Kernel& k, auto& xs) { k.bin(K::Sub, k.bin(K::Add, xs[0], xs[1]), xs[0], Dest::ret()); });
  };
  CHECK(add_sub(f32(16777216.0f), f32(1.0f)) == f32b(0x00000000));
  CHECK(add_sub(f64(16777216.0), f64(1.0)) == f64b(0x3FF0000000000000));
  // 0.1f * 3 is 0.3f (0x3E99999A) where 0.1 * 3 at f64 is 0.30000000000000004, which is not 0.3
  CHECK(build_and_run({f32(0.1f), f32(3.0f)}, Ty::boolean(), Feed::Input, [](Kernel& k, auto& xs) {
          k.bin(K::Eq, k.bin(K::Mul, xs[0], xs[1]), k.c(f32(0.3f)), Dest::ret());
        }) == bl(true));
  CHECK(build_and_run({f64(0.1), f64(3.0)}, Ty::boolean(), Feed::Input, [](Kernel& k, auto& xs) {
          k.bin(K::Eq, k.bin(K::Mul, xs[0], xs[1]), k.c(f64(0.3)), Dest::ret());
        }) == bl(false));
}

// =====================================================================
// Phi, products, Output
// =====================================================================

TEST_CASE("interp: Phi picks by its bool guard") {
  auto sel = [](const Value& t, const Value& f, bool cond) {
    return build_and_run({t, f, bl(cond)}, t.ty(), Feed::Input,
                         [](Kernel& k, auto& xs) { k.phi(xs[0], xs[1], xs[2], Dest::ret()); });
  };
  CHECK(sel(u64(10), u64(20), true) == u64(10));
  CHECK(sel(u64(10), u64(20), false) == u64(20));
  CHECK(sel(i8(-1), i8(1), true) == i8(-1));
  CHECK(sel(f64(kNaN), f64(1.0), false) == f64b(0x3FF0000000000000));
  CHECK(sel(f32(-0.0f), f32(0.0f), true) == f32b(0x80000000));
  CHECK(sel(bl(false), bl(true), true) == bl(false));
  const Value t = Value::tuple({u8(1), bl(true)});
  const Value f = Value::tuple({u8(2), bl(false)});
  CHECK(sel(t, f, true) == t);
  CHECK(sel(t, f, false) == f);

  // if(x < 0, -x, x) on i64 (both branches evaluated; -MIN wraps to MIN)
  const CategoryIr abs = shapes::phi_abs();
  CHECK(run(abs, i64(-5)) == i64(5));
  CHECK(run(abs, i64(5)) == i64(5));
  CHECK(run(abs, i64(0)) == i64(0));
  CHECK(run(abs, i64(kI64Min)) == i64(kI64Min));
}

TEST_CASE("interp: Pair, Proj and Output move values unchanged") {
  {  // identity through a bare Output
    Kernel k("id", ty(TyKind::I16), ty(TyKind::I16));
    k.out(k.in());
    const CategoryIr g = k.seal();
    CHECK(run(g, i16(-12345)) == i16(-12345));
  }
  {  // swap: (u8, f64) -> (f64, u8), projections packed straight into the return
    Kernel k("swap", Ty::tuple({ty(TyKind::U8), ty(TyKind::F64)}), Ty::tuple({ty(TyKind::F64), ty(TyKind::U8)}));
    const ObjectId a = k.proj(k.in(), 0);
    const ObjectId b = k.proj(k.in(), 1);
    k.pack({b, a}, Dest::ret());
    const CategoryIr g = k.seal();
    CHECK(run(g, Value::tuple({u8(7), f64(-0.0)})) == Value::tuple({f64b(0x8000000000000000), u8(7)}));
  }
  {  // nested products: ((a, b), c) -> c - b, returned through an Output of a packed tuple
    const Ty inner = Ty::tuple({ty(TyKind::U32), ty(TyKind::U32)});
    Kernel k("nest", Ty::tuple({inner, ty(TyKind::U32)}), Ty::tuple({ty(TyKind::U32), ty(TyKind::U32)}));
    const ObjectId ab = k.proj(k.in(), 0);
    const ObjectId b = k.proj(ab, 1);
    const ObjectId c = k.proj(k.in(), 1);
    const ObjectId t = k.pack({k.bin(K::Sub, c, b), k.proj(ab, 0)});
    k.out(t);
    const CategoryIr g = k.seal();
    CHECK(run(g, Value::tuple({Value::tuple({u32(1), u32(5)}), u32(3)})) == Value::tuple({u32(0xFFFFFFFE), u32(1)}));
  }
  {  // a struct result written slot by slot
    const Ty out = Ty::structure("qr", {{"q", ty(TyKind::I32)}, {"r", ty(TyKind::I32)}});
    Kernel k("qr", Ty::tuple({ty(TyKind::I32), ty(TyKind::I32)}), out);
    const ObjectId a = k.proj(k.in(), 0);
    const ObjectId b = k.proj(k.in(), 1);
    k.bin(K::Mod, a, b, Dest::ret_slot(1));
    k.bin(K::Div, a, b, Dest::ret_slot(0));
    const CategoryIr g = k.seal();
    CHECK(run(g, Value::tuple({i32(-7), i32(2)})) == Value::structure(out, {i32(-3), i32(-1)}));
    CHECK(run(g, Value::tuple({i32(7), i32(0)})) == Value::structure(out, {i32(-1), i32(7)}));
  }
}

// =====================================================================
// Loops
// =====================================================================

TEST_CASE("interp: loops exit with the state of the iteration whose guard fails") {
  const CategoryIr sum = shapes::sum_to_n();
  CHECK(run(sum, u64(10)) == u64(55));
  CHECK(run(sum, u64(0)) == u64(0));
  CHECK(run(sum, u64(1)) == u64(1));

  // loop (i = 1, acc = 0) while i <= n { (i + 1, acc + i) } yield (i, acc): the exit sees the
  // failing iteration's merge, (n + 1, n(n+1)/2); the next state would have been (n + 2, ...).
  Kernel k("sum_state", Ty::u64(), Ty::tuple({Ty::u64(), Ty::u64()}));
  const ObjectId n = k.in();
  const ObjectId one = k.c(u64(1));
  const LoopHandle lh = k.loop(k.pack({one, k.c(u64(0))}));
  const ObjectId m = k.merge(lh);
  const ObjectId i = k.proj(m, 0);
  const ObjectId acc = k.proj(m, 1);
  const ObjectId cond = k.bin(K::Le, i, n);
  k.back(lh, k.pack({k.bin(K::Add, i, one), k.bin(K::Add, acc, i)}), cond);
  k.exit(lh, m, cond, Dest::ret());
  k.end(lh);
  const CategoryIr g = k.seal();
  CHECK(run(g, u64(10)) == Value::tuple({u64(11), u64(55)}));
  CHECK(run(g, u64(0)) == Value::tuple({u64(1), u64(0)}));  // zero trips

  // the exit may read values the body also computes: yield (acc + i, next) with
  // next = (i + 1, acc + i); on the failing state i = n + 1, acc = n(n+1)/2
  Kernel k2("sum_next", Ty::u64(), Ty::tuple({Ty::u64(), Ty::tuple({Ty::u64(), Ty::u64()})}));
  const ObjectId one2 = k2.c(u64(1));
  const LoopHandle lh2 = k2.loop(k2.pack({one2, k2.c(u64(0))}));
  const ObjectId m2 = k2.merge(lh2);
  const ObjectId i2 = k2.proj(m2, 0);
  const ObjectId acc2 = k2.proj(m2, 1);
  const ObjectId cond2 = k2.bin(K::Le, i2, k2.in());
  const ObjectId sum2 = k2.bin(K::Add, acc2, i2);
  const ObjectId next2 = k2.pack({k2.bin(K::Add, i2, one2), sum2});
  k2.back(lh2, next2, cond2);
  k2.exit(lh2, k2.pack({sum2, next2}), cond2, Dest::ret());
  k2.end(lh2);
  const CategoryIr g2 = k2.seal();
  CHECK(run(g2, u64(10)) == Value::tuple({u64(66), Value::tuple({u64(12), u64(66)})}));
  CHECK(run(g2, u64(0)) == Value::tuple({u64(1), Value::tuple({u64(2), u64(1)})}));
}

TEST_CASE("interp: zero-trip loops, values computed from the final state, loop invariants") {
  // loop (x = x0) while x < 50 { x = x * 2 } yield x * 3; the multiply by 3 lies outside the
  // loop's cycle and reads the final state.
  Kernel k("double", Ty::u64(), Ty::u64());
  const LoopHandle lh = k.loop(k.in());
  const ObjectId x = k.merge(lh);
  // the bound is built after the loop opened, so it comes later in source order: the loop must
  // still see it computed (50 = 25 + 25)
  const ObjectId bound = k.bin(K::Add, k.c(u64(25)), k.c(u64(25)));
  const ObjectId cond = k.bin(K::Lt, x, bound);
  k.back(lh, k.bin(K::Mul, x, k.c(u64(2))), cond);
  k.exit(lh, k.bin(K::Mul, x, k.c(u64(3))), cond, Dest::ret());
  k.end(lh);
  const CategoryIr g = k.seal();
  CHECK(run(g, u64(3)) == u64(288));    // 3 6 12 24 48 96: 96 * 3
  CHECK(run(g, u64(100)) == u64(300));  // zero trips
  CHECK(run(g, u64(50)) == u64(150));   // zero trips at the boundary

  CHECK(run(shapes::count_up(), u64(0)) == u64(0));
  CHECK(run(shapes::count_up(), u64(7)) == u64(7));

  // the loop invariant n + n is built after the loop opens and feeds only the guard
  Kernel k2("twice_n", Ty::u64(), Ty::u64());
  const LoopHandle lh2 = k2.loop(k2.c(u64(0)));
  const ObjectId i = k2.merge(lh2);
  const ObjectId n2 = k2.bin(K::Add, k2.in(), k2.in());
  const ObjectId c2 = k2.bin(K::Lt, i, n2);
  k2.back(lh2, k2.bin(K::Add, i, k2.c(u64(1))), c2);
  k2.exit(lh2, i, c2, Dest::ret());
  k2.end(lh2);
  const CategoryIr g2 = k2.seal();
  CHECK(run(g2, u64(5)) == u64(10));
  CHECK(run(g2, u64(0)) == u64(0));
}

TEST_CASE("interp: loop state wraps like any value") {
  // loop (i: u8 = 250, k: u32 = 0) while i != 4 { (i + 1, k + 1) } yield (i, k):
  // 250..255, 0..3 are the 10 trips
  Kernel k("wrap", Ty::u64(), Ty::tuple({ty(TyKind::U8), ty(TyKind::U32)}));
  const LoopHandle lh = k.loop(k.pack({k.c(u8(250)), k.c(u32(0))}));
  const ObjectId m = k.merge(lh);
  const ObjectId i = k.proj(m, 0);
  const ObjectId n = k.proj(m, 1);
  const ObjectId cond = k.bin(K::Neq, i, k.c(u8(4)));
  k.back(lh, k.pack({k.bin(K::Add, i, k.c(u8(1))), k.bin(K::Add, n, k.c(u32(1)))}), cond);
  k.exit(lh, m, cond, Dest::ret());
  k.end(lh);
  const CategoryIr g = k.seal();
  CHECK(run(g, u64(0)) == Value::tuple({u8(4), u32(10)}));
}

TEST_CASE("interp: a float loop halves down through the subnormals to zero") {
  // loop (x = 1.0, k = 0) while x > 0 { (x / 2, k + 1) } yield k: x = 2^-k is exact down to the
  // smallest subnormal 2^-1074 (f64) / 2^-149 (f32); one more halving is an exact tie with 0,
  // which is even, so the loop stops at k = 1075 / 150. Flushing subnormals would stop at 1023 / 127.
  auto halvings = [](const Value& one, const Value& two, const Value& zero) {
    Kernel k("halve", Ty::u64(), Ty::u64());
    const LoopHandle lh = k.loop(k.pack({k.c(one), k.c(u64(0))}));
    const ObjectId m = k.merge(lh);
    const ObjectId x = k.proj(m, 0);
    const ObjectId n = k.proj(m, 1);
    const ObjectId cond = k.bin(K::Gt, x, k.c(zero));
    k.back(lh, k.pack({k.bin(K::Div, x, k.c(two)), k.bin(K::Add, n, k.c(u64(1)))}), cond);
    k.exit(lh, n, cond, Dest::ret());
    k.end(lh);
    return run(k.seal(), u64(0));
  };
  CHECK(halvings(f64(1.0), f64(2.0), f64(0.0)) == u64(1075));
  CHECK(halvings(f32(1.0f), f32(2.0f), f32(0.0f)) == u64(150));
}

TEST_CASE("interp: nested and sequential loops") {
  // sum over i < n of sum over j < i of j = n(n-1)(n-2)/6
  const CategoryIr nested = shapes::nested_loops();
  CHECK(run(nested, u64(0)) == u64(0));
  CHECK(run(nested, u64(1)) == u64(0));
  CHECK(run(nested, u64(3)) == u64(1));
  CHECK(run(nested, u64(5)) == u64(10));
  CHECK(run(nested, u64(10)) == u64(120));
  CHECK(run(shapes::two_loops(), u64(10)) == u64(65));  // 10 + 55
  CHECK(run(shapes::two_loops(), u64(0)) == u64(0));
  const CategoryIr gcd = shapes::gcd();
  const Ty pair_in = Ty::structure("pair_in", {{"a", Ty::u64()}, {"b", Ty::u64()}});
  CHECK(run(gcd, Value::structure(pair_in, {u64(48), u64(18)})) == u64(6));
  CHECK(run(gcd, Value::structure(pair_in, {u64(0), u64(5)})) == u64(5));
  CHECK(run(gcd, Value::structure(pair_in, {u64(7), u64(0)})) == u64(7));
}

TEST_CASE("interp: the iteration limit is an error, not a hang") {
  const CategoryIr count = shapes::count_up();  // n back edges
  CHECK(run(count, u64(10), InterpOptions{10}) == u64(10));  // exactly the limit
  CHECK(run_error(count, u64(11), InterpOptions{10}) == InterpErrorKind::IterationLimit);
  CHECK(run(count, u64(0), InterpOptions{0}) == u64(0));
  CHECK(run_error(count, u64(1), InterpOptions{0}) == InterpErrorKind::IterationLimit);

  // the limit is per execution of one loop: nested_loops(5) takes 5 outer back edges and at most
  // 4 inner ones per inner run (15 in all), so a limit of 5 passes and 4 does not
  const CategoryIr nested = shapes::nested_loops();
  CHECK(run(nested, u64(5), InterpOptions{5}) == u64(10));
  CHECK(run_error(nested, u64(5), InterpOptions{4}) == InterpErrorKind::IterationLimit);

  // while i >= 0 on u64 never ends: the default limit stops it
  Kernel k("forever", Ty::u64(), Ty::u64());
  const LoopHandle lh = k.loop(k.in());
  const ObjectId i = k.merge(lh);
  const ObjectId cond = k.bin(K::Ge, i, k.c(u64(0)));
  k.back(lh, k.bin(K::Add, i, k.c(u64(1))), cond);
  k.exit(lh, i, cond, Dest::ret());
  k.end(lh);
  const CategoryIr g = k.seal();
  CHECK(run_error(g, u64(0)) == InterpErrorKind::IterationLimit);
  CHECK(run_error(g, u64(0), InterpOptions{1000}) == InterpErrorKind::IterationLimit);
}

TEST_CASE("interp: an input of the wrong type is refused") {
  const CategoryIr sum = shapes::sum_to_n();
  CHECK(run_error(sum, u32(10)) == InterpErrorKind::InputTypeMismatch);
  CHECK(run_error(sum, i64(10)) == InterpErrorKind::InputTypeMismatch);
  CHECK(run_error(sum, f64(10.0)) == InterpErrorKind::InputTypeMismatch);
  CHECK(run_error(sum, Value::tuple({u64(1), u64(2)})) == InterpErrorKind::InputTypeMismatch);
  const CategoryIr add = shapes::add();  // takes the struct pair_in, not a tuple of its fields
  CHECK(run_error(add, Value::tuple({u64(1), u64(2)})) == InterpErrorKind::InputTypeMismatch);
  const Ty pair_in = Ty::structure("pair_in", {{"a", Ty::u64()}, {"b", Ty::u64()}});
  CHECK(run(add, Value::structure(pair_in, {u64(1), u64(2)})) == u64(3));
}

// LANGUAGE.md: "while [the guard] is true the body runs ...; when it is false the loop exits and
// `yield` is evaluated on that same state". So the body is not evaluated on the failing state, and
// whatever it would do there (here: an inner loop or a called loop of 2^64 - 1 trips) must not
// turn a defined result into an IterationLimit error.
TEST_CASE("interp: the body is not run on the state whose guard fails") {
  const InterpOptions limit{100};
  {  // loop (i = 0, acc = 0) while i < n { acc += (loop (j = 0) while j < n - 1 - i { j + 1 } yield j); i + 1 }
    Kernel k("inner_guarded", Ty::u64(), Ty::u64());
    const ObjectId n = k.in();
    const ObjectId zero = k.c(u64(0));
    const ObjectId one = k.c(u64(1));
    const LoopHandle outer = k.loop(k.pack({zero, zero}));
    const ObjectId m = k.merge(outer);
    const ObjectId i = k.proj(m, 0);
    const ObjectId acc = k.proj(m, 1);
    const ObjectId c1 = k.bin(K::Lt, i, n);
    const ObjectId lim = k.bin(K::Sub, k.bin(K::Sub, n, one), i);  // n - 1 - i: 2^64 - 1 once i = n
    const LoopHandle inner = k.loop(k.bin(K::Mul, i, zero));
    const ObjectId j = k.merge(inner);
    const ObjectId c2 = k.bin(K::Lt, j, lim);
    k.back(inner, k.bin(K::Add, j, one), c2);
    const ObjectId trips = k.exit(inner, j, c2);
    k.end(inner);
    k.back(outer, k.pack({k.bin(K::Add, i, one), k.bin(K::Add, acc, trips)}), c1);
    k.exit(outer, acc, c1, Dest::ret());
    k.end(outer);
    const CategoryIr g = k.seal();
    CHECK(run(g, u64(4), limit) == u64(6));  // 3 + 2 + 1 + 0
    CHECK(run(g, u64(0), limit) == u64(0));  // zero trips: the inner loop must not run at all
  }
  {  // a nested loop that the outer guard reads runs before the guard is known:
     // loop (i = 0) while (loop (j = 0) while j < i * i { j + 1 } yield j) < n { i + 1 } yield i
     // n = 10: 0 1 4 9 pass, 16 fails -> 4
    Kernel k("inner_in_guard", Ty::u64(), Ty::u64());
    const ObjectId n = k.in();
    const ObjectId one = k.c(u64(1));
    const LoopHandle outer = k.loop(k.c(u64(0)));
    const ObjectId i = k.merge(outer);
    const ObjectId sq = k.bin(K::Mul, i, i);
    const LoopHandle inner = k.loop(k.bin(K::Sub, i, i));
    const ObjectId j = k.merge(inner);
    const ObjectId c2 = k.bin(K::Lt, j, sq);
    k.back(inner, k.bin(K::Add, j, one), c2);
    const ObjectId counted = k.exit(inner, j, c2);
    k.end(inner);
    const ObjectId c1 = k.bin(K::Lt, counted, n);
    k.back(outer, k.bin(K::Add, i, one), c1);
    k.exit(outer, i, c1, Dest::ret());
    k.end(outer);
    const CategoryIr g = k.seal();
    CHECK(run(g, u64(10), limit) == u64(4));
    CHECK(run(g, u64(1), limit) == u64(1));
    CHECK(run(g, u64(0), limit) == u64(0));
  }
  {  // the same with the inner loop in a called function
    IrBuilder b;
    shapes::Lines lines;
    const FuncId top = must(b.declare("outer", Ty::u64(), Ty::u64(), lines.next()));
    const FuncId count = must(b.declare("count_up", Ty::u64(), Ty::u64(), lines.next()));
    {
      FnBuilder fb = must(b.build_fn(count));
      const ObjectId one = must(fb.constant(u64(1), lines.next()));
      const LoopHandle lh = must(fb.begin_loop(must(fb.constant(u64(0), lines.next())), lines.next()));
      const ObjectId j = fb.merge_of(lh);
      const ObjectId c = must(fb.binop(K::Lt, j, fb.input(), Dest::fresh(), lines.next()));
      must(fb.loop_back(lh, must(fb.binop(K::Add, j, one, Dest::fresh(), lines.next())), c, lines.next()));
      must(fb.loop_exit(lh, j, c, Dest::ret(), lines.next()));
      must(fb.end_loop(lh));
      must(fb.finish());
    }
    FnBuilder fb = must(b.build_fn(top));
    auto op = [&](K o, ObjectId l, ObjectId r) { return must(fb.binop(o, l, r, Dest::fresh(), lines.next())); };
    const ObjectId n = fb.input();
    const ObjectId zero = must(fb.constant(u64(0), lines.next()));
    const ObjectId one = must(fb.constant(u64(1), lines.next()));
    const ObjectId init[] = {zero, zero};
    const LoopHandle lh = must(fb.begin_loop(must(fb.pack(init, Dest::fresh(), lines.next())), lines.next()));
    const ObjectId m = fb.merge_of(lh);
    const ObjectId i = must(fb.proj(m, 0, Dest::fresh(), lines.next()));
    const ObjectId acc = must(fb.proj(m, 1, Dest::fresh(), lines.next()));
    const ObjectId c = op(K::Lt, i, n);
    const ObjectId trips = must(fb.call(count, op(K::Sub, op(K::Sub, n, one), i), Dest::fresh(), lines.next()));
    const ObjectId next[] = {op(K::Add, i, one), op(K::Add, acc, trips)};
    must(fb.loop_back(lh, must(fb.pack(next, Dest::fresh(), lines.next())), c, lines.next()));
    must(fb.loop_exit(lh, acc, c, Dest::ret(), lines.next()));
    must(fb.end_loop(lh));
    must(fb.finish());
    const CategoryIr g = must(std::move(b).seal(top));
    CHECK(run(g, u64(4), limit) == u64(6));
    CHECK(run(g, u64(0), limit) == u64(0));
  }
}

// =====================================================================
// Calls
// =====================================================================

TEST_CASE("interp: calls pass products in and out") {
  CHECK(run(shapes::with_call(), u64(3)) == u64(12));  // twice(twice(3))

  // divmod(a, b) -> (a / b, a % b); main(x: u32) = let (q, r) = divmod(x, 7) in q * 100 + r
  IrBuilder b;
  shapes::Lines lines;
  const Ty u32t = ty(TyKind::U32);
  const Ty pair = Ty::tuple({u32t, u32t});
  const FuncId top = must(b.declare("main", u32t, u32t, lines.next()));
  const FuncId divmod = must(b.declare("divmod", pair, pair, lines.next()));
  {
    FnBuilder fb = must(b.build_fn(divmod));
    const ObjectId a = must(fb.proj(fb.input(), 0, Dest::fresh(), lines.next()));
    const ObjectId d = must(fb.proj(fb.input(), 1, Dest::fresh(), lines.next()));
    must(fb.binop(K::Div, a, d, Dest::ret_slot(0), lines.next()));
    must(fb.binop(K::Mod, a, d, Dest::ret_slot(1), lines.next()));
    must(fb.finish());
  }
  FnBuilder fb = must(b.build_fn(top));
  const ObjectId args[] = {fb.input(), must(fb.constant(u32(7), lines.next()))};
  const ObjectId qr = must(fb.call(divmod, must(fb.pack(args, Dest::fresh(), lines.next())), Dest::fresh(), lines.next()));
  const ObjectId q = must(fb.proj(qr, 0, Dest::fresh(), lines.next()));
  const ObjectId r = must(fb.proj(qr, 1, Dest::fresh(), lines.next()));
  const ObjectId q100 = must(fb.binop(K::Mul, q, must(fb.constant(u32(100), lines.next())), Dest::fresh(), lines.next()));
  must(fb.binop(K::Add, q100, r, Dest::ret(), lines.next()));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(top));
  CHECK(run(g, u32(100)) == u32(1402));  // 14, 2
  CHECK(run(g, u32(6)) == u32(6));       // 0, 6
  // a callee run on its own
  Interpreter interp(g);
  auto dm = interp.run(*g.find_func("divmod"), Value::tuple({u32(100), u32(0)}));
  REQUIRE(dm.ok());
  CHECK(*dm == Value::tuple({u32(0xFFFFFFFF), u32(100)}));
}

TEST_CASE("interp: a call chain 2,000 deep runs without host recursion") {
  // f_k(x) = f_{k+1}(x + 1) + 1 for k < D - 1, f_{D-1}(x) = x, so f_0(x) = x + 2(D - 1)
  constexpr int kDepth = 2000;
  IrBuilder b;
  shapes::Lines lines;
  std::vector<FuncId> fs;
  for (int d = 0; d < kDepth; ++d)
    fs.push_back(must(b.declare("f" + std::to_string(d), Ty::u64(), Ty::u64(), lines.next())));
  for (int d = 0; d < kDepth; ++d) {
    FnBuilder fb = must(b.build_fn(fs[static_cast<size_t>(d)]));
    if (d == kDepth - 1) {
      must(fb.output(fb.input(), std::nullopt, lines.next()));
    } else {
      const ObjectId one = must(fb.constant(u64(1), lines.next()));
      const ObjectId x1 = must(fb.binop(K::Add, fb.input(), one, Dest::fresh(), lines.next()));
      const ObjectId y = must(fb.call(fs[static_cast<size_t>(d) + 1], x1, Dest::fresh(), lines.next()));
      must(fb.binop(K::Add, y, one, Dest::ret(), lines.next()));
    }
    must(fb.finish());
  }
  const CategoryIr g = must(std::move(b).seal(fs[0]));
  CHECK(run(g, u64(0)) == u64(3998));
  CHECK(run(g, u64(5)) == u64(4003));
  Interpreter interp(g);
  auto mid = interp.run(fs[1000], u64(0));  // 2 * (1999 - 1000)
  REQUIRE(mid.ok());
  CHECK(*mid == u64(1998));
  auto again = interp.run(fs[0], u64(kU64Max));  // reuses the compiled programs; wraps
  REQUIRE(again.ok());
  CHECK(*again == u64(3997));
}

TEST_CASE("interp: a loop inside a called function, called from inside a loop") {
  // sum_to(n) = 1 + ... + n with a loop; main(n) = (sum over i < n of sum_to(i), sum_to(n))
  IrBuilder b;
  shapes::Lines lines;
  const Ty out = Ty::tuple({Ty::u64(), Ty::u64()});
  const FuncId top = must(b.declare("main", Ty::u64(), out, lines.next()));
  const FuncId sum_to = must(b.declare("sum_to", Ty::u64(), Ty::u64(), lines.next()));
  auto op = [&](FnBuilder& fb, K o, ObjectId l, ObjectId r) {
    return must(fb.binop(o, l, r, Dest::fresh(), lines.next()));
  };
  auto pack2 = [&](FnBuilder& fb, ObjectId a, ObjectId c) {
    const ObjectId parts[] = {a, c};
    return must(fb.pack(parts, Dest::fresh(), lines.next()));
  };
  {
    FnBuilder fb = must(b.build_fn(sum_to));
    const ObjectId one = must(fb.constant(u64(1), lines.next()));
    const ObjectId zero = must(fb.constant(u64(0), lines.next()));
    const LoopHandle lh = must(fb.begin_loop(pack2(fb, one, zero), lines.next()));
    const ObjectId m = fb.merge_of(lh);
    const ObjectId i = must(fb.proj(m, 0, Dest::fresh(), lines.next()));
    const ObjectId acc = must(fb.proj(m, 1, Dest::fresh(), lines.next()));
    const ObjectId c = op(fb, K::Le, i, fb.input());
    must(fb.loop_back(lh, pack2(fb, op(fb, K::Add, i, one), op(fb, K::Add, acc, i)), c, lines.next()));
    must(fb.loop_exit(lh, acc, c, Dest::ret(), lines.next()));
    must(fb.end_loop(lh));
    must(fb.finish());
  }
  FnBuilder fb = must(b.build_fn(top));
  const ObjectId n = fb.input();
  const ObjectId one = must(fb.constant(u64(1), lines.next()));
  const ObjectId zero = must(fb.constant(u64(0), lines.next()));
  const LoopHandle lh = must(fb.begin_loop(pack2(fb, zero, zero), lines.next()));
  const ObjectId m = fb.merge_of(lh);
  const ObjectId i = must(fb.proj(m, 0, Dest::fresh(), lines.next()));
  const ObjectId acc = must(fb.proj(m, 1, Dest::fresh(), lines.next()));
  const ObjectId c = op(fb, K::Lt, i, n);
  const ObjectId s = must(fb.call(sum_to, i, Dest::fresh(), lines.next()));
  must(fb.loop_back(lh, pack2(fb, op(fb, K::Add, i, one), op(fb, K::Add, acc, s)), c, lines.next()));
  must(fb.loop_exit(lh, acc, c, Dest::ret_slot(0), lines.next()));
  must(fb.end_loop(lh));
  must(fb.call(sum_to, n, Dest::ret_slot(1), lines.next()));
  must(fb.finish());
  const CategoryIr g = must(std::move(b).seal(top));
  CHECK(run(g, u64(4)) == Value::tuple({u64(10), u64(10)}));  // 0 + 1 + 3 + 6, and 10
  CHECK(run(g, u64(5)) == Value::tuple({u64(20), u64(15)}));  // + 10, and 15
  CHECK(run(g, u64(0)) == Value::tuple({u64(0), u64(0)}));
}
