#include "frontend/embed.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <mutex>

#include "frontend/compile.h"
#include "ir/pass_pipeline.h"
#include "ir/semantics.h"

namespace polydat::embed {

using ir::TyKind;
using ir::Value;

// ---------------------------------------------------------------------------
// Errors

std::string_view kind_name(EmbeddingError::Kind k) {
  switch (k) {
    case EmbeddingError::Kind::Parse: return "parse";
    case EmbeddingError::Kind::UnresolvedPlaceholder: return "unresolved-placeholder";
    case EmbeddingError::Kind::LifecycleMismatch: return "lifecycle-mismatch";
    case EmbeddingError::Kind::UnknownNode: return "unknown-node";
    case EmbeddingError::Kind::TypeMismatch: return "type-mismatch";
    case EmbeddingError::Kind::NodeEvalPanic: return "node-eval-panic";
    case EmbeddingError::Kind::NonePropagated: return "none-propagated";
  }
  return "unknown";
}

namespace {
EmbeddingError make(EmbeddingError::Kind k, std::string source, std::string message) {
  EmbeddingError e;
  e.kind = k;
  e.source = std::move(source);
  e.message = std::move(message);
  return e;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}
}  // namespace

EmbeddingError EmbeddingError::parse(std::string source, std::string message, std::optional<size_t> position) {
  EmbeddingError e = make(Kind::Parse, std::move(source), std::move(message));
  e.position = position;
  return e;
}

EmbeddingError EmbeddingError::unresolved_placeholder(std::string source, std::string name) {
  EmbeddingError e = make(Kind::UnresolvedPlaceholder, std::move(source), "no value for '" + name + "'");
  e.name = std::move(name);
  return e;
}

EmbeddingError EmbeddingError::lifecycle_mismatch(std::string source, std::vector<std::string> dynamic_inputs) {
  EmbeddingError e = make(Kind::LifecycleMismatch, std::move(source),
                          "depends on run-time inputs (" + join(dynamic_inputs) + "); a constant expression cannot read them");
  e.dynamic_inputs = std::move(dynamic_inputs);
  return e;
}

EmbeddingError EmbeddingError::unknown_node(std::string source, std::string name, std::optional<std::string> suggestion) {
  std::string message = "unknown function '" + name + "'";
  if (suggestion) message += "; did you mean '" + *suggestion + "'?";
  EmbeddingError e = make(Kind::UnknownNode, std::move(source), std::move(message));
  e.name = std::move(name);
  e.suggestion = std::move(suggestion);
  return e;
}

EmbeddingError EmbeddingError::type_mismatch(std::string source, std::optional<ir::Ty> from, std::optional<ir::Ty> to,
                                             std::string message) {
  EmbeddingError e = make(Kind::TypeMismatch, std::move(source), std::move(message));
  e.from_type = std::move(from);
  e.to_type = std::move(to);
  return e;
}

EmbeddingError EmbeddingError::node_eval_panic(std::string source, std::string message) {
  return make(Kind::NodeEvalPanic, std::move(source), std::move(message));
}

EmbeddingError EmbeddingError::none_propagated(std::string source, std::string accessor) {
  EmbeddingError e = make(Kind::NonePropagated, std::move(source), accessor + " received a unit (none) value");
  e.accessor = std::move(accessor);
  return e;
}

std::string EmbeddingError::to_string() const {
  std::string out;
  switch (kind) {
    case Kind::Parse: out = "parse error"; break;
    case Kind::UnresolvedPlaceholder: out = "unresolved placeholder {" + name + "}"; break;
    case Kind::LifecycleMismatch: out = "lifecycle mismatch"; break;
    case Kind::UnknownNode: out = "unknown node"; break;
    case Kind::TypeMismatch:
      out = "type mismatch";
      if (from_type && to_type) out += " (" + ir::ty_label(*from_type) + " -> " + ir::ty_label(*to_type) + ")";
      break;
    case Kind::NodeEvalPanic: out = "evaluation failed"; break;
    case Kind::NonePropagated: out = "none propagated"; break;
  }
  if (position) out += " at byte " + std::to_string(*position);
  out += ": " + message;
  out += " (in `" + source + "`)";
  return out;
}

// ---------------------------------------------------------------------------
// The adapter catalog

namespace {
// The host-facing target kinds: the matrix's columns.
constexpr std::array<TyKind, 12> kTargets = {TyKind::Bool, TyKind::U8,  TyKind::U16, TyKind::U32,
                                             TyKind::U64,  TyKind::I8,  TyKind::I16, TyKind::I32,
                                             TyKind::I64,  TyKind::F32, TyKind::F64, TyKind::Str};

struct CatalogRow {
  TyKind from;
  const char* cells;  // one per target: '=' identity, 'L' lossless, 'y' lossy, '.' no adapter
};

// THE CATALOG. Lossless: widening within a signedness, unsigned -> a wider
// signed type, integers -> a float whose mantissa holds them (24 bits for f32,
// 53 for f64), bool -> any number, f32 -> f64, anything -> str (rendered).
// Lossy: narrowing, signed -> unsigned, unsigned -> signed of the same or a
// smaller width, wide integers -> floats, floats -> integers, f64 -> f32,
// anything numeric -> bool. str converts to nothing but itself.
constexpr CatalogRow kCatalog[] = {
    //                 to: b 8 16 32 64 | i8 16 32 64 | f32 f64 | str
    {TyKind::Bool,   "=LLLLLLLLLLL"},
    {TyKind::U8,     "y=LLLyLLLLLL"},
    {TyKind::U16,    "yy=LLyyLLLLL"},
    {TyKind::U32,    "yyy=LyyyLyLL"},
    {TyKind::U64,    "yyyy=yyyyyyL"},
    {TyKind::I8,     "yyyyy=LLLLLL"},
    {TyKind::I16,    "yyyyyy=LLLLL"},
    {TyKind::I32,    "yyyyyyy=LyLL"},
    {TyKind::I64,    "yyyyyyyy=yyL"},
    {TyKind::F32,    "yyyyyyyyy=LL"},
    {TyKind::F64,    "yyyyyyyyyy=L"},
    {TyKind::Str,    "...........="},
    {TyKind::Tuple,  "...........L"},
    {TyKind::Struct, "...........L"},
};

std::vector<Adapter> build_catalog() {
  std::vector<Adapter> out;
  for (const CatalogRow& row : kCatalog)
    for (size_t c = 0; c < kTargets.size(); ++c) {
      const char cell = row.cells[c];
      if (cell == '.') continue;
      out.push_back(Adapter{row.from, kTargets[c], cell == 'y' ? Fidelity::Lossy : Fidelity::Lossless});
    }
  return out;
}
}  // namespace

std::span<const Adapter> adapter_catalog() {
  static const std::vector<Adapter> catalog = build_catalog();
  return catalog;
}

std::optional<Fidelity> find_adapter(const ir::Ty& from, const ir::Ty& to) {
  for (const Adapter& a : adapter_catalog())
    if (a.from == from.kind() && a.to == to.kind()) return a.fidelity;
  return std::nullopt;
}

bool is_lossless_adapter(const ir::Ty& from, const ir::Ty& to) {
  auto f = find_adapter(from, to);
  return f && *f == Fidelity::Lossless;
}

namespace {
// Whether the integer value v is a value of integer type `to` (no wrapping).
bool int_fits(const Value& v, const ir::Ty& to) {
  const unsigned w = to.bits();
  if (v.ty().is_signed_int()) {
    const int64_t s = v.as_i64();
    if (to.is_unsigned_int()) return s >= 0 && (w >= 64 || static_cast<uint64_t>(s) < (uint64_t{1} << w));
    if (w >= 64) return true;
    const int64_t half = int64_t{1} << (w - 1);
    return s >= -half && s < half;
  }
  const uint64_t u = v.as_u64();
  if (to.is_unsigned_int()) return w >= 64 || u < (uint64_t{1} << w);
  return u < (uint64_t{1} << (w - 1));
}

// Whether the float value v, truncated toward zero, is a value of integer type `to`.
bool float_fits_int(const Value& v, const ir::Ty& to) {
  const double d = v.ty().kind() == TyKind::F32 ? static_cast<double>(v.as_f32()) : v.as_f64();
  if (std::isnan(d)) return false;
  const double t = std::trunc(d);
  const int w = static_cast<int>(to.bits());
  if (to.is_unsigned_int()) return t >= 0.0 && t < std::ldexp(1.0, w);
  return t >= -std::ldexp(1.0, w - 1) && t < std::ldexp(1.0, w - 1);
}
}  // namespace

Result<Value> adapt_value(const Value& v, const ir::Ty& to, AdaptMode mode, std::string_view source,
                          std::string_view accessor) {
  if (v.ty().is_unit()) return EmbeddingError::none_propagated(std::string(source), std::string(accessor));
  const ir::Ty& from = v.ty();
  if (from == to) return v;  // any type, a partition's struct too, arrives as it is
  const auto fidelity = find_adapter(from, to);
  if (!fidelity)
    return EmbeddingError::type_mismatch(std::string(source), from, to,
                                         "no adapter converts " + ir::ty_label(from) + " to " + ir::ty_label(to));
  if (mode == AdaptMode::LosslessOnly && *fidelity == Fidelity::Lossy) {
    // The catalog judges the pair of types, not the value: a comparison's u64 1 or 0 is refused as a bool too.
    const std::string hint = from.is_int() && to.is_bool() ? " (a comparison is the u64 1 or 0; `(...) as bool` makes it a bool)" : "";
    return EmbeddingError::type_mismatch(std::string(source), from, to,
                                         "the adapter from " + ir::ty_label(from) + " to " + ir::ty_label(to) +
                                             " is lossy; " + std::string(accessor) + " accepts lossless adapters only" + hint);
  }
  if (to.is_str()) return Value::str(ir::render(v));
  auto misfit = [&] {
    return EmbeddingError::type_mismatch(std::string(source), from, to,
                                         ir::render(v) + " does not fit in " + ir::ty_label(to));
  };
  if (from.is_int() && to.is_int() && !int_fits(v, to)) return misfit();
  if (from.is_float() && to.is_int() && !float_fits_int(v, to)) return misfit();
  Value out = ir::eval_cast(v, to);
  if (from.kind() == TyKind::F64 && to.kind() == TyKind::F32 && std::isfinite(v.as_f64()) && !std::isfinite(out.as_f32()))
    return misfit();
  return out;
}

// ---------------------------------------------------------------------------
// Compiler diagnostics -> errors

namespace {
using frontend::DiagKind;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  return std::all_of(s.begin() + 1, s.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

enum class Group { Parse, UnknownNode, Type, Lifecycle };

Group group_of(DiagKind k) {
  switch (k) {
    case DiagKind::UnknownFunction: return Group::UnknownNode;
    case DiagKind::TypeMismatch:
    case DiagKind::SignedUnsignedMix:
    case DiagKind::LiteralOutOfRange:
    case DiagKind::ZeroDivisor:
    case DiagKind::TupleMisuse:
    case DiagKind::ArgumentCount:
    case DiagKind::UnknownArgument:
    case DiagKind::DuplicateArgument:
    case DiagKind::MissingArgument: return Group::Type;
    case DiagKind::NotConstant:
    case DiagKind::ConstDependsOnInput: return Group::Lifecycle;
    default: return Group::Parse;  // lexing, syntax, and the structure of the text
  }
}

bool is_lexical_or_syntax(DiagKind k) {
  switch (k) {
    case DiagKind::UnexpectedCharacter:
    case DiagKind::UnterminatedString:
    case DiagKind::UnterminatedComment:
    case DiagKind::InvalidEscape:
    case DiagKind::InvalidNumber:
    case DiagKind::IntegerTooLarge:
    case DiagKind::Syntax:
    case DiagKind::NestingTooDeep: return true;
    default: return false;
  }
}

// Where the user's text sits in the compiled file: file `file`, its byte 0 at
// `offset` of that file. Positions outside it are not the user's.
// Where the user's text sits in the compiled file: `prefix` bytes of wrapper
// come first, and the first `skipped` bytes of the user's text (leading
// blanks) were left out. Positions in other files (modules) are not the user's.
struct TextFrame {
  uint32_t file = 0;
  size_t prefix = 0;
  size_t skipped = 0;
  size_t size = 0;

  std::optional<size_t> position(uint32_t in_file, size_t start) const {
    if (in_file != file) return std::nullopt;
    if (start < prefix) return 0;
    return std::min(start - prefix + skipped, size);
  }
};

const frontend::Diagnostic* first_error(const frontend::Diagnostics& ds) {
  for (const frontend::Diagnostic& d : ds.list())
    if (d.severity == frontend::Severity::Error) return &d;
  return nullptr;
}

std::vector<std::string> dynamic_input_names(const frontend::Program& p) {
  std::vector<std::string> names;
  if (p.units.empty()) return names;
  for (const frontend::Port& port : p.units[0].params)
    if (!port.is_extern) names.push_back(port.name);
  return names;
}

EmbeddingError from_diagnostic(const frontend::Program& p, const frontend::Diagnostic& d, std::string source,
                               const TextFrame& frame) {
  EmbeddingError e;
  switch (group_of(d.kind)) {
    case Group::UnknownNode: {
      const std::string& file = p.sources.file(d.span.file).text;
      std::string name = file.substr(d.span.start, d.span.end - d.span.start);
      std::optional<std::string> suggestion;
      const std::string_view marker = "did you mean '";
      if (size_t at = d.message.find(marker); at != std::string::npos) {
        const size_t b = at + marker.size();
        if (size_t q = d.message.find('\'', b); q != std::string::npos) suggestion = d.message.substr(b, q - b);
      }
      e = EmbeddingError::unknown_node(std::move(source), std::move(name), std::move(suggestion));
      break;
    }
    case Group::Type: e = EmbeddingError::type_mismatch(std::move(source), std::nullopt, std::nullopt, d.message); break;
    case Group::Lifecycle:
      e = EmbeddingError::lifecycle_mismatch(std::move(source), dynamic_input_names(p));
      e.message = d.message;
      break;
    case Group::Parse: e = EmbeddingError::parse(std::move(source), d.message, std::nullopt); break;
  }
  e.position = frame.position(d.span.file, d.span.start);
  e.diagnostic = d.kind;
  return e;
}

EmbeddingError from_interp(const ir::InterpError& err, std::string source, const TextFrame& frame) {
  EmbeddingError e = EmbeddingError::node_eval_panic(std::move(source), err.message);
  e.name = std::string(ir::interp_error_name(err.kind));
  if (err.loc.line != 0) e.position = frame.position(err.loc.file, err.loc.start);
  return e;
}

// The value of output 0 of a kernel's result record.
Value first_output(const Value& result) { return result.ty().is_product() ? result.elems().at(0) : result; }

// ---------------------------------------------------------------------------
// eval_const_expr and its cache

constexpr std::string_view kPrefix = "out := ";

Result<Value> compile_and_run_const(std::string_view text) {
  const std::string source(text);
  size_t lead = 0;
  while (lead < text.size() && is_space(text[lead])) ++lead;
  std::string wrapped(kPrefix);
  wrapped.append(text.substr(lead));
  const auto r = frontend::compile_source("<expr>", std::move(wrapped));
  const frontend::Program& p = *r.program;
  const TextFrame frame{0, kPrefix.size(), lead, text.size()};
  const frontend::Diagnostic* err = first_error(p.diags);
  if (err && is_lexical_or_syntax(err->kind)) return from_diagnostic(p, *err, source, frame);
  // One expression, not several statements smuggled in with ';' or a newline.
  if (!p.units.empty() && p.units[0].ast && p.units[0].ast->stmts.size() > 1) {
    const frontend::Stmt& second = *p.units[0].ast->stmts[1];
    return EmbeddingError::parse(source, "the text must be one expression, not several statements",
                                 frame.position(second.span.file, second.span.start));
  }
  if (err) return from_diagnostic(p, *err, source, frame);
  if (!r.ok()) return EmbeddingError::parse(source, "the text did not compile", std::nullopt);
  if (auto inputs = dynamic_input_names(p); !inputs.empty())
    return EmbeddingError::lifecycle_mismatch(source, std::move(inputs));
  ir::Interpreter interp(*r.ir);
  auto out = interp.run(Value());
  if (!out) return from_interp(out.error(), source, frame);
  return first_output(*out);
}

constexpr size_t kMaxCachedTexts = size_t{1} << 16;

struct ConstCache {
  std::mutex mu;
  std::map<std::string, Result<Value>, std::less<>> entries;
  std::atomic<uint64_t> compiles{0};
};

ConstCache& const_cache() {
  static ConstCache cache;
  return cache;
}
}  // namespace

Result<Value> eval_const_expr(std::string_view text) {
  ConstCache& c = const_cache();
  {
    std::lock_guard lock(c.mu);
    if (auto it = c.entries.find(text); it != c.entries.end()) return it->second;
  }
  // Compile outside the lock; when two threads race on one text, the first
  // outcome stored wins (both are the same: compilation is deterministic).
  c.compiles.fetch_add(1, std::memory_order_relaxed);
  Result<Value> outcome = compile_and_run_const(text);
  std::lock_guard lock(c.mu);
  // A bounded cache: a `where` over a million tuples asks a million texts once each.
  if (c.entries.size() >= kMaxCachedTexts) c.entries.clear();
  return c.entries.emplace(std::string(text), std::move(outcome)).first->second;
}

uint64_t const_expr_compile_count() { return const_cache().compiles.load(std::memory_order_relaxed); }

size_t const_expr_cache_size() {
  ConstCache& c = const_cache();
  std::lock_guard lock(c.mu);
  return c.entries.size();
}

void clear_const_expr_cache() {
  ConstCache& c = const_cache();
  std::lock_guard lock(c.mu);
  c.entries.clear();
}

// ---------------------------------------------------------------------------
// Lookups and interpolation

MapLookup& MapLookup::set(std::string name, Value v) {
  values_.insert_or_assign(std::move(name), std::move(v));
  return *this;
}

std::optional<Value> MapLookup::lookup(std::string_view name) const {
  if (auto it = values_.find(name); it != values_.end()) return it->second;
  return std::nullopt;
}

std::optional<Value> Layered::lookup(std::string_view name) const {
  if (auto v = front_.lookup(name)) return v;
  return back_.lookup(name);
}

namespace {
// The bound, non-unit value of `name`, or UnresolvedPlaceholder.
Result<Value> resolve(std::string_view name, const Lookup& lookup, std::string_view source, size_t at) {
  auto v = lookup.lookup(name);
  if (v && !v->ty().is_unit()) return *v;
  EmbeddingError e = EmbeddingError::unresolved_placeholder(std::string(source), std::string(name));
  if (v) e.message = "'" + std::string(name) + "' holds a unit (none) value";
  e.position = at;
  return e;
}
}  // namespace

Result<std::string> interpolate_via_kernel(std::string_view text, const Lookup& lookup) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        out += '}';
        i += 2;
        continue;
      }
      return EmbeddingError::parse(std::string(text), "a '}' closes no placeholder (write '}}' for a brace)", i);
    }
    if (c != '{') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      out += '{';
      i += 2;
      continue;
    }
    const size_t close = text.find_first_of("{}", i + 1);
    if (close == std::string_view::npos || text[close] == '{')
      return EmbeddingError::parse(std::string(text), "this '{' is not closed by a '}'", i);
    const std::string_view name = trim(text.substr(i + 1, close - i - 1));
    if (!is_identifier(name))
      return EmbeddingError::parse(std::string(text),
                                   "placeholder '{" + std::string(text.substr(i + 1, close - i - 1)) + "}' is not a name", i);
    auto v = resolve(name, lookup, text, i);
    if (!v) return v.error();
    out += ir::render(*v);
    i = close + 1;
  }
  return out;
}

