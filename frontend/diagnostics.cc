#include "frontend/diagnostics.h"

#include <algorithm>
#include <cstdio>

namespace polydat::frontend {

std::string_view diag_kind_name(DiagKind k) {
  switch (k) {
    case DiagKind::FileNotFound: return "file-not-found";
    case DiagKind::BinaryFile: return "binary-file";
    case DiagKind::UnexpectedCharacter: return "unexpected-character";
    case DiagKind::UnterminatedString: return "unterminated-string";
    case DiagKind::UnterminatedComment: return "unterminated-comment";
    case DiagKind::InvalidEscape: return "invalid-escape";
    case DiagKind::InvalidNumber: return "invalid-number";
    case DiagKind::IntegerTooLarge: return "integer-too-large";
    case DiagKind::Syntax: return "syntax";
    case DiagKind::NestingTooDeep: return "nesting-too-deep";
    case DiagKind::UnknownName: return "unknown-name";
    case DiagKind::UnknownFunction: return "unknown-function";
    case DiagKind::ShadowedLibrary: return "shadowed-library";
    case DiagKind::Redefinition: return "redefinition";
    case DiagKind::BuiltinRedefinition: return "builtin-redefinition";
    case DiagKind::CyclicBinding: return "cyclic-binding";
    case DiagKind::RecursiveModule: return "recursive-module";
    case DiagKind::UnknownOutput: return "unknown-output";
    case DiagKind::NoOutputs: return "no-outputs";
    case DiagKind::NotALoopVariable: return "not-a-loop-variable";
    case DiagKind::TypeMismatch: return "type-mismatch";
    case DiagKind::SignedUnsignedMix: return "signed-unsigned-mix";
    case DiagKind::LiteralOutOfRange: return "literal-out-of-range";
    case DiagKind::ZeroDivisor: return "zero-divisor";
    case DiagKind::InvalidPattern: return "invalid-pattern";
    case DiagKind::BadPartitionSpec: return "bad-partition-spec";
    case DiagKind::AssertionFailed: return "assertion-failed";
    case DiagKind::NotConstant: return "not-constant";
    case DiagKind::TupleMisuse: return "tuple-misuse";
    case DiagKind::ArgumentCount: return "argument-count";
    case DiagKind::UnknownArgument: return "unknown-argument";
    case DiagKind::DuplicateArgument: return "duplicate-argument";
    case DiagKind::MissingArgument: return "missing-argument";
    case DiagKind::ConstDependsOnInput: return "const-depends-on-input";
    case DiagKind::ConstVolatile: return "const-volatile";
    case DiagKind::LoopGuardInvariant: return "loop-guard-invariant";
    case DiagKind::NotForHardware: return "not-for-hardware";
    case DiagKind::UnknownPragma: return "unknown-pragma";
    case DiagKind::ConstantCondition: return "constant-condition";
  }
  return "?";
}

void Diagnostics::error(DiagKind k, Span s, std::string message) {
  list_.push_back(Diagnostic{Severity::Error, k, std::move(message), s, {}});
  ++errors_;
}

void Diagnostics::warning(DiagKind k, Span s, std::string message) {
  list_.push_back(Diagnostic{Severity::Warning, k, std::move(message), s, {}});
}

void Diagnostics::append(const Diagnostics& other) {
  for (const Diagnostic& d : other.list_) {
    list_.push_back(d);
    if (d.severity == Severity::Error) ++errors_;
  }
}

namespace {
const char* severity_word(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

// Control bytes (NUL, ESC, ...) would act on the terminal: they are shown as \xNN.
bool is_control(unsigned char c) { return c < 0x20 || c == 0x7f; }

std::string escape_controls(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (!is_control(static_cast<unsigned char>(c))) {
      out += c;
      continue;
    }
    char hex[5];
    std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
    out += hex;
  }
  return out;
}

// One located line plus the source line and a caret under the span (on its first line).
std::string located(const SourceMap& sources, Span s, const char* word, std::string_view message,
                    std::string_view kind) {
  if (s.file >= sources.size()) return std::string(word) + ": " + std::string(message) + "\n";
  const SourceFile& f = sources.file(s.file);
  const auto [line, col] = f.line_col(std::min<uint32_t>(s.start, static_cast<uint32_t>(f.text.size())));
  std::string out = escape_controls(f.path) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + word +
                    ": " + escape_controls(message);
  if (!kind.empty()) out += " [" + std::string(kind) + "]";
  out += "\n";
  if (f.text.empty()) return out;  // nothing to show (an unreadable file)
  std::string_view text = f.line_text(line);
  // Very long lines are cut around the caret so a diagnostic stays readable.
  constexpr size_t kShown = 160;
  size_t first = 0;
  if (text.size() > kShown && col > kShown / 2) first = std::min<size_t>(col - 1 - kShown / 2, text.size() - kShown);
  const std::string_view raw = text.substr(first, kShown);
  // at[i]: where raw byte i starts in what is shown (a control byte takes four columns as \xNN).
  std::string shown;
  std::vector<size_t> at;
  for (char c : raw) {
    at.push_back(shown.size());
    shown += c == '\t' ? std::string(" ") : escape_controls(std::string_view(&c, 1));
  }
  at.push_back(shown.size());
  const size_t raw_caret = std::min<size_t>(col - 1 - first, raw.size());
  const size_t raw_width = std::max<size_t>(1, std::min<size_t>(s.end > s.start ? s.end - s.start : 1,
                                                                raw.size() > raw_caret ? raw.size() - raw_caret : 1));
  const size_t caret_at = at[raw_caret];
  const size_t width = std::max<size_t>(1, at[std::min(raw_caret + raw_width, raw.size())] - caret_at);
  out += "  " + shown + "\n";
  out += "  " + std::string(caret_at, ' ') + "^" + std::string(width - 1, '~') + "\n";
  return out;
}
}  // namespace

std::string render(const Diagnostic& d, const SourceMap& sources) {
  std::string out = located(sources, d.span, severity_word(d.severity), d.message, diag_kind_name(d.kind));
  for (const auto& [span, text] : d.notes) out += located(sources, span, "note", text, {});
  return out;
}

std::string render_error_at(const SourceMap& sources, Span at, std::string_view message, std::string_view kind) {
  return located(sources, at, "error", message, kind);
}

std::string render_warning_at(const SourceMap& sources, Span at, std::string_view message, std::string_view kind) {
  return located(sources, at, "warning", message, kind);
}

std::string render_note_at(const SourceMap& sources, Span at, std::string_view message) {
  return located(sources, at, "note", message, {});
}

std::string render_all(const Diagnostics& ds, const SourceMap& sources) {
  std::string out;
  size_t errors = 0, warnings = 0;
  for (size_t i = 0; i < ds.list().size(); ++i) {
    const Diagnostic& d = ds.list()[i];
    if (i < kShownDiagnostics) out += render(d, sources);
    else (d.severity == Severity::Error ? errors : warnings) += 1;
  }
  if (errors + warnings == 0) return out;
  auto count = [](size_t n, const char* what) { return std::to_string(n) + " more " + what + (n == 1 ? "" : "s"); };
  std::string more;
  if (errors) more = count(errors, "error");
  if (warnings) more += (errors ? " and " : "") + count(warnings, "warning");
  return out + more + " not shown (the first " + std::to_string(kShownDiagnostics) + " are)\n";
}

namespace {
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, name.size() / 3) + 1;  // suggest only near misses
  for (const std::string& c : candidates) {
    if (name.size() > 64 || c.size() > 64) continue;
    const size_t d = edit_distance(name, c);
    if (d < best_d || (d == best_d && !best.empty() && c < best)) {
      if (d < best_d) best_d = d;
      best = c;
    }
  }
  return best;
}

}  // namespace polydat::frontend
