#include "workload/scope_kernel.h"

#include <algorithm>
#include <stdexcept>

#include "frontend/compile.h"
#include "workload/cells.h"

namespace polydat::workload {

using embed::EmbeddingError;
using ir::Value;

// ---------------------------------------------------------------------------
// SharedCell

namespace {
Value checked_initial(const std::string& name, const ir::Ty& ty, frontend::Combine c, const Value& initial) {
  if (!combine_allows(c, ty))
    throw std::invalid_argument("cell '" + name + "': a " + ir::ty_label(ty) + " cell cannot combine by " +
                                std::string(frontend::combine_name(c)));
  auto v = value_for_cell(initial, ty);
  if (!v) throw std::invalid_argument("cell '" + name + "': initial value refused: " + v.error());
  return *v;
}
}  // namespace

SharedCell::SharedCell(std::string name, ir::Ty ty, frontend::Combine c, Value initial)
    : name_(std::move(name)), ty_(std::move(ty)), combine_(c), value_(checked_initial(name_, ty_, c, initial)) {}

Value SharedCell::get() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return value_;
}

uint64_t SharedCell::version() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return version_;
}

SharedCell::Snapshot SharedCell::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return Snapshot{value_, version_};
}

ir::Expected<Value, std::string> SharedCell::write(const Value& v, std::string_view writer) {
  // The type is fixed for life: no lock needed to check against it. A count cell counts writes of anything.
  auto w = combine_ == frontend::Combine::Count ? ir::Expected<Value, std::string>(Value::zero(ty_)) : value_for_cell(v, ty_);
  if (!w)
    return "cell '" + name_ + "' (" + ir::ty_label(ty_) + ") refuses a " +
           (v.ty().is_unit() ? std::string("unit") : ir::ty_label(v.ty())) + " value written by " +
           std::string(writer) + ": " + w.error();
  std::lock_guard<std::mutex> lock(mutex_);
  value_ = workload::combine(combine_, value_, *w);
  ++version_;
  return value_;
}

// ---------------------------------------------------------------------------
// ScopeKernel

struct ScopeKernel::Facts {
  std::vector<frontend::Port> params;   // the compiler's, in input-record order (default_value not kept)
  std::vector<frontend::Port> outputs;  // in output-record order
};

namespace {
// Whether an extern of type `slot` can be backed by a cell of type `cell`:
// the extern holds every value of the cell (the same type, a lossless widening).
bool holds_cell(const ir::Ty& slot, const ir::Ty& cell) {
  return slot == cell || (writable_into(cell, slot) && embed::is_lossless_adapter(cell, slot));
}

std::string writer_of(std::string_view name) { return "set_input of '" + std::string(name) + "'"; }
}  // namespace

ScopeKernel::ScopeKernel(embed::Kernel kernel, std::shared_ptr<const Facts> facts, std::vector<Slot> slots)
    : kernel_(std::move(kernel)), facts_(std::move(facts)), slots_(std::move(slots)) {}

ir::Expected<ScopeKernel, EmbeddingError> ScopeKernel::compile(std::string_view text, const Options& options) {
  embed::KernelOptions ko;
  ko.engine = options.engine;
  ko.outputs = options.outputs;
  ko.compile.scope_cells = true;
  ko.compile.lib_paths = options.lib_paths;
  frontend::CompileOptions co = ko.compile;
  if (!options.outputs.empty()) co.outputs = options.outputs;

  // The ports' facts. On a failure embed::Kernel::compile below fails the
  // same way and turns the diagnostics into the EmbeddingError.
  auto r = frontend::compile_source("<kernel>", std::string(text), co);
  auto k = embed::Kernel::compile(text, ko);
  if (!k) return k.error();
  if (!r.ok()) return EmbeddingError::parse(std::string(text), "the kernel did not compile", std::nullopt);

  auto facts = std::make_shared<Facts>();
  facts->params = r.kernel().params;
  facts->outputs = r.kernel().outputs;
  for (frontend::Port& p : facts->params) p.default_value = nullptr;  // points into r's syntax trees
  for (frontend::Port& p : facts->outputs) p.default_value = nullptr;
  if (facts->params.size() != k->params().size() || facts->outputs.size() != k->outputs().size())
    return EmbeddingError::parse(std::string(text), "internal: the two compilations disagree on the ports", std::nullopt);

  std::vector<Slot> slots(facts->params.size());
  for (size_t i = 0; i < facts->params.size(); ++i) {
    const frontend::Port& p = facts->params[i];
    const embed::KernelPort& kp = k->params()[i];
    if (!p.is_shared || !p.is_extern) continue;
    if (!kp.default_value)
      return EmbeddingError::type_mismatch(std::string(text), std::nullopt, kp.ty,
                                           "cell '" + p.name + "' has no constant initial value");
    if (!combine_allows(p.combine, kp.ty))
      return EmbeddingError::type_mismatch(std::string(text), std::nullopt, kp.ty,
                                           "cell '" + p.name + "': a " + ir::ty_label(kp.ty) +
                                               " cell cannot combine by " + std::string(frontend::combine_name(p.combine)));
    if (auto init = value_for_cell(*kp.default_value, kp.ty); !init)
      return EmbeddingError::type_mismatch(std::string(text), kp.default_value->ty(), kp.ty,
                                           "cell '" + p.name + "': " + init.error());
    slots[i].cell = std::make_shared<SharedCell>(p.name, kp.ty, p.combine, *kp.default_value);
    slots[i].own = true;
  }
  return ScopeKernel(std::move(*k), std::move(facts), std::move(slots));
}