Result<Value> eval_kernel_bound(std::string_view text, const Lookup& lookup) {
  auto text2 = interpolate_via_kernel(text, lookup);
  if (!text2) return text2.error();
  return eval_const_expr(*text2);
}

// ---------------------------------------------------------------------------
// evaluate_spec

namespace {
struct Piece {
  std::string_view text;  // trimmed
  size_t at;              // its offset in the split text
};

// Splits at commas outside (), [], {} and "strings"; each piece trimmed.
std::vector<Piece> split_top_level(std::string_view s) {
  std::vector<Piece> out;
  int depth = 0;
  bool in_string = false;
  size_t begin = 0;
  auto cut = [&](size_t end) {
    std::string_view raw = s.substr(begin, end - begin);
    size_t lead = 0;
    while (lead < raw.size() && is_space(raw[lead])) ++lead;
    out.push_back(Piece{trim(raw), begin + lead});
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if (c == ',' && depth == 0) {
      cut(i);
      begin = i + 1;
    }
  }
  cut(s.size());
  return out;
}

// Where the bracket (or brace) opening s[0] closes, or npos.
size_t matching_close(std::string_view s) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i;
    }
  }
  return std::string_view::npos;
}

// An integer literal of the language (42, 1_000, 0xFF, 0b1010, 0o17) with an optional '-'.
std::optional<Value> literal_integer(std::string_view s) {
  bool negative = false;
  if (!s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  unsigned base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' || s[1] == 'B' || s[1] == 'o' || s[1] == 'O')) {
    base = (s[1] | 0x20) == 'x' ? 16 : (s[1] | 0x20) == 'b' ? 2 : 8;
    s.remove_prefix(2);
  }
  if (s.empty() || s[0] == '_') return std::nullopt;
  unsigned __int128 mag = 0;
  for (char c : s) {
    if (c == '_') continue;
    const char l = static_cast<char>(c | 0x20);
    const unsigned d = c >= '0' && c <= '9' ? static_cast<unsigned>(c - '0')
                       : l >= 'a' && l <= 'f' ? static_cast<unsigned>(l - 'a' + 10)
                                              : 99;
    if (d >= base) return std::nullopt;
    mag = mag * base + d;
    if (mag > UINT64_MAX) return std::nullopt;
  }
  if (!negative) return Value::integer(TyKind::U64, static_cast<uint64_t>(mag));
  if (mag > (static_cast<unsigned __int128>(1) << 63)) return std::nullopt;
  return Value::integer(TyKind::I64, static_cast<uint64_t>(-static_cast<__int128>(mag)));
}

