// The embedding API (frontend/embed.h): every surface, every error kind, the
// adapter catalog, the const-expression cache. Expected values are derived by
// hand from the language's rules (LANGUAGE.md, docs/semantics.md).
#include <doctest/doctest.h>
#include <xxhash.h>

#include <cmath>
#include <limits>
#include <thread>

#include "frontend/embed.h"

using namespace polydat;
using embed::AdaptMode;
using embed::EmbeddingError;
using embed::Fidelity;
using Kind = embed::EmbeddingError::Kind;
using ir::TyKind;
using ir::Value;

namespace {
Value u64(uint64_t v) { return Value::integer(TyKind::U64, v); }
Value u8(uint64_t v) { return Value::integer(TyKind::U8, v); }
Value i64(int64_t v) { return Value::integer(TyKind::I64, static_cast<uint64_t>(v)); }
ir::Ty ty(TyKind k) { return ir::Ty::scalar(k); }

// The value of a successful result, or a failed check showing the error.
template <class T>
T ok(const embed::Result<T>& r) {
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? std::string() : r.error().to_string()));
  return r.value();
}

// The error of a failed result (fails the test when it succeeded).
template <class T>
EmbeddingError err(const embed::Result<T>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error();
}

EmbeddingError err(const ir::Expected<void, EmbeddingError>& r) {
  REQUIRE_FALSE(r.ok());
  return r.error();
}

constexpr uint64_t kHash42 = 0xd5a6f8c838df27c8ull;  // XXH3_64bits of the 8 little-endian bytes of 42

// A loop that never ends on its own: the interpreter's iteration limit stops it.
// (Shared by two tests so that the second one reads the cache.)
constexpr const char* kRunaway = "loop (i = 0) while i >= 0 { i = i + 1 } yield i";
}  // namespace

// ---------------------------------------------------------------------------
// eval_const_expr

TEST_CASE("eval_const_expr: literals, arithmetic, calls, loops, strings") {
  uint64_t forty_two = 42;
  REQUIRE(XXH3_64bits(&forty_two, 8) == kHash42);
  CHECK(ok(embed::eval_const_expr("hash(42)")) == u64(kHash42));
  CHECK(ok(embed::eval_const_expr("mod(hash(42), 100)")) == u64(15395265915043915720ull % 100));
  CHECK(ok(embed::eval_const_expr("42")) == u64(42));
  CHECK(ok(embed::eval_const_expr("1000 * 1000")) == u64(1000000));
  CHECK(ok(embed::eval_const_expr("3.14")) == Value::f64(3.14));
  CHECK(ok(embed::eval_const_expr("4 ** 0.5")) == Value::f64(2.0));  // the integer meets a float: pow(4.0, 0.5)
  CHECK(ok(embed::eval_const_expr("\"hello\"")) == Value::str("hello"));
  CHECK(ok(embed::eval_const_expr("\"a{1 + 2}b\"")) == Value::str("a3b"));
  CHECK(ok(embed::eval_const_expr("true")) == Value::boolean(true));
  CHECK(ok(embed::eval_const_expr("3 > 5")) == u64(0));  // a comparison is the u64 1 or 0
  CHECK(ok(embed::eval_const_expr("-5")) == i64(-5));  // a negated literal is i64
  CHECK(ok(embed::eval_const_expr("200 as u8")) == u8(200));
  CHECK(ok(embed::eval_const_expr("loop (i = 1, acc = 0) while i <= 10 { acc = acc + i; i = i + 1 } yield acc")) ==
        u64(55));
  CHECK(ok(embed::eval_const_expr("  7 // a comment\n")) == u64(7));  // surrounding blanks and comments are fine
}

TEST_CASE("eval_const_expr: Parse errors carry the byte position in the caller's text") {
  {
    const EmbeddingError e = err(embed::eval_const_expr("1 $ 2"));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.source == "1 $ 2");
    CHECK(e.position == std::optional<size_t>(2));
    CHECK(e.diagnostic == frontend::DiagKind::UnexpectedCharacter);
    CHECK(e.message == "unexpected character '$'");
  }
  {
    const EmbeddingError e = err(embed::eval_const_expr("   1 $ 2"));  // leading blanks are counted
    CHECK(e.position == std::optional<size_t>(5));
  }
  {
    const EmbeddingError e = err(embed::eval_const_expr("(1"));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.diagnostic == frontend::DiagKind::Syntax);
    CHECK(e.position == std::optional<size_t>(2));  // the end of the text
  }
  {
    const EmbeddingError e = err(embed::eval_const_expr(""));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.position == std::optional<size_t>(0));
  }
  {
    const EmbeddingError e = err(embed::eval_const_expr("0x1_0000_0000_0000_0000"));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.diagnostic == frontend::DiagKind::IntegerTooLarge);
    CHECK(e.position == std::optional<size_t>(0));
  }
  {  // several statements are not one expression
    const EmbeddingError e = err(embed::eval_const_expr("1; y := 2"));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.position == std::optional<size_t>(3));
    CHECK(e.message.find("one expression") != std::string::npos);
  }
  {  // `out` is the wrapper's own binding: reading it is a cycle
    const EmbeddingError e = err(embed::eval_const_expr("out + 1"));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.diagnostic == frontend::DiagKind::CyclicBinding);
  }
}

TEST_CASE("eval_const_expr: UnknownNode names the function and the compiler's suggestion") {
  const EmbeddingError e = err(embed::eval_const_expr("1 + hsh(42)"));
  CHECK(e.kind == Kind::UnknownNode);
  CHECK(e.name == "hsh");
  CHECK(e.suggestion == std::optional<std::string>("hash"));
  CHECK(e.position == std::optional<size_t>(4));
  CHECK(e.source == "1 + hsh(42)");
  CHECK(e.diagnostic == frontend::DiagKind::UnknownFunction);

  const EmbeddingError far = err(embed::eval_const_expr("qqqqqqqqqqqq(1)"));
  CHECK(far.kind == Kind::UnknownNode);
  CHECK(far.name == "qqqqqqqqqqqq");
  CHECK_FALSE(far.suggestion.has_value());
}

