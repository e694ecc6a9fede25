// The embedding API's error taxonomy, and compiler diagnostics and interpreter
// errors turned into its errors.
#include <string>
#include <vector>

#include "frontend/embed.h"
#include "frontend/embed_internal.h"

namespace polydat::embed {

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

namespace internal {

namespace {
using frontend::DiagKind;

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
}  // namespace

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

}  // namespace internal

}  // namespace polydat::embed