// A float literal (3.14, 1e-3, 2.5E10, 1_000.5) with an optional '-'.
std::optional<Value> literal_float(std::string_view s) {
  std::string digits;
  size_t i = 0;
  if (i < s.size() && s[i] == '-') digits += s[i++];
  auto run = [&] {
    const size_t start = i;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || (s[i] == '_' && i > start))) {
      if (s[i] != '_') digits += s[i];
      ++i;
    }
    return i > start;
  };
  if (!run()) return std::nullopt;
  bool fractional = false;
  if (i < s.size() && s[i] == '.') {
    digits += s[i++];
    if (!run()) return std::nullopt;
    fractional = true;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    digits += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) digits += s[i++];
    if (!run()) return std::nullopt;
    fractional = true;
  }
  if (i != s.size() || !fractional) return std::nullopt;
  return Value::f64(std::strtod(digits.c_str(), nullptr));
}

// "..." with \n \t \\ \" unescaped (other escapes kept as written).
std::optional<Value> literal_string(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
  std::string out;
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size()) {
      const char n = s[++i];
      if (n == 'n') out += '\n';
      else if (n == 't') out += '\t';
      else if (n == '\\' || n == '"') out += n;
      else (out += '\\') += n;
      continue;
    }
    if (s[i] == '"') return std::nullopt;  // two strings, not one
    out += s[i];
  }
  return Value::str(std::move(out));
}