TEST_CASE("eval_const_expr: the compiler's type errors are TypeMismatch") {
  const EmbeddingError e = err(embed::eval_const_expr("1 + \"a\""));
  CHECK(e.kind == Kind::TypeMismatch);
  CHECK(e.diagnostic == frontend::DiagKind::TypeMismatch);
  CHECK(e.message == "cannot combine an integer with str");
  CHECK(e.position == std::optional<size_t>(0));
  CHECK_FALSE(e.from_type.has_value());  // the compiler's message names the types
  CHECK_FALSE(e.to_type.has_value());

  const EmbeddingError zero = err(embed::eval_const_expr("7 / 0"));
  CHECK(zero.kind == Kind::TypeMismatch);
  CHECK(zero.diagnostic == frontend::DiagKind::ZeroDivisor);

  const EmbeddingError mix = err(embed::eval_const_expr("(1 as i8) + (1 as u8)"));
  CHECK(mix.kind == Kind::TypeMismatch);
  CHECK(mix.diagnostic == frontend::DiagKind::SignedUnsignedMix);
}

TEST_CASE("eval_const_expr: text that reads inputs is LifecycleMismatch") {
  const EmbeddingError e = err(embed::eval_const_expr("hash(cycle)"));
  CHECK(e.kind == Kind::LifecycleMismatch);
  CHECK(e.dynamic_inputs == std::vector<std::string>{"cycle"});
  CHECK(e.source == "hash(cycle)");

  const EmbeddingError two = err(embed::eval_const_expr("x + y * x"));
  CHECK(two.dynamic_inputs == std::vector<std::string>{"x", "y"});  // in order of first use

  // The checker's not-constant error on an inferred input is the same class.
  const EmbeddingError radix = err(embed::eval_const_expr("mixed_radix(x, y)"));
  CHECK(radix.kind == Kind::LifecycleMismatch);
  CHECK(radix.diagnostic == frontend::DiagKind::NotConstant);
  CHECK(radix.dynamic_inputs == std::vector<std::string>{"x", "y"});
}

TEST_CASE("eval_const_expr: an interpreter error is NodeEvalPanic") {
  const EmbeddingError e = err(embed::eval_const_expr(kRunaway));
  CHECK(e.kind == Kind::NodeEvalPanic);
  CHECK(e.name == "iteration-limit");
  CHECK(e.message.find("1000000") != std::string::npos);
  CHECK(e.position == std::optional<size_t>(0));  // the loop
  CHECK(e.source == kRunaway);
}

TEST_CASE("eval_const_expr: the same text compiles once") {
  // Texts no other test uses, so that the counts below are this test's own.
  const std::string a = "0x5eed_0001 + 1";
  const std::string b = "0x5eed_0002 + 1";
  const uint64_t before = embed::const_expr_compile_count();
  CHECK(ok(embed::eval_const_expr(a)) == u64(0x5eed0002));
  CHECK(embed::const_expr_compile_count() == before + 1);
  CHECK(ok(embed::eval_const_expr(a)) == u64(0x5eed0002));
  CHECK(ok(embed::eval_const_expr(a)) == u64(0x5eed0002));
  CHECK(embed::const_expr_compile_count() == before + 1);  // hits do not compile
  CHECK(ok(embed::eval_const_expr(b)) == u64(0x5eed0003));
  CHECK(embed::const_expr_compile_count() == before + 2);

  // Errors are outcomes too: cached, not recompiled.
  const std::string bad = "0x5eed_0003 + nope";
  CHECK(err(embed::eval_const_expr(bad)).kind == Kind::LifecycleMismatch);
  CHECK(err(embed::eval_const_expr(bad)).dynamic_inputs == std::vector<std::string>{"nope"});
  CHECK(embed::const_expr_compile_count() == before + 3);

  // The typed surfaces share the cache.
  CHECK(ok(embed::eval_const_expr_typed<uint32_t>(a)) == 0x5eed0002u);
  CHECK(embed::const_expr_compile_count() == before + 3);

  // Clearing empties it; the next call compiles again.
  embed::clear_const_expr_cache();
  CHECK(embed::const_expr_cache_size() == 0);
  CHECK(ok(embed::eval_const_expr(a)) == u64(0x5eed0002));
  CHECK(embed::const_expr_compile_count() == before + 4);
  CHECK(embed::const_expr_cache_size() == 1);
}

TEST_CASE("eval_const_expr: the cache is shared by threads") {
  std::vector<std::string> texts;
  for (int i = 0; i < 6; ++i) texts.push_back("hash(" + std::to_string(7000 + i) + ")");
  std::vector<std::vector<uint64_t>> seen(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 3; ++round)
        for (const std::string& text : texts) {
          auto v = embed::eval_const_expr(text);
          seen[t].push_back(v.ok() ? v->as_u64() : 0);
        }
    });
  for (std::thread& th : threads) th.join();
  const uint64_t before = embed::const_expr_compile_count();
  for (size_t t = 0; t < seen.size(); ++t) {
    REQUIRE(seen[t].size() == 18);
    for (size_t k = 0; k < seen[t].size(); ++k) {
      uint64_t x = 7000 + k % 6;
      CHECK(seen[t][k] == XXH3_64bits(&x, 8));
    }
  }
  for (const std::string& text : texts) CHECK(ok(embed::eval_const_expr(text)).as_u64() != 0);
  CHECK(embed::const_expr_compile_count() == before);  // all six are cached now
}

// ---------------------------------------------------------------------------
// The adapter catalog

