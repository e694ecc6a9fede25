#include "workload/batch_phase.h"

#include <charconv>
#include <cstring>
#include <map>

#include "workload/values.h"

namespace polydat::workload {

namespace {
// A scalar value into a record field (a str points into the value, which must outlive the record).
bool store_field(const sim::RecordField& f, const ir::Value& v, unsigned char* rec) {
  if (v.ty().kind() != f.kind) return false;
  if (f.kind == ir::TyKind::Str) {
    const sim::StrView s{v.as_str().data(), v.as_str().size()};
    std::memcpy(rec + f.offset, &s, sizeof s);
    return true;
  }
  const uint64_t bits = v.bits();
  std::memcpy(rec + f.offset, &bits, f.size < 8 ? f.size : 8);
  return true;
}
}  // namespace

std::optional<BatchPhase> BatchPhase::plan(Frame& f, const std::vector<PreparedOp>& ops, const std::vector<size_t>& lut,
                                           std::shared_ptr<const sim::NativeKernel> kernel) {
  const CompiledScope* scope = f.scope();
  if (!scope || !kernel) return std::nullopt;
  const ScopeModule& m = scope->module;
  if (!m.write_throughs.empty() || !m.cycle_imports.empty()) return std::nullopt;
  const sim::RecordLayout& outs = kernel->outputs();
  if (outs.fields.size() != m.outputs.size()) return std::nullopt;  // an output that is not one scalar
  if (lut.empty()) return std::nullopt;
  BatchPhase b(std::move(kernel));
  b.lut_ = lut;
  const sim::RecordLayout& ins = b.k_->inputs();
  if (ins.fields.size() != m.params.size()) return std::nullopt;
  b.template_.assign(ins.size + 8, 0);
  b.held_.reserve(ins.fields.size());
  for (size_t i = 0; i < ins.fields.size(); ++i) {
    const std::string& name = m.params[i].first;
    if (name == "cycle") {
      if (ins.fields[i].kind != ir::TyKind::U64) return std::nullopt;
      b.cycle_offset_ = ins.fields[i].offset;
      continue;
    }
    auto v = f.extern_value(name);
    if (!v) return std::nullopt;
    b.held_.push_back(*v);
    if (!store_field(ins.fields[i], b.held_.back(), b.template_.data())) return std::nullopt;
  }
  std::map<std::string, size_t> out_field;
  for (size_t i = 0; i < m.outputs.size(); ++i) out_field[m.outputs[i]] = i;
  // A name an op shows: an output of the kernel, the cycle, or a value fixed for the phase.
  auto part_of = [&](const std::string& name, Part& p) -> bool {
    if (auto it = out_field.find(name); it != out_field.end()) {
      if (outs.fields[it->second].kind == ir::TyKind::Unit) return false;
      p.kind = Part::Kind::Output;
      p.field = it->second;
      return true;
    }
    if (name == "cycle") {
      p.kind = Part::Kind::Cycle;
      return true;
    }
    auto vis = f.visible().find(name);
    if (vis != f.visible().end() && vis->second.dynamic) return false;
    auto v = f.lookup(name, 0);
    if (!v || !*v || (*v)->ty().kind() == ir::TyKind::Unit) return false;  // let the op-by-op path say why
    p.kind = Part::Kind::Text;
    p.text = op_text(**v);
    return true;
  };
  for (const PreparedOp& op : ops) {
    Op o;
    if (op.condition) {
      Part p;
      if (!part_of(*op.condition, p)) return std::nullopt;
      if (p.kind == Part::Kind::Output) {
        o.gate = Op::Gate::Output;
        o.gate_field = p.field;
      } else if (p.kind == Part::Kind::Cycle) {
        return std::nullopt;
      } else {
        auto v = f.lookup(*op.condition, 0);
        o.gate = truthy(**v) ? Op::Gate::Always : Op::Gate::Never;
      }
    }
    // stmt's choice of field: stmt, raw, prepared, else every field on its own line.
    const std::vector<const OpTemplate*> shown = stmt_fields(op);
    for (size_t i = 0; i < shown.size(); ++i) {
      if (i) o.parts.push_back(Part{Part::Kind::Text, "\n", 0});
      for (const TemplatePart& tp : shown[i]->parts) {
        Part p;
        if (!tp.is_name) p.text = tp.text;
        else if (!part_of(tp.text, p)) return std::nullopt;
        // Neighbouring text parts join: fewer appends per line.
        if (p.kind == Part::Kind::Text && !o.parts.empty() && o.parts.back().kind == Part::Kind::Text)
          o.parts.back().text += p.text;
        else
          o.parts.push_back(std::move(p));
      }
    }
    o.parts.push_back(Part{Part::Kind::Text, "\n", 0});
    if (o.parts.size() > 1 && o.parts[o.parts.size() - 2].kind == Part::Kind::Text) {
      o.parts[o.parts.size() - 2].text += "\n";
      o.parts.pop_back();
    }
    b.ops_.push_back(std::move(o));
  }
  return b;
}

BatchPhase::Done BatchPhase::render(uint64_t first, size_t n, std::string& out) {
  Done d;
  const sim::RecordLayout& ins = k_->inputs();
  const sim::RecordLayout& outs = k_->outputs();
  unsigned char* in = in_.at(ins.size, n);
  unsigned char* rec = out_.at(outs.size, n);
  for (size_t i = 0; i < n; ++i) {
    unsigned char* r = in + i * ins.size;
    std::memcpy(r, template_.data(), ins.size);
    if (cycle_offset_) {
      const uint64_t c = first + i;
      std::memcpy(r + *cycle_offset_, &c, 8);
    }
  }
  d.rows = k_->run(state_, in, rec, n);
  char buf[24];
  size_t slot = static_cast<size_t>(first % lut_.size());  // stepped, not divided, per line
  for (size_t i = 0; i < d.rows; ++i, slot = slot + 1 == lut_.size() ? 0 : slot + 1) {
    const unsigned char* r = rec + i * outs.size;
    {
      const Op& o = ops_[lut_[slot]];
      if (o.gate == Op::Gate::Never || (o.gate == Op::Gate::Output && !field_truthy(outs.fields[o.gate_field], r))) {
        ++d.skipped;
        continue;
      }
      for (const Part& p : o.parts) {
        switch (p.kind) {
          case Part::Kind::Text: out += p.text; break;
          case Part::Kind::Output: render_op_field(out, outs.fields[p.field], r); break;
          case Part::Kind::Cycle: out.append(buf, std::to_chars(buf, buf + sizeof buf, first + i).ptr); break;
        }
      }
      ++d.lines;
    }
  }
  return d;
}

}  // namespace polydat::workload
