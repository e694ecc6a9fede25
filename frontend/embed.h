// The embedding API: how a host program evaluates GK text.
//
//   eval_const_expr          text -> one value (compiled once per text, cached)
//   eval_const_expr_typed<T> the same, converted to a host type by the adapter catalog
//   interpolate_via_kernel   "{name}" placeholders -> rendered values from a Lookup
//   eval_kernel_bound        interpolate, then evaluate as a constant expression
//   evaluate_spec            text -> a list of values (for_each clause sources)
//   Kernel                   a compiled kernel a host sets, evaluates and reads
//
// Every failure is returned as an EmbeddingError value; nothing here throws
// for a bad input. See docs/embedding.md.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "frontend/diagnostics.h"
#include "frontend/program.h"
#include "ir/expected.h"
#include "ir/interp.h"
#include "ir/ty.h"
#include "ir/value.h"

namespace polydat::embed {

// ---------------------------------------------------------------------------
// The error ontology

struct EmbeddingError {
  enum class Kind : uint8_t {
    Parse,                  // the text is not well-formed (lexing, syntax, structure, placeholders)
    UnresolvedPlaceholder,  // a name the text needs has no value in the lookup (or holds unit)
    LifecycleMismatch,      // a constant surface was given text that reads inputs
    UnknownNode,            // a call (or a Kernel::set) names a function/port that does not exist
    TypeMismatch,           // a type error in the text, or a conversion the adapter catalog refuses
    NodeEvalPanic,          // evaluation failed at run time (the interpreter reported an error)
    NonePropagated,         // a unit ("none") value reached a typed surface
  };

  Kind kind = Kind::Parse;
  std::string source;   // the text the failing step was given (after interpolation, for eval steps)
  std::string message;  // one line for people; the compiler's or interpreter's message where there is one

  // Kind-specific context; fields a kind does not use stay empty.
  std::optional<size_t> position;           // the byte offset in `source` the error points at: set for
                                            // Parse, and for any error from a compiler diagnostic, a
                                            // placeholder or the interpreter (when in the caller's text)
  std::string name;                         // UnresolvedPlaceholder, UnknownNode: the name; NodeEvalPanic:
                                            // the interpreter's error kind; Kernel::set errors: the port
  std::optional<std::string> suggestion;    // UnknownNode: a close known name
  std::vector<std::string> dynamic_inputs;  // LifecycleMismatch: the inputs the text reads
  std::optional<ir::Ty> from_type;          // TypeMismatch: the value's type, when known
  std::optional<ir::Ty> to_type;            // TypeMismatch: the type it was to become, when known
  std::string accessor;                     // NonePropagated: the typed surface that refused the unit value
  std::optional<frontend::DiagKind> diagnostic;  // the compiler diagnostic this came from, if any

  // "parse error at byte 3: unexpected character '$' (in `1 $ 2`)" and the like.
  std::string to_string() const;