TEST_CASE("adapter catalog: the table, pair by pair") {
  auto fid = [](TyKind a, TyKind b) { return embed::find_adapter(ty(a), ty(b)); };
  const std::optional<Fidelity> L = Fidelity::Lossless, Y = Fidelity::Lossy, none = std::nullopt;
  // 11 numeric/bool rows x 12 targets, str -> str, tuple -> str, struct -> str.
  CHECK(embed::adapter_catalog().size() == 11 * 12 + 3);

  // widening within a signedness, and unsigned into a wider signed type
  CHECK(fid(TyKind::U8, TyKind::U16) == L);
  CHECK(fid(TyKind::U32, TyKind::U64) == L);
  CHECK(fid(TyKind::I8, TyKind::I64) == L);
  CHECK(fid(TyKind::U8, TyKind::I16) == L);
  CHECK(fid(TyKind::U32, TyKind::I64) == L);
  // narrowing and sign changes that can lose values
  CHECK(fid(TyKind::U64, TyKind::U8) == Y);
  CHECK(fid(TyKind::I16, TyKind::I8) == Y);
  CHECK(fid(TyKind::U8, TyKind::I8) == Y);
  CHECK(fid(TyKind::U64, TyKind::I64) == Y);
  CHECK(fid(TyKind::I8, TyKind::U64) == Y);
  // integers to floats: exact while the mantissa holds every value (24 / 53 bits)
  CHECK(fid(TyKind::U16, TyKind::F32) == L);
  CHECK(fid(TyKind::I16, TyKind::F32) == L);
  CHECK(fid(TyKind::U32, TyKind::F32) == Y);
  CHECK(fid(TyKind::I32, TyKind::F32) == Y);
  CHECK(fid(TyKind::U32, TyKind::F64) == L);
  CHECK(fid(TyKind::I32, TyKind::F64) == L);
  CHECK(fid(TyKind::U64, TyKind::F64) == Y);
  CHECK(fid(TyKind::I64, TyKind::F64) == Y);
  // floats
  CHECK(fid(TyKind::F32, TyKind::F64) == L);
  CHECK(fid(TyKind::F64, TyKind::F32) == Y);
  CHECK(fid(TyKind::F64, TyKind::U64) == Y);
  CHECK(fid(TyKind::F32, TyKind::I8) == Y);
  // bool: into any number exactly; any number into bool loses
  CHECK(fid(TyKind::Bool, TyKind::U8) == L);
  CHECK(fid(TyKind::Bool, TyKind::I64) == L);
  CHECK(fid(TyKind::Bool, TyKind::F32) == L);
  CHECK(fid(TyKind::U8, TyKind::Bool) == Y);
  CHECK(fid(TyKind::U64, TyKind::Bool) == Y);
  CHECK(fid(TyKind::F64, TyKind::Bool) == Y);
  // str: everything renders into it; it converts to nothing else
  for (TyKind k : {TyKind::Bool, TyKind::U8, TyKind::U64, TyKind::I32, TyKind::F32, TyKind::F64, TyKind::Str})
    CHECK(fid(k, TyKind::Str) == L);
  CHECK(embed::find_adapter(ir::Ty::tuple({ir::Ty::u64(), ir::Ty::boolean()}), ir::Ty::str()) == L);
  CHECK(fid(TyKind::Str, TyKind::U64) == none);
  CHECK(fid(TyKind::Str, TyKind::Bool) == none);
  CHECK(fid(TyKind::Str, TyKind::F64) == none);
  CHECK(embed::find_adapter(ir::Ty::tuple({ir::Ty::u64(), ir::Ty::boolean()}), ir::Ty::u64()) == none);
  CHECK(embed::find_adapter(ir::Ty::unit(), ir::Ty::u64()) == none);
  // identity is lossless for every host kind
  for (const embed::Adapter& a : embed::adapter_catalog())
    if (a.from == a.to) CHECK(a.fidelity == Fidelity::Lossless);
  CHECK(embed::is_lossless_adapter(ty(TyKind::U8), ty(TyKind::U64)));
  CHECK_FALSE(embed::is_lossless_adapter(ty(TyKind::U64), ty(TyKind::U8)));
  CHECK_FALSE(embed::is_lossless_adapter(ty(TyKind::Str), ty(TyKind::U8)));
}

TEST_CASE("adapter catalog: a lossless adapter keeps every value, checked on each type's extremes") {
  auto samples = [](TyKind k) -> std::vector<Value> {
    const ir::Ty t = ir::Ty::scalar(k);
    switch (k) {
      case TyKind::Bool: return {Value::boolean(false), Value::boolean(true)};
      case TyKind::F32: return {Value::f32(0.0f), Value::f32(-1.5f), Value::f32(std::numeric_limits<float>::max()),
                                Value::f32(std::numeric_limits<float>::denorm_min())};
      case TyKind::F64: return {Value::f64(0.0), Value::f64(-1.5), Value::f64(1e300)};
      default: break;
    }
    const unsigned w = t.bits();
    if (t.is_signed_int()) {
      const uint64_t min = uint64_t{1} << (w - 1);  // the pattern of the most negative value
      return {Value::integer(k, 0), Value::integer(k, 1), Value::integer(k, min - 1), Value::integer(k, min),
              Value::integer(k, ~uint64_t{0})};
    }
    return {Value::integer(k, 0), Value::integer(k, 1), Value::integer(k, ~uint64_t{0})};
  };
  int checked = 0;
  for (const embed::Adapter& a : embed::adapter_catalog()) {
    if (a.fidelity != Fidelity::Lossless || a.to == TyKind::Str || a.from == TyKind::Str || a.from == TyKind::Tuple ||
        a.from == TyKind::Struct)
      continue;
    for (const Value& v : samples(a.from)) {
      auto there = embed::adapt_value(v, ty(a.to), AdaptMode::LosslessOnly);
      REQUIRE_MESSAGE(there.ok(), ir::render(v) << " -> " << ir::scalar_name(a.to));
      auto back = embed::adapt_value(*there, ty(a.from), AdaptMode::AllowLossy);
      REQUIRE_MESSAGE(back.ok(), ir::render(*there) << " back to " << ir::scalar_name(a.from));
      CHECK_MESSAGE(*back == v, ir::render(v) << " via " << ir::scalar_name(a.to) << " came back as " << ir::render(*back));
      ++checked;
    }
  }
  CHECK(checked > 150);
}