Result<std::vector<Value>> literal_list(std::string_view text) {
  std::vector<Value> out;
  for (const Piece& p : split_top_level(text)) {
    if (p.text.empty()) return EmbeddingError::parse(std::string(text), "an empty item in a list", p.at);
    if (p.text == "true" || p.text == "false") out.push_back(Value::boolean(p.text == "true"));
    else if (auto i = literal_integer(p.text)) out.push_back(*i);
    else if (auto f = literal_float(p.text)) out.push_back(*f);
    else if (auto s = literal_string(p.text)) out.push_back(*s);
    else out.push_back(Value::str(std::string(p.text)));
  }
  return out;
}

bool falls_back(EmbeddingError::Kind k) {
  using K = EmbeddingError::Kind;
  return k == K::Parse || k == K::LifecycleMismatch || k == K::UnknownNode || k == K::TypeMismatch;
}
}  // namespace

Result<std::vector<Value>> evaluate_spec(std::string_view text, const Lookup& lookup) {
  const std::string_view t = trim(text);
  if (t.empty()) return std::vector<Value>{};
  const size_t lead = static_cast<size_t>(t.data() - text.data());

  // [a, b, ...]
  if (t.front() == '[' && matching_close(t) == t.size() - 1) {
    std::vector<Value> out;
    const std::string_view inner = t.substr(1, t.size() - 2);
    if (trim(inner).empty()) return out;
    for (const Piece& p : split_top_level(inner)) {
      if (p.text.empty()) return EmbeddingError::parse(std::string(text), "an empty element in a list", lead + 1 + p.at);
      if (is_identifier(p.text) && lookup.lookup(p.text)) {  // a bare name the lookup binds
        auto r = resolve(p.text, lookup, text, lead + 1 + p.at);
        if (!r) return r.error();
        out.push_back(*r);
        continue;
      }
      auto v = eval_kernel_bound(p.text, lookup);
      if (!v) return v.error();
      out.push_back(*v);
    }
    return out;
  }

  // k: a bare reference the lookup has
  if (is_identifier(t) && lookup.lookup(t)) {
    auto v = resolve(t, lookup, text, lead);
    if (!v) return v.error();
    return std::vector<Value>{*v};
  }

  // {k}: the value itself, keeping its type
  if (t.size() > 2 && t.front() == '{' && t[1] != '{' && t.find('}') == t.size() - 1 && t.find('{', 1) == std::string_view::npos) {
    const std::string_view name = trim(t.substr(1, t.size() - 2));
    if (is_identifier(name)) {
      auto v = resolve(name, lookup, text, lead);
      if (!v) return v.error();
      return std::vector<Value>{*v};
    }
  }

  // an expression, else a literal list
  auto text2 = interpolate_via_kernel(text, lookup);
  if (!text2) return text2.error();
  auto v = eval_const_expr(*text2);
  if (v) return std::vector<Value>{*v};
  if (!falls_back(v.error().kind)) return v.error();
  return literal_list(trim(*text2));
}

