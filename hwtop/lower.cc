#include "hwtop/lower.h"

#include <algorithm>
#include <map>
#include <set>

#include "frontend/compile.h"
#include "flow/pipeline.h"
#include "rtl/emit_sv.h"
#include "workload/values.h"

namespace polydat::hwtop {

using workload::ValueSource;

uint64_t value_bits(const ir::Value& v) {
  if (v.ty().kind() == ir::TyKind::Bool) return v.as_bool() ? 1 : 0;
  const unsigned w = v.ty().bits();
  return w >= 64 ? v.bits() : v.bits() & ((uint64_t{1} << w) - 1);
}

ir::Value value_of_bits(const ir::Ty& ty, uint64_t bits) {
  if (ty.kind() == ir::TyKind::Bool) return ir::Value::boolean(bits & 1);
  return ir::Value::integer(ty.kind(), bits);
}

namespace {

using Refusal = std::string;

bool hardware_type(const ir::Ty& t) { return t.kind() == ir::TyKind::Bool || t.is_int(); }

unsigned bits_for(size_t n) {  // bits to count 0..n-1 (at least 1)
  unsigned b = 1;
  while (b < 63 && (uint64_t{1} << b) < n) ++b;
  return b;
}

std::string identifier(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  while (out.find("__") != std::string::npos) out.replace(out.find("__"), 2, "_");
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

class Lowering {
 public:
  Lowering(const workload::Workload& w, const HwOptions& o) : w_(w), o_(o) {}

  ir::Expected<HwWorkload, Refusal> run(workload::WorkloadPlan plan) {
    hw_.plan = std::make_unique<workload::WorkloadPlan>(std::move(plan));
    const auto& entries = hw_.plan->entries;
    if (entries.size() > o_.max_entries)
      return refuse(entries[o_.max_entries].at, "the scenario runs " + std::to_string(entries.size()) +
                                                   " phases (loops unrolled); the sequencer holds at most " +
                            std::to_string(o_.max_entries), "hw-scenario");
    find_constant_imports(entries);
    for (const workload::PlanEntry& e : entries)
      if (auto s = entry(e); !s) return s.error();
    drop_unused_modules();
    if (auto s = name_modules(); !s) return s.error();
    hw_.entry_width = bits_for(hw_.entries.size() + 1);
    size_t ops = 1;  // rec_op carries an op's index
    for (const HwEntry& e : hw_.entries) ops = std::max(ops, e.ops.size());
    hw_.op_width = bits_for(ops);
    return std::move(hw_);
  }

 private:
  Refusal refuse(workload::Mark at, const std::string& message, const char* kind) const {
    return workload::render_workload_error(w_.path, w_.text, at, message, kind);
  }

  static std::string where_of(const workload::PlanEntry& e) {
    return "phase '" + e.phase + "'" + (e.iteration.empty() ? "" : " (" + e.iteration + ")");
  }

  // A shared cell the entry reads or writes (its kernels, its ops), if any.
  static std::optional<std::string> cell_used(const workload::PlanEntry& e) {
    for (const auto& [name, src] : e.names)
      if (src.kind == ValueSource::Kind::Cell) return src.name;
    for (const workload::PlanStage& st : e.stages) {
      for (const auto& [name, src] : st.inputs)
        if (src.kind == ValueSource::Kind::Cell) return src.name;
      // A kernel's cell externs count when one of its bindings reads them.
      if (!st.scope->module.cell_readers.empty())
        for (const auto& [name, src] : st.externs)
          if (src.kind == ValueSource::Kind::Cell) return src.name;
      if (st.commits && !st.scope->module.write_throughs.empty()) return st.scope->module.write_throughs.front().cell;
    }
    if (!e.chain.back().cells.empty()) return e.chain.back().cells.front().name;
    return std::nullopt;
  }

  ir::Expected<void, Refusal> entry(const workload::PlanEntry& e) {
    HwEntry he;
    he.plan = &e;
    hw_.max_depth = std::max<uint32_t>(hw_.max_depth, static_cast<uint32_t>(e.chain.size() - 1));
    // The frames that begin with this entry: those not in the previous entry's chain.
    if (!hw_.entries.empty()) {
      const auto& prev = hw_.entries.back().plan->chain;
      while (he.first_new < e.chain.size() && he.first_new < prev.size() &&
             prev[he.first_new].serial == e.chain[he.first_new].serial)
        ++he.first_new;
    }
    for (uint32_t d = 0; d < e.chain.size(); ++d)
      for (const workload::OwnCell& c : e.chain[d].cells) {
        const auto at = e.chain[d].cell_at.find(c.name);
        if (auto s = cell(c, d, e.chain[d].label, at != e.chain[d].cell_at.end() ? at->second : e.at); !s) return s.error();
      }
    auto made = hardware_entry(e, he);
    if (made) {
      he.streamed = he.stages.size() == 1 && !reads_cell(he.stages[0]);
      hw_.entries.push_back(std::move(he));
      return {};
    }
    if (!o_.partition) return made.error();
    if (auto c = cell_used(e))
      return refuse(e.at, where_of(e) + " cannot become hardware, and cannot stay on the host (--partition): it uses shared cell '" +
                              *c + "', which the hardware holds; the reason:\n" + made.error(), "hw-refused");
    // The first line of the refusal, without its "error:" word: why it stays on the host.
    std::string why = made.error().substr(0, made.error().find('\n'));
    if (const size_t at = why.find(" error: "); at != std::string::npos) why.erase(at, 7);
    hw_.partitioned.push_back(where_of(e) + " and its " + std::to_string(e.ops.size()) + " op" +
                              (e.ops.size() == 1 ? "" : "s") + " run on the host: " + why);
    HwEntry host;
    host.plan = &e;
    host.first_new = he.first_new;
    host.host = true;
    hw_.entries.push_back(std::move(host));
    return {};
  }

  // The once-per-scope imports that hold one value in every entry a scope
  // runs in (an outer constant, a param): folded into its module, not cfg_ ports.
  void find_constant_imports(const std::vector<workload::PlanEntry>& entries) {
    std::map<std::pair<const workload::CompiledScope*, std::string>, std::vector<ir::Value>> seen;
    for (const workload::PlanEntry& e : entries)
      for (const workload::PlanStage& st : e.stages)
        for (const auto& [name, src] : st.externs) {
          const auto& imports = st.scope->module.imports;
          if (src.kind != ValueSource::Kind::Const || std::find(imports.begin(), imports.end(), name) == imports.end())
            continue;
          auto& values = seen[{st.scope.get(), name}];
          if (std::find(values.begin(), values.end(), src.value) == values.end()) values.push_back(src.value);
        }
    for (const auto& [key, values] : seen)
      if (values.size() == 1) folded_[key.first][key.second] = values.front();
  }

  // Whether the stage's module reads a cell (a cell's cfg_ port the design has no use for does not count).
  bool reads_cell(const HwStage& st) const {
    const hls::Design& d = hw_.modules[st.module].design;
    for (const auto* list : {&st.plan->externs, &st.plan->inputs})
      for (const auto& [name, src] : *list) {
        if (src.kind != ValueSource::Kind::Cell) continue;
        for (const auto* ports : {&d.dfg.configs, &d.dfg.inputs})
          for (const hls::DfgPort& p : *ports)
            if (p.name == name && p.value < d.live.size() && d.live[p.value]) return true;
      }
    return false;
  }

  // Modules only a host entry's failed stages made: not instantiated.
  void drop_unused_modules() {
    std::vector<int> index(hw_.modules.size(), -1);
    for (const HwEntry& e : hw_.entries)
      for (const HwStage& st : e.stages) index[st.module] = 0;
    std::vector<HwModule> kept;
    for (size_t i = 0; i < hw_.modules.size(); ++i)
      if (index[i] == 0) {
        index[i] = static_cast<int>(kept.size());
        kept.push_back(std::move(hw_.modules[i]));
      }
    for (HwEntry& e : hw_.entries)
      for (HwStage& st : e.stages) st.module = static_cast<size_t>(index[st.module]);
    hw_.modules = std::move(kept);
  }

  ir::Expected<void, Refusal> hardware_entry(const workload::PlanEntry& e, HwEntry& he) {
    const std::string where = where_of(e);
    if (auto s = stanza_fits(e); !s) return s.error();
    for (const workload::PlanStage& st : e.stages) {
      auto m = module_of(st);
      if (!m) return m.error();
      for (const auto& [name, src] : st.inputs)
        if (!hardware_type(src.ty))
          return refuse(st.scope->module.at, where + ": " + st.scope->module.label + " reads '" + name + "' (" +
                                                 ir::ty_label(src.ty) + ") per cycle; hardware carries bools and integers",
                        "hw-refused");
      he.stages.push_back(HwStage{*m, &st});
      // The runner evaluates an outer per-cycle kernel again after the phase's writes; hardware does not.
      if (!st.commits && reads_cell(he.stages.back()))
        return refuse(st.scope->module.at, where + ": " + st.scope->module.label +
                                               " reads a shared cell in a binding evaluated per cycle; the hardware reads cells "
                                               "only in the phase's own bindings", "hw-refused");
    }
    for (const workload::PreparedOp& op : e.ops) {
      HwOp ho;
      auto check = [&](const std::string& name) -> ir::Expected<const ValueSource*, Refusal> {
        const ValueSource& src = e.names.at(name);
        if (src.kind != ValueSource::Kind::Const && !hardware_type(src.ty))
          return refuse(op.def->at, where + ", op '" + op.def->name + "': '" + name + "' is a " + ir::ty_label(src.ty) +
                                        " the hardware would compute; hardware carries bools and integers", "hw-refused");
        if (src.kind == ValueSource::Kind::Output && !output_port(he, src)) {
          return refuse(op.def->at, where + ", op '" + op.def->name + "': '" + name + "' has no port", "hw-refused");
        }
        return &src;
      };
      if (op.condition) {
        auto g = check(*op.condition);
        if (!g) return g.error();
        if ((*g)->kind == ValueSource::Kind::Const) ho.never = !workload::truthy((*g)->value);
        else ho.gate = **g;
      }
      unsigned offset = 0;
      std::set<std::string> seen;
      for (const auto& [field, t] : op.fields)
        for (const workload::TemplatePart& part : t.parts) {
          if (!part.is_name || !seen.insert(part.text).second) continue;
          auto s = check(part.text);
          if (!s) return s.error();
          if ((*s)->kind == ValueSource::Kind::Const || (*s)->kind == ValueSource::Kind::Cycle) continue;  // rec_cycle carries the cycle
          const unsigned width = (*s)->ty.bits();
          ho.payload.push_back(HwField{part.text, **s, offset, width});
          offset += width;
        }
      hw_.payload_width = std::max(hw_.payload_width, offset);
      he.ops.push_back(std::move(ho));
    }
    // Writes through: each into a cell of this chain, converted as the hardware can.
    for (const HwStage& st : he.stages)
      if (st.plan->commits)
        for (const workload::WriteThrough& wt : st.plan->scope->module.write_throughs) {
          const HwModule& m = hw_.modules[st.module];
          const auto& outs = m.design.dfg.outputs;
          const auto it = std::find_if(outs.begin(), outs.end(), [&](const hls::DfgPort& p) { return p.name == wt.output; });
          if (it == outs.end()) return refuse(wt.at, where + ": the write into '" + wt.cell + "' has no port", "hw-refused");
          const ir::Ty& from = it->ty;
          // An integer reaches a bool cell only when the scope's compiler knew it to be 0 or 1 (a comparison).
          const bool ok = wt.combine == frontend::Combine::Count || from == wt.ty ||
                          (wt.ty.is_int() && (from.kind() == ir::TyKind::Bool || from.is_int())) ||
                          (wt.ty.kind() == ir::TyKind::Bool && from.is_int());
          if (!ok || !cell_known(wt.cell))
            return refuse(wt.at, where + ": the hardware does not write a " + ir::ty_label(from) + " into shared cell '" +
                                     wt.cell + "' (" + ir::ty_label(wt.ty) + ")", "hw-refused");
        }
    return {};
  }

  // The sequencer steps through the stanza once per cycle: it names ops the entry has, and whole stanzas fill the cycles.
  ir::Expected<void, Refusal> stanza_fits(const workload::PlanEntry& e) const {
    const auto& st = e.stanza;
    const bool indices_ok = std::all_of(st.begin(), st.end(), [&](size_t k) { return k < e.ops.size(); });
    if (st.empty() || st.size() > kMaxStanza || !indices_ok || e.cycles % st.size() != 0)
      return refuse(e.at, where_of(e) + ": its stanza of " + std::to_string(st.size()) + " places (" + std::to_string(e.ops.size()) +
                              " ops, " + std::to_string(e.cycles) + " cycles) is not one the sequencer steps through (1 to " +
                              std::to_string(kMaxStanza) + " indices of its ops, dividing its cycles)", "hw-scenario");
    return {};
  }

  bool cell_known(const std::string& name) const {
    return std::any_of(hw_.cells.begin(), hw_.cells.end(), [&](const HwCell& c) { return c.name == name; });
  }

  const std::string* output_port(const HwEntry& he, const ValueSource& src) const {
    for (const HwStage& st : he.stages)
      if (st.plan->depth == src.depth) {
        const HwModule& m = hw_.modules[st.module];
        for (size_t i = 0; i < m.design.dfg.outputs.size(); ++i)
          if (m.design.dfg.outputs[i].name == src.name) return &m.out_ports[i];
      }
    return nullptr;
  }

  // One register set per cell name; its owner may sit at different depths in different entries (a phase
  // run at the top and inside a loop), and its initial value may differ (seeded per entry).
  ir::Expected<void, Refusal> cell(const workload::OwnCell& c, uint32_t depth, const std::string& owner, workload::Mark at) {
    for (HwCell& h : hw_.cells)
      if (h.name == c.name) {
        if (h.owner != owner)
          return refuse(at, "shared cell '" + c.name + "' is declared by " + h.owner + " and by " + owner +
                                "; in hardware a cell's name is declared by one scope", "hw-refused");
        if (!(h.ty == c.ty) || h.combine != c.combine)
          return refuse(at, owner + ": shared cell '" + c.name + "' is declared as " + ir::ty_label(c.ty) + " " +
                                std::string(frontend::combine_name(c.combine)) + " here and as " + ir::ty_label(h.ty) + " " +
                                std::string(frontend::combine_name(h.combine)) + " in an earlier iteration; hardware needs one",
                        "hw-refused");
        h.owner_depth = std::min(h.owner_depth, depth);
        return {};
      }
    if (!hardware_type(c.ty))
      return refuse(at, owner + ": shared cell '" + c.name + "' is a " + ir::ty_label(c.ty) +
                            "; hardware cells are bools and integers", "hw-refused");
    hw_.cells.push_back(HwCell{c.name, c.ty, c.combine, c.initial, depth, owner});
    return {};
  }

  ir::Expected<size_t, Refusal> module_of(const workload::PlanStage& st) {
    const workload::CompiledScope* key = st.scope.get();
    if (auto it = module_index_.find(key); it != module_index_.end()) return it->second;
    if (auto it = module_refused_.find(key); it != module_refused_.end()) return it->second;
    auto made = make_module(st);
    if (!made) {
      module_refused_[key] = made.error();
      return made.error();
    }
    module_index_[key] = hw_.modules.size();
    hw_.modules.push_back(std::move(*made));
    return hw_.modules.size() - 1;
  }

  // The scope's kernel through HLS; named and emitted once the modules in use are known.
  ir::Expected<HwModule, Refusal> make_module(const workload::PlanStage& st) {
    const workload::ScopeModule& m = st.scope->module;
    const auto folded = folded_.find(st.scope.get());
    const std::string source = folded == folded_.end() ? m.source : workload::source_with_constants(m, folded->second);
    frontend::CompileResult r = frontend::compile_source(m.path, source, m.options);
    if (!r.ok()) return refuse(m.at, m.label + ": the kernel does not compile again: " + r.render_diagnostics(), "hw-refused");
    auto opt = flow::optimize(r);
    if (!opt) return refuse(m.at, m.label + ": the optimiser failed: " + opt.error(), "hw-refused");
    auto d = flow::schedule(std::move(*opt), o_.hls);
    if (!d) {
      workload::Mark at = m.at;
      if (d.error().loc.line && d.error().loc.file == 0) at = m.placement.file_mark(d.error().loc.start);
      if (!at.line) at = m.at;
      return refuse(at, m.label + ": cannot make hardware: " + d.error().message, "hw-refused");
    }
    HwModule hm;
    hm.scope = st.scope;
    hm.design = std::move(d->design);
    const rtl::PortNames ports = rtl::port_names(hm.design);
    hm.cfg_ports = ports.configs;
    hm.in_ports = ports.inputs;
    hm.out_ports = ports.outputs;
    return hm;
  }

  // s0_phase_spend, s1_...: in the order entries first use them.
  ir::Expected<void, Refusal> name_modules() {
    for (size_t i = 0; i < hw_.modules.size(); ++i) {
      HwModule& hm = hw_.modules[i];
      const workload::ScopeModule& m = hm.scope->module;
      hm.name = "s" + std::to_string(i) + "_" + identifier(m.label);
      hm.design.dfg.name = hm.name;
      rtl::Module emitted = rtl::emit_module(hm.design);
      if (emitted.name != hm.name) return refuse(m.at, m.label + ": its module cannot be named " + hm.name, "hw-refused");
      hm.sv = std::move(emitted.text);
    }
    return {};
  }

  const workload::Workload& w_;
  const HwOptions& o_;
  HwWorkload hw_;
  std::map<const workload::CompiledScope*, size_t> module_index_;
  std::map<const workload::CompiledScope*, Refusal> module_refused_;
  std::map<const workload::CompiledScope*, std::map<std::string, ir::Value>> folded_;  // import -> its one value
};

}  // namespace

ir::Expected<HwWorkload, std::string> lower_workload(const workload::Workload& w, const workload::RunOptions& run,
                                                     const HwOptions& options) {
  workload::RunOptions ro = run;
  ro.native = false;
  auto plan = workload::plan_workload(w, ro);
  if (!plan) return plan.error();
  return lower_plan(w, std::move(*plan), options);
}

ir::Expected<HwWorkload, std::string> lower_plan(const workload::Workload& w, workload::WorkloadPlan plan,
                                                 const HwOptions& options) {
  return Lowering(w, options).run(std::move(plan));
}

}  // namespace polydat::hwtop
