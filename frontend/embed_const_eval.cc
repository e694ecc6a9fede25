// eval_const_expr: a text compiled as one binding and run once on the
// interpreter, its outcome kept in a process-wide cache.
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "frontend/compile.h"
#include "frontend/embed.h"
#include "frontend/embed_internal.h"

namespace polydat::embed {

using ir::Value;

namespace {
using frontend::DiagKind;
using namespace internal;

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

// The value of output 0 of a kernel's result record.
Value first_output(const Value& result) { return result.ty().is_product() ? result.elems().at(0) : result; }

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

}  // namespace polydat::embed