  static EmbeddingError parse(std::string source, std::string message, std::optional<size_t> position);
  static EmbeddingError unresolved_placeholder(std::string source, std::string name);
  static EmbeddingError lifecycle_mismatch(std::string source, std::vector<std::string> dynamic_inputs);
  static EmbeddingError unknown_node(std::string source, std::string name, std::optional<std::string> suggestion);
  static EmbeddingError type_mismatch(std::string source, std::optional<ir::Ty> from, std::optional<ir::Ty> to,
                                      std::string message);
  static EmbeddingError node_eval_panic(std::string source, std::string message);
  static EmbeddingError none_propagated(std::string source, std::string accessor);
};

// "parse", "unresolved-placeholder", "lifecycle-mismatch", "unknown-node",
// "type-mismatch", "node-eval-panic", "none-propagated".
std::string_view kind_name(EmbeddingError::Kind k);

template <class T>
using Result = ir::Expected<T, EmbeddingError>;

// ---------------------------------------------------------------------------
// Host types and the adapter catalog

// The host types the typed surfaces produce and Kernel::set accepts: bool,
// the fixed-width integers, float, double, std::string.
template <class T>
concept HostScalar = std::is_same_v<T, bool> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
                     std::is_same_v<T, std::string> ||
                     (std::is_integral_v<T> && !std::is_same_v<T, char> && !std::is_same_v<T, wchar_t> &&
                      !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
                      !std::is_same_v<T, char32_t> && sizeof(T) <= 8);

// The IR type a host type corresponds to: uint32_t -> u32, float -> f32, std::string -> str.
template <HostScalar T>
constexpr ir::TyKind host_kind() {
  using ir::TyKind;
  if constexpr (std::is_same_v<T, bool>) return TyKind::Bool;
  else if constexpr (std::is_same_v<T, float>) return TyKind::F32;
  else if constexpr (std::is_same_v<T, double>) return TyKind::F64;
  else if constexpr (std::is_same_v<T, std::string>) return TyKind::Str;
  else if constexpr (std::is_signed_v<T>)
    return sizeof(T) == 1 ? TyKind::I8 : sizeof(T) == 2 ? TyKind::I16 : sizeof(T) == 4 ? TyKind::I32 : TyKind::I64;
  else
    return sizeof(T) == 1 ? TyKind::U8 : sizeof(T) == 2 ? TyKind::U16 : sizeof(T) == 4 ? TyKind::U32 : TyKind::U64;
}

enum class Fidelity : uint8_t {
  Lossless,  // every value of the source type arrives unchanged (identity, widening, exact float, rendering)
  Lossy,     // some values cannot arrive unchanged (narrowing, sign changes, float -> int, -> bool, f64 -> f32)
};

enum class AdaptMode : uint8_t {
  AllowLossy,    // the default typed surfaces: lossy adapters apply; a value that does not fit is refused
  LosslessOnly,  // the strict surfaces and Kernel::set: lossy adapters are refused for every value
};

// One row of the catalog: a conversion from an IR type kind to a host-facing kind.
struct Adapter {
  ir::TyKind from;
  ir::TyKind to;
  Fidelity fidelity;
};

// The whole catalog, in table order (rows bool..str, tuple, struct; targets bool..str).
// A pair that is not listed has no adapter.
std::span<const Adapter> adapter_catalog();

// The catalog's entry for (from, to), or nullopt when no adapter exists.
// `to` must be a host-facing kind (bool, an integer, a float, str).
std::optional<Fidelity> find_adapter(const ir::Ty& from, const ir::Ty& to);
bool is_lossless_adapter(const ir::Ty& from, const ir::Ty& to);

// Converts `v` to type `to` through the catalog. Refused (TypeMismatch): a pair
// with no adapter; a lossy pair under LosslessOnly; under AllowLossy a value
// outside the target's range (300 -> u8, -1 -> u32, NaN or 1e30 -> an integer,
// a finite f64 beyond f32's range). A float -> integer conversion truncates
// toward zero; integer -> bool and float -> bool are "nonzero". A unit value is
// NonePropagated. `source` and `accessor` fill the error's provenance.
Result<ir::Value> adapt_value(const ir::Value& v, const ir::Ty& to, AdaptMode mode, std::string_view source = {},
                              std::string_view accessor = "adapt_value");

// A host value as an IR value of its own type (uint8_t 7 -> u8 7).
template <HostScalar T>
ir::Value to_value(const T& x) {
  constexpr ir::TyKind k = host_kind<T>();
  if constexpr (k == ir::TyKind::Bool) return ir::Value::boolean(x);
  else if constexpr (k == ir::TyKind::F32) return ir::Value::f32(x);
  else if constexpr (k == ir::TyKind::F64) return ir::Value::f64(x);
  else if constexpr (k == ir::TyKind::Str) return ir::Value::str(x);
  else return ir::Value::integer(k, static_cast<uint64_t>(x));
}

// An IR value as host type T through the catalog (see adapt_value).
template <HostScalar T>
Result<T> value_as(const ir::Value& v, AdaptMode mode = AdaptMode::AllowLossy, std::string_view source = {},
                   std::string_view accessor = "value_as") {
  constexpr ir::TyKind k = host_kind<T>();
  auto a = adapt_value(v, ir::Ty::scalar(k), mode, source, accessor);
  if (!a) return a.error();
  const ir::Value& w = *a;
  if constexpr (k == ir::TyKind::Bool) return w.as_bool();
  else if constexpr (k == ir::TyKind::F32) return w.as_f32();
  else if constexpr (k == ir::TyKind::F64) return w.as_f64();
  else if constexpr (k == ir::TyKind::Str) return w.as_str();
  else if constexpr (std::is_signed_v<T>) return static_cast<T>(w.as_i64());
  else return static_cast<T>(w.as_u64());
}

// ---------------------------------------------------------------------------
// Constant expressions

// Compiles `text` as the one binding `out := <text>` and evaluates it once on
// the interpreter. Text that reads any name it does not bind (an inferred
// input) is LifecycleMismatch. Outcomes (values and errors) are cached per
// text, shared by all threads; past 65,536 texts the cache starts afresh
// (memory stays bounded however many texts a host asks).
Result<ir::Value> eval_const_expr(std::string_view text);

// eval_const_expr, then the catalog to T: lossy adapters apply when the value fits.
template <HostScalar T>
Result<T> eval_const_expr_typed(std::string_view text) {
  auto v = eval_const_expr(text);
  if (!v) return v.error();
  return value_as<T>(*v, AdaptMode::AllowLossy, text, "eval_const_expr_typed");
}

// eval_const_expr, then the catalog to T with lossless adapters only.
template <HostScalar T>
Result<T> eval_const_expr_strict(std::string_view text) {
  auto v = eval_const_expr(text);
  if (!v) return v.error();
  return value_as<T>(*v, AdaptMode::LosslessOnly, text, "eval_const_expr_strict");
}

// How many texts eval_const_expr has compiled in this process (cache misses).
uint64_t const_expr_compile_count();
// Entries in the cache, and emptying it (for tests and long-running hosts).
size_t const_expr_cache_size();
void clear_const_expr_cache();

// ---------------------------------------------------------------------------
// Name lookup and interpolation

// Where `{name}` placeholders and bare references find their values.
class Lookup {
 public:
  virtual ~Lookup() = default;
  // The value bound to `name`, or nullopt when there is none. A unit value
  // means "bound, but holding nothing"; interpolation refuses it.
  virtual std::optional<ir::Value> lookup(std::string_view name) const = 0;
};

// A fixed name -> value table.
class MapLookup final : public Lookup {
 public:
  MapLookup() = default;
  MapLookup(std::initializer_list<std::pair<const std::string, ir::Value>> values) : values_(values) {}
  MapLookup& set(std::string name, ir::Value v);
  template <HostScalar T>
  MapLookup& set(std::string name, const T& x) {
    return set(std::move(name), to_value(x));
  }
  MapLookup& set(std::string name, const char* text) { return set(std::move(name), ir::Value::str(text)); }
  std::optional<ir::Value> lookup(std::string_view name) const override;

