#include "frontend/diagnostics.h"

#include <algorithm>
#include <optional>

#include "text/located.h"
#include "text/plural.h"

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

// One located line plus the source line and a caret under the span (on its first line).
std::string located(const SourceMap& sources, Span s, const char* word, std::string_view message,
                    std::string_view kind) {
  if (s.file >= sources.size())  // no place in a file (kNoFile): the message and its kind alone
    return std::string(word) + ": " + std::string(message) + (kind.empty() ? "" : " [" + std::string(kind) + "]") + "\n";
  const SourceFile& f = sources.file(s.file);
  const auto [line, col] = f.line_col(std::min<uint32_t>(s.start, static_cast<uint32_t>(f.text.size())));
  const text::Place at{line, col, s.end > s.start ? s.end - s.start : size_t{1}};
  const std::optional<std::string_view> shown =
      f.text.empty() ? std::nullopt : std::optional<std::string_view>(f.line_text(line));  // an unreadable file shows none
  return text::render_located(f.path, at, shown, word, message, kind);
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
  auto count = [](size_t n, const char* what) { return text::counted(n, std::string("more ") + what); };
  std::string more;
  if (errors) more = count(errors, "error");
  if (warnings) more += (errors ? " and " : "") + count(warnings, "warning");
  return out + more + " not shown (the first " + std::to_string(kShownDiagnostics) + " are)\n";
}

}  // namespace polydat::frontend
