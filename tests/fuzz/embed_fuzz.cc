// libFuzzer target: any bytes through the embedding API (frontend/embed.h).
// The last bytes choose a surface and the values; the rest is the text it is
// given: a constant expression, a template with {placeholders}, a clause
// spec, a kernel compiled, fed and evaluated, or values adapted through the
// catalog. Whatever the input: a result or an EmbeddingError with a known
// kind and a position inside its source, never a crash, a hang or a
// sanitizer report.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/embed.h"

namespace embed = polydat::embed;
using polydat::ir::Ty;
using polydat::ir::TyKind;
using polydat::ir::Value;

namespace {

// The contract every error keeps: a named kind, and a position inside the text it names.
void check(const embed::EmbeddingError& e) {
  if (embed::kind_name(e.kind).empty()) __builtin_trap();
  if (e.position && *e.position > e.source.size()) __builtin_trap();
  (void)e.to_string();
}

template <class R>
void check(const R& r) {
  if (!r) check(r.error());
}

// A value of a host-facing kind from fuzzed bits.
Value value_of(TyKind k, uint64_t bits, FuzzedDataProvider& in) {
  switch (k) {
    case TyKind::Bool: return Value::boolean(bits & 1);
    case TyKind::F32: return Value::f32(in.ConsumeFloatingPoint<float>());
    case TyKind::F64: return Value::f64(in.ConsumeFloatingPoint<double>());
    case TyKind::Str: return Value::str(in.ConsumeRandomLengthString(16));
    default: return Value::integer(k, bits);
  }
}

constexpr TyKind kKinds[] = {TyKind::Bool, TyKind::U8,  TyKind::U16, TyKind::U32, TyKind::U64, TyKind::I8,
                             TyKind::I16,  TyKind::I32, TyKind::I64, TyKind::F32, TyKind::F64, TyKind::Str};

TyKind pick_kind(FuzzedDataProvider& in) { return in.PickValueInArray(kKinds); }

// A few names for templates and specs to find, of every kind.
embed::MapLookup lookup_of(FuzzedDataProvider& in) {
  embed::MapLookup names;
  names.set("n", Value::integer(TyKind::U64, in.ConsumeIntegral<uint64_t>()));
  names.set("k", Value::integer(TyKind::I32, in.ConsumeIntegral<uint32_t>()));
  names.set("x", Value::f64(in.ConsumeFloatingPoint<double>()));
  names.set("b", Value::boolean(in.ConsumeBool()));
  names.set("s", Value::str(in.ConsumeRandomLengthString(12)));
  names.set("none", Value());
  return names;
}

// A kernel compiled, every input set (sometimes with another type, sometimes a
// name it lacks), evaluated, its ports looked up.
void fuzz_kernel(FuzzedDataProvider& in, const std::string& text) {
  polydat::ir::InterpOptions options;
  options.max_iterations = 10'000;  // keeps a hostile loop inside libFuzzer's time limit
  auto kernel = embed::Kernel::compile(text, options);
  if (!kernel) return check(kernel.error());
  for (const embed::KernelPort& p : kernel->params()) {
    const TyKind k = in.ConsumeBool() ? p.ty.kind() : pick_kind(in);
    if (k == TyKind::Tuple || k == TyKind::Struct) continue;
    check(kernel->set(p.name, value_of(k, in.ConsumeIntegral<uint64_t>(), in)));
  }
  check(kernel->set(in.ConsumeRandomLengthString(8), Value::boolean(true)));
  for (int round = 0; round < 2; ++round) check(kernel->evaluate());
  for (const std::string& name : kernel->output_names()) (void)kernel->lookup(name);
  (void)kernel->lookup(in.ConsumeRandomLengthString(8));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 14) return 0;
  FuzzedDataProvider in(data, size);
  const int surface = in.ConsumeIntegralInRange<int>(0, 6);
  const uint64_t bits = in.ConsumeIntegral<uint64_t>();
  const embed::MapLookup names = lookup_of(in);
  const std::string text = in.ConsumeRandomLengthString(4096);
  switch (surface) {
    case 0: check(embed::eval_const_expr(text)); break;
    case 1: check(embed::eval_const_expr_strict<int64_t>(text)); break;
    case 2: check(embed::interpolate_via_kernel(text, names)); break;
    case 3: check(embed::eval_kernel_bound(text, names)); break;
    case 4: check(embed::evaluate_spec(text, names)); break;
    case 5: fuzz_kernel(in, text); break;
    default: {
      // Every catalog pair, both modes, on a fuzzed value.
      const TyKind from = pick_kind(in), to = pick_kind(in);
      const Value v = value_of(from, bits, in);
      for (auto mode : {embed::AdaptMode::AllowLossy, embed::AdaptMode::LosslessOnly}) {
        auto r = embed::adapt_value(v, Ty::scalar(to), mode, text);
        check(r);
        // A lossless pair never refuses a value.
        if (!r && mode == embed::AdaptMode::LosslessOnly && embed::is_lossless_adapter(Ty::scalar(from), Ty::scalar(to))) __builtin_trap();
      }
    }
  }
  return 0;
}