 private:
  std::map<std::string, ir::Value, std::less<>> values_;
};

// `front` first; `back` for the names front has no value for. A unit value in
// front shadows back (the name exists there, holding nothing). Both are
// borrowed: they must outlive the Layered.
class Layered final : public Lookup {
 public:
  Layered(const Lookup& front, const Lookup& back) : front_(front), back_(back) {}
  std::optional<ir::Value> lookup(std::string_view name) const override;

 private:
  const Lookup& front_;
  const Lookup& back_;
};

// Replaces each `{name}` in `text` by ir::render of the lookup's value, in one
// pass (substituted text is not scanned again). `{{` and `}}` are literal
// braces; spaces around the name are ignored. Errors: a name the lookup lacks,
// or that holds unit -> UnresolvedPlaceholder; an unclosed `{`, a stray `}`,
// or a placeholder that is not an identifier -> Parse (with its position).
Result<std::string> interpolate_via_kernel(std::string_view text, const Lookup& lookup);

// interpolate_via_kernel, then eval_const_expr on the result.
Result<ir::Value> eval_kernel_bound(std::string_view text, const Lookup& lookup);

template <HostScalar T>
Result<T> eval_kernel_bound(std::string_view text, const Lookup& lookup) {
  auto text2 = interpolate_via_kernel(text, lookup);
  if (!text2) return text2.error();
  auto v = eval_const_expr(*text2);
  if (!v) return v.error();
  return value_as<T>(*v, AdaptMode::AllowLossy, *text2, "eval_kernel_bound");
}

template <HostScalar T>
Result<T> eval_kernel_bound_strict(std::string_view text, const Lookup& lookup) {
  auto text2 = interpolate_via_kernel(text, lookup);
  if (!text2) return text2.error();
  auto v = eval_const_expr(*text2);
  if (!v) return v.error();
  return value_as<T>(*v, AdaptMode::LosslessOnly, *text2, "eval_kernel_bound_strict");
}

// A list of values from a clause source, by the first form that applies:
//   ""/blank         -> no values
//   [a, b, ...]      -> each element: a bare name the lookup has -> its value;
//                       else interpolated and const-evaluated (top-level commas
//                       split; commas in (), [], {} or strings do not)
//   k                -> the lookup's value of k (a bare identifier it has)
//   {k}              -> the lookup's value of k, unrendered (keeps its type)
//   anything else    -> interpolated, then eval_const_expr; if that text is not
//                       a constant expression (Parse, LifecycleMismatch,
//                       UnknownNode, TypeMismatch), typed literal items split at
//                       top-level commas: an unsigned integer -> u64, a negative
//                       one -> i64, a float -> f64, true/false -> bool, a
//                       quoted string -> str (unquoted), anything else -> str.
// Interpolation errors and run-time failures (NodeEvalPanic) are returned.
Result<std::vector<ir::Value>> evaluate_spec(std::string_view text, const Lookup& lookup);

// ---------------------------------------------------------------------------
// Compiled kernels

struct KernelPort {
  std::string name;
  ir::Ty ty;
  bool is_extern = false;                    // params only
  std::optional<ir::Value> default_value;    // an extern's default
};

// A compiled kernel with its own interpreter. Set its inputs (and, if wanted,
// externs), evaluate, read the outputs. It is a Lookup over its inputs and
// externs (set or defaulted) and the outputs of its last evaluation, so text
// can be interpolated against it. Not shared between threads: compile one per
// thread, or guard it.
// The engine a Kernel runs on: the interpreter by default, or another that
// compiles the kernel once into a Program (sim/llvm/native_embed.h: native
// code). Kernels forked from one share its Program; each has a Runner of its
// own (the program/state split: one compiled program, a state per thread).
class Runner {
 public:
  virtual ~Runner() = default;
  // One evaluation: the entry's input record in, its output record out;
  // nullopt when this engine cannot finish it (the interpreter then says why).
  virtual std::optional<ir::Value> run(const ir::Value& input) = 0;
};
class Program {
 public:
  virtual ~Program() = default;
  virtual std::unique_ptr<Runner> runner() const = 0;
};
// Makes the Program of a kernel from its optimised IR; `is_extern` flags the input record's ports.
using ProgramFactory = std::function<ir::Expected<std::shared_ptr<const Program>, std::string>(
    const ir::CategoryIr& optimized, const std::vector<bool>& is_extern)>;

struct KernelOptions {
  ir::InterpOptions interp;          // the interpreter's limits (also what reports another engine's stops)
  std::vector<std::string> outputs;  // only these outputs, in this order (only their cone is compiled); empty: the kernel's own
  ProgramFactory engine;             // empty: the interpreter
  // The compiler's options (scope_cells, rename_bindings, -L paths, ...);
  // `outputs` above, when not empty, takes the place of compile.outputs.
  frontend::CompileOptions compile;
};

class Kernel final : public Lookup {
 public:
  static Result<Kernel> compile(std::string_view text, ir::InterpOptions options = {});
  static Result<Kernel> compile(std::string_view text, const KernelOptions& options);