TEST_CASE("adapter catalog: a lossy adapter applies to values that fit and refuses the rest") {
  auto adapt = [](const Value& v, TyKind to) { return embed::adapt_value(v, ty(to), AdaptMode::AllowLossy, "src"); };
  CHECK(ok(adapt(u64(200), TyKind::U8)) == u8(200));
  CHECK(ok(adapt(u64(127), TyKind::I8)) == Value::integer(TyKind::I8, 127));
  CHECK(ok(adapt(i64(-128), TyKind::I8)) == Value::integer(TyKind::I8, 0x80));
  CHECK(ok(adapt(i64(5), TyKind::U16)) == Value::integer(TyKind::U16, 5));
  CHECK(ok(adapt(Value::f64(-2.9), TyKind::I32)) == Value::integer(TyKind::I32, static_cast<uint32_t>(-2)));
  CHECK(ok(adapt(Value::f64(255.99), TyKind::U8)) == u8(255));
  CHECK(ok(adapt(Value::f64(0.1), TyKind::F32)) == Value::f32(0.1f));
  CHECK(ok(adapt(Value::f64(INFINITY), TyKind::F32)) == Value::f32(INFINITY));  // inf stays inf
  CHECK(ok(adapt(u64(3), TyKind::Bool)) == Value::boolean(true));
  CHECK(ok(adapt(Value::f64(-0.0), TyKind::Bool)) == Value::boolean(false));
  CHECK(ok(adapt(u64(0x20000020000001ull), TyKind::F32)) == Value::f32(0x1.000002p53f));  // rounded once

  struct Misfit {
    Value v;
    TyKind to;
  };
  for (const Misfit& m : {Misfit{u64(256), TyKind::U8}, Misfit{u64(128), TyKind::I8}, Misfit{i64(-1), TyKind::U64},
                          Misfit{i64(-129), TyKind::I8}, Misfit{u64(uint64_t{1} << 63), TyKind::I64},
                          Misfit{Value::f64(256.0), TyKind::U8}, Misfit{Value::f64(-1.0), TyKind::U32},
                          Misfit{Value::f64(NAN), TyKind::I64}, Misfit{Value::f64(1e30), TyKind::I64},
                          Misfit{Value::f64(9223372036854775808.0), TyKind::I64},
                          Misfit{Value::f64(18446744073709551616.0), TyKind::U64},
                          Misfit{Value::f64(1e300), TyKind::F32}}) {
    const EmbeddingError e = err(adapt(m.v, m.to));
    CHECK(e.kind == Kind::TypeMismatch);
    CHECK(e.from_type == m.v.ty());
    CHECK(e.to_type == ty(m.to));
    CHECK(e.source == "src");
    CHECK(e.message.find("does not fit") != std::string::npos);
  }
  // the edges that do fit
  CHECK(ok(adapt(Value::f64(-0.99), TyKind::U8)) == u8(0));                          // truncates to 0
  CHECK(ok(adapt(Value::f64(9223372036854774784.0), TyKind::I64)) == i64(9223372036854774784));  // largest double < 2^63
  CHECK(ok(adapt(Value::f64(-9223372036854775808.0), TyKind::I64)) == i64(std::numeric_limits<int64_t>::min()));
}

TEST_CASE("adapter catalog: LosslessOnly refuses every lossy pair, whatever the value") {
  const EmbeddingError e = err(embed::adapt_value(u64(1), ty(TyKind::U8), AdaptMode::LosslessOnly, "src", "strict"));
  CHECK(e.kind == Kind::TypeMismatch);
  CHECK(e.from_type == ir::Ty::u64());
  CHECK(e.to_type == ty(TyKind::U8));
  CHECK(e.message.find("lossy") != std::string::npos);
  for (const embed::Adapter& a : embed::adapter_catalog()) {
    if (a.fidelity != Fidelity::Lossy) continue;
    const Value zero = Value::zero(ty(a.from));
    CHECK(embed::adapt_value(zero, ty(a.to), AdaptMode::AllowLossy).ok());
    CHECK_FALSE(embed::adapt_value(zero, ty(a.to), AdaptMode::LosslessOnly).ok());
  }
  // no adapter at all
  const EmbeddingError none = err(embed::adapt_value(Value::str("7"), ir::Ty::u64(), AdaptMode::AllowLossy));
  CHECK(none.kind == Kind::TypeMismatch);
  CHECK(none.from_type == ir::Ty::str());
  CHECK(none.message.find("no adapter") != std::string::npos);
}

TEST_CASE("NonePropagated: a unit value reaching a typed surface") {
  const EmbeddingError e = err(embed::value_as<uint64_t>(Value(), AdaptMode::AllowLossy, "src", "my_accessor"));
  CHECK(e.kind == Kind::NonePropagated);
  CHECK(e.accessor == "my_accessor");
  CHECK(e.source == "src");
  CHECK(err(embed::adapt_value(Value(), ir::Ty::str(), AdaptMode::AllowLossy)).kind == Kind::NonePropagated);

  auto k = embed::Kernel::compile("input x: u64\ny := x + 1\n");
  REQUIRE(k.ok());
  const EmbeddingError set = err(k->set("x", Value()));
  CHECK(set.kind == Kind::NonePropagated);
  CHECK(set.accessor == "Kernel::set");
  CHECK(set.name == "x");
}

// ---------------------------------------------------------------------------
// Typed surfaces