// ---------------------------------------------------------------------------
// Kernel

struct Kernel::State {
  State(std::string src, std::shared_ptr<const ir::CategoryIr> graph, ir::InterpOptions options)
      : source(std::move(src)), ir(std::move(graph)), interp(*ir, options), interp_options(options) {}

  std::string source;
  std::shared_ptr<const ir::CategoryIr> ir;  // shared by forks
  ir::Interpreter interp;  // the engine, or what reports another engine's stops
  ir::InterpOptions interp_options;
  std::shared_ptr<const Program> program;  // another engine's compiled kernel, shared by forks
  std::unique_ptr<Runner> runner;          // this kernel's state on it
  ir::Ty input_ty;
  std::vector<KernelPort> params;
  std::vector<KernelPort> outputs;
  std::vector<std::optional<Value>> set_values;  // per param
  std::optional<std::vector<Value>> last;        // outputs of the last evaluation
  TextFrame frame;
};

Kernel::Kernel(std::unique_ptr<State> s) : s_(std::move(s)) {}
Kernel::Kernel(Kernel&&) noexcept = default;
Kernel& Kernel::operator=(Kernel&&) noexcept = default;
Kernel::~Kernel() = default;

Result<Kernel> Kernel::compile(std::string_view text, ir::InterpOptions options) {
  KernelOptions o;
  o.interp = options;
  return compile(text, o);
}

