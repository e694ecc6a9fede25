#include "workload/frame.h"

#include "workload/cells.h"
#include "workload/model.h"
#include "workload/values.h"

namespace polydat::workload {

Frame::Frame(Frame* parent, std::string label, Seeding seeding) : parent_(parent), label_(std::move(label)) {
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
    if (cells_.count(name)) continue;  // a cell: read per evaluation from this frame's view
    std::optional<ir::Value> v;
    if (auto it = vars_.find(name); it != vars_.end()) v = it->second;
    else if (parent_) {
      auto r = parent_->lookup(name, 0);
      if (!r) return r.error();
      v = *r;
    }
    if (!v) return RunError(label_ + ": '" + name + "' has no value in the scopes around it");
    if (auto s = kernel_->set(name, *v); !s) return RunError(label_ + ": " + s.error().to_string());
    bound_[name] = *v;
  }
  for (const auto& [name, entry] : m.names) visible_[name] = entry;
  return {};
}

std::optional<ir::Value> Frame::extern_value(const std::string& name) const {
  if (auto it = cells_.find(name); it != cells_.end()) return it->second;
  if (auto it = bound_.find(name); it != bound_.end()) return it->second;
  return std::nullopt;
}

ir::Expected<void, RunError> Frame::evaluate(uint64_t cycle, bool commit) {
  if (!kernel_) return {};
  if (!commit && evaluated_cycle_ == cycle && evaluated_version_ == version_) return {};
  const ScopeModule& m = scope_->module;
  auto set = [&](const std::string& name, const ir::Value& v) -> ir::Expected<void, RunError> {
    if (auto s = kernel_->set(name, v); !s) return RunError(label_ + ", cycle " + std::to_string(cycle) + ": " + s.error().to_string());
    return {};
  };
  if (m.reads_cycle)
    if (auto s = set("cycle", ir::Value::integer(ir::TyKind::U64, cycle)); !s) return s;
  for (const std::string& name : m.cycle_imports) {
    std::optional<ir::Value> v;
    if (auto it = vars_.find(name); it != vars_.end()) v = it->second;
    else if (parent_) {
      auto r = parent_->lookup(name, cycle);
      if (!r) return r.error();
      v = *r;
    }
    if (!v) return RunError(label_ + ": '" + name + "' has no value at cycle " + std::to_string(cycle));
    if (auto s = set(name, *v); !s) return s;
  }
  for (const auto& [name, ty] : m.params) {
    auto c = cells_.find(name);
    if (c == cells_.end()) continue;
    if (auto s = set(name, c->second); !s) return s;
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
      auto v = value_for_cell(written, w.ty);
      if (!v)
        return render_workload_error(m.path, m.file_text, w.at.line ? w.at : m.at,
                                     label_ + ", cycle " + std::to_string(cycle) + ": binding '" + w.cell + "' wrote " +
                                         op_text(written) + " (" + ir::ty_label(written.ty()) + ") into shared cell '" +
                                         w.cell + "' (" + ir::ty_label(w.ty) + "): " + v.error(),
                                     "write-type");
      write(w.cell, *v);
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
  if (auto it = cells_.find(name); it != cells_.end()) return std::optional<ir::Value>(it->second);
  if (auto it = vars_.find(name); it != vars_.end()) return std::optional<ir::Value>(it->second);
  if (name == "cycle") return std::optional<ir::Value>(ir::Value::integer(ir::TyKind::U64, cycle));
  if (parent_) return parent_->lookup(name, cycle);
  return std::optional<ir::Value>();
}

void Frame::write(const std::string& cell, const ir::Value& v) {
  const auto vis = visible_.find(cell);
  const frontend::Combine c = vis == visible_.end() ? frontend::Combine::Last : vis->second.combine;
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
