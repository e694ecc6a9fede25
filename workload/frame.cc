#include "workload/frame.h"

#include <atomic>

#include "workload/cells.h"
#include "workload/model.h"
#include "workload/values.h"

namespace polydat::workload {

Frame::Frame(Frame* parent, std::string label, Seeding seeding)
    : parent_(parent), label_(std::move(label)), seeding_(seeding), serial_([] {
        static std::atomic<uint64_t> next{0};
        return ++next;
      }()) {
  if (!parent_) return;
  visible_ = parent_->visible_;
  cells_ = seeding == Seeding::Inherit ? parent_->cells_ : parent_->seed_;
  seed_ = cells_;
}

void Frame::set_var(const std::string& name, ir::Value v, Mark at) {
  VisibleName n;
  n.name = name;
  n.ty = v.ty();
  n.kind = parent_ ? VisibleName::Kind::Var : VisibleName::Kind::Param;
  n.scope = label_;
  n.at = at;
  visible_[name] = n;
  vars_[name] = std::move(v);
}

const ir::Value* Frame::find_var(const std::string& name) const {
  for (const Frame* f = this; f; f = f->parent_)
    if (auto it = f->vars_.find(name); it != f->vars_.end()) return &it->second;
  return nullptr;
}

bool Frame::is_cell(const std::string& name) const {
  auto it = visible_.find(name);
  return it != visible_.end() && it->second.kind == VisibleName::Kind::Cell;
}

RunError Frame::located(const std::string& message, const char* kind) const {
  if (!scope_) return label_ + ": " + message + " [" + kind + "]";
  const ScopeModule& m = scope_->module;
  return render_workload_error(m.path, m.file_text, m.at, label_ + ": " + message, kind);
}

// An import's value: this frame's own variable, else what the scopes around it say.
ir::Expected<ir::Value, RunError> Frame::outer_value(const std::string& name, uint64_t cycle) {
  if (auto it = vars_.find(name); it != vars_.end()) return it->second;
  if (parent_) {
    auto r = parent_->lookup(name, cycle);
    if (!r) return r.error();
    if (*r) return **r;
  }
  return located("'" + name + "' has no value at cycle " + std::to_string(cycle) + " in the scopes around it", "unbound-name");
}

ir::Expected<void, RunError> Frame::attach(std::shared_ptr<const CompiledScope> scope) {
  scope_ = std::move(scope);
  const ScopeModule& m = scope_->module;
  for (const OwnCell& c : m.cells) {
    cells_[c.name] = c.initial;
    seed_[c.name] = c.initial;
    owned_.insert(c.name);
  }
  kernel_.emplace(scope_->prototype.fork());
  for (const std::string& name : m.imports) {
    if (is_cell(name)) continue;  // read per evaluation from this frame's view
    auto v = outer_value(name, 0);
    if (!v) return v.error();
    if (auto s = kernel_->set(name, *v); !s) return located(s.error().to_string(), "bind");
    bound_[name] = *v;
  }
  for (const auto& [name, entry] : m.names) visible_[name] = entry;
  return {};
}

std::optional<ir::Value> Frame::extern_value(const std::string& name) const {
  if (auto it = cells_.find(name); it != cells_.end() && is_cell(name)) return it->second;
  if (auto it = bound_.find(name); it != bound_.end()) return it->second;
  return std::nullopt;
}

ir::Expected<void, RunError> Frame::evaluate(uint64_t cycle, bool commit) {
  if (!kernel_) return {};
  if (!commit && evaluated_cycle_ == cycle && evaluated_version_ == version_) return {};
  const ScopeModule& m = scope_->module;
  auto set = [&](const std::string& name, const ir::Value& v) -> ir::Expected<void, RunError> {
    if (auto s = kernel_->set(name, v); !s) return located("cycle " + std::to_string(cycle) + ": " + s.error().to_string(), "bind");
    return {};
  };
  if (m.reads_cycle)
    if (auto s = set("cycle", ir::Value::integer(ir::TyKind::U64, cycle)); !s) return s;
  for (const std::string& name : m.cycle_imports) {
    auto v = outer_value(name, cycle);
    if (!v) return v.error();
    if (auto s = set(name, *v); !s) return s;
  }
  for (const auto& [name, ty] : m.params) {
    if (!is_cell(name)) continue;
    if (auto s = set(name, cells_.at(name)); !s) return s;
  }
  auto out = kernel_->evaluate();
  if (!out) {
    // At the place in the workload file the kernel's error points to, else at the scope.
    const embed::EmbeddingError& e = out.error();
    Mark at = e.position ? m.placement.file_mark(static_cast<uint32_t>(*e.position)) : Mark{};
    if (!at.line) at = m.at;
    return render_workload_error(m.path, m.file_text, at, label_ + ", cycle " + std::to_string(cycle) + ": " + e.message,
                                 e.name.empty() ? std::string(embed::kind_name(e.kind)) : e.name);
  }
  outputs_ = std::move(*out);
  evaluated_cycle_ = cycle;
  if (commit) {
    for (size_t i = 0; i < m.write_throughs.size(); ++i) {
      const WriteThrough& w = m.write_throughs[i];
      const ir::Value& written = outputs_.at(scope_->write_output[i]);
      // A count cell counts writes of anything: no conversion.
      auto v = w.combine == frontend::Combine::Count ? ir::Expected<ir::Value, std::string>(ir::Value::zero(w.ty))
                                                     : value_for_cell(written, w.ty);
      if (!v)
        return render_workload_error(m.path, m.file_text, w.at.line ? w.at : m.at,
                                     label_ + ", cycle " + std::to_string(cycle) + ": binding '" + w.cell + "' wrote " +
                                         op_text(written) + " (" + ir::ty_label(written.ty()) + ") into shared cell '" +
                                         w.cell + "' (" + ir::ty_label(w.ty) + "): " + v.error(),
                                     "write-type");
      write(w.cell, *v, w.combine);
    }
  }
  evaluated_version_ = version_;
  return {};
}

ir::Expected<std::optional<ir::Value>, RunError> Frame::lookup(const std::string& name, uint64_t cycle) {
  if (kernel_) {
    auto it = scope_->output_index.find(name);
    if (it != scope_->output_index.end()) {
      const auto vis = visible_.find(name);
      const bool fresh = evaluated_cycle_ && evaluated_version_ == version_ &&
                         (*evaluated_cycle_ == cycle || (vis != visible_.end() && !vis->second.dynamic));
      if (!fresh)
        if (auto e = evaluate(cycle, false); !e) return e.error();
      const ir::Value& v = outputs_.at(it->second);
      if (v.ty().kind() != ir::TyKind::Unit) return std::optional<ir::Value>(v);
    }
  }
  if (auto it = cells_.find(name); it != cells_.end() && is_cell(name)) return std::optional<ir::Value>(it->second);
  if (auto it = vars_.find(name); it != vars_.end()) return std::optional<ir::Value>(it->second);
  if (name == "cycle") return std::optional<ir::Value>(ir::Value::integer(ir::TyKind::U64, cycle));
  if (parent_) return parent_->lookup(name, cycle);
  return std::optional<ir::Value>();
}

void Frame::write(const std::string& cell, const ir::Value& v, frontend::Combine c) {
  for (Frame* f = this; f; f = f->parent_) {
    auto it = f->cells_.find(cell);
    if (it != f->cells_.end()) {
      it->second = combine(c, it->second, v);
      ++f->version_;
    }
    if (f->owned_.count(cell)) break;
  }
}

std::optional<ir::Value> FrameLookup::lookup(std::string_view name) const {
  auto r = f_.lookup(std::string(name), cycle_);
  if (!r) {
    if (!error_) error_ = r.error();
    return std::nullopt;
  }
  return *r;
}

}  // namespace polydat::workload