TEST_CASE("eval_const_expr_typed: converts through the catalog, lossy where the value fits") {
  CHECK(ok(embed::eval_const_expr_typed<uint64_t>("hash(42)")) == kHash42);
  CHECK(ok(embed::eval_const_expr_typed<uint8_t>("200")) == 200);
  CHECK(ok(embed::eval_const_expr_typed<int32_t>("-5")) == -5);
  CHECK(ok(embed::eval_const_expr_typed<int8_t>("-128")) == -128);
  CHECK(ok(embed::eval_const_expr_typed<uint16_t>("65535")) == 65535);
  CHECK(ok(embed::eval_const_expr_typed<double>("1.5")) == 1.5);
  CHECK(ok(embed::eval_const_expr_typed<double>("7")) == 7.0);
  CHECK(ok(embed::eval_const_expr_typed<float>("1.5")) == 1.5f);
  CHECK(ok(embed::eval_const_expr_typed<int64_t>("2.9")) == 2);
  CHECK(ok(embed::eval_const_expr_typed<int64_t>("-2.9")) == -2);
  CHECK(ok(embed::eval_const_expr_typed<bool>("5")) == true);
  CHECK(ok(embed::eval_const_expr_typed<bool>("0")) == false);
  CHECK(ok(embed::eval_const_expr_typed<bool>("1 < 2")) == true);
  CHECK(ok(embed::eval_const_expr_typed<std::string>("hash(42)")) == "15395265915043915720");
  CHECK(ok(embed::eval_const_expr_typed<std::string>("1.5 as f32")) == "1.5");
  CHECK(ok(embed::eval_const_expr_typed<std::string>("true")) == "true");
  CHECK(ok(embed::eval_const_expr_typed<std::string>("\"x\"")) == "x");
  CHECK(ok(embed::eval_const_expr_typed<long long>("12")) == 12);  // any 64-bit integer type

  const EmbeddingError big = err(embed::eval_const_expr_typed<uint8_t>("300"));
  CHECK(big.kind == Kind::TypeMismatch);
  CHECK(big.from_type == ir::Ty::u64());
  CHECK(big.to_type == ty(TyKind::U8));
  CHECK(big.source == "300");
  CHECK(err(embed::eval_const_expr_typed<uint32_t>("-5")).kind == Kind::TypeMismatch);
  CHECK(err(embed::eval_const_expr_typed<float>("1e300")).kind == Kind::TypeMismatch);
  CHECK(err(embed::eval_const_expr_typed<uint8_t>("1e10")).kind == Kind::TypeMismatch);
  const EmbeddingError str = err(embed::eval_const_expr_typed<uint64_t>("\"abc\""));
  CHECK(str.kind == Kind::TypeMismatch);
  CHECK(str.from_type == ir::Ty::str());
  // errors of the evaluation pass through unchanged
  CHECK(err(embed::eval_const_expr_typed<uint64_t>("hash(cycle)")).kind == Kind::LifecycleMismatch);
}

TEST_CASE("eval_const_expr_strict: lossless adapters only") {
  CHECK(ok(embed::eval_const_expr_strict<uint64_t>("hash(42)")) == kHash42);
  CHECK(ok(embed::eval_const_expr_strict<uint64_t>("200 as u8")) == 200);
  CHECK(ok(embed::eval_const_expr_strict<int64_t>("200 as u32")) == 200);
  CHECK(ok(embed::eval_const_expr_strict<double>("7 as u32")) == 7.0);
  CHECK(ok(embed::eval_const_expr_strict<double>("1.5 as f32")) == 1.5);
  CHECK(ok(embed::eval_const_expr_strict<float>("3 as i16")) == 3.0f);
  CHECK(ok(embed::eval_const_expr_strict<int32_t>("true")) == 1);
  CHECK(ok(embed::eval_const_expr_strict<std::string>("7")) == "7");

  for (const EmbeddingError& e : {err(embed::eval_const_expr_strict<uint8_t>("200")),
                                  err(embed::eval_const_expr_strict<double>("7")),
                                  err(embed::eval_const_expr_strict<float>("1.5")),
                                  err(embed::eval_const_expr_strict<bool>("1")),
                                  err(embed::eval_const_expr_strict<uint64_t>("-1")),
                                  err(embed::eval_const_expr_strict<int64_t>("2.0"))}) {
    CHECK(e.kind == Kind::TypeMismatch);
    CHECK(e.message.find("lossy") != std::string::npos);
    CHECK(e.message.find("eval_const_expr_strict") != std::string::npos);
  }
  const EmbeddingError e = err(embed::eval_const_expr_strict<uint8_t>("200"));
  CHECK(e.from_type == ir::Ty::u64());
  CHECK(e.to_type == ty(TyKind::U8));
}

// ---------------------------------------------------------------------------
// Lookups and interpolation

TEST_CASE("interpolate_via_kernel: placeholders, braces, rendering") {
  embed::MapLookup scope;
  scope.set("dataset", "sift1m").set("k", uint64_t{10}).set("limit", Value::integer(TyKind::U32, 100));
  scope.set("ratio", 1.0).set("flag", true).set("neg", int8_t{-3}).set("braces", std::string("{k}"));
  CHECK(ok(embed::interpolate_via_kernel("data/{dataset}/k{k}_limit{limit}.bin", scope)) ==
        "data/sift1m/k10_limit100.bin");
  CHECK(ok(embed::interpolate_via_kernel("{ratio} {flag} {neg}", scope)) == "1.0 true -3");
  CHECK(ok(embed::interpolate_via_kernel("{{k}} = {k}", scope)) == "{k} = 10");
  CHECK(ok(embed::interpolate_via_kernel("}}{{", scope)) == "}{");
  CHECK(ok(embed::interpolate_via_kernel("{ k }", scope)) == "10");
  CHECK(ok(embed::interpolate_via_kernel("{k}{k}", scope)) == "1010");
  CHECK(ok(embed::interpolate_via_kernel("x{braces}", scope)) == "x{k}");  // one pass: not rescanned
  CHECK(ok(embed::interpolate_via_kernel("", scope)).empty());
  CHECK(ok(embed::interpolate_via_kernel("no placeholders", scope)) == "no placeholders");
}

TEST_CASE("interpolate_via_kernel: unresolved names and malformed placeholders") {
  embed::MapLookup scope{{"k", u64(10)}, {"nothing", Value()}};
  {
    const EmbeddingError e = err(embed::interpolate_via_kernel("a{k}b{missing}", scope));
    CHECK(e.kind == Kind::UnresolvedPlaceholder);
    CHECK(e.name == "missing");
    CHECK(e.position == std::optional<size_t>(5));
    CHECK(e.source == "a{k}b{missing}");
  }
  {  // a unit value is "none": unresolved too
    const EmbeddingError e = err(embed::interpolate_via_kernel("{nothing}", scope));
    CHECK(e.kind == Kind::UnresolvedPlaceholder);
    CHECK(e.name == "nothing");
    CHECK(e.message.find("unit") != std::string::npos);
  }
  struct Bad {
    const char* text;
    size_t position;
  };
  for (const Bad& b : {Bad{"ab{k", 2}, Bad{"a}b", 1}, Bad{"{1+2}", 0}, Bad{"x{}", 1}, Bad{"{a{k}}", 0}, Bad{"{k}}", 3},
                       Bad{"{a b}", 0}}) {
    const EmbeddingError e = err(embed::interpolate_via_kernel(b.text, scope));
    CHECK_MESSAGE(e.kind == Kind::Parse, b.text);
    CHECK_MESSAGE(e.position == std::optional<size_t>(b.position), b.text);
    CHECK(e.source == b.text);
  }
}