Result<Kernel> Kernel::compile(std::string_view text, const KernelOptions& options) {
  frontend::CompileOptions copts = options.compile;
  if (!options.outputs.empty()) copts.outputs = options.outputs;
  auto r = frontend::compile_source("<kernel>", std::string(text), copts);
  const frontend::Program& p = *r.program;
  const TextFrame frame{0, 0, 0, text.size()};
  if (const frontend::Diagnostic* err = first_error(p.diags)) return from_diagnostic(p, *err, std::string(text), frame);
  if (!r.ok()) return EmbeddingError::parse(std::string(text), "the kernel did not compile", std::nullopt);
  auto s = std::make_unique<State>(std::string(text), std::make_shared<const ir::CategoryIr>(std::move(*r.ir)),
                                   options.interp);
  if (options.engine) {
    auto opt = ir::optimize(*s->ir);
    if (!opt) return EmbeddingError::node_eval_panic(std::string(text), "the optimiser failed: " + opt.error().message);
    std::vector<bool> is_extern;
    for (const frontend::Port& port : r.kernel().params) is_extern.push_back(port.is_extern);
    auto program = options.engine(*opt, is_extern);
    if (!program) return EmbeddingError::node_eval_panic(std::string(text), "the engine cannot run this kernel: " + program.error());
    s->program = std::move(*program);
    s->runner = s->program->runner();
  }
  s->input_ty = s->ir->object(s->ir->func(s->ir->entry()).input).ty;
  for (const frontend::Port& port : r.kernel().params)
    s->params.push_back(KernelPort{port.name, port.ty, port.is_extern, port.default_constant});
  for (const frontend::Port& port : r.kernel().outputs) s->outputs.push_back(KernelPort{port.name, port.ty, false, {}});
  s->set_values.resize(s->params.size());
  s->frame = frame;
  return Kernel(std::move(s));
}

