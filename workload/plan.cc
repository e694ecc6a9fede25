#include "workload/plan.h"

#include <algorithm>

#include "workload/model.h"

namespace polydat::workload {

namespace {

// Where each name an entry reads comes from, found as Frame::lookup finds it,
// but without evaluating per-cycle values: those become stages.
class Resolver {
 public:
  explicit Resolver(std::vector<Frame*> chain) : chain_(std::move(chain)) {}

  ir::Expected<void, std::string> add_stage(uint32_t depth, bool commits) {
    if (stages_.count(depth)) return {};
    Frame& f = *chain_[depth];
    const ScopeModule& m = f.scope()->module;
    PlanStage st;
    st.depth = depth;
    st.commits = commits;
    stages_[depth];  // reserved before recursing, so a cycle of imports ends
    for (const std::string& name : m.imports) {
      ValueSource v;
      if (f.is_cell(name)) {
        v = cell(name, depth);
      } else {
        v.kind = ValueSource::Kind::Const;
        v.value = f.bound().at(name);
        v.ty = v.value.ty();
      }
      st.externs.emplace_back(name, std::move(v));
    }
    for (const auto& [name, ty] : m.params)
      if (f.is_cell(name) && std::find(m.imports.begin(), m.imports.end(), name) == m.imports.end())
        st.externs.emplace_back(name, cell(name, depth));
    if (m.reads_cycle) {
      ValueSource c;
      c.kind = ValueSource::Kind::Cycle;
      c.ty = ir::Ty::u64();
      st.inputs.emplace_back("cycle", c);
    }
    for (const std::string& name : m.cycle_imports) {
      if (auto it = f.vars().find(name); it != f.vars().end()) {
        st.inputs.emplace_back(name, constant(it->second));
        continue;
      }
      if (depth == 0) return std::string("'" + name + "' has no source outside the workload scope");
      auto v = resolve(name, depth - 1);
      if (!v) return v.error();
      if (!*v) return std::string("'" + name + "' is read per cycle by " + f.label() + " but no scope around it defines it");
      st.inputs.emplace_back(name, std::move(**v));
    }
    st.scope = f.scope_ptr();
    stages_[depth] = std::move(st);
    return {};
  }

  // nullopt: nobody defines it.
  ir::Expected<std::optional<ValueSource>, std::string> resolve(const std::string& name, uint32_t from) {
    for (int64_t j = from; j >= 0; --j) {
      Frame& f = *chain_[static_cast<size_t>(j)];
      const uint32_t depth = static_cast<uint32_t>(j);
      if (const CompiledScope* c = f.scope()) {
        auto it = c->output_index.find(name);
        if (it != c->output_index.end()) {
          const ir::Ty ty = c->module.output_types.at(it->second);
          if (ty.kind() != ir::TyKind::Unit) {
            const auto vis = f.visible().find(name);
            const bool dynamic = vis == f.visible().end() || vis->second.dynamic;
            if (depth + 1 == chain_.size() || dynamic) {
              if (auto s = add_stage(depth, depth + 1 == chain_.size()); !s) return s.error();
              ValueSource v;
              v.kind = ValueSource::Kind::Output;
              v.name = name;
              v.depth = depth;
              v.ty = ty;
              return std::optional<ValueSource>(std::move(v));
            }
            auto v = f.lookup(name, 0);
            if (!v) return v.error();
            if (*v) return std::optional<ValueSource>(constant(**v));
          }
        }
      }
      if (f.is_cell(name)) return std::optional<ValueSource>(cell(name, depth));
      if (auto it = f.vars().find(name); it != f.vars().end()) return std::optional<ValueSource>(constant(it->second));
      if (name == "cycle") {
        ValueSource c;
        c.kind = ValueSource::Kind::Cycle;
        c.ty = ir::Ty::u64();
        return std::optional<ValueSource>(c);
      }
    }
    return std::optional<ValueSource>();
  }

  std::vector<PlanStage> stages() && {
    std::vector<PlanStage> out;
    for (auto& [d, s] : stages_) out.push_back(std::move(s));
    return out;
  }

 private:
  static ValueSource constant(const ir::Value& v) {
    ValueSource s;
    s.kind = ValueSource::Kind::Const;
    s.value = v;
    s.ty = v.ty();
    return s;
  }
  ValueSource cell(const std::string& name, uint32_t depth) const {
    ValueSource s;
    s.kind = ValueSource::Kind::Cell;
    s.name = name;
    s.depth = depth;
    s.ty = chain_[depth]->visible().at(name).ty;
    return s;
  }

  std::vector<Frame*> chain_;
  std::map<uint32_t, PlanStage> stages_;
};

}  // namespace

ir::Expected<PlanEntry, std::string> plan_entry(const Workload& w, Frame& phase, const std::vector<PreparedOp>& ops,
                                                const std::vector<size_t>& stanza, uint64_t cycles) {
  std::vector<Frame*> chain;
  for (Frame* f = &phase; f; f = f->parent()) chain.push_back(f);
  std::reverse(chain.begin(), chain.end());
  PlanEntry e;
  e.cycles = cycles;
  e.ops = ops;
  e.stanza = stanza;
  for (Frame* f : chain) {
    PlanFrame pf;
    pf.label = f->label();
    pf.serial = f->serial();
    pf.seeding = f->seeding();
    if (const CompiledScope* c = f->scope())
      for (const OwnCell& oc : c->module.cells) {
        pf.cells.push_back(oc);
        if (auto it = c->module.names.find(oc.name); it != c->module.names.end()) pf.cell_at[oc.name] = it->second.at;
      }
    e.chain.push_back(std::move(pf));
  }
  const uint32_t last = static_cast<uint32_t>(chain.size() - 1);
  Resolver r(chain);
  if (phase.has_kernel())
    if (auto s = r.add_stage(last, true); !s) return s.error();
  auto need = [&](const std::string& name, const OpDef& op) -> ir::Expected<void, std::string> {
    if (e.names.count(name)) return {};
    auto v = r.resolve(name, last);
    if (!v) return v.error();
    if (!*v) return unbound_op_name(w, op, name);
    e.names.emplace(name, std::move(**v));
    return {};
  };
  for (const PreparedOp& op : ops) {
    if (op.condition)
      if (auto s = need(*op.condition, *op.def); !s) return s.error();
    for (const auto& [field, t] : op.fields)
      for (const TemplatePart& part : t.parts)
        if (part.is_name)
          if (auto s = need(part.text, *op.def); !s) return s.error();
  }
  e.stages = std::move(r).stages();
  return e;
}

}  // namespace polydat::workload