TEST_CASE("Layered: front first, back for the rest; unit in front shadows") {
  embed::MapLookup inner{{"k", u64(1)}, {"hidden", Value()}};
  embed::MapLookup outer{{"k", u64(2)}, {"seed", u64(42)}, {"hidden", u64(3)}};
  embed::Layered both(inner, outer);
  CHECK(both.lookup("k") == u64(1));
  CHECK(both.lookup("seed") == u64(42));
  CHECK(both.lookup("hidden") == Value());
  CHECK_FALSE(both.lookup("absent").has_value());
  CHECK(ok(embed::interpolate_via_kernel("{k}-{seed}", both)) == "1-42");
  CHECK(err(embed::interpolate_via_kernel("{hidden}", both)).kind == Kind::UnresolvedPlaceholder);
}

TEST_CASE("eval_kernel_bound: interpolate, then a constant expression") {
  embed::MapLookup scope{{"k", u64(7)}, {"dataset", Value::str("sift1m")}, {"input_name", Value::str("cycle")}};
  CHECK(ok(embed::eval_kernel_bound("{k} > 5", scope)) == u64(1));  // the host asking for bool: the adapter
  CHECK(ok(embed::eval_kernel_bound<bool>("{k} > 5", scope)) == true);
  CHECK(ok(embed::eval_kernel_bound<bool>("{k} > 7", scope)) == false);
  uint64_t seven = 7;
  CHECK(ok(embed::eval_kernel_bound<uint64_t>("hash({k}) % 100", scope)) == XXH3_64bits(&seven, 8) % 100);
  CHECK(ok(embed::eval_kernel_bound<std::string>("\"data/{dataset}\"", scope)) == "data/sift1m");
  CHECK(ok(embed::eval_kernel_bound_strict<uint64_t>("{k} * 2", scope)) == 14);
  CHECK(err(embed::eval_kernel_bound_strict<uint8_t>("{k} * 2", scope)).kind == Kind::TypeMismatch);
  CHECK(ok(embed::eval_kernel_bound<uint8_t>("{k} * 2", scope)) == 14);

  const EmbeddingError missing = err(embed::eval_kernel_bound<bool>("{x} > 1", scope));
  CHECK(missing.kind == Kind::UnresolvedPlaceholder);
  CHECK(missing.name == "x");
  // a substituted name that is still an input: the eval step's lifecycle check
  const EmbeddingError dynamic = err(embed::eval_kernel_bound("hash({input_name})", scope));
  CHECK(dynamic.kind == Kind::LifecycleMismatch);
  CHECK(dynamic.dynamic_inputs == std::vector<std::string>{"cycle"});
  CHECK(dynamic.source == "hash(cycle)");  // the text that was evaluated
}

// ---------------------------------------------------------------------------
// evaluate_spec

TEST_CASE("evaluate_spec: bracket lists") {
  embed::MapLookup scope{{"k", u8(10)}, {"base", u64(1000)}};
  CHECK(ok(embed::evaluate_spec("[1, 10, 100]", scope)) == std::vector<Value>{u64(1), u64(10), u64(100)});
  CHECK(ok(embed::evaluate_spec(" [ max(1, 2), \"a,b\", {base} * 2, k, (3 + 4) * 2 ] ", scope)) ==
        std::vector<Value>{u64(2), Value::str("a,b"), u64(2000), u8(10), u64(14)});
  CHECK(ok(embed::evaluate_spec("[]", scope)).empty());
  CHECK(ok(embed::evaluate_spec("[ ]", scope)).empty());
  CHECK(ok(embed::evaluate_spec("[1.5, true, -2]", scope)) ==
        std::vector<Value>{Value::f64(1.5), Value::boolean(true), i64(-2)});

  const EmbeddingError empty = err(embed::evaluate_spec("[1, , 2]", scope));
  CHECK(empty.kind == Kind::Parse);
  CHECK(empty.position == std::optional<size_t>(4));
  const EmbeddingError dynamic = err(embed::evaluate_spec("[1, x]", scope));
  CHECK(dynamic.kind == Kind::LifecycleMismatch);  // elements do not fall back to literals
  CHECK(dynamic.dynamic_inputs == std::vector<std::string>{"x"});
  CHECK(err(embed::evaluate_spec("[1, {nope}]", scope)).kind == Kind::UnresolvedPlaceholder);
}

TEST_CASE("evaluate_spec: references, placeholders, expressions") {
  embed::MapLookup scope{{"k", u8(10)}, {"name", Value::str("7")}, {"gone", Value()}};
  CHECK(ok(embed::evaluate_spec("k", scope)) == std::vector<Value>{u8(10)});          // the value, its type kept
  CHECK(ok(embed::evaluate_spec("{k}", scope)) == std::vector<Value>{u8(10)});
  CHECK(ok(embed::evaluate_spec("{name}", scope)) == std::vector<Value>{Value::str("7")});  // not re-parsed
  CHECK(ok(embed::evaluate_spec("{k} * 2", scope)) == std::vector<Value>{u64(20)});
  CHECK(ok(embed::evaluate_spec("2 ** 10", scope)) == std::vector<Value>{u64(1024)});
  CHECK(ok(embed::evaluate_spec("  42  ", scope)) == std::vector<Value>{u64(42)});
  CHECK(ok(embed::evaluate_spec("", scope)).empty());
  CHECK(err(embed::evaluate_spec("{missing}", scope)).kind == Kind::UnresolvedPlaceholder);
  CHECK(err(embed::evaluate_spec("gone", scope)).kind == Kind::UnresolvedPlaceholder);
  CHECK(err(embed::evaluate_spec("{missing} + 1", scope)).kind == Kind::UnresolvedPlaceholder);
}