Kernel Kernel::fork() const {
  auto s = std::make_unique<State>(s_->source, s_->ir, s_->interp_options);
  s->program = s_->program;
  if (s->program) s->runner = s->program->runner();
  s->input_ty = s_->input_ty;
  s->params = s_->params;
  s->outputs = s_->outputs;
  s->set_values = s_->set_values;
  s->frame = s_->frame;
  return Kernel(std::move(s));
}

const std::string& Kernel::source() const { return s_->source; }
const std::vector<KernelPort>& Kernel::params() const { return s_->params; }
const std::vector<KernelPort>& Kernel::outputs() const { return s_->outputs; }

std::vector<std::string> Kernel::input_names() const {
  std::vector<std::string> out;
  for (const KernelPort& p : s_->params)
    if (!p.is_extern) out.push_back(p.name);
  return out;
}

std::vector<std::string> Kernel::extern_names() const {
  std::vector<std::string> out;
  for (const KernelPort& p : s_->params)
    if (p.is_extern) out.push_back(p.name);
  return out;
}

std::vector<std::string> Kernel::output_names() const {
  std::vector<std::string> out;
  for (const KernelPort& p : s_->outputs) out.push_back(p.name);
  return out;
}

ir::Expected<void, EmbeddingError> Kernel::set(std::string_view name, const Value& v) {
  size_t i = 0;
  while (i < s_->params.size() && s_->params[i].name != name) ++i;
  if (i == s_->params.size()) {
    std::vector<std::string> names;
    for (const KernelPort& p : s_->params) names.push_back(p.name);
    std::string near = frontend::closest_name(name, names);
    EmbeddingError e = EmbeddingError::unknown_node(s_->source, std::string(name),
                                                    near.empty() ? std::nullopt : std::optional(near));
    const bool is_output = std::any_of(s_->outputs.begin(), s_->outputs.end(), [&](const KernelPort& p) { return p.name == name; });
    e.message = (is_output ? "'" + std::string(name) + "' is an output; only inputs and externs can be set"
                           : "the kernel has no input or extern '" + std::string(name) + "'") +
                (near.empty() ? "" : "; did you mean '" + near + "'?");
    return e;
  }
  auto a = adapt_value(v, s_->params[i].ty, AdaptMode::LosslessOnly, s_->source, "Kernel::set");
  if (!a) {
    EmbeddingError e = a.error();
    e.name = std::string(name);
    e.message = "setting '" + std::string(name) + "': " + e.message;
    return e;
  }
  s_->set_values[i] = std::move(*a);
  return {};
}