ScopeKernel ScopeKernel::fork() const {
  ScopeKernel f(kernel_.fork(), facts_, slots_);
  for (Slot& s : f.slots_) s.seen = 0;
  return f;  // last_ empty, dirty_: the fork evaluates on its first pull
}

std::optional<size_t> ScopeKernel::param_index(std::string_view name) const {
  for (size_t i = 0; i < facts_->params.size(); ++i)
    if (facts_->params[i].name == name) return i;
  return std::nullopt;
}

std::optional<size_t> ScopeKernel::output_index(std::string_view name) const {
  for (size_t i = 0; i < facts_->outputs.size(); ++i)
    if (facts_->outputs[i].name == name) return i;
  return std::nullopt;
}

ir::Expected<void, EmbeddingError> ScopeKernel::set_input(std::string_view name, const Value& v) {
  const std::optional<size_t> i = param_index(name);
  // Unknown names and unit values: embed::Kernel::set's errors (UnknownNode
  // with a suggestion, NonePropagated), and nothing is written.
  if (!i || v.ty().is_unit()) return kernel_.set(name, v);
  Slot& slot = slots_[*i];
  if (slot.cell) {
    auto now = slot.cell->write(v, writer_of(name));
    if (!now) {
      EmbeddingError e = EmbeddingError::type_mismatch(kernel_.source(), v.ty(), slot.cell->ty(), now.error());
      e.name = std::string(name);
      return e;
    }
    // The local copy; evaluate() reads the cell again anyway (a sibling may
    // have written since), and the cell's new version makes the kernel stale.
    if (auto set = kernel_.set(name, *now); !set) return set;
    if (facts_->params[*i].is_extern) slot.bound = true;
    return {};
  }
  if (auto set = kernel_.set(name, v); !set) return set;
  dirty_ = true;
  if (facts_->params[*i].is_extern) slot.bound = true;
  return {};
}

bool ScopeKernel::stale() const {
  if (dirty_ || !last_) return true;
  for (const Slot& s : slots_)
    if (s.cell && s.cell->version() != s.seen) return true;
  return false;
}

ir::Expected<void, EmbeddingError> ScopeKernel::evaluate() {
  // Read intrinsically: every cell-backed slot takes the cell's value now.
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (!s.cell) continue;
    SharedCell::Snapshot snap = s.cell->snapshot();
    if (auto set = kernel_.set(facts_->params[i].name, snap.value); !set) return set;
    s.seen = snap.version;
  }
  auto out = kernel_.evaluate();
  if (!out) return out.error();
  last_ = std::move(*out);
  dirty_ = false;
  return {};
}

embed::Result<Value> ScopeKernel::pull(std::string_view name) {
  if (const std::optional<size_t> o = output_index(name)) {
    if (stale())
      if (auto e = evaluate(); !e) return e.error();
    return (*last_)[*o];
  }
  if (const std::optional<size_t> i = param_index(name)) {
    if (std::optional<Value> v = param_value(*i)) return *v;
    EmbeddingError e = EmbeddingError::unresolved_placeholder(kernel_.source(), std::string(name));
    e.message = "input '" + std::string(name) + "' has no value; give it one with set_input";
    return e;
  }
  std::vector<std::string> names;
  for (const frontend::Port& p : facts_->outputs) names.push_back(p.name);
  for (const frontend::Port& p : facts_->params) names.push_back(p.name);
  const std::string near = frontend::closest_name(name, names);
  EmbeddingError e = EmbeddingError::unknown_node(kernel_.source(), std::string(name),
                                                  near.empty() ? std::nullopt : std::optional(near));
  e.message = "the scope kernel has no output, input or extern '" + std::string(name) + "'" +
              (near.empty() ? "" : "; did you mean '" + near + "'?");
  return e;
}