  // A kernel of the same compiled program with a state of its own and the
  // same values set: one per thread, none shared.
  Kernel fork() const;

  Kernel(Kernel&&) noexcept;
  Kernel& operator=(Kernel&&) noexcept;
  ~Kernel() override;

  const std::string& source() const;
  // Inputs and externs in the order of the kernel's input record.
  const std::vector<KernelPort>& params() const;
  const std::vector<KernelPort>& outputs() const;
  std::vector<std::string> input_names() const;   // the non-extern params
  std::vector<std::string> extern_names() const;
  std::vector<std::string> output_names() const;

  // Binds an input or extern through the catalog, lossless adapters only.
  // Errors: no such param (UnknownNode, with a suggestion), a unit value
  // (NonePropagated), a refused conversion (TypeMismatch).
  ir::Expected<void, EmbeddingError> set(std::string_view name, const ir::Value& v);
  template <HostScalar T>
  ir::Expected<void, EmbeddingError> set(std::string_view name, const T& x) {
    return set(name, to_value(x));
  }
  ir::Expected<void, EmbeddingError> set(std::string_view name, const char* text) {
    return set(name, ir::Value::str(text));
  }

  // Runs the kernel; the outputs in order. An input never set is
  // UnresolvedPlaceholder (its name); an interpreter error is NodeEvalPanic.
  Result<std::vector<ir::Value>> evaluate();

  std::optional<ir::Value> lookup(std::string_view name) const override;

 private:
  struct State;
  explicit Kernel(std::unique_ptr<State> s);
  Result<std::vector<ir::Value>> remember_outputs(const ir::Value& out);
  std::unique_ptr<State> s_;
};

}  // namespace polydat::embed