TEST_CASE("evaluate_spec: the typed literal-list fallback") {
  embed::MapLookup scope{{"k", u64(5)}};
  CHECK(ok(embed::evaluate_spec("1, 2, 3", scope)) == std::vector<Value>{u64(1), u64(2), u64(3)});
  CHECK(ok(embed::evaluate_spec("0xFF, 1_000, -2, 1.5, 1e3, true, false", scope)) ==
        std::vector<Value>{u64(255), u64(1000), i64(-2), Value::f64(1.5), Value::f64(1000.0), Value::boolean(true),
                           Value::boolean(false)});
  CHECK(ok(embed::evaluate_spec("sift1m, glove-100, \"a, b\"", scope)) ==
        std::vector<Value>{Value::str("sift1m"), Value::str("glove-100"), Value::str("a, b")});
  CHECK(ok(embed::evaluate_spec("abc", scope)) == std::vector<Value>{Value::str("abc")});  // an input: not constant
  CHECK(ok(embed::evaluate_spec("1 $ 2", scope)) == std::vector<Value>{Value::str("1 $ 2")});
  CHECK(ok(embed::evaluate_spec("{k}, {k}0", scope)) == std::vector<Value>{u64(5), u64(50)});
  CHECK(ok(embed::evaluate_spec("f(1, 2), 3", scope)) == std::vector<Value>{Value::str("f(1, 2)"), u64(3)});
  CHECK(ok(embed::evaluate_spec("99999999999999999999, inf", scope)) ==
        std::vector<Value>{Value::str("99999999999999999999"), Value::str("inf")});

  const EmbeddingError empty = err(embed::evaluate_spec("a, , b", scope));
  CHECK(empty.kind == Kind::Parse);
  CHECK(empty.position == std::optional<size_t>(3));
  // A run-time failure is not "not an expression": it is returned, not read as
  // text. (A loop body's braces are doubled: the text is interpolated first.)
  CHECK(err(embed::evaluate_spec("loop (i = 0) while i >= 0 {{ i = i + 1 }} yield i", scope)).kind ==
        Kind::NodeEvalPanic);
  CHECK(err(embed::evaluate_spec(kRunaway, scope)).kind == Kind::Parse);  // `{ i = i + 1 }` is no placeholder
}

// ---------------------------------------------------------------------------
// Kernel

TEST_CASE("Kernel: signature, set, evaluate, lookup") {
  auto compiled = embed::Kernel::compile(
      "input cycle: u64\n"
      "extern limit: u64 = 1000\n"
      "id := mod(hash(cycle), limit)\n");
  REQUIRE_MESSAGE(compiled.ok(), compiled.error().to_string());
  embed::Kernel k = std::move(compiled).value();
  REQUIRE(k.params().size() == 2);
  CHECK(k.params()[0].name == "cycle");
  CHECK(k.params()[0].ty == ir::Ty::u64());
  CHECK_FALSE(k.params()[0].is_extern);
  CHECK(k.params()[1].name == "limit");
  CHECK(k.params()[1].is_extern);
  CHECK(k.params()[1].default_value == u64(1000));
  CHECK(k.input_names() == std::vector<std::string>{"cycle"});
  CHECK(k.extern_names() == std::vector<std::string>{"limit"});
  CHECK(k.output_names() == std::vector<std::string>{"id"});
  CHECK(k.outputs()[0].ty == ir::Ty::u64());

  // lookups before evaluation: the extern's default, nothing else
  CHECK(k.lookup("limit") == u64(1000));
  CHECK_FALSE(k.lookup("cycle").has_value());
  CHECK_FALSE(k.lookup("id").has_value());

  const EmbeddingError unset = err(k.evaluate());
  CHECK(unset.kind == Kind::UnresolvedPlaceholder);
  CHECK(unset.name == "cycle");

  REQUIRE(k.set("cycle", uint64_t{42}).ok());
  CHECK(ok(k.evaluate()) == std::vector<Value>{u64(15395265915043915720ull % 1000)});
  CHECK(k.lookup("id") == u64(720));
  REQUIRE(k.set("limit", uint32_t{100}).ok());  // u32 -> u64 is lossless
  CHECK(ok(k.evaluate()) == std::vector<Value>{u64(20)});
  CHECK(k.lookup("limit") == u64(100));

  // a host interpolates against the kernel it evaluated
  CHECK(ok(embed::interpolate_via_kernel("c{cycle}-l{limit}-id{id}", k)) == "c42-l100-id20");
  CHECK(ok(embed::eval_kernel_bound<bool>("{id} < {limit}", k)) == true);
  embed::MapLookup extra{{"id", u64(1)}, {"run", Value::str("r1")}};
  embed::Layered layered(extra, k);
  CHECK(ok(embed::interpolate_via_kernel("{run}:{id}:{cycle}", layered)) == "r1:1:42");

  // refused writes
  const EmbeddingError lossy = err(k.set("limit", 100));  // an int is i32: i32 -> u64 is lossy
  CHECK(lossy.kind == Kind::TypeMismatch);
  CHECK(lossy.from_type == ty(TyKind::I32));
  CHECK(lossy.to_type == ir::Ty::u64());
  CHECK(lossy.name == "limit");
  CHECK(err(k.set("cycle", "12")).kind == Kind::TypeMismatch);  // str converts to nothing
  const EmbeddingError typo = err(k.set("limt", uint64_t{1}));
  CHECK(typo.kind == Kind::UnknownNode);
  CHECK(typo.name == "limt");
  CHECK(typo.suggestion == std::optional<std::string>("limit"));
  const EmbeddingError output = err(k.set("id", uint64_t{1}));
  CHECK(output.kind == Kind::UnknownNode);
  CHECK(output.message.find("is an output") != std::string::npos);
  CHECK(k.lookup("limit") == u64(100));  // refused writes change nothing

  // a moved kernel keeps working
  embed::Kernel moved = std::move(k);
  REQUIRE(moved.set("cycle", uint64_t{0}).ok());
  uint64_t zero = 0;
  CHECK(ok(moved.evaluate()) == std::vector<Value>{u64(XXH3_64bits(&zero, 8) % 100)});
}