std::optional<Value> ScopeKernel::param_value(size_t i) const {
  const Slot& s = slots_[i];
  if (!s.cell) return kernel_.lookup(facts_->params[i].name);
  Value v = s.cell->get();
  const ir::Ty& ty = kernel_.params()[i].ty;
  if (v.ty() == ty) return v;
  auto a = embed::adapt_value(v, ty, embed::AdaptMode::LosslessOnly);  // attach checked it holds
  if (!a) return std::nullopt;
  return *a;
}

std::optional<Value> ScopeKernel::lookup(std::string_view name) const {
  if (last_)
    if (const std::optional<size_t> o = output_index(name); o && !(*last_)[*o].ty().is_unit()) return (*last_)[*o];
  if (const std::optional<size_t> i = param_index(name)) return param_value(*i);
  return std::nullopt;
}

std::vector<std::string> ScopeKernel::bind_outer_scope(ScopeKernel& outer) {
  // Which externs take part: not inputs, not this kernel's own cells.
  std::vector<size_t> candidates;
  for (size_t i = 0; i < slots_.size(); ++i)
    if (facts_->params[i].is_extern && !slots_[i].own) candidates.push_back(i);

  // Outputs the outer has not evaluated for its current values: pull them first.
  const bool reads_outputs = std::any_of(candidates.begin(), candidates.end(), [&](size_t i) {
    return outer.output_index(facts_->params[i].name).has_value() && !outer.cell(facts_->params[i].name);
  });
  if (reads_outputs && outer.stale()) (void)outer.evaluate();  // on failure: its last outputs, if any

  std::vector<std::string> bound;
  for (size_t i : candidates) {
    const std::string& name = facts_->params[i].name;
    const ir::Ty& ty = kernel_.params()[i].ty;
    Slot& slot = slots_[i];
    if (std::shared_ptr<SharedCell> c = outer.cell(name)) {
      if (!holds_cell(ty, c->ty())) continue;
      slot.cell = std::move(c);
      slot.bound = true;
      slot.seen = 0;
      dirty_ = true;
      bound.push_back(name);
      continue;
    }
    const std::optional<Value> v = outer.lookup(name);
    if (!v || v->ty().is_unit()) continue;
    if (!kernel_.set(name, *v)) continue;
    slot.cell.reset();  // rebinding under an outer without that cell: a plain copy now
    slot.bound = true;
    dirty_ = true;
    bound.push_back(name);
  }
  return bound;
}

std::vector<std::pair<std::string, Value>> ScopeKernel::scope_values() const {
  std::vector<std::pair<std::string, Value>> out;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].bound || slots_[i].cell) continue;
    if (std::optional<Value> v = param_value(i)) out.emplace_back(facts_->params[i].name, std::move(*v));
  }
  return out;
}

std::vector<std::shared_ptr<SharedCell>> ScopeKernel::cells() const {
  std::vector<std::shared_ptr<SharedCell>> out;
  for (const Slot& s : slots_)
    if (s.cell) out.push_back(s.cell);
  return out;
}

std::shared_ptr<SharedCell> ScopeKernel::cell(std::string_view name) const {
  const std::optional<size_t> i = param_index(name);
  return i ? slots_[*i].cell : nullptr;
}

std::vector<ScopeKernel::ManifestEntry> ScopeKernel::manifest() const {
  std::vector<ManifestEntry> out;
  for (size_t o = 0; o < facts_->outputs.size(); ++o) {
    const frontend::Port& p = facts_->outputs[o];
    out.push_back(ManifestEntry{p.name, kernel_.outputs()[o].ty, p.is_const, p.is_shared, p.dynamic});
  }
  for (size_t i = 0; i < facts_->params.size(); ++i) {
    const frontend::Port& p = facts_->params[i];
    if (!p.is_extern) continue;
    out.push_back(ManifestEntry{p.name, kernel_.params()[i].ty, p.is_const, slots_[i].cell != nullptr, p.dynamic});
  }
  return out;
}

}  // namespace polydat::workload