Result<std::vector<Value>> Kernel::evaluate() {
  std::vector<Value> fields;
  for (size_t i = 0; i < s_->params.size(); ++i) {
    const KernelPort& p = s_->params[i];
    if (s_->set_values[i]) fields.push_back(*s_->set_values[i]);
    else if (p.default_value) fields.push_back(*p.default_value);
    else {
      EmbeddingError e = EmbeddingError::unresolved_placeholder(s_->source, p.name);
      e.message = "input '" + p.name + "' has no value; give it one with Kernel::set";
      return e;
    }
  }
  const Value arg = s_->input_ty.is_unit() ? Value() : Value::structure(s_->input_ty, std::move(fields));
  if (s_->runner)
    if (std::optional<Value> out = s_->runner->run(arg)) return remember_outputs(*out);
  // The interpreter: the engine, or the judge of why another engine stopped.
  auto out = s_->interp.run(arg);
  if (!out) return from_interp(out.error(), s_->source, s_->frame);
  if (s_->runner) return EmbeddingError::node_eval_panic(s_->source, "internal: the engine stopped, the interpreter did not");
  return remember_outputs(*out);
}

Result<std::vector<Value>> Kernel::remember_outputs(const Value& out) {
  std::vector<Value> values = out.ty().is_product() ? out.elems()
                              : out.ty().is_unit()  ? std::vector<Value>{}  // a kernel of cells only
                                                    : std::vector<Value>{out};
  s_->last = values;
  return values;
}

std::optional<Value> Kernel::lookup(std::string_view name) const {
  for (size_t i = 0; i < s_->params.size(); ++i) {
    if (s_->params[i].name != name) continue;
    if (s_->set_values[i]) return s_->set_values[i];
    return s_->params[i].default_value;
  }
  if (s_->last)
    for (size_t i = 0; i < s_->outputs.size(); ++i)
      if (s_->outputs[i].name == name) return (*s_->last)[i];
  return std::nullopt;
}

}  // namespace polydat::embed
