// Diagnostics: a stable kind, a message, a span; rendered as
// `file:line:col: error: message [kind]`, the source line and a caret.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/source.h"
#include "text/closest_name.h"

namespace polydat::frontend {

enum class DiagKind : uint8_t {
  // reading and lexing
  FileNotFound, BinaryFile, UnexpectedCharacter, UnterminatedString, UnterminatedComment, InvalidEscape,
  InvalidNumber, IntegerTooLarge,
  // syntax
  Syntax, NestingTooDeep,
  // names and structure
  UnknownName, UnknownFunction, ShadowedLibrary, Redefinition, BuiltinRedefinition, CyclicBinding, RecursiveModule,
  UnknownOutput, NoOutputs, NotALoopVariable,
  // typing
  TypeMismatch, SignedUnsignedMix, LiteralOutOfRange, ZeroDivisor, NotConstant, TupleMisuse,
  InvalidPattern, AssertionFailed, BadPartitionSpec,
  // calls
  ArgumentCount, UnknownArgument, DuplicateArgument, MissingArgument,
  // lifecycle and loops
  ConstDependsOnInput, ConstVolatile, LoopGuardInvariant, NotForHardware,
  // warnings
  UnknownPragma, ConstantCondition,
};

// The stable kebab-case name shown in brackets, e.g. "type-mismatch".
std::string_view diag_kind_name(DiagKind k);

enum class Severity : uint8_t { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  DiagKind kind = DiagKind::Syntax;
  std::string message;
  Span span;
  std::vector<std::pair<Span, std::string>> notes;  // related places
};

// Collects diagnostics in the order they are found.
class Diagnostics {
 public:
  void error(DiagKind k, Span s, std::string message);
  void warning(DiagKind k, Span s, std::string message);
  Diagnostic& last() { return list_.back(); }
  bool has_errors() const { return errors_ > 0; }
  size_t error_count() const { return errors_; }
  const std::vector<Diagnostic>& list() const { return list_; }
  void append(const Diagnostics& other);

 private:
  std::vector<Diagnostic> list_;
  size_t errors_ = 0;
};

// `file:line:col: error: message [kind]`, the source line, a caret under the span.
std::string render(const Diagnostic& d, const SourceMap& sources);
// The first kShownDiagnostics, then how many more errors and warnings there are.
inline constexpr size_t kShownDiagnostics = 20;
std::string render_all(const Diagnostics& ds, const SourceMap& sources);
// An error found later (at run time) in the same form: location, message, kind, source line, caret.
std::string render_error_at(const SourceMap& sources, Span at, std::string_view message, std::string_view kind);
// The same for a warning found later (the hardware model's timing verdict).
std::string render_warning_at(const SourceMap& sources, Span at, std::string_view message, std::string_view kind);

// A note at a place (no kind): what a later error's call chain shows.
std::string render_note_at(const SourceMap& sources, Span at, std::string_view message);

using text::closest_name;  // text/closest_name.h: the frontend's "did you mean"

}  // namespace polydat::frontend
