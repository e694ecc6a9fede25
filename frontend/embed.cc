// Kernel: a compiled kernel a host sets, evaluates and reads, on the
// interpreter or on another engine's Program.
#include "frontend/embed.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/compile.h"
#include "frontend/embed_internal.h"
#include "ir/pass_pipeline.h"

namespace polydat::embed {

using ir::Value;
using namespace internal;

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