TEST_CASE("Kernel: inferred inputs, several outputs, floats and strings") {
  auto sum = embed::Kernel::compile("s := a + b\nd := a * b\n");
  REQUIRE(sum.ok());
  CHECK(sum->input_names() == std::vector<std::string>{"a", "b"});
  CHECK(sum->output_names() == std::vector<std::string>{"s", "d"});
  REQUIRE(sum->set("a", uint64_t{6}).ok());
  REQUIRE(sum->set("b", uint8_t{7}).ok());
  CHECK(ok(sum->evaluate()) == std::vector<Value>{u64(13), u64(42)});

  auto f = embed::Kernel::compile("input x: f32\ny := x * 2.0\n");
  REQUIRE(f.ok());
  REQUIRE(f->set("x", 1.5f).ok());
  CHECK(ok(f->evaluate()) == std::vector<Value>{Value::f32(3.0f)});
  CHECK(err(f->set("x", 1.5)).kind == Kind::TypeMismatch);  // f64 -> f32 is lossy
  REQUIRE(f->set("x", uint16_t{4}).ok());                     // u16 -> f32 is exact
  CHECK(ok(f->evaluate()) == std::vector<Value>{Value::f32(8.0f)});

  auto s = embed::Kernel::compile("input s: str\nextern name: str = \"ab\"\nlabel := \"n={name}-{s}\"\n");
  REQUIRE(s.ok());
  REQUIRE(s->set("s", uint64_t{42}).ok());  // anything renders into str
  CHECK(ok(s->evaluate()) == std::vector<Value>{Value::str("n=ab-42")});
  REQUIRE(s->set("name", "xy").ok());
  CHECK(ok(s->evaluate()) == std::vector<Value>{Value::str("n=xy-42")});

  auto none = embed::Kernel::compile("x := 3\n");
  REQUIRE(none.ok());
  CHECK(none->params().empty());
  CHECK(ok(none->evaluate()) == std::vector<Value>{u64(3)});
}

TEST_CASE("Kernel: compile errors and run-time errors") {
  {
    const EmbeddingError e = err(embed::Kernel::compile("input x: u64\ny := x + z\n"));
    CHECK(e.kind == Kind::Parse);
    CHECK(e.diagnostic == frontend::DiagKind::UnknownName);
    CHECK(e.position == std::optional<size_t>(22));
  }
  {
    const EmbeddingError e = err(embed::Kernel::compile("y := hsh(1)\n"));
    CHECK(e.kind == Kind::UnknownNode);
    CHECK(e.name == "hsh");
    CHECK(e.suggestion == std::optional<std::string>("hash"));
    CHECK(e.position == std::optional<size_t>(5));
  }
  {
    const EmbeddingError e = err(embed::Kernel::compile("input x: u64\nconst c := x + 1\ny := c\n"));
    CHECK(e.kind == Kind::LifecycleMismatch);
    CHECK(e.diagnostic == frontend::DiagKind::ConstDependsOnInput);
    CHECK(e.dynamic_inputs == std::vector<std::string>{"x"});
  }
  {
    const EmbeddingError e = err(embed::Kernel::compile("y: u8 := \"s\"\n"));
    CHECK(e.kind == Kind::TypeMismatch);
  }
  ir::InterpOptions small;
  small.max_iterations = 10;
  auto k = embed::Kernel::compile("input n: u64\nt := loop (i = 0) while i < n { i = i + 1 } yield i\n", small);
  REQUIRE(k.ok());
  REQUIRE(k->set("n", uint64_t{10}).ok());
  CHECK(ok(k->evaluate()) == std::vector<Value>{u64(10)});
  REQUIRE(k->set("n", uint64_t{11}).ok());
  const EmbeddingError e = err(k->evaluate());
  CHECK(e.kind == Kind::NodeEvalPanic);
  CHECK(e.name == "iteration-limit");
  CHECK(e.position == std::optional<size_t>(18));  // the loop
  CHECK(k->lookup("t") == u64(10));                // the last good outputs remain
}

// ---------------------------------------------------------------------------
// The error type itself

TEST_CASE("EmbeddingError: names and text for people") {
  CHECK(embed::kind_name(Kind::Parse) == "parse");
  CHECK(embed::kind_name(Kind::UnresolvedPlaceholder) == "unresolved-placeholder");
  CHECK(embed::kind_name(Kind::LifecycleMismatch) == "lifecycle-mismatch");
  CHECK(embed::kind_name(Kind::UnknownNode) == "unknown-node");
  CHECK(embed::kind_name(Kind::TypeMismatch) == "type-mismatch");
  CHECK(embed::kind_name(Kind::NodeEvalPanic) == "node-eval-panic");
  CHECK(embed::kind_name(Kind::NonePropagated) == "none-propagated");

  CHECK(err(embed::eval_const_expr("1 $ 2")).to_string() ==
        "parse error at byte 2: unexpected character '$' (in `1 $ 2`)");
  CHECK(err(embed::eval_const_expr("hsh(1)")).to_string() ==
        "unknown node at byte 0: unknown function 'hsh'; did you mean 'hash'? (in `hsh(1)`)");
  CHECK(err(embed::eval_const_expr("hash(cycle) + seed")).to_string() ==
        "lifecycle mismatch: depends on run-time inputs (cycle, seed); a constant expression cannot read them "
        "(in `hash(cycle) + seed`)");
  CHECK(err(embed::eval_const_expr_typed<uint8_t>("300")).to_string() ==
        "type mismatch (u64 -> u8): 300 does not fit in u8 (in `300`)");
  embed::MapLookup none;
  CHECK(err(embed::interpolate_via_kernel("a{b}", none)).to_string() ==
        "unresolved placeholder {b} at byte 1: no value for 'b' (in `a{b}`)");
  CHECK(err(embed::value_as<bool>(Value(), AdaptMode::AllowLossy, "t", "acc")).to_string() ==
        "none propagated: acc received a unit (none) value (in `t`)");
  CHECK(err(embed::eval_const_expr(kRunaway)).to_string().rfind("evaluation failed at byte 0: ", 0) == 0);
}
